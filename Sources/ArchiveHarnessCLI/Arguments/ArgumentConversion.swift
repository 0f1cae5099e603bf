import Foundation

/// Converters for values that need more than their type's `ArgumentValue` conversion.
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
