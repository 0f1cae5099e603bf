import ArchiveFormat

/// Text built to make the privacy scan's detectors or the anonymizer take super-linear time.
///
/// Each bait, repeated, starts a detector's candidate at every copy: an `@`
/// for the email detector, digits and separators for phone and card numbers,
/// `eyJ` for JSON Web Tokens, a keyword for bearer tokens, and so on. The
/// anonymizer's tests run each bait through the scan and the anonymizer
/// (`Tests/ArchiveHarnessTests/Anonymization/HostileArchiveTests.swift`); `scripts/check-hostile-text`
/// times them in a release build at two lengths and fails when the time grows
/// faster than the length.
package enum HostileText {
  /// The baits, one for each way a detector can be led on.
  package static let baits = [
    "@", "a@", "a@b.", "1.", "1.2.3.", "+1 ", "(1) ", "0 ", "12-", ":", "a:", "::1:", "eyJ",
    "eyJhbGciOiJub25lIn0.", "bearer ", "-bearer", "DE89", "DE89 ", "4111 ", "ab1", "a-",
    "https://", "a://b/", "ü", "𠀀", "2023-03-08", "2023-03-08 ", "08.03.2023 21:26:",
    "2023-03-08T21:26:40.1234567890",
  ]

  /// A bait repeated to about a length, in UTF-16 code units (at least one copy).
  package static func repeated(_ bait: String, length: Int) -> String {
    String(repeating: bait, count: max(1, length / bait.utf16.count))
  }

  /// An archive whose root, an instance of class `Hostile`, holds one string field, `text`.
  package static func archive(holding text: String) -> [UInt8] {
    var builder = KeyedArchiveBuilder()
    let value = builder.string(text)
    builder.setRoot(builder.object("Hostile", [("text", value)]))
    return builder.bytes()
  }
}
