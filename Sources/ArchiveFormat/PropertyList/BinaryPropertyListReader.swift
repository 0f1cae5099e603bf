/// Reads `bplist00` binary property lists, bounds-checking every byte it touches.
///
/// Objects are decoded once each and memoised, so an object that many
/// containers share costs its size once. Shared references still make the
/// logical tree larger than the file; that logical size is counted and bounded
/// by `PropertyListLimits.maximumObjectCount`, so no later walk of the tree
/// can be made exponential by the input. A shared object is also as deep as
/// its deepest reference: each object's height is kept, and a reference that
/// would put a shared subtree below `PropertyListLimits.maximumDepth` is
/// refused, so the tree, and everything that walks or frees it, stays within
/// the depth limit.
struct BinaryPropertyListReader: ~Copyable {
  let bytes: UnsafeRawBufferPointer
  private let limits: PropertyListLimits
  /// Whether a dictionary that repeats a key is an error rather than keeping the last value.
  private let refusesRepeatedKeys: Bool
  private var offsetTable: (start: Int, entrySize: Int) = (0, 1)
  private(set) var objectCount = 0
  private(set) var referenceSize = 1
  private(set) var objectsEnd = 0
  /// Whether objects are kept as values (``read()``), or only checked (``validate()``).
  private var keepsValues = true
  /// Per object while values are kept: nil until read; the memoised value after.
  private var cache: [PropertyListValue?] = []
  /// Per object: 0 until read, -1 while it is being read, then its logical node count (at least 1).
  private var logicalSize: [Int] = []
  /// Per object once read: the levels below it (0 for a scalar or an empty container).
  private var height: [Int32] = []
  /// The most logical values the tree may hold: the object limit, and never more than the file has bytes.
  private var logicalLimit = 0

  private static let trailerSize = 32
  private static let magic: [UInt8] = Array("bplist00".utf8)

