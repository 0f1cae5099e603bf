import Foundation

/// The regular expression of a `<matches>` expectation, compiled to match a whole string.
///
/// Patterns are ICU regular expressions, read by `NSRegularExpression`: Swift's `Regex` needs
/// macOS 13 and iOS 16, and the package runs on macOS 12 and iOS 15. A pattern holds for a value
/// only when it matches all of it, as if written between `\A(?:` and `)\z`; the engine backtracks
/// to get there, so `a|ab` holds for `ab`, where a search for the first match would stop at `a`.
///
/// ICU matches Unicode scalars, not Swift characters: `.` is one scalar, so an `e` followed by a
/// combining accent is two of them.
///
/// ```swift
/// let city = try ValuePattern("[A-Z][a-z]+( [A-Z][a-z]+)?")
/// city.matches("New York")   // true
/// city.matches("New York!")  // false
/// ```
package struct ValuePattern {
  /// Why a pattern cannot be compiled.
  package struct InvalidPattern: Error, CustomStringConvertible {
    /// The pattern as written.
    package var pattern: String

    /// Why, in the words a manifest diagnostic uses after "does not compile: ".
    package var description: String {
      "it is not a valid ICU regular expression, the syntax NSRegularExpression reads"
    }
  }

  /// The pattern as written.
  package let pattern: String
  /// The pattern anchored to the whole value.
  private let anchored: NSRegularExpression

  /// Compiles a pattern to match whole values.
  ///
  /// - Parameter pattern: An ICU regular expression; empty matches only the empty string.
  /// - Throws: `InvalidPattern` when the pattern does not compile.
  package init(_ pattern: String) throws {
    // The pattern must compile on its own: `a)(b` compiles only once wrapped in `\A(?:…)\z`.
    // NSRegularExpression refuses an empty pattern, which matches the empty string once wrapped.
    if !pattern.isEmpty, (try? Self.compile(pattern)) == nil {
      throw InvalidPattern(pattern: pattern)
    }
    // A pattern that ends inside an `(?x)` `#` comment or a `\Q` quote would swallow the closing
    // `)\z`; a line break ends the one, `\E` the other. Neither compiles where the plain closing
    // fails for any other reason, so neither changes what a pattern means.
    for ending in ["", "\n", #"\E"#] {
      if let anchored = try? Self.compile(#"\A(?:"# + pattern + ending + #")\z"#) {
        self.pattern = pattern
        self.anchored = anchored
        return
      }
    }
    throw InvalidPattern(pattern: pattern)
  }

  /// Whether the pattern matches the whole of `value`.
  package func matches(_ value: String) -> Bool {
    let whole = NSRange(location: 0, length: value.utf16.count)
    return anchored.firstMatch(in: value, options: .anchored, range: whole) != nil
  }

  private static func compile(_ pattern: String) throws -> NSRegularExpression {
    // Swift's Regex, which manifests were first written for, finds `\b` by Unicode's word rules
    // (UAX #29); ICU does so only with this option, and otherwise breaks `can't` at the apostrophe.
    try NSRegularExpression(pattern: pattern, options: .useUnicodeWordBoundaries)
  }
}
