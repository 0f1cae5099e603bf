import ArchiveFormat

/// What one decode path made of one archive: the app's object, a refusal, or a crash.
package enum DecodeOutcome: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The archive decoded; the value describes the object and its fields.
  case decoded(DecodedValue)
  /// The path refused the archive without crashing.
  case rejected(DecodeRejection)
  /// The process decoding the archive died from a signal, or was killed after a timeout.
  case crashed(CrashReport)

  /// The outcome's kind: ``OutcomeKind/decoded``, ``OutcomeKind/rejected`` or ``OutcomeKind/crashed``.
  package var kind: OutcomeKind {
    switch self {
    case .decoded: .decoded
    case .rejected: .rejected
    case .crashed: .crashed
    }
  }

  /// The decoded value, when the archive decoded.
  package var decodedValue: DecodedValue? {
    if case .decoded(let value) = self { return value }
    return nil
  }

  /// The rejection, when the path refused the archive.
  package var rejection: DecodeRejection? {
    if case .rejected(let rejection) = self { return rejection }
    return nil
  }

  /// The crash, when the decoding process died.
  package var crash: CrashReport? {
    if case .crashed(let crash) = self { return crash }
    return nil
  }

  /// A one-line summary.
  package var description: String {
    switch self {
    case .decoded(let value): "\(kind) \(value)"
    case .rejected(let rejection): "\(kind) \(rejection)"
    case .crashed(let crash): "\(kind) \(crash)"
    }
  }
}