  init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits, refusesRepeatedKeys: Bool = false)
  {
    self.bytes = bytes
    self.limits = limits
    self.refusesRepeatedKeys = refusesRepeatedKeys
  }

  /// Whether the bytes start with the binary property list magic.
  static func hasMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count >= 8 else { return false }
    for index in 0..<6 where bytes[index] != magic[index] {
      return false
    }
    return true
  }

  /// Reads the whole list into a tree of values, each shared object once.
  mutating func read() throws(PropertyListError) -> PropertyListValue {
    let (top, origin) = try readTrailer()
    keepsValues = true
    cache = Array(repeating: nil, count: objectCount)
    return try readObject(top, depth: 0, referencedFrom: origin)
  }

  /// Checks the whole list with every check and limit of ``read()``, keeping no values.
  ///
  /// - Returns: The index of the top object, for a walk such as ``writeJSON(_:to:)``.
  mutating func validate() throws(PropertyListError) -> Int {
    let (top, origin) = try readTrailer()
    keepsValues = false
    cache = []
    try checkObject(top, depth: 0, referencedFrom: origin)
    keepsValues = true
    return top
  }

  // MARK: - Checking without values

  /// Checks object `index` and everything below it as ``readObject(_:depth:referencedFrom:)``
  /// reads it, with the same checks in the same order, returning nothing.
  ///
  /// Containers are walked by functions of their own that build no values; scalars go
  /// through ``decodeScalar(at:)``, which keeps nothing while `keepsValues` is false.
  private mutating func checkObject(
    _ index: Int, depth: Int, referencedFrom origin: Int
  ) throws(PropertyListError) {
    if logicalSize[index] > 0 {
      // A shared object checked before, at a shallower place, must fit here too.
      try checkDepth(depth + Int(height[index]), at: origin)
      return
    }
    if logicalSize[index] < 0 {
      throw PropertyListError(
        .cyclicReference, at: origin, "object \(index) contains itself")
    }
    try checkDepth(depth, at: origin)
    logicalSize[index] = -1
    let start = try offset(ofObject: index)
    let size: Int
    switch bytes[start] >> 4 {
    case 0xA: size = try checkArray(at: start, depth: depth, index: index)
    case 0xD: size = try checkDictionary(at: start, depth: depth, index: index)
    default:
      _ = try decodeScalar(at: start)
      size = 1
    }
    logicalSize[index] = size
  }

  /// Checks the object a container's reference at `referenceOffset` names, one level below it,
  /// raising the container's height; returns the object's index.
  @inline(__always)
  private mutating func checkChild(
    at referenceOffset: Int, depth: Int, parent: Int
  ) throws(PropertyListError) -> Int {
    let index = try reference(at: referenceOffset)
    try checkObject(index, depth: depth + 1, referencedFrom: referenceOffset)
    height[parent] = max(height[parent], height[index] + 1)
    return index
  }

  /// Checks an array object as ``decodeArray(at:depth:index:)`` reads it; returns its logical size.
  private mutating func checkArray(
    at start: Int, depth: Int, index: Int
  ) throws(PropertyListError) -> Int {
    let (count, payload) = try readCount(Int(bytes[start] & 0x0F), after: start)
    try checkContainerCount(count, at: start)
    try require(payload, count * referenceSize, at: start)
    var size = 1
    for position in 0..<count {
      let element = try checkChild(
        at: payload + position * referenceSize, depth: depth, parent: index)
      size = try addLogicalSize(size, logicalSize[element], at: start)
    }
    return size
  }

  /// Checks a dictionary object as ``decodeDictionary(at:depth:index:)`` reads it; returns its
  /// logical size.
  private mutating func checkDictionary(
    at start: Int, depth: Int, index: Int
  ) throws(PropertyListError) -> Int {
    let (count, payload) = try readCount(Int(bytes[start] & 0x0F), after: start)
    try checkContainerCount(count, at: start)
    try require(payload, 2 * count * referenceSize, at: start)
    var size = 1
    // The names seen so far, kept only when repeated keys are refused.
    var checkedNames: Set<String> = []
    var smallNames: [String] = []
    for position in 0..<count {
      let keyOffset = payload + position * referenceSize
      let key = try checkChild(at: keyOffset, depth: depth, parent: index)
      let keyStart = try offset(ofObject: key)
      if !(0x5...0x7).contains(bytes[keyStart] >> 4) {
        _ = try Self.keyName(placeholder(forObjectAt: keyStart), at: keyOffset, position: position)
      }
      let value = try checkChild(
        at: keyOffset + count * referenceSize, depth: depth, parent: index)
      if refusesRepeatedKeys {
        let keyName = try checkedKeyName(at: keyOffset)
        if count > 16 {
          guard checkedNames.insert(keyName).inserted else {
            throw Self.repeatedKey(keyName, at: keyOffset)
          }
        } else {
          if smallNames.contains(keyName) { throw Self.repeatedKey(keyName, at: keyOffset) }
          smallNames.append(keyName)
        }
      }
      size = try addLogicalSize(size, logicalSize[value] + 1, at: start)
    }
    return size
  }

  /// Checks the header and trailer and sets up the object tables.
  ///
  /// - Returns: The top object's index and the trailer offset that names it.
  private mutating func readTrailer() throws(PropertyListError) -> (top: Int, origin: Int) {
    let count = bytes.count
    guard count >= 8 + Self.trailerSize else {
      throw PropertyListError(
        .truncated, at: count,
        "binary property list of \(count) bytes is shorter than its header and trailer (40 bytes)")
    }
    guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
      throw PropertyListError(
        .unsupported, at: 6,
        "binary property list version '\(Character(UnicodeScalar(bytes[6])))\(Character(UnicodeScalar(bytes[7])))' is not supported (only 00)"
      )
    }
    let trailer = count - Self.trailerSize
    let offsetSize = Int(bytes[trailer + 6])
    let referenceSize = Int(bytes[trailer + 7])
    let declaredObjects = readUnsigned(at: trailer + 8, size: 8)
    let declaredTop = readUnsigned(at: trailer + 16, size: 8)
    let declaredTable = readUnsigned(at: trailer + 24, size: 8)

    guard (1...8).contains(offsetSize) else {
      throw PropertyListError(
        .invalidTrailer, at: trailer + 6, "offset size \(offsetSize) is not between 1 and 8")
    }
    guard (1...8).contains(referenceSize) else {
      throw PropertyListError(
        .invalidTrailer, at: trailer + 7,
        "object reference size \(referenceSize) is not between 1 and 8")
    }
    guard declaredObjects >= 1 else {
      throw PropertyListError(.invalidTrailer, at: trailer + 8, "object count is 0")
    }
    guard declaredObjects <= UInt64(limits.maximumObjectCount) else {
      throw PropertyListError(
        .limitExceeded, at: trailer + 8,
        "object count \(declaredObjects) exceeds the limit of \(limits.maximumObjectCount) objects")
    }
    guard declaredTable >= 8, declaredTable < UInt64(trailer) else {
      throw PropertyListError(
        .invalidTrailer, at: trailer + 24,
        "offset table at \(declaredTable) is outside the file (objects end before byte \(trailer))")
    }
    let table = Int(declaredTable)
    let objects = Int(declaredObjects)
    // Both factors are bounded (<= 2^22 and <= 8), so the product cannot overflow.
    guard objects * offsetSize <= trailer - table else {
      throw PropertyListError(
        .invalidTrailer, at: trailer + 8,
        "object count \(objects) needs an offset table of \(objects * offsetSize) bytes, but only \(trailer - table) bytes lie between it and the trailer"
      )
    }
    guard declaredTop < declaredObjects else {
      throw PropertyListError(
        .invalidTrailer, at: trailer + 16,
        "top object \(declaredTop) is not below the object count \(objects)")
    }
    // CoreFoundation refuses a count of 2^(8 * size) or more, though index 2^(8 * size) - 1
    // would fit: a list Apple's reader refuses is refused here too.
    if referenceSize < 8 && UInt64(objects) >= (UInt64(1) << UInt64(referenceSize * 8)) {
      throw PropertyListError(
        .invalidTrailer, at: trailer + 7,
        "object reference size \(referenceSize) cannot address \(objects) objects "
          + "(Apple's reader needs fewer than \(UInt64(1) << UInt64(referenceSize * 8)))")
    }

    self.offsetTable = (table, offsetSize)
    self.objectCount = objects
    self.referenceSize = referenceSize
    self.objectsEnd = table
    self.logicalSize = Array(repeating: 0, count: objects)
    self.height = Array(repeating: 0, count: objects)
    // Without shared containers every value but the top one costs a reference
    // of at least one byte, so a real list never holds more values than bytes.
    // Only containers shared on purpose can, and then everything that walks the
    // tree would cost more than the file's size.
    self.logicalLimit = min(limits.maximumObjectCount, count)
    return (Int(declaredTop), trailer + 16)
  }

  // MARK: - Objects

  /// Reads a big-endian unsigned integer of `size` bytes; callers have checked the range.
  ///
  /// The common widths load in one unaligned read instead of a byte loop.
  @inline(__always)
  func readUnsigned(at offset: Int, size: Int) -> UInt64 {
    switch size {
    case 1:
      return UInt64(bytes[offset])
    case 2:
      return UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    case 4:
      return UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    case 8:
      return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    default:
      var value: UInt64 = 0
      for index in offset..<(offset + size) {
        value = value << 8 | UInt64(bytes[index])
      }
      return value
    }
  }

  @inline(__always)
  func offset(ofObject index: Int) throws(PropertyListError) -> Int {
    let entry = offsetTable.start + index * offsetTable.entrySize
    let offset = readUnsigned(at: entry, size: offsetTable.entrySize)
    guard offset >= 8, offset < UInt64(objectsEnd) else {
      throw PropertyListError(
        .invalidOffset, at: entry,
        "offset table entry \(index) points to byte \(offset), outside the objects (8..<\(objectsEnd))"
      )
    }
    return Int(offset)
  }

  private mutating func readObject(
    _ index: Int, depth: Int, referencedFrom origin: Int
  ) throws(PropertyListError) -> PropertyListValue {
    if logicalSize[index] > 0 {
      // A shared object read before, at a shallower place, must fit here too.
      try checkDepth(depth + Int(height[index]), at: origin)
      if keepsValues, let cached = cache[index] { return cached }
      return try placeholder(forObjectAt: offset(ofObject: index))
    }
    if logicalSize[index] < 0 {
      throw PropertyListError(
        .cyclicReference, at: origin, "object \(index) contains itself")
    }
    try checkDepth(depth, at: origin)
    logicalSize[index] = -1
    let start = try offset(ofObject: index)
    let (value, size) = try decodeObject(at: start, depth: depth, index: index)
    if keepsValues { cache[index] = value }
    logicalSize[index] = size
    return value
  }

  /// A value of the kind of the object at `start`, for a check that looks at kinds only.
  ///
  /// ``validate()`` keeps no values; a dictionary key read before is checked by its kind.
  private func placeholder(forObjectAt start: Int) -> PropertyListValue {
    switch bytes[start] >> 4 {
    case 0x0: .bool(false)
    case 0x1: .integer(0)
    case 0x2: .real(0)
    case 0x3: .date(0)
    case 0x4: .data([])
    case 0x5, 0x6, 0x7: .string("")
    case 0x8: .uid(0)
    case 0xA: .array([])
    default: .dictionary(PropertyListDictionary())
    }
  }

  private func checkDepth(_ depth: Int, at origin: Int) throws(PropertyListError) {
    guard depth <= limits.maximumDepth else {
      throw PropertyListError(
        .limitExceeded, at: origin,
        "nesting deeper than the limit of \(limits.maximumDepth) levels")
    }
  }

  /// Decodes object `index`, which starts at `start`, returning it with its logical node count.
  ///
  /// A container records its height in `height[index]` as its children are read.
  /// Containers and scalars are decoded in functions of their own, so that the
  /// frames a nested container keeps on the stack stay small, in debug builds too.
  mutating func decodeObject(
    at start: Int, depth: Int, index: Int
  ) throws(PropertyListError) -> (PropertyListValue, Int) {
    switch bytes[start] >> 4 {
    case 0xA: return try decodeArray(at: start, depth: depth, index: index)
    case 0xD: return try decodeDictionary(at: start, depth: depth, index: index)
    default: return (try decodeScalar(at: start), 1)
    }
  }

  /// Decodes an array object: its elements, and its logical node count.
  private mutating func decodeArray(
    at start: Int, depth: Int, index: Int
  ) throws(PropertyListError) -> (PropertyListValue, Int) {
    let low = Int(bytes[start] & 0x0F)
    let (count, payload) = try readCount(low, after: start)
    try checkContainerCount(count, at: start)
    try require(payload, count * referenceSize, at: start)
    var elements: [PropertyListValue] = []
    if keepsValues { elements.reserveCapacity(count) }
    var size = 1
    for position in 0..<count {
      let referenceOffset = payload + position * referenceSize
      let (element, elementSize) = try child(at: referenceOffset, depth: depth, parent: index)
      if keepsValues { elements.append(element) }
      size = try addLogicalSize(size, elementSize, at: start)
    }
    return (.array(elements), size)
  }

  /// Decodes a dictionary object: its members, and its logical node count.
  private mutating func decodeDictionary(
    at start: Int, depth: Int, index: Int
  ) throws(PropertyListError) -> (PropertyListValue, Int) {
    let low = Int(bytes[start] & 0x0F)
    let (count, payload) = try readCount(low, after: start)
    try checkContainerCount(count, at: start)
    try require(payload, 2 * count * referenceSize, at: start)
    var dictionary = PropertyListDictionary()
    if keepsValues { dictionary.reserveCapacity(count) }
    var size = 1
    var places = KeyPositions(count: keepsValues ? count : 0)
    for position in 0..<count {
      let keyOffset = payload + position * referenceSize
      let (key, _) = try child(at: keyOffset, depth: depth, parent: index)
      let name = try Self.keyName(key, at: keyOffset, position: position)
      let (value, valueSize) = try child(
        at: keyOffset + count * referenceSize, depth: depth, parent: index)
      // Without values nothing is built (``validate()`` checks repeated keys in
      // ``checkDictionary``).
      if keepsValues {
        if let earlier = places.earlier(
          name, next: dictionary.count, scan: { dictionary.entries.firstIndex { $0.key == name } })
        {
          if refusesRepeatedKeys { throw Self.repeatedKey(name, at: keyOffset) }
          dictionary.replaceValue(at: earlier, with: value)
        } else {
          dictionary.appendUnchecked(key: name, value: value)
        }
      }
      size = try addLogicalSize(size, valueSize + 1, at: start)
    }
    return (.dictionary(dictionary), size)
  }

  /// The name of the key a dictionary's reference at `keyOffset` names, which has been read.
  ///
  /// Used by ``validate()`` when it refuses repeated keys: it keeps no values,
  /// so the name is decoded again from the bytes.
  private func checkedKeyName(at keyOffset: Int) throws(PropertyListError) -> String {
    let start = try offset(ofObject: reference(at: keyOffset))
    let marker = bytes[start]
    let (count, payload) = try readCount(Int(marker & 0x0F), after: start)
    switch marker >> 4 {
    case 0x5, 0x7:
      try require(payload, count, at: start)
      return String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes[payload..<(payload + count)]),
        as: UTF8.self)
    case 0x6:
      try require(payload, count * 2, at: start)
      return try decodeUTF16(at: payload, units: count, markerAt: start, building: true)
    default:
      // The key was checked to be a string before its name is asked for.
      return ""
    }
  }

  /// Per object, the offset of its marker once ``validate()`` has passed, or -1 for an
  /// object that no reference from the top object reaches (and that was never checked).
  ///
  /// The offsets take the place of the checking state, which they are made from in place:
  /// a view's offsets cost no second array of one `Int` per object while it is made. The
  /// reader checks nothing more afterwards.
  mutating func takeValidatedOffsets() -> [Int] {
    height = []
    var offsets: [Int] = []
    swap(&offsets, &logicalSize)
    let checked = offsets.count
    if checked < objectCount {
      offsets.append(contentsOf: repeatElement(0, count: objectCount - checked))
    }
    for index in 0..<objectCount {
      guard index < checked, offsets[index] > 0 else {
        offsets[index] = -1
        continue
      }
      let entry = offsetTable.start + index * offsetTable.entrySize
      offsets[index] = Int(truncatingIfNeeded: readUnsigned(at: entry, size: offsetTable.entrySize))
    }
    return offsets
  }

  /// The error for a dictionary key that repeats an earlier one (`String` equality, so
  /// canonically equivalent spellings are one key).
  static func repeatedKey(_ name: String, at keyOffset: Int) -> PropertyListError {
    PropertyListError(
      .repeatedKey, at: keyOffset,
      "the dictionary holds the key '\(name.prefix(80))' twice (or two canonically equal spellings "
        + "of it), so one of its values would be lost")
  }

  /// The name a dictionary key holds, or the error for a key that is no string.
  ///
  /// - Parameters:
  ///   - key: The key object's value.
  ///   - keyOffset: Where the dictionary's reference to it is, for the error.
  ///   - position: The key's position in the dictionary, for the error.
  /// - Returns: The key's name.
  /// - Throws: `PropertyListError` `.invalidKey` when the key is not a string.
  @inline(__always)
  static func keyName(
    _ key: PropertyListValue, at keyOffset: Int, position: Int
  ) throws(PropertyListError) -> String {
    guard case .string(let name) = key else {
      throw PropertyListError(
        .invalidKey, at: keyOffset,
        "dictionary key \(position) is \(key.typeNameWithArticle), not a string")
    }
    return name
  }

  /// Decodes any object but a container, or refuses its marker.
  private func decodeScalar(at start: Int) throws(PropertyListError) -> PropertyListValue {
    let marker = bytes[start]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return .bool(false)
      case 0x09: return .bool(true)
      default:
        throw PropertyListError(
          .unsupported, at: start,
          "marker 0x\(Hex.digits(marker, uppercase: true)) (null or fill) is not supported")
      }
    case 0x1:
      guard low <= 4 else {
        throw PropertyListError(
          .invalidMarker, at: start, "integer of \(1 << low) bytes is not supported")
      }
      return try readInteger(at: start + 1, size: 1 << low, markerAt: start)
    case 0x2:
      let size = 1 << low
      try require(start + 1, size, at: start)
      switch size {
      case 4:
        return .real(Double(Float(bitPattern: UInt32(readUnsigned(at: start + 1, size: 4)))))
      case 8:
        return .real(Double(bitPattern: readUnsigned(at: start + 1, size: 8)))
      default:
        throw PropertyListError(.invalidMarker, at: start, "real of \(size) bytes is not supported")
      }
    case 0x3:
      guard marker == 0x33 else {
        throw PropertyListError(
          .invalidMarker, at: start,
          "date marker 0x\(Hex.digits(marker, uppercase: true)) is not 0x33")
      }
      try require(start + 1, 8, at: start)
      return .date(Double(bitPattern: readUnsigned(at: start + 1, size: 8)))
    case 0x4:
      let (count, payload) = try readCount(low, after: start)
      try require(payload, count, at: start)
      return .data(keepsValues ? Array(bytes[payload..<(payload + count)]) : [])
    case 0x5:
      let (count, payload) = try readCount(low, after: start)
      try checkStringLength(count, at: start)
      try require(payload, count, at: start)
      let slice = UnsafeRawBufferPointer(rebasing: bytes[payload..<(payload + count)])
      for byte in slice where byte >= 0x80 {
        throw PropertyListError(
          .invalidString, at: start,
          "ASCII string holds the non-ASCII byte 0x\(Hex.digits(byte, uppercase: true))")
      }
      // Checking needs the kind only; a key's name is compared when values are kept.
      return .string(keepsValues ? String(decoding: slice, as: UTF8.self) : "")
    case 0x6:
      let (count, payload) = try readCount(low, after: start)
      try checkStringLength(count, at: start)
      // count <= maximumStringLength, so doubling cannot overflow.
      try require(payload, count * 2, at: start)
      return .string(
        try decodeUTF16(at: payload, units: count, markerAt: start, building: keepsValues))
    case 0x7:
      let (count, payload) = try readCount(low, after: start)
      try checkStringLength(count, at: start)
      try require(payload, count, at: start)
      let slice = UnsafeRawBufferPointer(rebasing: bytes[payload..<(payload + count)])
      guard let string = String(validUTF8: slice) else {
        throw PropertyListError(.invalidString, at: start, "UTF-8 string is not valid UTF-8")
      }
      return .string(string)
    case 0x8:
      let size = low + 1
      guard size <= 8 else {
        throw PropertyListError(.invalidMarker, at: start, "UID of \(size) bytes is not supported")
      }
      try require(start + 1, size, at: start)
      return .uid(readUnsigned(at: start + 1, size: size))
    case 0xB, 0xC:
      throw PropertyListError(
        .unsupported, at: start,
        "marker 0x\(Hex.digits(marker, uppercase: true)) (ordered set or set) is not supported")
    default:
      throw PropertyListError(
        .invalidMarker, at: start, "unknown object marker 0x\(Hex.digits(marker, uppercase: true))")
    }
  }

  /// Reads the object a container's reference at `referenceOffset` names, one level below it.
  ///
  /// Raises the height of `parent`, the container, to cover the child's.
  private mutating func child(
    at referenceOffset: Int, depth: Int, parent: Int
  ) throws(PropertyListError) -> (PropertyListValue, Int) {
    let index = try reference(at: referenceOffset)
    let value = try readObject(index, depth: depth + 1, referencedFrom: referenceOffset)
    // Heights never exceed the depth limit, so they fit in 32 bits.
    height[parent] = max(height[parent], height[index] + 1)
    return (value, logicalSize[index])
  }

  private func addLogicalSize(_ total: Int, _ part: Int, at offset: Int) throws(PropertyListError)
    -> Int
  {
    let sum = total + part
    guard sum <= logicalLimit else {
      throw PropertyListError(
        .limitExceeded, at: offset,
        logicalLimit < limits.maximumObjectCount
          ? "shared references expand to more values than the file has bytes (\(logicalLimit))"
          : "shared references expand to more than the limit of \(limits.maximumObjectCount) values"
      )
    }
    return sum
  }

  private func readInteger(
    at offset: Int, size: Int, markerAt marker: Int
  ) throws(PropertyListError) -> PropertyListValue {
    try require(offset, size, at: marker)
    switch size {
    case 1, 2, 4:
      return .integer(Int64(readUnsigned(at: offset, size: size)))
    case 8:
      return .integer(Int64(bitPattern: readUnsigned(at: offset, size: 8)))
    default:
      let high = readUnsigned(at: offset, size: 8)
      let low = readUnsigned(at: offset + 8, size: 8)
      if high == 0 {
        return .integer(unsigned: low)
      }
      if high == UInt64.max, Int64(bitPattern: low) < 0 {
        return .integer(Int64(bitPattern: low))
      }
      throw PropertyListError(
        .invalidNumber, at: marker, "128-bit integer does not fit in 64 bits")
    }
  }

  /// Reads the count that follows a marker: the low nibble, or an integer object when it is 0xF.
  @inline(__always)
  func readCount(_ low: Int, after marker: Int) throws(PropertyListError) -> (Int, Int) {
    if low != 0x0F {
      return (low, marker + 1)
    }
    try require(marker + 1, 1, at: marker)
    let intMarker = bytes[marker + 1]
    guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
      throw PropertyListError(
        .invalidMarker, at: marker + 1,
        "count marker 0x\(Hex.digits(intMarker, uppercase: true)) is not an integer of up to 8 bytes"
      )
    }
    let size = 1 << Int(intMarker & 0x0F)
    try require(marker + 2, size, at: marker)
    let raw = readUnsigned(at: marker + 2, size: size)
    guard raw <= UInt64(objectsEnd) else {
      throw PropertyListError(
        .truncated, at: marker,
        "declared count \(Int64(bitPattern: raw)) is larger than the file")
    }
    return (Int(raw), marker + 2 + size)
  }

  func require(_ offset: Int, _ length: Int, at marker: Int) throws(PropertyListError) {
    guard length >= 0, length <= objectsEnd - offset else {
      throw PropertyListError(
        .truncated, at: marker,
        "object needs \(length) bytes at offset \(offset), past the end of the objects (\(objectsEnd))"
      )
    }
  }

  private func checkStringLength(_ count: Int, at offset: Int) throws(PropertyListError) {
    guard count <= limits.maximumStringLength else {
      throw PropertyListError(
        .limitExceeded, at: offset,
        "string of \(count) units exceeds the limit of \(limits.maximumStringLength)")
    }
  }

  private func checkContainerCount(_ count: Int, at offset: Int) throws(PropertyListError) {
    guard count <= limits.maximumContainerCount else {
      throw PropertyListError(
        .limitExceeded, at: offset,
        "container of \(count) elements exceeds the limit of \(limits.maximumContainerCount)")
    }
  }

  /// Decodes big-endian UTF-16 in two passes: the first checks surrogate pairs and
  /// counts UTF-8 bytes, the second writes UTF-8 straight into the string's storage.
  private func decodeUTF16(
    at offset: Int, units count: Int, markerAt marker: Int, building: Bool = true
  ) throws(PropertyListError) -> String {
    var utf8Count = 0
    var index = 0
    while index < count {
      let position = offset + index * 2
      let unit = unit16(at: position)
      index += 1
      if unit < 0x80 {
        utf8Count += 1
      } else if unit < 0x800 {
        utf8Count += 2
      } else if unit < 0xD800 || unit > 0xDFFF {
        utf8Count += 3
      } else {
        guard unit < 0xDC00, index < count else {
          throw PropertyListError(
            .invalidString, at: position,
            "UTF-16 string has an unpaired surrogate 0x\(Hex.digits(unit, uppercase: true))")
        }
        let next = unit16(at: offset + index * 2)
        guard next >= 0xDC00, next <= 0xDFFF else {
          throw PropertyListError(
            .invalidString, at: position,
            "UTF-16 string has an unpaired surrogate 0x\(Hex.digits(unit, uppercase: true))")
        }
        index += 1
        utf8Count += 4
      }
    }
    guard building else { return "" }
    return String(unsafeUninitializedCapacity: utf8Count) { buffer in
      var out = 0
      var index = 0
      while index < count {
        let unit = UInt32(unit16(at: offset + index * 2))
        index += 1
        var scalar = unit
        if unit >= 0xD800, unit <= 0xDFFF {
          // The first pass proved this a high surrogate followed by a low one.
          let next = UInt32(unit16(at: offset + index * 2))
          index += 1
          scalar = 0x10000 + ((unit - 0xD800) << 10) + (next - 0xDC00)
        }
        if scalar < 0x80 {
          buffer[out] = UInt8(scalar)
          out += 1
        } else if scalar < 0x800 {
          buffer[out] = UInt8(0xC0 | scalar >> 6)
          buffer[out + 1] = UInt8(0x80 | scalar & 0x3F)
          out += 2
        } else if scalar < 0x10000 {
          buffer[out] = UInt8(0xE0 | scalar >> 12)
          buffer[out + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
          buffer[out + 2] = UInt8(0x80 | scalar & 0x3F)
          out += 3
        } else {
          buffer[out] = UInt8(0xF0 | scalar >> 18)
          buffer[out + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
          buffer[out + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
          buffer[out + 3] = UInt8(0x80 | scalar & 0x3F)
          out += 4
        }
      }
      return out
    }
  }

  /// The big-endian UTF-16 unit at `position`; callers have checked the range.
  @inline(__always)
  private func unit16(at position: Int) -> UInt16 {
    UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self))
  }
}
