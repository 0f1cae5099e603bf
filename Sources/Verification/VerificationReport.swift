/// The result of verifying manifests: one case per archive entry, each with its paths and expectations.
///
/// Reports are values. ``TextReportWriter``, ``JSONReportWriter`` and
/// ``JUnitReportWriter`` render them; only the JSON form is stable.
public struct VerificationReport: Sendable, Hashable {
  /// The cases, in manifest order then entry order.
  public var cases: [VerificationCase]
  /// Manifest-level diagnostics (warnings that did not stop the run).
  public var notes: [String]

  /// Creates a report.
  public init(cases: [VerificationCase], notes: [String] = []) {
    self.cases = cases
    self.notes = notes
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

  /// Creates a case.
  public init(
    manifest: String, archive: String, location: String, paths: [PathResult],
    expectations: [ExpectationResult], notes: [String] = []
  ) {
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

/// One decode path's outcome beside what the manifest expected.
public struct PathResult: Sendable, Hashable {
  /// The path: `structure`, `legacy`, `secure`, `foundation-legacy` or `foundation-secure`.
  public var path: String
  /// `decoded`, `rejected` or `crashed`; ``notRunOutcome`` when the path could not be run.
  public var outcome: String
  /// The rejection category, or the signal name for a crash.
  public var category: String?
  /// What happened, in a sentence.
  public var message: String?
  /// What the manifest expected: `decodes`, `rejected`, `rejected(category)`, or nil when it says nothing.
  public var expected: String?
  /// Whether the outcome is what the manifest expected (true when it expected nothing).
  public var matches: Bool
  /// The decoded object's fields, as text, when it decoded.
  public var object: String?

  /// Creates a path result.
  public init(
    path: String, outcome: String, category: String? = nil, message: String? = nil,
    expected: String? = nil, matches: Bool, object: String? = nil
  ) {
    self.path = path
    self.outcome = outcome
    self.category = category
    self.message = message
    self.expected = expected
    self.matches = matches
    self.object = object
  }

  /// The outcome of a path that could not be run, such as when no decode worker could be had.
  public static let notRunOutcome = "not-run"

  /// Whether the path ran; a path that did not has ``notRunOutcome`` and the reason as message.
  public var ran: Bool { outcome != Self.notRunOutcome }

  /// Whether the archive decoded although the manifest expected a rejection.
  public var isUnexpectedPass: Bool {
    outcome == "decoded" && (expected?.hasPrefix("rejected") ?? false)
  }
}

/// One field expectation, evaluated.
public struct ExpectationResult: Sendable, Hashable {
  /// The key path.
  public var keyPath: String
  /// Whether it held.
  public var passed: Bool
  /// What the manifest expected.
  public var expected: String
  /// What the archive holds.
  public var actual: String
  /// Where the expectation is declared, as `FILE:LINE:COLUMN`.
  public var location: String

  /// Creates an expectation result.
  public init(keyPath: String, passed: Bool, expected: String, actual: String, location: String) {
    self.keyPath = keyPath
    self.passed = passed
    self.expected = expected
    self.actual = actual
    self.location = location
  }
}
