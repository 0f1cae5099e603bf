import Foundation

/// Regular expressions over text for the tests, as ICU reads them through `NSRegularExpression`.
///
/// Swift's `Regex` and the string-processing algorithms that take one need macOS 13 and iOS 16;
/// the package runs on macOS 12 and iOS 15, and its tests are type-checked there too.
///
/// ```swift
/// let names = try TextPattern.captures(#"<xs:element name="(\w+)""#, in: xsd)
/// let zeroed = try TextPattern.replacing(#"time="[0-9.]+""#, in: report, with: #"time="0""#)
/// ```
package enum TextPattern {
  /// A pattern given to ``captures(_:in:)`` without a capture group.
  package struct NoCaptureGroup: Error, CustomStringConvertible {
    /// The pattern.
    package var pattern: String

    /// The pattern named, and what it lacks.
    package var description: String { "the pattern \(pattern) has no capture group" }
  }

  /// The first capture group of every match of a pattern, in the order of the text.
  ///
  /// - Parameters:
  ///   - pattern: An ICU regular expression with at least one capture group.
  ///   - text: The text to search.
  /// - Returns: Group 1 of each match; an empty string where that group took no part.
  /// - Throws: When the pattern does not compile, or `NoCaptureGroup`.
  package static func captures(_ pattern: String, in text: some StringProtocol) throws -> [String] {
    let text = String(text)
    let expression = try NSRegularExpression(pattern: pattern)
    // Asking a match for a group the pattern lacks raises an Objective-C exception on Darwin.
    guard expression.numberOfCaptureGroups >= 1 else { throw NoCaptureGroup(pattern: pattern) }
    return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
      Range($0.range(at: 1), in: text).map { String(text[$0]) } ?? ""
    }
  }

  /// The text with every match of a pattern replaced.
  ///
  /// - Parameters:
  ///   - pattern: An ICU regular expression.
  ///   - text: The text to search.
  ///   - replacement: The text put in place of each match, taken literally (`$1` is no group).
  /// - Returns: The text with the matches replaced, left to right, none overlapping.
  /// - Throws: When the pattern does not compile.
  package static func replacing(_ pattern: String, in text: String, with replacement: String)
    throws -> String
  {
    let expression = try NSRegularExpression(pattern: pattern)
    return expression.stringByReplacingMatches(
      in: text, range: NSRange(text.startIndex..., in: text),
      withTemplate: NSRegularExpression.escapedTemplate(for: replacement))
  }
}
