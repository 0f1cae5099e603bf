import ArchiveCoder
import ArchiveFormat
import ArchiveManifest

/// One decode path's outcome beside what the manifest expected.
///
/// ```swift
/// if result.isUnexpectedPass, let expected = result.expected, let object = result.object {
///   print("\(result.path): expected \(expected), decoded \(object.className)")
/// }
/// ```
public struct PathResult: Sendable, Hashable {
  /// Why a path did not decode: the rejection's category, the crash's cause, or an unreadable file.
  ///
  /// ```swift
  /// if case .rejection(.classNotAllowed)? = result.category { print("add to allowedClasses") }
  /// ```
  public enum Category: Sendable, Hashable, CustomStringConvertible {
    /// The path refused the archive, for this reason.
    case rejection(RejectionCategory)
    /// The decoding process died: a timeout or a signal.
    case crash(CrashReport.Cause)
    /// The archive file could not be read at all.
    case unreadable
    /// The path did not run: no decode worker could be had (`worker-unavailable`).
    case workerUnavailable
    /// The path did not run: its worker broke the request protocol (`worker-failed`).
    case workerFailed
    /// The privacy scan found values that look like personal data (`personal-data`).
    case personalData
    /// The archive is in the archives folder, but no manifest lists it (`unlisted`).
    case unlisted

    /// The category as reports name it, such as `class-not-allowed`, `SIGILL` or `unreadable`.
    public var description: String {
      switch self {
      case .rejection(let category): category.description
      case .crash(let cause): cause.description
      case .unreadable: "unreadable"
      case .workerUnavailable: "worker-unavailable"
      case .workerFailed: "worker-failed"
      case .personalData: "personal-data"
      case .unlisted: "unlisted"
      }
    }
  }

  /// The path: the structural check, or one of the decode paths.
  public var path: CheckedPath
  /// What the path did.
  public var outcome: OutcomeKind
  /// Why it did not decode, when it did not.
  public var category: Category?
  /// What happened, in a sentence.
  public var message: String?
  /// What the manifest expected, or `nil` when it says nothing.
  package var expected: OutcomeExpectation.Outcome?
  /// Whether the outcome is what the manifest expected (true when it expected nothing).
  public var matches: Bool
  /// The decoded object, when the path decoded.
  public var object: DecodedValue?

  /// Creates a path result.
  package init(
    path: CheckedPath, outcome: OutcomeKind, category: Category? = nil, message: String? = nil,
    expected: OutcomeExpectation.Outcome? = nil, matches: Bool, object: DecodedValue? = nil
  ) {
    self.path = path
    self.outcome = outcome
    self.category = category
    self.message = message
    self.expected = expected
    self.matches = matches
    self.object = object
  }

  /// What every report says of a path the manifest expects nothing of.
  public static let noExpectation = "no expectation"

  /// What the manifest expected, as every report words it: `expected decodes`,
  /// `expected rejected [cycle]`, or ``noExpectation``.
  ///
  /// ```swift
  /// PathResult(path: .decode(.foundationSecure), outcome: .crashed, matches: true)
  ///   .expectationPhrase  // "no expectation"
  /// ```
  public var expectationPhrase: String {
    expected.map { "expected \($0)" } ?? Self.noExpectation
  }

  /// Whether the path ran; one that did not is ``OutcomeKind/notRun``, with the reason as message.
  public var ran: Bool { outcome != .notRun }

  /// Whether the archive decoded although the manifest expected a rejection.
  public var isUnexpectedPass: Bool {
    outcome == .decoded && expected?.kind == .rejected
  }
}
