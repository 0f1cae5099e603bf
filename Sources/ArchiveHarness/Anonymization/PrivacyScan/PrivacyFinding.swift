import ArchiveFormat
import ArchiveManifest

/// A value in an archive that looks like personal data, with where it is.
///
/// `description` shows the value masked (`xxxxx@xxxxxxx.xxx`, `+## ## #######`),
/// so a CI log never repeats the data it warns about; ``match`` holds the text found.
///
/// ```swift
/// for finding in PrivacyScanner().scan(bytes, file: "cache.archive") {
///   print(finding)  // cache.archive: owner.email: [email] looks like an email address: xxxxx@xxxxxxx.xx
/// }
/// ```
public struct PrivacyFinding: Sendable, Hashable, CustomStringConvertible {
  /// What holds the value.
  public enum Holder: String, Sendable, Hashable, CaseIterable {
    /// A string, or the text of an `NSURL`.
    case string
    /// Bytes (text found in them).
    case data
    /// A dictionary key.
    case dictionaryKey = "dictionary key"
    /// A number (a card number stored as an integer).
    case number
    /// A file that is not a keyed archive, read as bytes.
    case file
  }

  /// The file, as the caller named it.
  public var file: String
  /// The key path of the value, or nil for a file that is not a keyed archive.
  package var keyPath: ArchiveKeyPath?
  /// Where the value is: its key path as text, or `offset N` in a file that is not a keyed archive.
  public var place: String
  /// What it looks like.
  package var kind: PersonalDataKind
  /// What holds it.
  public var holder: Holder
  /// The text found; keep it out of logs, and show ``masked`` instead.
  public var match: String
  /// The review in a manifest that covers this finding, if any.
  package var review: ReviewedValue?

  /// The text found with every letter shown as `x` or `X` and every digit as `#`, at most 60 characters.
  public var masked: String {
    var output = ""
    for scalar in match.unicodeScalars.prefix(60) {
      if scalar.isASCIIDigit {
        output += "#"
      } else if scalar.isASCIIUppercase {
        output += "X"
      } else if scalar.isWordCharacter {
        output += "x"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return match.unicodeScalars.count > 60 ? output + "…" : output
  }

  /// The finding as `file: place: [kind] summary: masked`.
  public var description: String {
    "\(file): \(place): [\(kind.rawValue)] \(kind.summary) in a \(holder.rawValue): \(masked)"
  }
}
