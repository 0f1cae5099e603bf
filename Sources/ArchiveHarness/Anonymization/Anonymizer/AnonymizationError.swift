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
public struct AnonymizationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem this is; new codes can be added without breaking clients.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as diagnostics print it.
    public let name: String

    init(_ name: String) {
      self.name = name
    }

    /// The code's name, such as `unmatched-key-path`.
    public var description: String { name }

    /// A `keep` or `scrub` key path matches no value in any input.
    public static let unmatchedKeyPath = Code("unmatched-key-path")
    /// The salt is too short to key pseudonyms.
    public static let saltTooShort = Code("salt-too-short")
    /// A date policy is not `shift`, `keep` or `truncate:day|month|year`.
    public static let invalidDatePolicy = Code("invalid-date-policy")
    /// An input is not a keyed archive (see ``AnonymizationError/archiveError``).
    public static let malformedArchive = Code("malformed-archive")
  }

  /// The kind of problem.
  public let code: Code
  /// The input concerned, as the caller named it; empty when the problem is not about one input.
  public let input: String
  /// A lowercase description, without the input.
  public let message: String
  /// The archive error, for code ``Code/malformedArchive``.
  public let archiveError: KeyedArchiveError?

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
  public var place: Place? {
    guard !input.isEmpty else { return nil }
    return archiveError.map { $0.place.in(input) } ?? Place(file: input)
  }

  /// `input: [code] message`, or `[code] message` without an input.
  public var description: String {
    input.isEmpty ? "[\(code)] \(message)" : "\(input): [\(code)] \(message)"
  }
}
