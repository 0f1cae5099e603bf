/// How strictly a secure read is held to Apple's secure-coding rules: as Apple's platforms
/// enforce them today, or as Apple has said they will.
///
/// Apple's unarchiver only logs some secure-coding mistakes today: `NSObject` in an allowed
/// classes list, a property-list class decoded although its list does not name it, and a plain
/// `decodeObject(forKey:)` on a secure coder. The harness coder records each of them
/// (`StrictnessRule`); under ``current`` they are warnings, under ``appleFuture`` errors that
/// fail the case. The raw values are the names the command line (`verify --strictness`) and
/// manifests (`<manifest strictness="apple-future">`) use.
///
/// ```swift
/// Strictness(rawValue: "apple-future")  // .appleFuture
/// Strictness.appleFuture.findingSeverity  // .error
/// max(Strictness.current, .appleFuture)  // .appleFuture
/// ```
public enum Strictness: String, Sendable, Hashable, Codable, CaseIterable, Comparable,
  CustomStringConvertible
{
  /// Apple's rules as its platforms enforce them today: what they only log is a warning.
  case current
  /// Apple's rules as its logs say they will be: what they only log today is an error.
  case appleFuture = "apple-future"

  /// The severity of a `StrictnessRule` finding at this strictness: ``Severity/warning``
  /// today, ``Severity/error`` for ``appleFuture``.
  public var findingSeverity: Severity {
    switch self {
    case .current: .warning
    case .appleFuture: .error
    }
  }

  /// Orders strictness from ``current`` to ``appleFuture``, so that `max` gives the stricter.
  public static func < (lhs: Strictness, rhs: Strictness) -> Bool {
    lhs == .current && rhs == .appleFuture
  }

  /// The setting's name, such as `apple-future`.
  public var description: String { rawValue }
}
