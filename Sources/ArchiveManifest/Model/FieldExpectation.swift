import ArchiveFormat

/// What must hold for the value at one key path of an archive.
package struct FieldExpectation: Sendable, Hashable {
  /// The kinds of expectation a manifest can state.
  package enum Kind: Sendable, Hashable, CustomStringConvertible {
    /// An exact string.
    case string(String)
    /// An exact integer, in canonical decimal (no sign for zero or positives, no leading zeros).
    case integer(String)
    /// A real number within a tolerance.
    case real(Double, tolerance: Double)
    /// An exact Boolean.
    case bool(Bool)
    /// A date, in seconds since 2001-01-01T00:00:00Z, within a tolerance in seconds.
    case date(Double, tolerance: Double)
    /// Exact bytes.
    case data([UInt8])
    /// Bytes given by their SHA-256 (lowercase hexadecimal) and, optionally, their length.
    case dataDigest(sha256: String, length: Int?)
    /// The archive's null (`$null`).
    case null
    /// An object whose archived class name, or its mapped current name, is this.
    case className(String)
    /// The key path resolves to a value.
    case present
    /// The key path resolves to nothing.
    case absent
    /// A string at most this many UTF-16 code units long.
    case maxLength(Int)
    /// A number within bounds, inclusive.
    case range(min: Double?, max: Double?)
    /// An element count: exactly `equals`, or within `min`…`max`.
    case count(equals: Int?, min: Int?, max: Int?)
    /// A value whose text form is one of these.
    case oneOf([String])
    /// A string that this regular expression matches as a whole (ICU syntax, as
    /// `NSRegularExpression` reads it).
    case matches(String)
  }

  /// The key path as written (empty for the entry's top object).
  ///
  /// The syntax is the keyed-archive reader's `ArchiveKeyPath`: `address.city`,
  /// `tags[0]`, `tags.@count`, `items[*].id`, `settings["a.b"]`, and
  /// `$top.NAME…` to start from another `$top` key than the entry's.
  package var keyPathText: String
  /// The parsed key path, starting at the entry's `topKey` unless it names
  /// `$top`; nil when the text is malformed (a diagnostic says why).
  package var keyPath: ArchiveKeyPath?
  /// What must hold.
  package var kind: Kind
  /// The element name the expectation was written with, such as `string` or `maxLength`.
  package var elementName: String
  /// Where the expectation was written.
  package var location: Place

  /// Creates an expectation.
  package init(
    keyPathText: String, keyPath: ArchiveKeyPath?, kind: Kind, elementName: String,
    location: Place
  ) {
    self.keyPathText = keyPathText
    self.keyPath = keyPath
    self.kind = kind
    self.elementName = elementName
    self.location = location
  }
}

extension FieldExpectation.Kind {
  /// How the expectation reads in a finding, such as `string "Berlin"` or `at most 40 UTF-16 units`.
  package var description: String {
    switch self {
    case .string(let value): return "string \(Self.quoted(value))"
    case .integer(let value): return "integer \(value)"
    case .real(let value, let tolerance):
      return tolerance == 0 ? "real \(value)" : "real \(value) ± \(tolerance)"
    case .bool(let value): return "bool \(value)"
    case .date(let value, let tolerance):
      return "date \(XSDValue.formatDateTime(value)) ± \(tolerance)s"
    case .data(let bytes):
      return "data of \(bytes.count) bytes with sha256 \(SHA256Checksum.hash(bytes).hexadecimal)"
    case .dataDigest(let sha256, let length):
      return "data\(length.map { " of \($0) bytes" } ?? "") with sha256 \(sha256)"
    case .null: return "null"
    case .className(let name): return "class '\(name)'"
    case .present: return "present"
    case .absent: return "absent"
    case .maxLength(let limit): return "at most \(limit) UTF-16 units"
    case .range(let minimum, let maximum):
      return "a number in [\(minimum.map { "\($0)" } ?? "-∞"), \(maximum.map { "\($0)" } ?? "∞")]"
    case .count(let equals, let minimum, let maximum):
      if let equals { return "\(equals) elements" }
      return "between \(minimum ?? 0) and \(maximum.map(String.init) ?? "any number of") elements"
    case .oneOf(let values): return "one of [\(values.map(Self.quoted).joined(separator: ", "))]"
    case .matches(let pattern): return "a string matching /\(pattern)/"
    }
  }

  /// A string as findings quote it: in double quotes, cut at 80 characters, escaped.
  static func quoted(_ value: String) -> String {
    SwiftLiteral.quoted(value, maximumScalars: 80)
  }
}
