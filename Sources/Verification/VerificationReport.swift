import Decoding
import HarnessVocabulary
import Manifest

/// The result of verifying manifests: one case per archive entry, each with its paths and expectations.
///
/// Reports are values. ``TextReportWriter``, ``JSONReportWriter`` and
/// ``JUnitReportWriter`` render them; only the JSON form is stable.
public struct VerificationReport: Sendable, Hashable {
  /// The cases, in manifest order then entry order.
  public var cases: [VerificationCase]
  /// Manifest-level diagnostics (warnings that did not stop the run).
  public var notes: [String]
  /// The slice of the entries this report covers, or `nil` for all of them.
  public var shard: VerificationShard?
  /// The ``ManifestsDigest`` of the manifests the run read, or `nil` when not recorded.
  public var manifestsDigest: String?
  /// What the run was given and where it ran, or `nil` when not recorded.
  public var run: RunParameters?

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - cases: The cases, in manifest order then entry order.
  ///   - notes: Manifest-level diagnostics.
  ///   - shard: The slice of the entries the report covers, or `nil` for all.
  ///   - manifestsDigest: The digest of the manifests the run read.
  ///   - run: What the run was given and where it ran.
  public init(
    cases: [VerificationCase], notes: [String] = [], shard: VerificationShard? = nil,
    manifestsDigest: String? = nil, run: RunParameters? = nil
  ) {
    self.run = run
    self.cases = cases
    self.notes = notes
    self.shard = shard
    self.manifestsDigest = manifestsDigest
  }

  /// The number of cases with each status.
  public var counts: [VerificationCase.Status: Int] {
    var counts: [VerificationCase.Status: Int] = [:]
    for item in cases {
      counts[item.status, default: 0] += 1
    }
    return counts
  }

  /// Whether every case passed.
  public var passed: Bool { cases.allSatisfy { $0.status == .passed } }
}

/// One archive entry of one manifest, checked on every path.
public struct VerificationCase: Sendable, Hashable {
  /// How a case ended.
  public enum Status: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Every outcome and expectation was as the manifest says.
    case passed
    /// An outcome or an expectation differed.
    case failed
    /// An archive expected to be rejected decoded: an object-substitution hole.
    case unexpectedPass = "unexpected-pass"

    /// Orders statuses as they are declared: passed, failed, unexpected pass.
    public static func < (lhs: Status, rhs: Status) -> Bool {
      allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
  }

  /// The manifest file, as given.
  public var manifest: String
  /// The archive path relative to the archives folder.
  public var archive: String
  /// Where the entry is declared, as `FILE:LINE:COLUMN`.
  public var location: String
  /// The outcome of each path run, in path order.
  public var paths: [PathResult]
  /// The field expectations, evaluated.
  public var expectations: [ExpectationResult]
  /// Advice and warnings, such as the `allowedClasses` that would make a secure read succeed.
  public var notes: [String]
  /// The manifest's producer, as `app version`, or `nil` when not known.
  public var producer: String?

  /// Creates a case.
  public init(
    manifest: String, archive: String, location: String, paths: [PathResult],
    expectations: [ExpectationResult], notes: [String] = [], producer: String? = nil
  ) {
    self.producer = producer
    self.manifest = manifest
    self.archive = archive
    self.location = location
    self.paths = paths
    self.expectations = expectations
    self.notes = notes
  }

  /// The case's status: an unexpected pass outranks a failure.
  public var status: Status {
    if paths.contains(where: { $0.isUnexpectedPass }) { return .unexpectedPass }
    if paths.contains(where: { !$0.matches }) || expectations.contains(where: { !$0.passed }) {
      return .failed
    }
    return .passed
  }

  /// The name tests and JUnit use: `manifest › archive`.
  public var name: String { "\(manifest) › \(archive)" }
}

/// A part of a case's report: the structural check of the archive, one decode path, or the privacy scan.
///
/// ```swift
/// let secure = report.cases[0].paths.first { $0.path == .decode(.secure) }
/// print(CheckedPath.decode(.foundationSecure))  // foundation-secure
/// ```
public enum CheckedPath: Sendable, Hashable, CustomStringConvertible {
  /// Reading the file as an archive, before any decode path runs.
  case structure
  /// A decode path.
  case decode(DecodePath)
  /// The privacy scan of the archive (`verify --privacy`), reported when it finds something.
  case privacy

  /// The name reports use: `structure`, the decode path's name such as `secure`, or `privacy`.
  public var description: String {
    switch self {
    case .structure: "structure"
    case .decode(let path): path.description
    case .privacy: "privacy"
    }
  }
}

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

    /// The category as reports name it, such as `class-not-allowed`, `SIGILL` or `unreadable`.
    public var description: String {
      switch self {
      case .rejection(let category): category.description
      case .crash(let cause): cause.description
      case .unreadable: "unreadable"
      case .workerUnavailable: "worker-unavailable"
      case .workerFailed: "worker-failed"
      case .personalData: "personal-data"
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
  public var expected: OutcomeExpectation.Outcome?
  /// Whether the outcome is what the manifest expected (true when it expected nothing).
  public var matches: Bool
  /// The decoded object, when the path decoded.
  public var object: DecodedValue?

  /// Creates a path result.
  public init(
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

  /// Whether the path ran; one that did not is ``OutcomeKind/notRun``, with the reason as message.
  public var ran: Bool { outcome != .notRun }

  /// Whether the archive decoded although the manifest expected a rejection.
  public var isUnexpectedPass: Bool {
    outcome == .decoded && expected?.kind == .rejected
  }
}

/// One field expectation, evaluated.
public struct ExpectationResult: Sendable, Hashable {
  /// The key path.
  public var keyPath: String
  /// Whether it held.
  public var passed: Bool
  /// What the manifest expected.
  public var expected: FieldExpectation.Kind
  /// What the archive holds.
  public var actual: ExpectationFinding.Observation
  /// Where the expectation is declared, as `FILE:LINE:COLUMN`.
  public var location: String

  /// Creates an expectation result.
  public init(
    keyPath: String, passed: Bool, expected: FieldExpectation.Kind,
    actual: ExpectationFinding.Observation, location: String
  ) {
    self.keyPath = keyPath
    self.passed = passed
    self.expected = expected
    self.actual = actual
    self.location = location
  }
}
