import Foundation

/// A type an option's value converts to from its text on the command line.
///
/// The parser converts every value once, while parsing, so that a value of
/// the wrong type is a usage error before any command runs.
protocol ArgumentValue: Sendable {
  /// Converts one value from the command line.
  ///
  /// - Parameter argument: The value as given.
  /// - Throws: ``ArgumentValueError`` saying what was expected.
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

/// Converters for values that need more than their type's ``ArgumentValue`` conversion.
enum ArgumentConversion {
  /// An integer within `range`.
  static func integer(in range: ClosedRange<Int>) -> ArgumentConverter<Int> {
    { text throws(ArgumentValueError) in
      guard let value = Int(text), range.contains(value) else {
        throw ArgumentValueError(
          "expected an integer from \(range.lowerBound) to \(range.upperBound)")
      }
      return value
    }
  }

  /// A list such as `NSArray,ProfileKit.Memo`: split at commas, each item trimmed, empty items dropped.
  static let commaSeparated: ArgumentConverter<[String]> = { text in
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
  }
}

/// Why a value given on the command line is not a value of its option's type.
struct ArgumentValueError: Error, Sendable {
  /// What was expected, such as `expected an integer`; lowercase, no period.
  var reason: String

  /// Creates an error with the reason shown after the invalid value.
  init(_ reason: String) {
    self.reason = reason
  }
}
