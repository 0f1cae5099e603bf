/// Rewriting a checked binary property list at the byte level: some string objects replaced,
/// some appended, some references pointed elsewhere, every other object copied as it is.
extension BinaryPropertyListView {
  /// Changes to make to a checked list's objects; see `BinaryPropertyListView.rewritten(_:)`.
  ///
  /// ```swift
  /// var edit = BinaryPropertyListView.Edit()
  /// edit.strings.append((5, "ProfileKit.Address"))  // object 5 becomes this string
  /// let bytes = view.rewritten(edit)
  /// ```
  package struct Edit: Sendable {
    /// Objects to write as new string objects in their place: the object and its new string.
    package var strings: [(object: Int, string: String)] = []
    /// String objects to add after the last object, in order: the first becomes object
    /// `BinaryPropertyListView.objectCount`, the next one after it.
    package var appended: [String] = []
    /// References to point at another object: the container holding the reference, the offset
    /// of the reference in the list's bytes, and the object it is to name.
    package var references: [(container: Int, offset: Int, object: Int)] = []

    /// Creates an empty edit.
    package init() {}
  }

  /// Where an object's bytes are in ``bytes``, its marker first; `nil` for an index that was
  /// not checked, or an object that does not fit before the offset table.
  package func extent(_ object: Int) -> Range<Int>? {
    guard let start = start(object) else { return nil }
    let marker = bytes[start]
    let low = Int(marker & 0x0F)
    let length: Int
    switch marker >> 4 {
    case 0x0: length = 1
    case 0x1, 0x2:
      guard low <= 4 else { return nil }
      length = 1 + (1 << low)
    case 0x3: length = 9
    case 0x8: length = 2 + low
    case 0x4, 0x5, 0x6, 0x7, 0xA, 0xD:
      guard let (count, payload) = countAndPayload(at: start), payload <= objectsEnd else {
        return nil
      }
      let unit: Int
      switch marker >> 4 {
      case 0x6: unit = 2
      case 0xA: unit = referenceSize
      case 0xD: unit = 2 * referenceSize
      default: unit = 1
      }
      guard count >= 0, count <= (objectsEnd - payload) / unit else { return nil }
      return start..<(payload + count * unit)
    default:
      return nil
    }
    guard length <= objectsEnd - start else { return nil }
    return start..<(start + length)
  }

  /// Where an array's references are: its element count and the offset of its first reference
  /// (each reference is ``referenceWidth`` bytes).
  package func storedElements(_ array: Int) -> (count: Int, references: Int)? {
    guard let start = start(array), bytes[start] >> 4 == 0xA,
      let (count, payload) = countAndPayload(at: start)
    else { return nil }
    return (count, payload)
  }

  /// Per object, how many references name it: one for the top object from the trailer, and one
  /// for each reference of every checked array and dictionary (keys and values alike).
  package func referenceCounts() -> [Int] {
    var counts = [Int](repeating: 0, count: objectCount)
    if top >= 0, top < counts.count { counts[top] += 1 }
    for object in 0..<objectCount {
      guard let start = start(object) else { continue }
      let kind = bytes[start] >> 4
      guard kind == 0xA || kind == 0xD, let (count, payload) = countAndPayload(at: start) else {
        continue
      }
      let total = kind == 0xD ? 2 * count : count
      for position in 0..<total {
        guard let child = reference(at: payload + position * referenceSize) else { break }
        counts[child] += 1
      }
    }
    return counts
  }

