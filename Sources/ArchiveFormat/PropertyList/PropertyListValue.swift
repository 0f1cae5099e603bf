/// A property-list value, as binary and XML property lists store it, including the keyed-archive UID.
///
/// Values read from untrusted bytes are bounded by `PropertyListLimits`; the
/// tree a reader returns is never deeper than the limit's depth.
///
/// ## Topics
public enum PropertyListValue: Sendable {
  /// A dictionary with string keys, in the order the file stored them.
  case dictionary(PropertyListDictionary)
  /// An ordered array.
  case array([PropertyListValue])
  /// A string (ASCII or UTF-16 in binary lists).
  case string(String)
  /// A signed integer that fits in 64 bits.
  case integer(Int64)
  /// An unsigned integer above `Int64.max`, which binary lists store in the 128-bit form.
  case unsignedInteger(UInt64)
  /// A floating-point number (single precision values are widened).
  case real(Double)
  /// A boolean.
  case bool(Bool)
  /// A date, as seconds since 2001-01-01T00:00:00Z (the reference date).
  case date(Double)
  /// Raw bytes.
  case data([UInt8])
  /// A keyed-archive object reference (binary marker `0x8`, or the XML `CF$UID` dictionary).
  case uid(UInt64)
}

extension PropertyListValue: Hashable {
  /// Compares reals and dates by bit pattern, so that a NaN read back from a
  /// written list equals the original.
  public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
    switch (lhs, rhs) {
    case (.dictionary(let a), .dictionary(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): return a == b
    case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern || a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.date(let a), .date(let b)): return a.bitPattern == b.bitPattern || a == b
    case (.data(let a), .data(let b)): return a == b
    case (.uid(let a), .uid(let b)): return a == b
    default: return false
    }
  }

  /// Hashes the value consistently with its equality.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .dictionary(let value):
      hasher.combine(0)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(1)
      hasher.combine(value)
    case .string(let value):
      hasher.combine(2)
      hasher.combine(value)
    case .integer(let value):
      hasher.combine(3)
      hasher.combine(value)
    case .unsignedInteger(let value):
      hasher.combine(4)
      hasher.combine(value)
    case .real(let value):
      hasher.combine(5)
      hasher.combine(value == 0 ? 0 : value.bitPattern)
    case .bool(let value):
      hasher.combine(6)
      hasher.combine(value)
    case .date(let value):
      hasher.combine(7)
      hasher.combine(value == 0 ? 0 : value.bitPattern)
    case .data(let value):
      hasher.combine(8)
      hasher.combine(value)
    case .uid(let value):
      hasher.combine(9)
      hasher.combine(value)
    }
  }
}

extension PropertyListValue {
  /// The name of the value's type, as diagnostics print it (`dictionary`, `uid`, …).
  public var typeName: String {
    switch self {
    case .dictionary: "dictionary"
    case .array: "array"
    case .string: "string"
    case .integer, .unsignedInteger: "integer"
    case .real: "real"
    case .bool: "bool"
    case .date: "date"
    case .data: "data"
    case .uid: "uid"
    }
  }

  /// The type name with its article (`a string`, `an integer`), for messages.
  public var typeNameWithArticle: String {
    switch self {
    case .array, .integer, .unsignedInteger: "an \(typeName)"
    default: "a \(typeName)"
    }
  }

  /// The dictionary, when the value is one.
  public var dictionaryValue: PropertyListDictionary? {
    if case .dictionary(let value) = self { return value }
    return nil
  }

  /// The array, when the value is one.
  public var arrayValue: [PropertyListValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The string, when the value is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer, when the value is one that fits in `Int64`.
  public var integerValue: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The UID, when the value is one.
  public var uidValue: UInt64? {
    if case .uid(let value) = self { return value }
    return nil
  }

  /// Makes an integer value, choosing the unsigned case only above `Int64.max`.
  public static func integer(unsigned value: UInt64) -> PropertyListValue {
    value > UInt64(Int64.max) ? .unsignedInteger(value) : .integer(Int64(value))
  }
}
