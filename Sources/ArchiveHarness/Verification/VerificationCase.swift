import ArchiveCoder
import ArchiveFormat
import _ArchiveHarnessSystem

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
  /// Where the entry is declared: its `<archive>` element's line and column.
  public var location: Place
  /// The outcome of each path run, in path order.
  public var paths: [PathResult]
  /// The field expectations, evaluated.
  package var expectations: [ExpectationResult]
  /// Advice and warnings, such as the `allowedClasses` that would make a secure read succeed.
  public var notes: [String]
  /// What the secure path did that Apple's platforms only log today, each with the class, the
  /// key path and the list to write: warnings, or errors that fail the case under
  /// ``Strictness/appleFuture``.
  ///
  /// ```swift
  /// for finding in item.strictnessFindings where finding.severity == .error {
  ///   print("\(item.location): [\(finding.rule)] \(finding)")
  /// }
  /// ```
  package var strictnessFindings: [StrictnessFinding]
  /// What a store check found (a Keychain item no query finds, a Core Data row the pin does
  /// not list as lost); only a store check's case, which has no ``paths``, has any.
  ///
  /// ```swift
  /// for finding in item.storeFindings { print("\(finding.place): [\(finding.check)] \(finding.message)") }
  /// ```
  package var storeFindings: [StoreFinding]
  /// The manifest's producer, as `app version`, or `nil` when not known.
  public var producer: String?
  /// The Foundation paths whose outcome is a known swift-corelibs-foundation deviation, which
  /// Apple's Foundation does not share: a manifest written on Linux must not pin them.
  package var deviations: [DecodePath: LinuxFoundationDeviation] = [:]
  /// How long verifying the entry took (wall time, every path), or `nil` when not measured.
  ///
  /// A measurement, not a result: two cases that differ only in it are equal.
  ///
  /// ```swift
  /// let item = verifier.verify(entry, of: manifest, archivesDirectory: "LegacyArchives")
  /// print(item.duration ?? .zero)  // 0.031 seconds
  /// ```
  package var duration: TimeSpan?

  /// Creates a case.
  package init(
    manifest: String, archive: String, location: Place, paths: [PathResult],
    expectations: [ExpectationResult], notes: [String] = [], producer: String? = nil,
    duration: TimeSpan? = nil, strictnessFindings: [StrictnessFinding] = [],
    storeFindings: [StoreFinding] = []
  ) {
    self.strictnessFindings = strictnessFindings
    self.storeFindings = storeFindings
    self.producer = producer
    self.duration = duration
    self.manifest = manifest
    self.archive = archive
    self.location = location
    self.paths = paths
    self.expectations = expectations
    self.notes = notes
  }

  /// The case's status: an unexpected pass outranks a failure; a strictness or store finding
  /// that is an error fails the case.
  public var status: Status {
    if paths.contains(where: { $0.isUnexpectedPass }) { return .unexpectedPass }
    if paths.contains(where: { !$0.matches }) || expectations.contains(where: { !$0.passed })
      || strictnessFindings.contains(where: { $0.severity == .error })
      || storeFindings.contains(where: { $0.severity == .error })
    {
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

  /// Whether the case is a store check's (a Keychain snapshot, a pinned Core Data attribute),
  /// which reads no archive on the decode paths, rather than an archive entry's.
  package var isStoreCheck: Bool { paths.isEmpty }

  /// The name tests and JUnit use: `manifest › archive`.
  public var name: String { "\(manifest) › \(archive)" }
}

extension VerificationCase {
  /// Whether two cases report the same results; their `duration` is not compared.
  public static func == (lhs: VerificationCase, rhs: VerificationCase) -> Bool {
    lhs.manifest == rhs.manifest && lhs.archive == rhs.archive && lhs.location == rhs.location
      && lhs.paths == rhs.paths && lhs.expectations == rhs.expectations && lhs.notes == rhs.notes
      && lhs.producer == rhs.producer && lhs.strictnessFindings == rhs.strictnessFindings
      && lhs.storeFindings == rhs.storeFindings
  }

  /// Hashes what ``==(_:_:)`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(manifest)
    hasher.combine(archive)
    hasher.combine(location)
    hasher.combine(paths)
    hasher.combine(expectations)
    hasher.combine(notes)
    hasher.combine(producer)
    hasher.combine(strictnessFindings)
    hasher.combine(storeFindings)
  }

  /// The `duration` in whole milliseconds, as reports write it; `nil` when not measured.
  ///
  /// ```swift
  /// VerificationCase(…, duration: .microseconds(31_600)).milliseconds  // 32
  /// ```
  public var milliseconds: Int64? {
    duration?.roundedMilliseconds
  }
}
