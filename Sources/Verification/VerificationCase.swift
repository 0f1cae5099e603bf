import HarnessVocabulary

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
  /// The Foundation paths whose outcome is a known swift-corelibs-foundation deviation, which
  /// Apple's Foundation does not share: a manifest written on Linux must not pin them.
  public var deviations: [DecodePath: LinuxFoundationDeviation] = [:]

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

  /// Whether every checked path ran; a path that could not (no worker) leaves the run unusable.
  ///
  /// ```swift
  /// if !verificationCase.ranEveryPath { print("\(verificationCase.name): a path did not run") }
  /// ```
  public var ranEveryPath: Bool { paths.allSatisfy(\.ran) }

  /// The name tests and JUnit use: `manifest › archive`.
  public var name: String { "\(manifest) › \(archive)" }
}