  /// The list with `edit` applied, objects in index order, a new offset table and trailer; `nil`
  /// when it cannot be written so.
  ///
  /// Every object not named by the edit is copied byte for byte: references are indices into
  /// the offset table, so moving objects changes none of them. The offset table's entries take
  /// the width the new length needs; the reference width stays. `nil` when an object was not
  /// checked (the top object does not reach it), when the appended objects would outgrow the
  /// reference width, or when a reference to change is not inside its container.
  ///
  /// ```swift
  /// var edit = BinaryPropertyListView.Edit()
  /// edit.strings.append((5, "ProfileKit.Address"))
  /// guard let bytes = view.rewritten(edit) else { return }  // not possible: write it otherwise
  /// ```
  package func rewritten(_ edit: Edit) -> [UInt8]? {
    let count = objectCount + edit.appended.count
    // Fewer objects than the reference width can count, as CoreFoundation's reader requires
    // (CFBinaryPList.c refuses a count of 2^(8 * width) or more), not merely indices that fit.
    guard referenceSize >= 8 || UInt64(count) < UInt64(1) << UInt64(8 * referenceSize) else {
      return nil
    }
    // Per object: 0 to copy, 1 to patch, -(position + 1) in edit.strings to write anew.
    var changes = [Int32](repeating: 0, count: objectCount)
    for (position, replacement) in edit.strings.enumerated() {
      guard replacement.object >= 0, replacement.object < objectCount,
        changes[replacement.object] == 0
      else { return nil }
      changes[replacement.object] = -Int32(truncatingIfNeeded: position + 1)
    }
    for patch in edit.references {
      guard patch.container >= 0, patch.container < objectCount, patch.object >= 0,
        patch.object < count, changes[patch.container] >= 0,
        let extent = extent(patch.container)
      else { return nil }
      let kind = bytes[extent.lowerBound] >> 4
      guard kind == 0xA || kind == 0xD,
        let (_, payload) = countAndPayload(at: extent.lowerBound),
        patch.offset >= payload, (patch.offset - payload) % referenceSize == 0,
        patch.offset <= extent.upperBound - referenceSize
      else { return nil }
      changes[patch.container] = 1
    }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 16 * (edit.strings.count + edit.appended.count))
    output.append(contentsOf: "bplist00".utf8)
    var offsets: [Int] = []
    offsets.reserveCapacity(count)
    // Objects that lie one after the other in the file are copied as one run.
    var run = 0..<0
    for object in 0..<objectCount {
      let change = changes[object]
      if change < 0 {
        output.append(contentsOf: bytes[run])
        run = 0..<0
        offsets.append(output.count)
        let string = edit.strings[Int(-change) - 1].string
        BinaryPropertyListWriter.appendString(
          string, isASCII: string.utf8.allSatisfy { $0 < 0x80 }, to: &output)
        continue
      }
      guard let extent = extent(object) else { return nil }
      if change == 0, run.upperBound == extent.lowerBound, !run.isEmpty {
        offsets.append(output.count + run.count)
        run = run.lowerBound..<extent.upperBound
        continue
      }
      output.append(contentsOf: bytes[run])
      offsets.append(output.count)
      guard change == 1 else {
        run = extent
        continue
      }
      run = 0..<0
      let start = output.count
      output.append(contentsOf: bytes[extent])
      for patch in edit.references where patch.container == object {
        var value = UInt64(patch.object)
        var position = start + (patch.offset - extent.lowerBound) + referenceSize - 1
        for _ in 0..<referenceSize {
          output[position] = UInt8(truncatingIfNeeded: value)
          value >>= 8
          position -= 1
        }
      }
    }
    output.append(contentsOf: bytes[run])
    for string in edit.appended {
      offsets.append(output.count)
      BinaryPropertyListWriter.appendString(
        string, isASCII: string.utf8.allSatisfy { $0 < 0x80 }, to: &output)
    }
    BinaryPropertyListWriter.appendOffsetTableAndTrailer(
      offsets, referenceSize: referenceSize, top: top, to: &output)
    return output
  }
}

extension BinaryPropertyListView {
  /// The first object, not marked in `skipping`, whose bytes differ in `other`, or that either
  /// list does not hold; `nil` when every other object is the same bytes in both.
  ///
  /// ```swift
  /// if let changed = view.firstDifferentObject(in: rewritten, skipping: []) { print(changed) }
  /// ```
  package func firstDifferentObject(in other: BinaryPropertyListView, skipping: [Bool]) -> Int? {
    bytes.withUnsafeBufferPointer { mine in
      other.bytes.withUnsafeBufferPointer { theirs in
        for object in 0..<objectCount where object >= skipping.count || !skipping[object] {
          // The same bytes from the other object's start: then its marker and count are the
          // same too, and so its extent.
          guard let left = extent(object), let right = other.start(object),
            left.count <= other.objectsEnd - right
          else { return object }
          let shift = right - left.lowerBound
          for index in left where mine[index] != theirs[index + shift] {
            return object
          }
        }
        return nil
      }
    }
  }
}
