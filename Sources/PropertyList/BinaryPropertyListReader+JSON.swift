import JSONOutput

extension BinaryPropertyListReader {
  /// Writes object `index` and everything below it as JSON, straight from the bytes.
  ///
  /// Call it only after ``validate()`` has passed: the walk leans on those
  /// checks for its depth (so its recursion stays within the depth limit)
  /// and its size (so shared objects, written at each reference, stay within
  /// the logical limit). It still reads through the same bounds-checked
  /// helpers, so a list it was not meant for throws rather than crashes.
  /// The text is the one ``PropertyListValue/writeJSON(to:)`` gives for the
  /// tree ``read()`` returns: a repeated dictionary key keeps its first
  /// place and takes its last value. ASCII and UTF-8 strings go from the
  /// bytes to the writer without becoming `String`s.
  ///
  /// - Parameters:
  ///   - index: The object to write.
  ///   - writer: Where the JSON goes.
  /// - Throws: ``PropertyListError`` only for a list that ``validate()`` did not pass.
  mutating func writeJSON(_ index: Int, to writer: inout JSONWriter) throws(PropertyListError) {
    let start = try offset(ofObject: index)
    let marker = bytes[start]
    switch marker >> 4 {
    case 0xA:
      let (count, payload) = try readCount(Int(marker & 0x0F), after: start)
      writer.beginArray()
      for position in 0..<count {
        try writeJSON(reference(at: payload + position * referenceSize), to: &writer)
      }
      writer.endArray()
    case 0xD:
      let (count, payload) = try readCount(Int(marker & 0x0F), after: start)
      writer.beginObject()
      if try hasRepeatedKey(count: count, payload: payload) {
        for member in try dictionaryMembers(count: count, payload: payload) {
          writer.key(member.key)
          try writeJSON(member.value, to: &writer)
        }
      } else {
        for position in 0..<count {
          let keyOffset = payload + position * referenceSize
          if let utf8 = try utf8String(reference(at: keyOffset)) {
            writer.key(utf8: utf8)
          } else {
            writer.key(try keyName(reference(at: keyOffset), at: keyOffset, position: position))
          }
          try writeJSON(reference(at: keyOffset + count * referenceSize), to: &writer)
        }
      }
      writer.endObject()
    default:
      if let utf8 = try utf8String(index) {
        writer.string(utf8: utf8)
      } else {
        let (value, _) = try decodeObject(at: start, depth: 0, index: index)
        value.writeJSON(to: &writer)
      }
    }
  }

  /// The bytes of object `index` when it is an ASCII or UTF-8 string, which ``validate()`` has
  /// proved valid; `nil` for any other object, a UTF-16 string included.
  private func utf8String(_ index: Int) throws(PropertyListError) -> UnsafeBufferPointer<UInt8>? {
    let start = try offset(ofObject: index)
    let marker = bytes[start]
    guard marker >> 4 == 0x5 || marker >> 4 == 0x7 else { return nil }
    let (count, payload) = try readCount(Int(marker & 0x0F), after: start)
    try require(payload, count, at: start)
    return UnsafeRawBufferPointer(rebasing: bytes[payload..<(payload + count)])
      .assumingMemoryBound(to: UInt8.self)
  }

  /// The name of the key object `index`, or the reader's error when it is no string.
  private mutating func keyName(
    _ index: Int, at keyOffset: Int, position: Int
  ) throws(PropertyListError) -> String {
    let (key, _) = try decodeObject(at: offset(ofObject: index), depth: 0, index: index)
    guard case .string(let name) = key else {
      throw PropertyListError(
        .invalidKey, at: keyOffset,
        "dictionary key \(position) is \(key.typeNameWithArticle), not a string")
    }
    return name
  }

  /// Whether any two keys of a dictionary are equal strings, so its members need merging.
  ///
  /// Keys are compared as `String`s compare, by canonical equivalence, except
  /// that the same object, or two ASCII strings, compare by bytes. A
  /// dictionary of more than 16 keys always takes the merging path, which
  /// finds repeats through a map.
  private mutating func hasRepeatedKey(count: Int, payload: Int) throws(PropertyListError) -> Bool {
    guard count > 1 else { return false }
    guard count <= 16 else { return true }
    // Each key's object index and, for an ASCII string, its bytes: read once, compared pairwise.
    var keys: [(index: Int, ascii: UnsafeBufferPointer<UInt8>?)] = []
    keys.reserveCapacity(count)
    for position in 0..<count {
      let index = try reference(at: payload + position * referenceSize)
      keys.append((index, try asciiString(index)))
    }
    for later in 1..<count {
      for earlier in 0..<later {
        if keys[earlier].index == keys[later].index { return true }
        if let first = keys[earlier].ascii, let second = keys[later].ascii {
          if first.elementsEqual(second) { return true }
          continue
        }
        let earlierName = try keyName(
          keys[earlier].index, at: payload + earlier * referenceSize, position: earlier)
        let laterName = try keyName(
          keys[later].index, at: payload + later * referenceSize, position: later)
        if earlierName == laterName { return true }
      }
    }
    return false
  }

  /// The bytes of object `index` when it is an ASCII string; `nil` for any other object.
  private func asciiString(_ index: Int) throws(PropertyListError) -> UnsafeBufferPointer<UInt8>? {
    guard bytes[try offset(ofObject: index)] >> 4 == 0x5 else { return nil }
    return try utf8String(index)
  }

  /// A dictionary's keys, each with the index of its value, in the order ``read()`` keeps them.
  ///
  /// A key that repeats keeps the place of its first occurrence and takes the
  /// value of its last. Large dictionaries find repeats through a position
  /// map, small ones by scanning, as the reader does.
  private mutating func dictionaryMembers(
    count: Int, payload: Int
  ) throws(PropertyListError) -> [(key: String, value: Int)] {
    var members: [(key: String, value: Int)] = []
    members.reserveCapacity(count)
    var positions: [String: Int] = count > 16 ? Dictionary(minimumCapacity: count) : [:]
    for position in 0..<count {
      let keyOffset = payload + position * referenceSize
      let name = try keyName(reference(at: keyOffset), at: keyOffset, position: position)
      let value = try reference(at: keyOffset + count * referenceSize)
      let earlier = count > 16 ? positions[name] : members.firstIndex { $0.key == name }
      if let earlier {
        members[earlier].value = value
      } else {
        if count > 16 { positions[name] = members.count }
        members.append((name, value))
      }
    }
    return members
  }

  /// The object index a reference at `referenceOffset` names, checked against the object count.
  @inline(__always)
  func reference(at referenceOffset: Int) throws(PropertyListError) -> Int {
    let reference = readUnsigned(at: referenceOffset, size: referenceSize)
    guard reference < UInt64(objectCount) else {
      throw PropertyListError(
        .invalidOffset, at: referenceOffset,
        "object reference \(reference) is not below the object count \(objectCount)")
    }
    return Int(reference)
  }
}
