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
  /// - Throws: `PropertyListError` only for a list that ``validate()`` did not pass.
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
      // A dictionary of more than 16 keys always takes the merging path, which finds
      // repeats through a map; a smaller one has its keys read once and compared pairwise.
      let keys = count > 16 ? [] : try dictionaryKeys(count: count, payload: payload)
      if count > 16 || hasRepeatedKey(keys) {
        for member in try dictionaryMembers(count: count, payload: payload) {
          writer.key(member.key)
          try writeJSON(member.value, to: &writer)
        }
      } else {
        for (position, key) in keys.enumerated() {
          let keyOffset = payload + position * referenceSize
          if let utf8 = key.utf8 {
            writer.key(utf8: utf8)
          } else {
            writer.key(try keyName(key.index, at: keyOffset, position: position))
          }
          try writeJSON(reference(at: keyOffset + count * referenceSize), to: &writer)
        }
      }
      writer.endObject()
    default:
      if let utf8 = try utf8String(atObject: start) {
        writer.string(utf8: utf8)
      } else {
        let (value, _) = try decodeObject(at: start, depth: 0, index: index)
        value.writeJSON(to: &writer)
      }
    }
  }

  /// One key of a dictionary, read once for both the search for repeats and the writing.
  private struct DictionaryKey {
    /// The key object's index.
    var index: Int
    /// Its bytes when it is an ASCII or UTF-8 string; `nil` for a UTF-16 string.
    var utf8: UnsafeBufferPointer<UInt8>?
    /// Whether it is an ASCII string, whose equality is byte equality.
    var isASCII: Bool
  }

  /// The keys of a dictionary whose references start at `payload`.
  private func dictionaryKeys(count: Int, payload: Int) throws(PropertyListError)
    -> [DictionaryKey]
  {
    var keys: [DictionaryKey] = []
    keys.reserveCapacity(count)
    for position in 0..<count {
      let index = try reference(at: payload + position * referenceSize)
      let start = try offset(ofObject: index)
      keys.append(
        DictionaryKey(
          index: index, utf8: try utf8String(atObject: start), isASCII: bytes[start] >> 4 == 0x5))
    }
    return keys
  }

  /// The bytes of the object at `start` when it is an ASCII or UTF-8 string, which
  /// ``validate()`` has proved valid; `nil` for any other object, a UTF-16 string included.
  private func utf8String(atObject start: Int) throws(PropertyListError)
    -> UnsafeBufferPointer<UInt8>?
  {
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
    return try Self.keyName(key, at: keyOffset, position: position)
  }

  /// Whether any two of a small dictionary's keys are equal strings, so its members need merging.
  ///
  /// Keys compare as `String`s compare, by canonical equivalence, except that
  /// the same object, or two ASCII strings, compare by bytes. Any other pair
  /// is left to ``dictionaryMembers(count:payload:)``, which compares names:
  /// a pair that is not ASCII on both sides counts here as a possible repeat.
  private func hasRepeatedKey(_ keys: [DictionaryKey]) -> Bool {
    guard keys.count > 1 else { return false }
    for later in 1..<keys.count {
      for earlier in 0..<later {
        if keys[earlier].index == keys[later].index { return true }
        guard keys[earlier].isASCII, keys[later].isASCII,
          let first = keys[earlier].utf8, let second = keys[later].utf8
        else { return true }
        if first.elementsEqual(second) { return true }
      }
    }
    return false
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
    var places = KeyPositions(count: count)
    for position in 0..<count {
      let keyOffset = payload + position * referenceSize
      let name = try keyName(reference(at: keyOffset), at: keyOffset, position: position)
      let value = try reference(at: keyOffset + count * referenceSize)
      if let earlier = places.earlier(
        name, next: members.count, scan: { members.firstIndex { $0.key == name } })
      {
        members[earlier].value = value
      } else {
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
