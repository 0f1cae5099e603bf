/// How a value that may be a secret (a Keychain item's token) is shown: by its length.
///
/// `diff` and `verify` show a Keychain item's text this way, never the text itself.
///
/// ```swift
/// MaskedText.characters("t0k3n")  // "‹5 characters, masked›"
/// ```
package enum MaskedText {
  /// `‹43 characters, masked›`.
  package static func characters(_ text: String) -> String { "‹\(text.count) characters, masked›" }
  /// `‹32 bytes, masked›`.
  package static func bytes(_ bytes: [UInt8]) -> String { "‹\(bytes.count) bytes, masked›" }
}
