import FileOutput
import Foundation
import KeyedArchive
import Manifest

/// `archive-harness manifest validate FILE...`: schema and semantic checks, every problem reported.
enum ManifestValidateCommand {
  static let spec = CommandSpec(
    name: "manifest validate",
    abstract: "Validate manifests against the schema and the archives they name.",
    arguments: [.init(name: "file", help: "Manifests to validate.", repeating: true)],
    options: [
      .init(
        name: "archives", valueName: "DIR", help: "The folder archive paths are relative to.",
        defaultValue: "LegacyArchives"),
      .init(
        name: "schema", valueName: "FILE", help: "The manifest schema.",
        defaultValue: "manifests/schema/archive-manifest.xsd, found upward"),
    ],
    exitStatus: """
        0  every manifest is valid
        1  a manifest has errors (printed as FILE:LINE:COLUMN: error: …)
        2  the run could not proceed (bad arguments, no schema)
      """)

  static let command = Command(spec: spec) { arguments, context in
    let schema = SchemaLocator.resolve(arguments, near: arguments.arguments("file"))
    guard FileManager.default.fileExists(atPath: schema) else {
      throw CommandFailure(place: schema, category: "unreadable", message: "no such schema file")
    }
    let archives = arguments.option("archives", spec: spec) ?? "LegacyArchives"
    var valid = true
    for file in arguments.arguments("file") {
      let result = ManifestLoader.load(
        path: file, archivesDirectory: archives, schemaPath: schema,
        registeredClasses: Set(context.configuration.registry.classNames))
      ManifestDiagnosticsPrinter.print(result.diagnostics, to: context.console)
      if result.isValid {
        context.console.output(
          "\(file): valid, \(result.manifest?.archives.count ?? 0) archive entries\n")
      } else {
        valid = false
      }
    }
    return valid ? .success : .findings
  }
}

/// `archive-harness manifest author ARCHIVE...`: a complete, valid manifest for archives.
enum ManifestAuthorCommand {
  static let spec = CommandSpec(
    name: "manifest author",
    abstract:
      "Write a manifest for archives: class map, allowed classes, sha256s and expectations.",
    discussion: """
        Archive paths are relative to --archives. With --update, new archives and
        their expectations are added to an existing manifest; every human edit and
        comment in it is kept.
      """,
    arguments: [.init(name: "archive", help: "Archives, relative to --archives.", repeating: true)],
    options: [
      .init(
        name: "archives", valueName: "DIR", help: "The folder archive paths are relative to.",
        defaultValue: "LegacyArchives"),
      .init(
        name: "output", short: "o", valueName: "FILE",
        help: "Write the manifest here, not to stdout; a device or FIFO is written in place."),
      .init(
        name: "update", valueName: "FILE",
        help: "Add the archives to this manifest, keeping its edits."),
      .init(name: "app", valueName: "NAME", help: "The producing app."),
      .init(name: "version", valueName: "VERSION", help: "The producing app version."),
      .init(name: "platform", valueName: "PLATFORM", help: "The platform the app ran on."),
      .init(
        name: "produced", valueName: "DATE", help: "When the archives were written (YYYY-MM-DD)."),
      .init(name: "provenance", valueName: "TEXT", help: "Where the archives came from."),
      .init(
        name: "schema", valueName: "FILE", help: "The manifest schema.",
        defaultValue: "manifests/schema/archive-manifest.xsd, found upward"),
    ])

  static let command = Command(spec: spec) { arguments, context in
    try OutputWriting.check(
      arguments.option("output", spec: spec) ?? arguments.option("update", spec: spec))
    let archives = arguments.option("archives", spec: spec) ?? "LegacyArchives"
    var options = ManifestAuthor.Options()
    if let app = arguments.option("app", spec: spec) { options.app = app }
    if let version = arguments.option("version", spec: spec) { options.version = version }
    if let platform = arguments.option("platform", spec: spec) { options.platform = platform }
    options.produced = arguments.option("produced", spec: spec)
    options.provenance = arguments.option("provenance", spec: spec)
    let (inputs, problems) = ManifestAuthor.inputs(
      paths: arguments.arguments("archive"), archivesDirectory: archives)
    ManifestDiagnosticsPrinter.print(problems, to: context.console)
    guard problems.isEmpty else { return .unusable }
    let author = ManifestAuthor(options: options)
    let result: ManifestAuthor.Result
    if let existing = arguments.option("update", spec: spec) {
      guard let data = FileManager.default.contents(atPath: existing) else {
        throw CommandFailure(
          place: existing, category: "unreadable", message: "cannot read the manifest")
      }
      result = author.update(
        existingText: String(decoding: data, as: UTF8.self), file: existing, with: inputs,
        schemaPath: SchemaLocator.resolve(arguments, near: [existing]))
    } else {
      result = author.author(inputs)
    }
    ManifestDiagnosticsPrinter.print(result.diagnostics, to: context.console)
    guard !result.text.isEmpty else { return .unusable }
    try OutputWriting.write(
      result.text,
      to: arguments.option("output", spec: spec) ?? arguments.option("update", spec: spec),
      console: context.console)
    return result.diagnostics.contains { $0.severity == .error } ? .findings : .success
  }
}

/// `archive-harness anonymize IN OUT`: an archive fit to commit, with what was scrubbed.
enum AnonymizeCommand {
  static let spec = CommandSpec(
    name: "anonymize",
    abstract: "Replace an archive's string and data leaves with same-length placeholders.",
    discussion: """
        The structure, class names and numbers stay, and so do the values under
        each --keep key path. What was scrubbed is printed, one key path a line.
      """,
    arguments: [
      .init(name: "input", help: "The archive to anonymize."),
      .init(
        name: "output",
        help: "Where to write the anonymized archive (binary plist); '-' is standard output."),
    ],
    options: [
      .init(
        name: "keep", valueName: "KEYPATH", help: "A key path whose values stay as they are.",
        repeating: true)
    ])

  static let command = Command(spec: spec) { arguments, context in
    guard let input = arguments.argument("input"), let output = arguments.argument("output") else {
      throw UsageError(message: "Missing expected argument '<output>'")
    }
    var keep: [KeyPath] = []
    for text in arguments.values("keep") {
      do {
        keep.append(try KeyPath(text))
      } catch {
        throw UsageError(message: "Invalid '--keep': \(error)")
      }
    }
    try OutputWriting.check(output)
    let bytes = try FileReading.bytes(at: input, limit: 64 << 20)
    let result: Anonymizer.Output
    do throws(KeyedArchiveError) {
      result = try Anonymizer(keep: keep).anonymize(bytes)
    } catch {
      throw CommandFailure(
        place: "\(input):\(error.location)", category: error.code.name, message: error.message)
    }
    do throws(FileOutputError) {
      try SafeFileWriter.write(result.bytes, to: output)
    } catch {
      throw CommandFailure(error)
    }
    var text = ""
    for value in result.report.scrubbed {
      text += "scrubbed \(value)\n"
    }
    for path in result.report.kept {
      text += "kept \(path)\n"
    }
    text +=
      "\(output): \(result.report.scrubbed.count) values scrubbed, \(result.report.kept.count) kept\n"
    // With '-' the archive itself is on standard output; the summary goes beside it, to stderr.
    if output == "-" {
      context.console.error(text)
    } else {
      context.console.output(text)
    }
    return .success
  }
}
