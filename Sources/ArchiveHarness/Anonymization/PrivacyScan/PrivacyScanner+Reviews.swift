import ArchiveFormat
import ArchiveManifest

extension PrivacyScanner {
  /// Splits findings into those no review covers and those one does, and lists the reviews that cover none.
  package static func apply(_ reviews: [ReviewedValue], to findings: [PrivacyFinding]) -> (
    open: [PrivacyFinding], reviewed: [PrivacyFinding], stale: [ReviewedValue]
  ) {
    var open: [PrivacyFinding] = []
    var reviewed: [PrivacyFinding] = []
    var used = Set<Int>()
    for finding in findings {
      guard let position = reviews.firstIndex(where: { covers($0, finding) }) else {
        open.append(finding)
        continue
      }
      used.insert(position)
      var covered = finding
      covered.review = reviews[position]
      reviewed.append(covered)
    }
    let stale = reviews.enumerated().filter { !used.contains($0.offset) }.map(\.element)
    return (open, reviewed, stale)
  }

  /// Whether a review covers a finding: the same detector (when it names one) and the same key path, `[*]` matching any step.
  package static func covers(_ review: ReviewedValue, _ finding: PrivacyFinding) -> Bool {
    if let detector = review.detector, detector != finding.kind.rawValue { return false }
    if let pattern = review.keyPath, let path = finding.keyPath,
      pattern.components.count == path.components.count,
      ArchiveLeafWalk.componentsMatch(pattern, path, count: path.components.count)
    {
      return true
    }
    return review.keyPathText == finding.place
  }
}
