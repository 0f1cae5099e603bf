/// A parsed JSON value, exactly as the text wrote it, for reading reports, journals and
/// snapshots back and checking schemas.
///
/// Foundation's `JSONSerialization` answers with `NSNumber`s that blur `true`
/// and `1` and read every number through a double; a schema's
/// `"type": "boolean"` needs to tell them apart, and a journal's rowid above
/// 2^53 must come back as the row it named, so the harness parses with
/// ``init(parsing:)`` instead.
///
/// Numbers keep their exact value, by how the text spells them:
/// - without a fraction or exponent (`42`, `-7`, `-0`), an integer:
///   ``integer(_:)`` from `Int64.min` to `Int64.max`, ``unsignedInteger(_:)``
///   above that up to `UInt64.max`; `-0` is the integer 0;
/// - with a fraction or an exponent (`1.5`, `1e3`, `2.0`), ``number(_:)``, a
///   double, even when its value is whole;
/// - an integer outside `Int64.min...UInt64.max`, or a number whose double is
///   infinite (`1e400`), is refused with its byte offset: it is never rounded.
///
/// Values compare as JSON Schema compares them: numbers by their exact
/// mathematical value, whatever the case (`.integer(1) == .number(1.0)`, but
/// `.integer(9_007_199_254_740_993)` differs from every double).
///
/// ```swift
/// let document = try JSONDocument(parsing: #"{"outcome": "decoded", "rowid": 9007199254740993}"#)
/// document["outcome"]  // .string("decoded")
/// document["rowid"]?.int64Value  // 9007199254740993
/// ```
package indirect enum JSONDocument: Sendable, Hashable, CustomStringConvertible {
  /// An object; members are unique by name.
  case object([String: JSONDocument])
  /// An array.
  case array([JSONDocument])
  /// A string.
  case string(String)
  /// A number written without a fraction or exponent that fits `Int64`.
  case integer(Int64)
  /// A number written without a fraction or exponent above `Int64.max`, up to `UInt64.max`.
  case unsignedInteger(UInt64)
  /// A number written with a fraction or an exponent (`1.5`, `1e3`): a finite double.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// Parses JSON text (RFC 8259): one value, with nothing but whitespace around it.
  ///
  /// - Parameter text: The JSON text.
  /// - Throws: `JSONDocumentError` naming the byte offset of the first problem, such as an
  ///   integer outside the 64-bit range.
  package init(parsing text: String) throws(JSONDocumentError) {
    var parser = JSONDocumentParser(Array(text.utf8))
    self = try parser.parseDocument()
  }

  /// The member of an object with the given name, or `nil`.
  package subscript(member: String) -> JSONDocument? {
    if case .object(let members) = self { return members[member] }
    return nil
  }

  /// The JSON type's name as JSON Schema spells it: `object`, `array`, `string`, `number`,
  /// `boolean` or `null`.
  package var typeName: String {
    switch self {
    case .object: "object"
    case .array: "array"
    case .string: "string"
    case .integer, .unsignedInteger, .number: "number"
    case .bool: "boolean"
    case .null: "null"
    }
  }

  /// Whether the value is a number without a fractional part (JSON Schema's `integer`):
  /// every ``integer(_:)`` and ``unsignedInteger(_:)``, and a whole ``number(_:)`` such as `1.0`.
  package var isInteger: Bool {
    switch self {
    case .integer, .unsignedInteger: true
    case .number(let value): value.isFinite && value == value.rounded()
    default: false
    }
  }

  /// The string's text, or `nil` for any other type.
  ///
  /// ```swift
  /// try JSONDocument(parsing: #""sqlite""#).stringValue  // "sqlite"
  /// try JSONDocument(parsing: "1").stringValue  // nil
  /// ```
  package var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The exact value of an integer the text wrote without a fraction or exponent, when it
  /// fits `Int64`; `nil` for any other value.
  ///
  /// A double is never converted: `1e3` and `2.0` are `nil` here, as are `true` and `"1"`,
  /// so a reader that needs an exact integer (a rowid, an index) cannot be handed a rounded one.
  ///
  /// ```swift
  /// try JSONDocument(parsing: "9007199254740993").int64Value  // 9007199254740993
  /// try JSONDocument(parsing: "1e3").int64Value  // nil
  /// ```
  package var int64Value: Int64? {
    switch self {
    case .integer(let value): value
    case .unsignedInteger(let value): Int64(exactly: value)
    default: nil
    }
  }

  /// The exact value of a non-negative integer the text wrote without a fraction or exponent;
  /// `nil` for any other value (as for ``int64Value``).
  ///
  /// ```swift
  /// try JSONDocument(parsing: "18446744073709551615").uint64Value  // UInt64.max
  /// ```
  package var uint64Value: UInt64? {
    switch self {
    case .integer(let value): UInt64(exactly: value)
    case .unsignedInteger(let value): value
    default: nil
    }
  }

  /// Any number as a double: a double as read, an integer as the nearest double (which
  /// rounds beyond 2^53); `nil` for any other type.
  ///
  /// ```swift
  /// try JSONDocument(parsing: "1.5").doubleValue  // 1.5
  /// try JSONDocument(parsing: "2").doubleValue  // 2.0
  /// ```
  package var doubleValue: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .unsignedInteger(let value): Double(value)
    case .number(let value): value
    default: nil
    }
  }

  /// A short rendering for messages, such as `"decoded"`, `12`, `1.5` or `{3 members}`.
  package var description: String {
    switch self {
    case .object(let members): "{\(members.count) members}"
    case .array(let elements): "[\(elements.count) elements]"
    case .string(let text): "\"\(text)\""
    case .integer(let value): String(value)
    case .unsignedInteger(let value): String(value)
    case .number(let value): "\(value)"
    case .bool(let flag): String(flag)
    case .null: "null"
    }
  }

  /// Whether two values are equal: numbers by their exact value, whichever case holds them.
  package static func == (lhs: JSONDocument, rhs: JSONDocument) -> Bool {
    switch (lhs, rhs) {
    case (.object(let a), .object(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.null, .null): return true
    default:
      guard let a = lhs.exactNumber, let b = rhs.exactNumber else { return false }
      return a == b
    }
  }

  /// Hashes the value consistently with ``==(_:_:)``.
  package func hash(into hasher: inout Hasher) {
    switch self {
    case .object(let members):
      hasher.combine(0)
      hasher.combine(members)
    case .array(let elements):
      hasher.combine(1)
      hasher.combine(elements)
    case .string(let text):
      hasher.combine(2)
      hasher.combine(text)
    case .integer, .unsignedInteger, .number:
      hasher.combine(3)
      hasher.combine(exactNumber)
    case .bool(let flag):
      hasher.combine(4)
      hasher.combine(flag)
    case .null:
      hasher.combine(5)
    }
  }

  /// A number in one form per value: a whole value that fits 64 bits as an integer, whichever
  /// case holds it, so equal values compare and hash alike.
  private var exactNumber: ExactNumber? {
    switch self {
    case .integer(let value): return .signed(value)
    case .unsignedInteger(let value):
      return Int64(exactly: value).map(ExactNumber.signed) ?? .unsigned(value)
    case .number(let value):
      if let signed = Int64(exactly: value) { return .signed(signed) }
      if let unsigned = UInt64(exactly: value) { return .unsigned(unsigned) }
      return .double(value)
    default: return nil
    }
  }
}

/// A JSON number's value in one form: see `JSONDocument.exactNumber`.
private enum ExactNumber: Hashable {
  case signed(Int64)
  case unsigned(UInt64)
  case double(Double)
}

/// Why JSON text did not parse: what was wrong and at which byte.
package struct JSONDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The byte offset of the problem.
  package var offset: Int
  /// What is wrong, in lowercase words.
  package var message: String

  /// Where the problem is, with no file: a ``Place/Position/byteOffset(_:)``.
  ///
  /// ```swift
  /// print(error.place.in("report.json"))  // report.json:offset 12
  /// ```
  package var place: Place { Place(.byteOffset(offset)) }

  /// The error as `offset N: message`.
  package var description: String { "\(place): \(message)" }
}
