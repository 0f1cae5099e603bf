/// Copies text scalar by scalar, replacing the scalars a format cannot carry as they are.
///
/// Every escaper of the harness (JSON strings, XML text, Swift-style quoted
/// strings) is this loop with its own replacement rule, so the rules can
/// differ while the copying, and the cut at a length, are written once.
///
/// ```swift
/// var output = ""
/// ScalarEscaping.append("a<b", to: &output) { $0 == "<" ? "&lt;" : nil }
/// // output == "a&lt;b"
/// ```
package enum ScalarEscaping {
  /// Appends text, each scalar replaced by what the rule returns, or kept when it returns `nil`.
  ///
  /// - Parameters:
  ///   - text: The text to copy.
  ///   - output: The text to append to.
  ///   - maximumScalars: When set, copies at most this many scalars, then appends `…`.
  ///   - replacement: The rule: the text to write for a scalar, or `nil` to write it as it is.
  /// - Returns: Whether the text was cut short.
  @inlinable @discardableResult
  package static func append(
    _ text: String, to output: inout String, maximumScalars: Int? = nil,
    replacing replacement: (Unicode.Scalar) -> String?
  ) -> Bool {
    for (position, scalar) in text.unicodeScalars.enumerated() {
      if let maximumScalars, position >= maximumScalars {
        output += "…"
        return true
      }
      if let replaced = replacement(scalar) {
        output += replaced
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return false
  }
}
