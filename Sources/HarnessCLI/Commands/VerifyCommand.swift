import Decoding
import FileOutput
import Foundation
import Manifest
import Verification

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
        is reported as HOLE: an object-substitution hole.
      """,
    options: [
      .init(
        name: "manifests", valueName: "DIR", help: "The folder of manifests.",
        defaultValue: "manifests"),
      .init(
        name: "archives", valueName: "DIR", help: "The folder archive paths are relative to.",
        defaultValue: "LegacyArchives"),
      .init(
        name: "schema", valueName: "FILE", help: "The manifest schema.",
        defaultValue: "manifests/schema/archive-manifest.xsd, found upward"),
      .init(
        name: "format", valueName: "FORMAT", help: "Report format.",
        allowedValues: ["text", "json", "junit"], defaultValue: "text"),
      .init(
        name: "output", valueName: "FILE",
        help: "Write the report to FILE ('-': stdout); a device or FIFO is written in place."),
    ],
    flags: [.init(name: "verbose", help: "Show every path and expectation of passing cases too.")],
    exitStatus: """
        0  every outcome and expectation is as the manifests say
        1  an outcome or expectation differs, or an archive expected to be rejected decodes
        2  the run could not proceed (bad arguments, an invalid manifest, unreadable input)
      """)

  static let command = Command(spec: spec) { arguments, context in
    let manifestsDirectory = arguments.option("manifests", spec: spec) ?? "manifests"
    let archivesDirectory = arguments.option("archives", spec: spec) ?? "LegacyArchives"
    let schemaPath = SchemaLocator.resolve(arguments, near: [manifestsDirectory + "/x"])
    // A refused --output (a folder, a socket) fails before the run, not after it.
    try OutputWriting.check(arguments.option("output", spec: spec))
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: manifestsDirectory, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw CommandFailure(
        place: manifestsDirectory, category: "unreadable", message: "no such manifests folder")
    }
    guard FileManager.default.fileExists(atPath: schemaPath) else {
      throw CommandFailure(
        place: schemaPath, category: "unreadable", message: "no such schema file")
    }
    let files = Verifier.manifestFiles(in: manifestsDirectory)
    guard !files.isEmpty else {
      throw CommandFailure(
        place: manifestsDirectory, category: "unreadable", message: "no manifests in this folder")
    }
    let verifier = Verifier(
      registry: context.configuration.registry,
      runner: WorkerPathRunner(executable: context.executableURL))
    let loaded = verifier.load(
      files, archivesDirectory: archivesDirectory, schemaPath: schemaPath,
      manifestsDirectory: manifestsDirectory)
    ManifestDiagnosticsPrinter.print(loaded.diagnostics, to: context.console)
    guard !loaded.hasErrors else {
      return .unusable
    }
    let report = verifier.verify(loaded.manifests, archivesDirectory: archivesDirectory)
    let text: String
    switch arguments.option("format", spec: spec) {
    case "json": text = JSONReportWriter().render(report)
    case "junit": text = JUnitReportWriter().render(report)
    default:
      let output = arguments.option("output", spec: spec)
      let colour = (output == nil || output == "-") && context.console.outputIsTerminal
      text = TextReportWriter(colour: colour, verbose: arguments.flag("verbose")).render(report)
    }
    try OutputWriting.write(
      text, to: arguments.option("output", spec: spec), console: context.console)
    return report.passed ? .success : .findings
  }
}

/// Prints manifest diagnostics to standard error as `FILE:LINE:COLUMN: error: message`.
enum ManifestDiagnosticsPrinter {
  static func print(_ diagnostics: [ManifestDiagnostic], to console: Console) {
    for diagnostic in diagnostics {
      console.diagnose(
        diagnostic.severity.rawValue, place: diagnostic.location.description,
        category: diagnostic.category.rawValue, diagnostic.message)
    }
  }
}

/// Writes a report to a file or to standard output, by the one rule of ``OutputDestination``.
enum OutputWriting {
  /// Writes `text` to `path`, or to the console when `path` is nil or `-`.
  static func write(_ text: String, to path: String?, console: Console) throws {
    try write(Array(text.utf8), to: path, console: console)
  }

  /// Throws the refusal a path would meet when written, without writing or creating anything.
  static func check(_ path: String?) throws {
    guard let path, path != "-" else { return }
    do throws(FileOutputError) {
      _ = try OutputDestination.resolve(path)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Writes bytes to `path`, or to the console when `path` is nil or `-`.
  static func write(_ bytes: [UInt8], to path: String?, console: Console) throws {
    guard let path, path != "-" else {
      console.output(String(decoding: bytes, as: UTF8.self))
      return
    }
    do throws(FileOutputError) {
      try SafeFileWriter.write(bytes, to: path)
    } catch {
      throw CommandFailure(error)
    }
  }
}

extension CommandFailure {
  /// A failure to write an output, as `PATH: error: [unwritable] message`.
  init(_ error: FileOutputError) {
    self.init(place: error.path, category: "unwritable", message: error.message)
  }
}
