/// The stage or kind of problem a diagnostic names between brackets, such as `[schema]`.
///
/// Categories are open: each module declares its own as static members, as
/// the Manifest module declares `schema` and the command line `unreadable`.
///
/// ```swift
/// extension DiagnosticCategory {
///   static let unreadable = DiagnosticCategory(rawValue: "unreadable")
/// }
/// ```
public struct DiagnosticCategory: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The category's name, as printed between brackets.
  public var rawValue: String

  /// Creates a category from its name.
  ///
  /// - Parameter rawValue: The name, lowercase, such as `schema-file`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The category's name.
  public var description: String { rawValue }

}
