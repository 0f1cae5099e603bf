import ArchiveFormat

/// Why an anonymization could not run, with the input it concerns.
///
/// ```swift
/// do {
///   _ = try Anonymizer(options: options, key: .random()).anonymize(bytes)
/// } catch {
///   print(error.code, error.message)  // unmatched-key-path, "--keep 'versoin' matches nothing"
/// }
/// ```
package struct AnonymizationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem this is; new codes can be added without breaking clients.
  package struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as diagnostics print it.
    package let name: String

    init(_ name: String) {
      self.name = name
    }

    /// The code's name, such as `unmatched-key-path`.
    package var description: String { name }

    /// A `keep` or `scrub` key path matches no value in any input.
    package static let unmatchedKeyPath = Code("unmatched-key-path")
    /// The salt is too short to key pseudonyms.
    package static let saltTooShort = Code("salt-too-short")
    /// A date policy is not `shift`, `keep` or `truncate:day|month|year`.
    package static let invalidDatePolicy = Code("invalid-date-policy")
    /// An input is not a keyed archive (see `AnonymizationError.archiveError`).
    package static let malformedArchive = Code("malformed-archive")
  }

  /// The kind of problem.
  package let code: Code
  /// The input concerned, as the caller named it; empty when the problem is not about one input.
  package let input: String
  /// A lowercase description, without the input.
  package let message: String
  /// The archive error, for code `Code.malformedArchive`.
  package let archiveError: KeyedArchiveError?

  init(_ code: Code, input: String = "", _ message: String) {
    self.code = code
    self.input = input
    self.message = message
    self.archiveError = nil
  }

  init(input: String, archiveError: KeyedArchiveError) {
    self.code = .malformedArchive
    self.input = input
    self.message = archiveError.message
    self.archiveError = archiveError
  }

  /// Where the problem is: the input, at the archive error's place when it has one; `nil`
  /// when the problem is not about one input.
  ///
  /// ```swift
  /// print(error.place?.description ?? "")  // note.archive:$objects[3].$class
  /// ```
  package var place: Place? {
    guard !input.isEmpty else { return nil }
    return archiveError.map { $0.place.in(input) } ?? Place(file: input)
  }

  /// `input: [code] message`, or `[code] message` without an input.
  package var description: String {
    input.isEmpty ? "[\(code)] \(message)" : "\(input): [\(code)] \(message)"
  }
}
