/// A parsed JSON value, exactly as the text wrote it, for reading reports back and checking schemas.
///
/// Foundation's `JSONSerialization` answers with `NSNumber`s that blur `true`
/// and `1`; a schema's `"type": "boolean"` needs to tell them apart, so the
/// harness parses with ``init(parsing:)`` instead (test code against the
/// schemas, `report merge` for shard reports).
///
/// ```swift
/// let document = try JSONDocument(parsing: #"{"outcome": "decoded", "matches": true}"#)
/// document["outcome"]  // .string("decoded")
/// ```
package indirect enum JSONDocument: Sendable, Hashable, CustomStringConvertible {
  /// An object; members are unique by name.
  case object([String: JSONDocument])
  /// An array.
  case array([JSONDocument])
  /// A string.
  case string(String)
  /// A number.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// Parses JSON text (RFC 8259): one value, with nothing but whitespace around it.
  ///
  /// - Parameter text: The JSON text.
  /// - Throws: `JSONDocumentError` naming the byte offset of the first problem.
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
    case .number: "number"
    case .bool: "boolean"
    case .null: "null"
    }
  }

  /// Whether the value is a number without a fractional part (JSON Schema's `integer`).
  package var isInteger: Bool {
    if case .number(let value) = self { return value.isFinite && value == value.rounded() }
    return false
  }

  /// A short rendering for messages, such as `"decoded"`, `12` or `{3 members}`.
  package var description: String {
    switch self {
    case .object(let members): "{\(members.count) members}"
    case .array(let elements): "[\(elements.count) elements]"
    case .string(let text): "\"\(text)\""
    case .number(let value): isInteger && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    case .bool(let flag): String(flag)
    case .null: "null"
    }
  }
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
