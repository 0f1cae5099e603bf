import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation

/// `archive-harness privacy-scan`: every archive that still holds something that looks like personal data.
enum PrivacyScanCommand {
  static let spec = CommandSpec(
    name: "privacy-scan",
    abstract: "Report archived values that look like personal data, with their key paths.",
    discussion: """
        Every file below the archives folder is scanned: each string, data value,
        dictionary key and URL of a keyed archive, and the printable bytes of any
        other file. A Keychain snapshot is scanned item by item (each item's data,
        account, service and access group, named SNAPSHOT:CLASS.SERVICE.ACCOUNT),
        never as JSON text; an <archive keychainItem> entry's reviews apply to its
        item. The scan looks for emails, phone numbers, IBANs, card numbers
        (Luhn), package IPv4 and global IPv6 addresses, JSON Web Tokens, bearer
        tokens and long high-entropy tokens. Values are shown masked
        (xxxxx@xxxxxxx.xx) unless --reveal is given. A manifest entry's
        <reviewed keyPath="…" reason="…"/> stops a checked value from being
        reported; a review that covers nothing is a warning.
      """,
    options: [manifests, archives, SchemaOption.option, format],
    flags: [reveal, verbose],
    exitStatus: """
        0  nothing looks like personal data, or every finding is reviewed
        1  a value looks like personal data
        2  the run could not proceed (bad arguments, an invalid manifest, a file
           that could not be scanned)
      """)

  /// The report formats.
  enum Format: String, CaseIterable, ArgumentValue {
    /// One line per finding and a summary, for people.
    case text
    /// One JSON document, stable.
    case json
  }

  /// `--manifests DIR`, as verify declares it: the manifests give the reviewed values.
  static let manifests = VerifyCommand.manifests
  /// `--archives DIR`, as verify declares it: every file below it is scanned.
  static let archives = VerifyCommand.archives
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Report format.", default: Format.text)
  static let reveal = Flag(
    name: "reveal", help: "Show the values found, not only their masked form (not for CI logs).")
  static let verbose = Flag(name: "verbose", help: "List the reviewed findings too.")

  static let command = Command(spec: spec) { arguments, context in
    let console = context.console
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let location: ManifestFolder.Location?
    if let given = arguments[manifests] {
      try requireFolder(given, "no such manifests folder")
      location = ManifestFolder.Location(manifests: given)
    } else if arguments[archives] != nil {
      // Reviews are optional when the archives are named: a folder outside any repository.
      location = try? ManifestFolder.locateForCommand(from: here)
    } else {
      location = try ManifestFolder.locateForCommand(from: here)
    }
    guard let archivesDirectory = arguments[archives] ?? location?.archives else {
      throw CommandFailure(file: "privacy-scan", category: .usage, message: "give --archives DIR")
    }
    try requireFolder(archivesDirectory, "no such archives folder")
    let reviews = try loadReviews(
      manifestsDirectory: location?.manifests, archivesDirectory: archivesDirectory,
      schema: try SchemaOption.source(arguments[SchemaOption.option]), console: console)

    let report = PrivacyScanner().scan(folder: archivesDirectory, reviews: reviews)
    for file in report.unreadable {
      console.diagnose(.error, file: file.file, category: .unreadable, file.message)
    }
    for stale in report.staleReviews {
      console.diagnose(
        .warning, place: stale.review.location, category: .staleReview,
        "the review of '\(stale.review.keyPathText)' in '\(stale.archivePath)' covers no finding; remove it"
      )
    }
    switch arguments[format] {
    case .json:
      console.output(report.json(revealingValues: arguments[reveal]).render() + "\n")
    case .text:
      console.output(text(of: report, reveal: arguments[reveal], verbose: arguments[verbose]))
    }
    if !report.unreadable.isEmpty { return .unusable }
    return report.findings.isEmpty ? .success : .findings
  }

  /// Throws a `CommandFailure` with `message` unless `path` is a folder.
  private static func requireFolder(_ path: String, _ message: String) throws {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
    else {
      throw CommandFailure(file: path, category: .unreadable, message: message)
    }
  }

  /// The reviewed values of every manifest's entries, by archive path.
  ///
  /// - Throws: `CommandFailure` when a manifest cannot be read or a review's key path is malformed.
  private static func loadReviews(
    manifestsDirectory: String?, archivesDirectory: String, schema: ManifestSchema.Source,
    console: Console
  ) throws -> [String: [ReviewedValue]] {
    guard let manifestsDirectory else { return [:] }
    var reviews: [String: [ReviewedValue]] = [:]
    var usable = true
    for file in Verifier.manifestFiles(in: manifestsDirectory) {
      let result = ManifestLoader.load(
        path: file, archivesDirectory: archivesDirectory, schema: schema)
      guard let manifest = result.manifest else {
        ManifestDiagnosticsPrinter.print(result.diagnostics, to: console)
        usable = false
        continue
      }
      for entry in manifest.archives {
        for review in entry.reviewed where review.keyPath == nil {
          usable = false
          console.diagnose(
            .error, place: review.location, category: .semantic,
            "the reviewed key path '\(review.keyPathText)' is malformed")
        }
        reviews[entry.caseName, default: []] += entry.reviewed
      }
    }
    guard usable else {
      throw CommandFailure(
        file: manifestsDirectory, category: .invalid,
        message: "the manifests' reviewed values cannot be read")
    }
    return reviews
  }

  /// One line per finding (and per reviewed finding with `verbose`), then a summary.
  static func text(of report: PrivacyScanReport, reveal: Bool, verbose: Bool) -> String {
    var text = ""
    for finding in report.findings {
      text += "\(finding)" + (reveal ? " ('\(finding.match)')" : "") + "\n"
    }
    if verbose {
      for finding in report.reviewedFindings {
        text += "reviewed \(finding.file): \(finding.place): [\(finding.kind.rawValue)] "
        text += (finding.review?.reason ?? "") + "\n"
      }
    }
    let findings = report.findings.count == 1 ? "1 finding" : "\(report.findings.count) findings"
    text +=
      "privacy-scan: \(report.filesScanned) files, \(findings), \(report.reviewedFindings.count) reviewed\n"
    return text
  }
}
