import FileOutput
import Foundation
import Manifest
import ManifestAuthoring
import ManifestXML

/// `archive-harness manifest validate FILE...`: schema and semantic checks, every problem reported.
enum ManifestValidateCommand {
  static let spec = CommandSpec(
    name: "manifest validate",
    abstract: "Validate manifests against the schema and the archives they name.",
    arguments: [files], options: [SharedOptions.archives, SchemaOption.option],
    exitStatus: """
        0  every manifest is valid
        1  a manifest has errors (printed as FILE:LINE:COLUMN: error: …)
        2  the run could not proceed (bad arguments, no schema)
      """)

  static let files = Argument.repeating("file", help: "Manifests to validate.")

  static let command = Command(spec: spec) { arguments, context in
    let schema = try SchemaOption.source(arguments[SchemaOption.option])
    let archives = arguments[SharedOptions.archives]
    var valid = true
    for file in arguments[files] {
      let result = ManifestLoader.load(
        path: file, archivesDirectory: archives, schema: schema,
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
    arguments: [archiveFiles],
    options: [
      SharedOptions.archives, output, update, app, version, platform, produced, provenance,
      SchemaOption.option,
    ])

  static let archiveFiles = Argument.repeating("archive", help: "Archives, relative to --archives.")
  static let output = Option<String?>.optional(
    "output", short: "o", valueName: "FILE",
    help: "Write the manifest here, not to stdout; a device or FIFO is written in place.")
  static let update = Option<String?>.optional(
    "update", valueName: "FILE", help: "Add the archives to this manifest, keeping its edits.")
  static let app = Option.defaulted(
    "app", valueName: "NAME", help: "The producing app.", default: ManifestAuthor.Options().app)
  static let version = Option.defaulted(
    "version", valueName: "VERSION", help: "The producing app version.",
    default: ManifestAuthor.Options().version)
  static let platform = Option.defaulted(
    "platform", valueName: "PLATFORM", help: "The platform the app ran on.",
    default: ManifestAuthor.Options().platform)
  static let produced = Option<String?>.optional(
    "produced", valueName: "DATE", help: "When the archives were written (YYYY-MM-DD).",
    defaultDescription: "today, in UTC")
  static let provenance = Option<String?>.optional(
    "provenance", valueName: "TEXT", help: "Where the archives came from.")

  static let command = Command(spec: spec) { arguments, context in
    try OutputWriting.check(arguments[output] ?? arguments[update])
    var options = ManifestAuthor.Options()
    options.app = arguments[app]
    options.version = arguments[version]
    options.platform = arguments[platform]
    options.produced = arguments[produced]
    options.provenance = arguments[provenance]
    let (inputs, problems) = ManifestAuthor.inputs(
      paths: arguments[archiveFiles], archivesDirectory: arguments[SharedOptions.archives])
    ManifestDiagnosticsPrinter.print(problems, to: context.console)
    guard problems.isEmpty else { return .unusable }
    let author = ManifestAuthor(
      options: options, registeredClasses: Set(context.configuration.registry.classNames))
    let result: ManifestAuthor.Result
    if let existing = arguments[update] {
      guard let data = FileManager.default.contents(atPath: existing) else {
        throw CommandFailure(
          place: existing, category: .unreadable, message: "cannot read the manifest")
      }
      result = author.update(
        existingText: String(decoding: data, as: UTF8.self), file: existing, with: inputs,
        schema: try SchemaOption.source(arguments[SchemaOption.option]))
    } else {
      result = author.author(inputs)
    }
    ManifestDiagnosticsPrinter.print(result.diagnostics, to: context.console)
    guard !result.text.isEmpty else { return .unusable }
    try OutputWriting.write(
      result.text,
      to: arguments[output] ?? arguments[update],
      console: context.console)
    return result.diagnostics.contains { $0.severity == .error } ? .findings : .success
  }
}

/// `archive-harness manifest reference [--output FILE]`: the manifest format as Markdown.
enum ManifestReferenceCommand {
  static let spec = CommandSpec(
    name: "manifest reference",
    abstract: "Write the Markdown reference of the manifest format, from the XSD's annotations.",
    discussion: """
        Every element and attribute with its meaning, the elements it may appear in,
        whether it is required, its allowed values, its default and an example, in
        the XSD's order. scripts/manifest-reference writes docs/ManifestFormat.md with
        it. A declaration without xs:documentation is named on standard error.
      """,
    options: [output, SchemaOption.option],
    exitStatus: """
        0  the reference was written, and every declaration is documented
        1  the reference was written, but a declaration has no documentation
        2  the run could not proceed (bad arguments, unreadable XSD or output)
      """)

  static let output = Option<String?>.optional(
    "output", short: "o", valueName: "FILE",
    help: "Write the reference here, not to stdout; a device or FIFO is written in place.")

  static let command = Command(spec: spec) { arguments, context in
    try OutputWriting.check(arguments[output])
    let reference: ManifestFormatReference
    switch try SchemaOption.source(arguments[SchemaOption.option]) {
    case .builtIn: reference = .builtIn
    case .file(let path): reference = ManifestFormatReference(path: path)
    }
    ManifestDiagnosticsPrinter.print(reference.problems, to: context.console)
    guard reference.problems.isEmpty else { return .unusable }
    ManifestDiagnosticsPrinter.print(reference.undocumented, to: context.console)
    try OutputWriting.write(reference.markdown, to: arguments[output], console: context.console)
    return reference.undocumented.isEmpty ? .success : .findings
  }
}
