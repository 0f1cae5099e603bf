import ArchiveManifest

/// What a privacy scan of a folder found: the findings still open, those a manifest review covers, and reviews that cover nothing.
///
/// ```swift
/// let report = PrivacyScanner().scan(folder: "LegacyArchives", reviews: reviews)
/// if !report.findings.isEmpty { exit(1) }
/// ```
public struct PrivacyScanReport: Sendable {
  /// A review that covers no finding any more (the value changed, or was anonymized).
  public struct StaleReview: Sendable, Hashable {
    /// The archive path the review's entry names, relative to the archives folder.
    public var archivePath: String
    /// The review.
    package var review: ReviewedValue
  }

  /// A file that could not be scanned.
  public struct UnreadableFile: Sendable, Hashable {
    /// The file.
    public var file: String
    /// Why, lowercase.
    public var message: String
  }

  /// How many files were scanned.
  public var filesScanned = 0
  /// The findings no review covers, in file order.
  public var findings: [PrivacyFinding] = []
  /// The findings a manifest review covers (each with its `PrivacyFinding.review`).
  public var reviewedFindings: [PrivacyFinding] = []
  /// The reviews that cover no finding.
  public var staleReviews: [StaleReview] = []
  /// Files that could not be scanned.
  public var unreadable: [UnreadableFile] = []

  /// Creates an empty report.
  public init() {}
}
