/// A leaf value as expectations compare it and printers show it.
package enum ArchiveLeaf: Hashable, Sendable {
  /// `$null` or `NSNull`.
  case null
  /// A string (inline, or an `NSString` instance).
  case string(String)
  /// An integer.
  case integer(Int64)
  /// An integer above `Int64.max`.
  case unsignedInteger(UInt64)
  /// A real.
  case real(Double)
  /// A bool.
  case bool(Bool)
  /// A date, in seconds since 2001-01-01.
  case date(Double)
  /// Bytes (inline, or an `NSData` instance).
  case data([UInt8])
  /// A UUID's 16 bytes.
  case uuid([UInt8])
  /// A URL's text (relative part, joined to its base when it has one).
  case url(String)
  /// An instance that is not a leaf: its archived class name and element count when it is a collection.
  case object(className: String, index: Int, count: Int?)

  /// Whether the leaf is an instance rather than a value.
  package var isObject: Bool {
    if case .object = self { return true }
    return false
  }
}
