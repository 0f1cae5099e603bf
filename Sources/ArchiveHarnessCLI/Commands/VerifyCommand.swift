import ArchiveCoder
import ArchiveHarness
import ArchiveManifest
import Foundation
import _ArchiveHarnessSystem

/// `archive-harness verify`: every manifest entry through every path, with a report.
enum VerifyCommand {
  static let spec = CommandSpec(
    name: "verify",
    abstract: "Check every historical archive in the manifests on every decode path.",
    discussion: """
        For each archive entry: the size limit and structure, the legacy and secure
        paths of the harness coder, Foundation's NSKeyedUnarchiver (in a worker
        process), the root class and the field expectations, each compared with
        what the manifest expects. An archive expected to be rejected that decodes
        is reported as HOLE: an object-substitution hole. With --privacy, each
        verified archive is also scanned as privacy-scan scans it, with its
        entry's <reviewed/> values: a finding fails the case (a 'privacy' part,
        rejected [personal-data], values masked), and the report notes what the
        scan covered. What Apple's platforms only log today about a secure
        read (NSObject in an allowed classes list, a property-list class its
        list does not name, decodeObject(forKey:) on a secure coder) is a
        warning naming the class, the key path and the list to write; with
        --strictness apple-future, or a manifest's strictness="apple-future",
        it is an error that fails the case. A manifest's <coreDataAttribute> pin
        is a case of its own: the store's rows are read as coredata preflight reads
        them, and a transformer the model no longer declares, a lost row the pin
        does not list or another row count fails it. So is a manifest's Keychain
        snapshot (<keychainSnapshot>): the manifest's <keychainQuery>s run
        against its items as keychain check runs them, and an item no query
        finds, or readable more often than its query requires, fails it. An
        <archive keychainItem="CLASS.SERVICE.ACCOUNT"> entry reads its bytes
        from that item of the snapshot and is verified on every path; the items'
        data is never printed.
      """,
    options: [manifests, archives, SchemaOption.option, format, output, shard, strictness],
    flags: [privacy, verbose],
    exitStatus: """
        0  every outcome and expectation is as the manifests say
        1  an outcome or expectation differs, an archive expected to be rejected
           decodes, with --privacy a value looks like personal data, under
           apple-future strictness a secure read breaks a rule Apple only logs
           today, a Core Data pin differs from its store and model, or a Keychain
           query would lose an item or accepts it too loosely
        2  the run could not proceed (bad arguments, an invalid manifest, unreadable input)
      """)

  /// The report formats.
  enum Format: String, CaseIterable, ArgumentValue {
    /// A summary and one line per failing case, for people.
    case text
    /// One JSON document, stable.
    case json
    /// JUnit XML, one test case per archive entry.
    case junit
    /// One self-contained HTML page: a summary, the matrix of paths, and filters.
    case html
  }

  static let manifests = Option<String?>.optional(
    "manifests", valueName: "DIR", help: "The folder of manifests.",
    defaultDescription: "the nearest manifests/ here or above")
  static let archives = Option<String?>.optional(
    "archives", valueName: "DIR", help: "The folder archive paths are relative to.",
    defaultDescription: "LegacyArchives/ beside the manifests")
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Report format.", default: Format.text)
  static let output = Option<String?>.optional(
    "output", valueName: "FILE",
    help: "Write the report to FILE ('-': stdout); a device or FIFO is written in place.")
  static let shard = Option<String?>.optional(
    "shard", valueName: "K/N",
    help: "Verify only slice K of N, chosen by a hash of manifest and archive path.")
  static let strictness = Option.defaulted(
    "strictness", valueName: "LEVEL",
    help: "Hold secure reads to Apple's rules as enforced today, or as Apple says they will be; "
      + "a manifest's strictness applies when stricter.",
    default: Strictness.current)
  static let verbose = Flag(
    name: "verbose", help: "Show every path and expectation of passing cases too.")
  static let privacy = Flag(
    name: "privacy", help: "Also run the privacy scan over the verified archives; a finding fails.")

