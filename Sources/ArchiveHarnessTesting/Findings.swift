import ArchiveHarness

/// The lines that explain a case's failure, each starting with its place in the manifest.
enum Findings {
  /// One line per path that differs from the manifest, per failed expectation, and per
  /// strictness finding that is an error.
  ///
  /// A path's place is its `<outcome>` element when the manifest has one, else the entry's
  /// `<archive>` element; an expectation's is its own element; a strictness finding's is the
  /// entry's `<archive>` element.
  static func lines(_ result: VerificationCase, entry: ArchiveEntry, in project: HarnessProject)
    -> [HarnessFinding]
  {
    var lines: [HarnessFinding] = []
    for path in result.paths where !path.matches {
      let location = location(of: path.path, in: entry)
      let place = project.relative(location.description)
      let got = [path.outcome.description, path.category.map { "[\($0)]" }].compactMap { $0 }
        .joined(separator: " ")
      var line = "\(path.path): \(path.expectationPhrase), got \(got)"
      if path.isUnexpectedPass { line = "object-substitution hole: " + line }
      if let message = path.message { line += ": \(message)" }
      lines.append(HarnessFinding("\(place): " + line, at: location))
    }
    for expectation in result.expectations where !expectation.passed {
      lines.append(
        HarnessFinding(
          "\(project.relative(expectation.location.description)): \(expectation.keyPath): "
            + "expected \(expectation.expected), got \(expectation.actual)",
          at: expectation.location))
    }
    for finding in result.strictnessFindings where finding.severity == .error {
      lines.append(
        HarnessFinding(
          "\(project.relative(entry.location.description)): strictness: [\(finding.rule)] "
            + finding.description,
          at: entry.location))
    }
    return lines
  }

  /// One line per store finding that is an error, at the store check's element in the manifest
  /// (the finding's own place, an item or a row, is in the line).
  static func lines(storeCheck result: VerificationCase, in project: HarnessProject)
    -> [HarnessFinding]
  {
    result.storeFindings.filter { $0.severity == .error }.map { finding in
      HarnessFinding(
        "\(project.relative(result.location.description)): [\(finding.check)] "
          + "\(project.relative(finding.place.description)): \(finding.message)",
        at: result.location)
    }
  }

  /// Where the manifest says what a path must do: its outcome element, or the entry.
  static func location(of path: CheckedPath, in entry: ArchiveEntry) -> Place {
    guard case .decode(let decodePath) = path, let outcome = entry.outcome(for: decodePath)
    else { return entry.location }
    return outcome.location
  }
}
