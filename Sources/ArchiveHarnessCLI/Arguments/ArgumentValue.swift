import Foundation

/// A type an option's value converts to from its text on the command line.
///
/// The parser converts every value once, while parsing, so that a value of
/// the wrong type is a usage error before any command runs.
protocol ArgumentValue: Sendable {
  /// Converts one value from the command line.
  ///
  /// - Parameter argument: The value as given.
  /// - Throws: `ArgumentValueError` saying what was expected.
  init(argument: String) throws(ArgumentValueError)

  /// The value as help shows it in `(default: …)`.
  var argumentText: String { get }

  /// Every value allowed, when they are a closed set; help lists them.
  static var allowedValues: [String]? { get }
}

extension ArgumentValue {
  static var allowedValues: [String]? { nil }
}

extension ArgumentValue where Self: CaseIterable & RawRepresentable, RawValue == String {
  init(argument: String) throws(ArgumentValueError) {
    guard let value = Self(rawValue: argument) else {
      let allowed = Self.allCases.map(\.rawValue).joined(separator: ", ")
      throw ArgumentValueError("expected one of: \(allowed)")
    }
    self = value
  }

  var argumentText: String { rawValue }

  static var allowedValues: [String]? { allCases.map(\.rawValue) }
}

extension String: ArgumentValue {
  init(argument: String) {
    self = argument
  }

  var argumentText: String { self }
}

extension Int: ArgumentValue {
  init(argument: String) throws(ArgumentValueError) {
    guard let value = Int(argument) else {
      throw ArgumentValueError("expected an integer")
    }
    self = value
  }

  var argumentText: String { String(self) }
}

/// Converts one option value from its command-line text, or says what was expected.
typealias ArgumentConverter<Value> = @Sendable (String) throws(ArgumentValueError) -> Value