  static let command = Command(spec: spec) { arguments, context in
    let location =
      try arguments[manifests].map(ManifestFolder.Location.init(manifests:))
      ?? ManifestFolder.locateForCommand(
        from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    var options = VerificationRun.Options(
      manifests: location.manifests, archives: arguments[archives] ?? location.archives,
      schema: try SchemaOption.source(arguments[SchemaOption.option]),
      privacy: arguments[privacy], harnessVersion: ArchiveHarnessCommand.version)
    options.strictness = arguments[strictness]
    if let text = arguments[shard] {
      guard let parsed = VerificationShard(parsing: text) else {
        throw UsageError(
          message: "The value '\(text)' of '--shard' is not K/N with 1 <= K <= N")
      }
      options.shard = parsed
    }
    // A refused --output (a folder, a socket) fails before the run, not after it.
    try OutputWriting.check(arguments[output])
    let run: VerificationRun
    do throws(VerificationRun.Problem) {
      run = try VerificationRun(configuration: context.configuration, options: options)
    } catch {
      throw CommandFailure(place: error.place, category: .unreadable, message: error.message)
    }
    ManifestDiagnosticsPrinter.print(run.diagnostics, to: context.console)
    guard !run.hasErrors else {
      return .unusable
    }
    guard arguments[format] == .json || arguments[format] == .text else {
      let report = run.report()
      try write(
        report, as: arguments[format], verbose: arguments[verbose], to: arguments[output],
        context: context)
      // A path that could not run (no worker) means the run could not proceed.
      if !report.cases.allSatisfy(\.ranEveryPath) { return .unusable }
      return report.passed ? .success : .findings
    }
    // Case by case as the run goes: memory stays flat however many entries there are.
    let stream: any VerificationReportStream
    if arguments[format] == .text {
      let colour = (arguments[output] ?? "-") == "-" && context.console.outputIsTerminal
      stream = try openTextStream(
        arguments[output], writer: TextReportWriter(colour: colour, verbose: arguments[verbose]),
        containment: run.verifier.containment, console: context.console)
    } else {
      stream = try openStream(
        arguments[output], shard: options.shard, manifestsDigest: run.manifestsDigest,
        run: run.parameters, containment: run.verifier.containment, console: context.console)
    }
    var ranEveryPath = true
    do throws(FileOutputError) {
      let notes = try run.verify { (item: VerificationCase) throws(FileOutputError) in
        ranEveryPath = ranEveryPath && item.ranEveryPath
        try stream.write(item)
      }
      try stream.finish(notes: notes)
    } catch {
      stream.discard()
      throw CommandFailure(error)
    }
    // A path that could not run (no worker) means the run could not proceed.
    if !ranEveryPath { return .unusable }
    return stream.passed ? .success : .findings
  }

  /// Opens the text report stream: the console for no `--output` or `-`, else the path by the
  /// one write rule.
  private static func openTextStream(
    _ output: String?, writer: TextReportWriter, containment: Containment, console: Console
  ) throws -> TextReportStream {
    guard let output, output != "-" else {
      return TextReportStream(writer: writer, containment: containment, sink: console.output)
    }
    do throws(FileOutputError) {
      return try TextReportStream(path: output, writer: writer, containment: containment)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Opens the JSON report stream: the console for no `--output` or `-`, else the path by the
  /// one write rule.
  private static func openStream(
    _ output: String?, shard: VerificationShard?, manifestsDigest: String, run: RunParameters,
    containment: Containment, console: Console
  ) throws -> JSONReportStream {
    guard let output, output != "-" else {
      return JSONReportStream(
        shard: shard, manifestsDigest: manifestsDigest, run: run, containment: containment,
        sink: console.output)
    }
    do throws(FileOutputError) {
      return try JSONReportStream(
        path: output, shard: shard, manifestsDigest: manifestsDigest, run: run,
        containment: containment)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Writes a report in a format, by the writers `verify` and `report merge` share.
  static func write(
    _ report: VerificationReport, as format: Format, verbose: Bool, to output: String?,
    context: CommandContext
  ) throws {
    let text: String
    switch format {
    case .json: text = JSONReportWriter().render(report)
    case .junit: text = JUnitReportWriter(toolName: context.toolName).render(report)
    case .html:
      let unknown = "not recorded"
      let parameters =
        report.run
        ?? RunParameters(
          manifests: unknown, archives: unknown, harnessVersion: unknown, platform: unknown)
      text = HTMLReportWriter(parameters: parameters, toolName: context.toolName).render(report)
    case .text:
      let colour = (output == nil || output == "-") && context.console.outputIsTerminal
      text = TextReportWriter(colour: colour, verbose: verbose).render(report)
    }
    try OutputWriting.write(text, to: output, console: context.console)
  }
}

extension Strictness: ArgumentValue {}
