/// A checked binary property list, read in place: objects are reached by index as views over the bytes.
///
/// Creating a view runs every check and limit of `PropertyListReader.read(_:)`
/// once (trailer, offset table, every reference, markers, cycles, depth,
/// string validity, string keys, repeated keys when refused, the logical
/// size) and keeps nothing but the bytes and one offset per object. After
/// that nothing is decoded until asked for: an integer or a date is read
/// from its bytes, a string stays a range of bytes until ``string(_:)``
/// makes a `String`, and data stays a range until ``data(_:)`` copies it.
///
/// ```swift
/// let view = try PropertyListReader().binaryView(bytes)
/// if let view, view.kind(of: view.top) == .dictionary {
///   let archiver = view.member(view.top, named: "$archiver").flatMap(view.string)
/// }
/// ```
///
/// Only objects that the top object reaches were checked; every accessor
/// answers `nil` (or an empty result) for any other index, and never traps.
package struct BinaryPropertyListView: Sendable {
  /// The kind of an object, as its marker says.
  package enum Kind: Hashable, Sendable {
    case bool, integer, real, date, data, string, uid, array, dictionary

    /// The name `PropertyListValue.typeName` gives a value of this kind.
    package var typeName: String {
      switch self {
      case .bool: "bool"
      case .integer: "integer"
      case .real: "real"
      case .date: "date"
      case .data: "data"
      case .string: "string"
      case .uid: "uid"
      case .array: "array"
      case .dictionary: "dictionary"
      }
    }

    /// The name with its article, as `PropertyListValue.typeNameWithArticle` gives it.
    package var typeNameWithArticle: String {
      switch self {
      case .array, .integer: "an \(typeName)"
      default: "a \(typeName)"
      }
    }
  }

  /// How a string object's bytes are encoded.
  package enum StringEncoding: Hashable, Sendable {
    /// One byte a character, each below 0x80 (marker 0x5).
    case ascii
    /// Big-endian UTF-16 (marker 0x6); the range holds two bytes a unit.
    case utf16BigEndian
    /// UTF-8 (marker 0x7).
    case utf8
  }

  /// The whole file.
  package let bytes: [UInt8]
  /// The index of the top object.
  package let top: Int
  /// Per object, the offset of its marker, or -1 for an object the top object does not reach.
  @usableFromInline let offsets: [Int]
  @usableFromInline let referenceSize: Int
  /// Where the objects end (the offset table's start).
  @usableFromInline let objectsEnd: Int

  /// Checks a binary property list whole; the caller has checked its size and magic.
  init(
    checking bytes: [UInt8], limits: PropertyListLimits, refusesRepeatedKeys: Bool
  ) throws(PropertyListError) {
    let checked: Result<(Int, [Int], Int, Int), PropertyListError> = bytes.withUnsafeBytes {
      buffer in
      do throws(PropertyListError) {
        var reader = BinaryPropertyListReader(
          bytes: buffer, limits: limits, refusesRepeatedKeys: refusesRepeatedKeys)
        let top = try reader.validate()
        let offsets = reader.takeValidatedOffsets()
        return .success((top, offsets, reader.referenceSize, reader.objectsEnd))
      } catch {
        return .failure(error)
      }
    }
    let (top, offsets, referenceSize, objectsEnd) = try checked.get()
    self.bytes = bytes
    self.top = top
    self.offsets = offsets
    self.referenceSize = referenceSize
    self.objectsEnd = objectsEnd
  }

  /// The number of objects the offset table declares.
  package var objectCount: Int { offsets.count }

  // MARK: - Reading bytes

  /// A big-endian unsigned integer of `size` bytes at `offset`, or `nil` past the objects.
  @inline(__always)
  private func unsigned(at offset: Int, size: Int) -> UInt64? {
    guard offset >= 0, size >= 0, size <= 8, size <= objectsEnd - offset else { return nil }
    if size == 1 { return UInt64(bytes[offset]) }
    if size == 2 { return UInt64(bytes[offset]) << 8 | UInt64(bytes[offset + 1]) }
    var value: UInt64 = 0
    for index in offset..<(offset + size) {
      value = value << 8 | UInt64(bytes[index])
    }
    return value
  }

  /// The offset of an object's marker, when the object was checked.
  @inlinable
  func start(_ object: Int) -> Int? {
    guard object >= 0, object < offsets.count else { return nil }
    let start = offsets[object]
    return start >= 0 && start < objectsEnd ? start : nil
  }

  /// The count after a marker and where the payload starts; `nil` when they do not fit.
  @inline(__always)
  func countAndPayload(at start: Int) -> (count: Int, payload: Int)? {
    let low = Int(bytes[start] & 0x0F)
    if low != 0x0F { return (low, start + 1) }
    guard start + 1 < objectsEnd else { return nil }
    let intMarker = bytes[start + 1]
    guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else { return nil }
    let size = 1 << Int(intMarker & 0x0F)
    guard let raw = unsigned(at: start + 2, size: size), raw <= UInt64(objectsEnd) else {
      return nil
    }
    return (Int(raw), start + 2 + size)
  }

  /// The object a reference at `referenceOffset` names, when it is in the table.
  @inline(__always)
  package func reference(at referenceOffset: Int) -> Int? {
    guard let raw = unsigned(at: referenceOffset, size: referenceSize),
      raw < UInt64(offsets.count)
    else { return nil }
    return Int(raw)
  }

  // MARK: - Objects

  /// The kind of an object, or `nil` for an index that was not checked.
  @inlinable
  package func kind(of object: Int) -> Kind? {
    guard let start = start(object) else { return nil }
    switch bytes[start] >> 4 {
    case 0x0: return .bool
    case 0x1: return .integer
    case 0x2: return .real
    case 0x3: return .date
    case 0x4: return .data
    case 0x5, 0x6, 0x7: return .string
    case 0x8: return .uid
    case 0xA: return .array
    case 0xD: return .dictionary
    default: return nil
    }
  }

  /// The number of elements of an array, members of a dictionary, bytes of data or units of a string.
  package func count(of object: Int) -> Int {
    guard let start = start(object), let (count, _) = countAndPayload(at: start) else { return 0 }
    return count
  }

  /// A bool object's value.
  package func bool(_ object: Int) -> Bool? {
    guard let start = start(object), bytes[start] >> 4 == 0x0 else { return nil }
    return bytes[start] == 0x09
  }

  /// A UID object's value.
  package func uid(_ object: Int) -> UInt64? {
    guard let start = start(object), bytes[start] >> 4 == 0x8 else { return nil }
    return unsigned(at: start + 1, size: Int(bytes[start] & 0x0F) + 1)
  }

  /// An integer object's value, as ``PropertyListValue`` holds it (`.integer` or `.unsignedInteger`).
  package func integer(_ object: Int) -> PropertyListValue? {
    guard let start = start(object), bytes[start] >> 4 == 0x1 else { return nil }
    let size = 1 << Int(bytes[start] & 0x0F)
    switch size {
    case 1, 2, 4:
      return unsigned(at: start + 1, size: size).map { .integer(Int64($0)) }
    case 8:
      return unsigned(at: start + 1, size: 8).map { .integer(Int64(bitPattern: $0)) }
    case 16:
      guard let high = unsigned(at: start + 1, size: 8), let low = unsigned(at: start + 9, size: 8)
      else { return nil }
      if high == 0 { return .integer(unsigned: low) }
      return .integer(Int64(bitPattern: low))
    default:
      return nil
    }
  }

  /// A real object's value (a single-precision one widened).
  package func real(_ object: Int) -> Double? {
    guard let start = start(object), bytes[start] >> 4 == 0x2 else { return nil }
    switch bytes[start] & 0x0F {
    case 2:
      return unsigned(at: start + 1, size: 4).map { Double(Float(bitPattern: UInt32($0))) }
    case 3:
      return unsigned(at: start + 1, size: 8).map { Double(bitPattern: $0) }
    default:
      return nil
    }
  }

  /// A date object's seconds since the reference date.
  package func date(_ object: Int) -> Double? {
    guard let start = start(object), bytes[start] == 0x33 else { return nil }
    return unsigned(at: start + 1, size: 8).map { Double(bitPattern: $0) }
  }

  /// Where a data object's bytes are in ``bytes``.
  package func dataRange(_ object: Int) -> Range<Int>? {
    guard let start = start(object), bytes[start] >> 4 == 0x4,
      let (count, payload) = countAndPayload(at: start), count <= objectsEnd - payload
    else { return nil }
    return payload..<(payload + count)
  }

  /// A data object's bytes, copied.
  package func data(_ object: Int) -> [UInt8]? {
    dataRange(object).map { Array(bytes[$0]) }
  }

  /// Where a string object's bytes are in ``bytes``, and how they are encoded.
  package func stringStorage(_ object: Int) -> (range: Range<Int>, encoding: StringEncoding)? {
    guard let start = start(object), let (count, payload) = countAndPayload(at: start) else {
      return nil
    }
    let encoding: StringEncoding
    let length: Int
    switch bytes[start] >> 4 {
    case 0x5: (encoding, length) = (.ascii, count)
    case 0x6: (encoding, length) = (.utf16BigEndian, count * 2)
    case 0x7: (encoding, length) = (.utf8, count)
    default: return nil
    }
    guard count >= 0, count <= objectsEnd, length <= objectsEnd - payload else { return nil }
    return (payload..<(payload + length), encoding)
  }

  /// A string object as a `String` (made now; the view keeps none).
  package func string(_ object: Int) -> String? {
    guard let (range, encoding) = stringStorage(object) else { return nil }
    switch encoding {
    case .ascii, .utf8:
      // Checked: ASCII bytes are below 0x80 and UTF-8 bytes valid.
      return bytes.withUnsafeBufferPointer { buffer in
        String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
      }
    case .utf16BigEndian:
      var units: [UInt16] = []
      units.reserveCapacity(range.count / 2)
      var position = range.lowerBound
      while position + 1 < range.upperBound {
        units.append(UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1]))
        position += 2
      }
      // Checked: surrogates are paired.
      return String(decoding: units, as: UTF16.self)
    }
  }

  /// Whether a string object equals `name` as `String`s compare (by canonical equivalence).
  ///
  /// An ASCII object and an ASCII name compare by bytes, with no `String` made.
  package func string(_ object: Int, equals name: String) -> Bool {
    guard let (range, encoding) = stringStorage(object) else { return false }
    if encoding == .ascii {
      var isASCII = true
      var matches = name.utf8.count == range.count
      if matches {
        var position = range.lowerBound
        for unit in name.utf8 {
          if unit >= 0x80 { isASCII = false }
          if bytes[position] != unit { matches = false }
          position += 1
        }
      } else {
        isASCII = name.utf8.allSatisfy { $0 < 0x80 }
      }
      if isASCII { return matches }
    }
    return string(object) == name
  }

  /// The object an array's element at `position` names.
  package func element(_ array: Int, at position: Int) -> Int? {
    guard let start = start(array), bytes[start] >> 4 == 0xA,
      let (count, payload) = countAndPayload(at: start), position >= 0, position < count
    else { return nil }
    return reference(at: payload + position * referenceSize)
  }

  /// The key object and value object of a dictionary's member at `position`, as the file stores them.
  ///
  /// Members are as stored: a key that repeats appears twice. ``members(of:)``
  /// merges repeats as `PropertyListReader.read(_:)` does.
  package func storedMember(_ dictionary: Int, at position: Int) -> (key: Int, value: Int)? {
    guard let start = start(dictionary), bytes[start] >> 4 == 0xD,
      let (count, payload) = countAndPayload(at: start), position >= 0, position < count,
      let key = reference(at: payload + position * referenceSize),
      let value = reference(at: payload + (count + position) * referenceSize)
    else { return nil }
    return (key, value)
  }

  /// Where a dictionary's references are: its stored member count, and the offsets of its
  /// first key reference and its first value reference (each reference is ``referenceWidth`` bytes).
  package func storedMembers(_ dictionary: Int) -> (count: Int, keys: Int, values: Int)? {
    guard let start = start(dictionary), bytes[start] >> 4 == 0xD,
      let (count, payload) = countAndPayload(at: start)
    else { return nil }
    return (count, payload, payload + count * referenceSize)
  }

  /// The width of an object reference, in bytes.
  package var referenceWidth: Int { referenceSize }

  /// The value object of a dictionary's member named `name`: the last, when the key repeats.
  package func member(_ dictionary: Int, named name: String) -> Int? {
    var found: Int?
    for position in 0..<count(of: dictionary) {
      guard let (key, value) = storedMember(dictionary, at: position) else { return found }
      if string(key, equals: name) { found = value }
    }
    return found
  }

  /// Whether a dictionary may hold a key twice, so that its members need merging.
  ///
  /// Two ASCII keys compare by bytes; any other pair counts as a possible repeat.
  package func mayRepeatKeys(_ dictionary: Int) -> Bool {
    guard let (count, keys, _) = storedMembers(dictionary) else { return false }
    guard count > 1 else { return false }
    guard count <= 16 else { return true }
    for later in 1..<count {
      guard let laterKey = reference(at: keys + later * referenceSize),
        let (laterRange, laterEncoding) = stringStorage(laterKey), laterEncoding == .ascii
      else { return true }
      for earlier in 0..<later {
        guard let earlierKey = reference(at: keys + earlier * referenceSize) else { return true }
        if earlierKey == laterKey { return true }
        guard let (earlierRange, earlierEncoding) = stringStorage(earlierKey),
          earlierEncoding == .ascii
        else { return true }
        if earlierRange.count == laterRange.count
          && bytes[earlierRange].elementsEqual(bytes[laterRange])
        {
          return true
        }
      }
    }
    return false
  }

  /// A dictionary's members as `PropertyListReader.read(_:)` keeps them: a key that repeats keeps
  /// the place of its first occurrence and takes the value of its last.
  package func members(of dictionary: Int) -> [(key: String, value: Int)] {
    let count = count(of: dictionary)
    var members: [(key: String, value: Int)] = []
    members.reserveCapacity(count)
    let merges = mayRepeatKeys(dictionary)
    var places = KeyPositions(count: merges ? count : 0)
    for position in 0..<count {
      guard let (key, value) = storedMember(dictionary, at: position), let name = string(key)
      else { break }
      if merges,
        let earlier = places.earlier(
          name, next: members.count, scan: { members.firstIndex { $0.key == name } })
      {
        members[earlier].value = value
      } else {
        members.append((name, value))
      }
    }
    return members
  }

  /// An object and everything below it as the tree `PropertyListReader.read(_:)` returns.
  ///
  /// The view was checked whole, so the tree is within the depth and the logical-size
  /// limits. Each string, data and container object is built once and shared by every
  /// reference to it (see `ValueBuilder`), so memory stays near the file's size.
  package func value(_ object: Int) -> PropertyListValue {
    var builder = ValueBuilder(view: self)
    return builder.value(object)
  }

  /// A dictionary object as the reader's ``PropertyListDictionary``, repeated keys merged.
  package func dictionary(_ object: Int) -> PropertyListDictionary {
    var builder = ValueBuilder(view: self)
    return builder.dictionary(object)
  }

  /// Builds ``PropertyListValue``s from a view, each string, data and container object once.
  ///
  /// A shared object becomes one value that every reference holds (a `String`'s,
  /// an array's storage is shared), as `PropertyListReader.read(_:)` shares it,
  /// so a list that refers to one large string many times costs its size once.
  ///
  /// ```swift
  /// var builder = BinaryPropertyListView.ValueBuilder(view: view)
  /// let top = builder.value(view.top)
  /// ```
  package struct ValueBuilder {
    /// The view values are built from.
    package let view: BinaryPropertyListView
    /// Per object, the position in `built` of its value once built, or -1; empty when the
    /// builder forgets (see ``init(view:forgets:)``).
    private var slots: [Int32]
    /// When the builder forgets: the position in `built` of each object built since it last forgot.
    private var recent: [Int: Int32] = [:]
    /// Whether ``forgetBuilt()`` lets go of what was built.
    private let forgets: Bool
    /// The values built so far: long strings, data and containers (short strings are
    /// stored inline in a `String`, so building one again costs what finding it would).
    private var built: [PropertyListValue] = []

    /// Creates a builder with nothing built yet.
    ///
    /// - Parameters:
    ///   - view: The view values are built from.
    ///   - forgets: Whether ``forgetBuilt()`` lets go of the values built so far. A builder
    ///     that forgets keeps no slot per object of the list, only a map of those built since
    ///     it last forgot: for a reader that builds one object at a time.
    package init(view: BinaryPropertyListView, forgets: Bool = false) {
      self.view = view
      self.forgets = forgets
      self.slots = forgets ? [] : [Int32](repeating: -1, count: view.objectCount)
    }

    /// Lets go of every value built so far, when the builder forgets; values handed out stay valid.
    ///
    /// A reader that builds one object at a time calls it after each, so that memory holds
    /// one object's values rather than the whole list's. A builder that does not forget
    /// keeps everything.
    package mutating func forgetBuilt() {
      guard forgets else { return }
      recent.removeAll(keepingCapacity: true)
      built.removeAll(keepingCapacity: true)
    }

    /// A string object's `String`, made once; `""` for any other object.
    package mutating func name(_ object: Int) -> String {
      if case .string(let name) = value(object) { return name }
      return ""
    }

    /// An object and everything below it, as the reader's tree holds it.
    package mutating func value(_ object: Int) -> PropertyListValue {
      guard let kind = view.kind(of: object) else { return .bool(false) }
      switch kind {
      case .string, .data, .array, .dictionary:
        let slot = forgets ? recent[object] ?? -1 : slots[object]
        if slot >= 0 { return built[Int(slot)] }
        let value: PropertyListValue
        switch kind {
        case .string:
          let string = view.string(object) ?? ""
          if string.utf8.count <= 15 { return .string(string) }
          value = .string(string)
        case .data: value = .data(view.data(object) ?? [])
        case .array:
          let count = view.count(of: object)
          var elements: [PropertyListValue] = []
          elements.reserveCapacity(count)
          for position in 0..<count {
            guard let element = view.element(object, at: position) else { break }
            elements.append(self.value(element))
          }
          value = .array(elements)
        default:
          value = .dictionary(dictionary(object))
        }
        // Fewer values than objects are built, and objects are at most 2^22 by the limits.
        if forgets {
          recent[object] = Int32(truncatingIfNeeded: built.count)
        } else {
          slots[object] = Int32(truncatingIfNeeded: built.count)
        }
        built.append(value)
        return value
      case .uid: return .uid(view.uid(object) ?? 0)
      case .bool: return .bool(view.bool(object) ?? false)
      case .integer: return view.integer(object) ?? .integer(0)
      case .real: return .real(view.real(object) ?? 0)
      case .date: return .date(view.date(object) ?? 0)
      }
    }

    /// A dictionary object's members, merged as the reader merges them: a repeated key
    /// keeps its first place and takes its last value.
    package mutating func dictionary(_ object: Int) -> PropertyListDictionary {
      let (count, keys, values) = view.storedMembers(object) ?? (0, 0, 0)
      let width = view.referenceWidth
      var dictionary = PropertyListDictionary()
      dictionary.reserveCapacity(count)
      let merges = view.mayRepeatKeys(object)
      var places = KeyPositions(count: merges ? count : 0)
      for position in 0..<count {
        guard let key = view.reference(at: keys + position * width),
          let member = view.reference(at: values + position * width)
        else { break }
        let name = name(key)
        let value = value(member)
        if merges,
          let earlier = places.earlier(
            name, next: dictionary.count,
            scan: { dictionary.entries.firstIndex { $0.key == name } })
        {
          dictionary.replaceValue(at: earlier, with: value)
        } else {
          dictionary.appendUnchecked(key: name, value: value)
        }
      }
      return dictionary
    }
  }
}

extension PropertyListReader {
  /// Checks a binary property list whole and returns it as a view over its bytes.
  ///
  /// The checks, limits and errors are those of ``read(_:)``; nothing is built.
  ///
  /// ```swift
  /// guard let view = try PropertyListReader().binaryView(bytes) else { return }  // XML
  /// let topKind = view.kind(of: view.top)
  /// ```
  ///
  /// - Parameter bytes: The whole file.
  /// - Returns: The view, or `nil` when the bytes are not a binary property list.
  /// - Throws: `PropertyListError`, as ``read(_:)`` throws it.
  package func binaryView(_ bytes: [UInt8]) throws(PropertyListError) -> BinaryPropertyListView? {
    guard bytes.count <= limits.maximumInputSize else {
      throw PropertyListError(
        .limitExceeded, at: 0,
        "input of \(bytes.count) bytes exceeds the limit of \(limits.maximumInputSize) bytes")
    }
    let isBinary = bytes.withUnsafeBytes { BinaryPropertyListReader.hasMagic($0) }
    guard isBinary else { return nil }
    return try BinaryPropertyListView(
      checking: bytes, limits: limits, refusesRepeatedKeys: refusesRepeatedKeys)
  }
}
