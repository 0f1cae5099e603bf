import ArchiveFormat

extension PrivacyScanReport {
  /// The version of the JSON document's shape; it changes only when a field changes meaning or goes.
  public static let serializationVersion: Int64 = 1

  /// The report as a JSON document: `serializationVersion`, `filesScanned`, `findings`, `reviewed`, `staleReviews`, `unreadable`.
  ///
  /// ```swift
  /// print(report.json(revealingValues: false).render())
  /// ```
  ///
  /// - Parameter revealingValues: Whether each finding carries the text found
  ///   (`value`) beside its masked form; off for CI logs.
  /// - Returns: The document.
  package func json(revealingValues: Bool) -> JSONValue {
    func finding(_ finding: PrivacyFinding) -> JSONValue {
      var members: [(String, JSONValue)] = [
        ("file", .string(finding.file)), ("place", .string(finding.place)),
        ("detector", .string(finding.kind.rawValue)), ("holder", .string(finding.holder.rawValue)),
        ("masked", .string(finding.masked)),
      ]
      if revealingValues { members.append(("value", .string(finding.match))) }
      if let review = finding.review { members.append(("reason", .string(review.reason))) }
      return .object(members)
    }
    return .object([
      ("serializationVersion", .integer(Self.serializationVersion)),
      ("filesScanned", .integer(Int64(filesScanned))),
      ("findings", .array(findings.map(finding))),
      ("reviewed", .array(reviewedFindings.map(finding))),
      (
        "staleReviews",
        .array(
          staleReviews.map {
            .object([
              ("archive", .string($0.archivePath)), ("keyPath", .string($0.review.keyPathText)),
              ("location", .string($0.review.location.description)),
            ])
          })
      ),
      (
        "unreadable",
        .array(
          unreadable.map {
            .object([("file", .string($0.file)), ("message", .string($0.message))])
          })
      ),
    ])
  }
}
