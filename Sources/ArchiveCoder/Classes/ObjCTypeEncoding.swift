/// A type encoding a generic NSValue holds that the harness reads: one scalar (`i`), or a C
/// array of scalars (`[3i]`); structs, pointers and objects are not read.
///
/// Foundation traps building or sizing a value of an encoding it does not support, so every
/// encoding is checked here first.
struct ObjCTypeEncoding: Hashable {
  /// The most elements a C array value holds.
  static let maximumArrayCount = 65_536

  /// A scalar type a generic NSValue holds: its encoding character, its size in bytes, and how
  /// one archived element becomes those bytes in this process's byte order.
  enum Scalar: Character {
    case char = "c"
    case unsignedChar = "C"
    case short = "s"
    case unsignedShort = "S"
    case int = "i"
    case unsignedInt = "I"
    case longLong = "q"
    case unsignedLongLong = "Q"
    case float = "f"
    case double = "d"
    case bool = "B"

    var size: Int {
      switch self {
      case .char, .unsignedChar, .bool: 1
      case .short, .unsignedShort: 2
      case .int, .unsignedInt, .float: 4
      case .longLong, .unsignedLongLong, .double: 8
      }
    }

    /// The integers the type holds; `nil` for the floating-point types.
    var integerRange: ClosedRange<Int64>? {
      switch self {
      case .char: Int64(Int8.min)...Int64(Int8.max)
      case .unsignedChar: 0...Int64(UInt8.max)
      case .bool: 0...1
      case .short: Int64(Int16.min)...Int64(Int16.max)
      case .unsignedShort: 0...Int64(UInt16.max)
      case .int: Int64(Int32.min)...Int64(Int32.max)
      case .unsignedInt: 0...Int64(UInt32.max)
      // An unsigned 64-bit value above Int64.max is archived as a negative integer.
      case .longLong, .unsignedLongLong: Int64.min...Int64.max
      case .float, .double: nil
      }
    }

    func bytes(integer: Int64) -> [UInt8] {
      withUnsafeBytes(of: integer.littleEndian) { Array($0.prefix(size)) }
    }

    func bytes(real: Double) -> [UInt8] {
      self == .float
        ? withUnsafeBytes(of: Float(real).bitPattern.littleEndian) { Array($0) }
        : withUnsafeBytes(of: real.bitPattern.littleEndian) { Array($0) }
    }
  }

  /// The scalar, or the C array's element type.
  let scalar: Scalar
  /// The element count of a C array, or `nil` for a scalar.
  let arrayCount: Int?

  /// Parses an encoding such as `i` or `[3i]`; `nil` for any other encoding.
  init?(_ encoding: String) {
    let characters = Array(encoding)
    if characters.count == 1, let scalar = Scalar(rawValue: characters[0]) {
      self.scalar = scalar
      self.arrayCount = nil
      return
    }
    guard characters.count >= 4, characters.count <= 10, characters.first == "[",
      characters.last == "]", let scalar = Scalar(rawValue: characters[characters.count - 2]),
      characters[1] != "0", let count = Int(String(characters[1..<(characters.count - 2)])),
      (1...Self.maximumArrayCount).contains(count)
    else { return nil }
    self.scalar = scalar
    self.arrayCount = count
  }

  /// The size of a value of this type, in bytes.
  var byteCount: Int { scalar.size * (arrayCount ?? 1) }
}
