/// The result of verifying manifests: one case per archive entry, each with its paths and expectations.
///
/// Reports are values. `TextReportWriter`, `JSONReportWriter` and
/// `JUnitReportWriter` render them; only the JSON form is stable.
public struct VerificationReport: Sendable, Hashable {
  /// The cases, in manifest order then entry order.
  public var cases: [VerificationCase]
  /// Manifest-level diagnostics (warnings that did not stop the run).
  public var notes: [String]
  /// The slice of the entries this report covers, or `nil` for all of them.
  public var shard: VerificationShard?
  /// The `ManifestsDigest` of the manifests the run read, or `nil` when not recorded.
  public var manifestsDigest: String?
  /// What the run was given and where it ran, or `nil` when not recorded.
  package var run: RunParameters?
  /// Whether a trap while decoding was contained, or `nil` when not recorded.
  ///
  /// Callers record `Verifier.containment`. The text report states it when it is off;
  /// the JSON report carries it as `containment`.
  package var containment: Containment?

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - cases: The cases, in manifest order then entry order.
  ///   - notes: Manifest-level diagnostics.
  ///   - shard: The slice of the entries the report covers, or `nil` for all.
  ///   - manifestsDigest: The digest of the manifests the run read.
  ///   - run: What the run was given and where it ran.
  ///   - containment: Whether a trap while decoding was contained.
  package init(
    cases: [VerificationCase], notes: [String] = [], shard: VerificationShard? = nil,
    manifestsDigest: String? = nil, run: RunParameters? = nil, containment: Containment? = nil
  ) {
    self.run = run
    self.containment = containment
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
