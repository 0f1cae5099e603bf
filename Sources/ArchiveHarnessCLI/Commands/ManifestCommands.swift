import ArchiveHarness
import ArchiveManifest
import Foundation
import _ArchiveHarnessSystem

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
      "Write a manifest for archives, recording what each decode path does with them now.",
    discussion: """
        Archive paths are relative to --archives. Each archive is decoded on every
        path, with this executable's classes and the manifest's class map, and the
        manifest records what happened: each path's outcome and category, the root
        class, and the field expectations that hold on the archive and on the
        decoded object. `verify` passes on what it writes.

        Each entry's allowedClasses is the app's read for its kind of root, from
        --read ROOT=CLASS,CLASS,… (or --reads FILE, one such line per read); an
        archive whose root no read names gets the narrowest set it needs, marked
        for review. A read that misses a class the archive needs is recorded as the
        rejection it is, with the allowedClasses advice as a comment.

        A Keychain snapshot (keychain export) among the archives is declared with
        <keychainSnapshot path sha256>, and each item whose data is a property list
        gets an <archive keychainItem=CLASS.SERVICE.ACCOUNT> entry, recorded as a
        file's is; the items whose data is not one are named in a comment. An item
        holds secrets: its strings are recorded by their length (count, maxLength)
        and its data by its digest (dataDigest), never as they are. A snapshot that
        does not read is an error naming the file and the place (items[1].data),
        and nothing is written.

        With --update, new archives are added to an existing manifest; a listed
        archive whose bytes changed gets its new sha256 and keeps its expectations,
        and an outcome that changed is reported, not written over. Every human edit
        and comment in the manifest is kept. --update takes archive files only, not
        a Keychain snapshot.
      """,
    arguments: [archiveFiles],
    options: [
      SharedOptions.archives, output, update, read, reads, rootClass, classMap, classMapFile,
      registry, app, version, platform, produced, provenance, SchemaOption.option,
    ],
    exitStatus: """
        0  the manifest was written
        1  it was written, with errors noted (a bad --produced date), or an archive
           --update refreshed no longer gives what its entry records
        2  the run could not proceed (an unreadable archive, manifest or Keychain
           snapshot, bad arguments)
      """)

  static let archiveFiles = Argument.repeating(
    "archive", help: "Archives and Keychain snapshots, relative to --archives.")
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
  static let read = Option<[String]>.repeating(
    "read", valueName: "ROOT=CLASS,…",
    help: "The allowedClasses of the app's read of a ROOT root (repeatable).")
  static let reads = Option<String?>.optional(
    "reads", valueName: "FILE",
    help: "Reads as --read gives them, one ROOT=CLASS,… per line ('#' starts a comment).")
  static let registry = Option<String?>.optional(
    "registry", valueName: "NAME",
    help: "Decode with another registry the harness serves, such as an earlier version's classes;"
      + " each entry then names it.",
    defaultDescription: "the current classes")
  static let classMap = SharedOptions.classMap
  static let classMapFile = SharedOptions.classMapFile
  static let rootClass = Option<String?>.optional(
    "root-class", valueName: "CLASS",
    help: "The class the app's read asks for as the root, for every archive given.",
    defaultDescription: "each archive's own root class")

  /// Authoring options with the producer's (`--app`, `--version`, `--platform`, `--produced`,
  /// `--provenance`) and the tool's name, for every command that writes a manifest.
  static func producerOptions(_ arguments: ParsedArguments, toolName: String)
    -> ManifestAuthor.Options
  {
    var options = ManifestAuthor.Options()
    options.app = arguments[app]
    options.version = arguments[version]
    options.platform = arguments[platform]
    options.produced = arguments[produced]
    options.provenance = arguments[provenance]
    options.toolName = toolName
    return options
  }

  /// The team's class map: `--class-map` pairs, then the rows of `--class-map-file` files, or,
  /// when none is given, of every class map file in `maps/` beside the manifest.
  ///
  /// - Returns: Archived class names and archived module names, each to its current one.
  /// - Throws: `UsageError` for a pair that is not `OLD=NEW`; `CommandFailure` for a map
  ///   file with errors.
  static func teamClassMap(
    _ pairs: [String], files: [String], manifest: String?, console: Console
  ) throws -> (classes: [String: String], modules: [String: String]) {
    var classes: [String: String] = [:]
    var modules: [String: String] = [:]
    func add(_ from: String, _ to: String, place: String) throws {
      let fromModule = from.hasSuffix(".*")
      guard !from.isEmpty, !to.isEmpty, fromModule == to.hasSuffix(".*") else {
        throw UsageError(
          message: "\(place): '\(from)=\(to)' is not OLD=NEW (OLD.*=NEW.* for a module)")
      }
      if fromModule {
        modules[String(from.dropLast(2))] = String(to.dropLast(2))
      } else {
        classes[from] = to
      }
    }
    for pair in pairs {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      try add(parts.first ?? "", parts.count == 2 ? parts[1] : "", place: "--class-map")
    }
    var mapFiles = files
    if files.isEmpty, let manifest {
      let folder = (((manifest as NSString).deletingLastPathComponent) as NSString)
        .appendingPathComponent("maps")
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      mapFiles = names.filter { $0.lowercased().hasSuffix(".xml") }.sorted().map {
        (folder as NSString).appendingPathComponent($0)
      }
    }
    for file in mapFiles {
      let (mappings, diagnostics) = ManifestLoader.loadClassMap(path: file)
      ManifestDiagnosticsPrinter.print(diagnostics, to: console)
      guard !diagnostics.contains(where: { $0.severity == .error }) else {
        throw CommandFailure(
          file: file, category: .invalidManifest, message: "the class map has errors")
      }
      for mapping in mappings {
        try add(mapping.archivedName, mapping.currentName, place: file)
      }
    }
    return (classes, modules)
  }

  /// Parses `ROOT=CLASS,CLASS,…` reads, from `--read` and the lines of a `--reads` file.
  ///
  /// - Parameter lines: The reads, each with the place it came from.
  /// - Returns: The allowed classes by root class.
  /// - Throws: `UsageError` for a read that is not `ROOT=CLASS,…`, or a root read twice.
  static func parseReads(_ lines: [(text: String, place: Place)]) throws -> [String: [String]] {
    var reads: [String: [String]] = [:]
    for (line, place) in lines {
      let text =
        line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        .first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
      if text.isEmpty { continue }
      let parts = text.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let classes = parts.count == 2 ? (try? ArgumentConversion.commaSeparated(parts[1])) ?? [] : []
      guard parts.count == 2, !parts[0].isEmpty, !classes.isEmpty else {
        throw UsageError(message: "\(place): the read '\(text)' is not ROOT=CLASS,CLASS,…")
      }
      guard reads[parts[0]] == nil else {
        throw UsageError(message: "\(place): the read of a '\(parts[0])' root is given twice")
      }
      reads[parts[0]] = classes
    }
    return reads
  }

  static let command = Command(spec: spec) { arguments, context in
    try OutputWriting.check(arguments[output] ?? arguments[update])
    var options = producerOptions(arguments, toolName: context.toolName)
    options.rootClass = arguments[rootClass]
    options.archivesDirectory = arguments[SharedOptions.archives]
    var readLines = arguments[read].map { (text: $0, place: Place(file: "--read")) }
    if let file = arguments[reads] {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw CommandFailure(file: file, category: .unreadable, message: "cannot read the reads")
      }
      let lines = String(decoding: data, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      readLines += lines.enumerated().map {
        (text: String($0.element), place: Place(file: file, line: $0.offset + 1, column: 0))
      }
    }
    options.reads = try parseReads(readLines)
    (options.classMap, options.moduleRenames) = try teamClassMap(
      arguments[classMap], files: arguments[classMapFile],
      manifest: arguments[output] ?? arguments[update], console: context.console)
    var registered = Set(context.configuration.registry.classNames)
    if let name = arguments[registry], name != HarnessWorker.defaultRegistryName {
      guard let named = context.configuration.additionalRegistries[name] else {
        let served = context.configuration.workerRegistries.keys.sorted().joined(separator: ", ")
        throw UsageError(message: "Unknown registry '\(name)'; this harness serves: \(served)")
      }
      registered = Set(named.classNames)
      options.registry = name
    }
    let archivesFolder = arguments[SharedOptions.archives]
    var files: [String] = []
    var snapshots: [ManifestAuthor.KeychainSnapshotInput] = []
    for path in arguments[archiveFiles] {
      guard ManifestAuthor.isKeychainSnapshot(path, archivesDirectory: archivesFolder) else {
        files.append(path)
        continue
      }
      if arguments[update] != nil {
        throw UsageError(
          message: "--update takes archive files; '\(path)' is a Keychain snapshot: author a "
            + "manifest for it without --update")
      }
      do throws(MigrationError) {
        snapshots.append(
          try ManifestAuthor.KeychainSnapshotInput(path: path, archivesDirectory: archivesFolder))
      } catch {
        throw CommandFailure(error)
      }
    }
    let (inputs, problems) = ManifestAuthor.inputs(
      paths: files, archivesDirectory: archivesFolder)
    ManifestDiagnosticsPrinter.print(problems, to: context.console)
    guard problems.isEmpty else { return .unusable }
    var verifier = Verifier(
      registry: context.configuration.registry, runner: context.configuration.runner(),
      paths: context.configuration.worker.paths)
    verifier.namedRegistries = context.configuration.namedRegistries()
    let author = ManifestAuthor(
      options: options, registeredClasses: registered, verifier: verifier)
    let result: ManifestAuthor.Result
    if let existing = arguments[update] {
      guard let data = FileManager.default.contents(atPath: existing) else {
        throw CommandFailure(
          file: existing, category: .unreadable, message: "cannot read the manifest")
      }
      result = author.update(
        existingText: String(decoding: data, as: UTF8.self), file: existing, with: inputs,
        schema: try SchemaOption.source(arguments[SchemaOption.option]))
    } else {
      result = author.author(
        inputs, keychainSnapshots: snapshots, file: arguments[output] ?? "<stdout>")
    }
    ManifestDiagnosticsPrinter.print(result.diagnostics, to: context.console)
    guard !result.text.isEmpty else { return .unusable }
    try OutputWriting.write(
      result.text,
      to: arguments[output] ?? arguments[update],
      console: context.console)
    let failed = result.diagnostics.contains { $0.severity == .error }
    return failed || !result.changedArchives.isEmpty ? .findings : .success
  }
}
