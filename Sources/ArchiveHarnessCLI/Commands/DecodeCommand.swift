import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation

/// `archive-harness decode FILE`: what the app would see for one archive, on each path.
enum DecodeCommand {
  static let spec = CommandSpec(
    name: "decode",
    abstract: "Show what the app would see for one archive on each decode path.",
    discussion: """
        Every path runs in a worker process, so a trap in Foundation or in an app's
        init?(coder:) is reported as 'crashed' rather than ending the harness; a
        worker that runs out of its memory limit (ARCHIVE_HARNESS_WORKER_MEMORY_MIB,
        1024 MiB by default) is 'limit-exceeded'. Foundation's paths do not run on
        an archive the harness's reader refuses (as in verify).
        A $top key that holds $null decodes to nil, as Apple's unarchiver gives it:
        printed as nil, and a finding, since the app gets no object.
        A property list that is not an archive but holds archives as data values
        (a preferences file) is named, with the survey command that reads them.
        The allowed classes and class map come from --manifest, from the options,
        or both (options add to the manifest's).
        --key names a $top key the app reads; give it once per key. Without it
        the archive's root is read, or, when the archive has no $top.root, every
        top key, and the output says so.
      """,
    arguments: [file],
    options: [
      path, key, manifest, allowedClasses, classMap, SchemaOption.option, registry, format,
    ],
    exitStatus: """
        0  every requested path decoded to an object
        1  a path rejected the archive or crashed, or decoded to nil
        2  the input is unusable (unreadable file, invalid manifest, bad arguments)
      """)

  /// The decode paths `--path` selects: one, or all of them.
  enum PathSelection: ArgumentValue {
    /// Every path.
    case all
    /// One path.
    case one(DecodePath)

    init(argument: String) throws(ArgumentValueError) {
      if argument == "all" {
        self = .all
      } else if let path = DecodePath(rawValue: argument) {
        self = .one(path)
      } else {
        throw ArgumentValueError("expected one of: \(Self.names.joined(separator: ", "))")
      }
    }

    var argumentText: String {
      switch self {
      case .all: "all"
      case .one(let path): path.rawValue
      }
    }

    /// Every value `--path` takes: each path's name, then `all`.
    static let names = DecodePath.allCases.map(\.rawValue) + ["all"]

    static var allowedValues: [String]? { names }

    /// The paths selected, in the order they run.
    var paths: [DecodePath] {
      switch self {
      case .all: DecodePath.allCases
      case .one(let path): [path]
      }
    }
  }

  /// Where the top keys a decode reads came from.
  enum KeySource: String {
    /// `--key` options.
    case given
    /// The archive's `$top.root`, the default.
    case root
    /// Every top key, because the archive has no `$top.root`.
    case everyTopKey = "every-top-key"
  }

  /// The top keys to read: the given ones, else `root`, else every top key of the archive.
  static func topKeys(given: [String], bytes: [UInt8]) -> (keys: [String], source: KeySource) {
    if !given.isEmpty { return (given, .given) }
    guard let archive = try? KeyedArchive(bytes: bytes),
      archive.top["root"] == nil, !archive.top.keys.isEmpty
    else { return (["root"], .root) }
    return (HarnessDecoder.defaultTopKeys(of: archive), .everyTopKey)
  }

  /// The output formats.
  enum Format: String, CaseIterable, ArgumentValue {
    /// The outcomes, for people.
    case text
    /// JSON, stable.
    case json
  }

  static let file = Argument.single("file", help: "The archive to decode.")
  static let path = Option.defaulted(
    "path", valueName: "PATH", help: "The decode path.", default: PathSelection.all)
  static let key = Option<[String]>.repeating(
    "key", valueName: "KEY",
    help: "A $top key the app reads, such as $0 (repeatable; default: root, or every top key).")
  static let manifest = Option<String?>.optional(
    "manifest", valueName: "FILE", help: "Take allowed classes and the class map from a manifest.")
  static let allowedClasses = Option.defaulted(
    "allowed-classes", valueName: "CLASSES",
    help: "Comma-separated class names the secure read allows (e.g. NSArray,ProfileKit.Memo).",
    default: [], defaultDescription: nil, convert: ArgumentConversion.commaSeparated)
  static let classMap = Option<ClassNameMap?>.optional(
    "class-map", valueName: "MAP",
    help: "Comma-separated OLD=NEW class names (ProfilesApp.*=ProfileKit.* maps a module).",
    convert: { text throws(ArgumentValueError) in
      do throws(ClassNameMapError) {
        return try ClassNameMap(parsing: text)
      } catch {
        throw ArgumentValueError("\(error)")
      }
    })
  static let registry = Option.defaulted(
    "registry", valueName: "NAME",
    help: "Decode with another registry the worker serves, such as ProfilesApp-1 (v1 classes).",
    default: HarnessWorker.defaultRegistryName)
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Output format.", default: Format.text)

  static let command = Command(spec: spec) { arguments, context in
    let file = arguments[DecodeCommand.file]
    let bytes = try FileReading.bytes(at: file, limit: 64 << 20)
    var allowed: [String] = []
    var classMap = ClassNameMap.empty
    if let manifestPath = arguments[manifest] {
      let schema = try SchemaOption.source(arguments[SchemaOption.option])
      let result = ManifestLoader.load(
        path: manifestPath, archivesDirectory: ".", schema: schema,
        registeredClasses: Set(context.configuration.registry.classNames))
      let errors = result.diagnostics.filter { $0.severity == .error && $0.category != .semantic }
      ManifestDiagnosticsPrinter.print(errors, to: context.console)
      guard let manifest = result.manifest, errors.isEmpty else { return .unusable }
      // The entry that pins this very archive, by its checksum, reads with its own allowed
      // classes, as verify reads it; otherwise the manifest's.
      let digest = SHA256Checksum.hex(bytes)
      let entry = manifest.archives.first { $0.sha256.lowercased() == digest }
      allowed =
        (entry.map(manifest.allowedClasses(for:)) ?? manifest.allowedClasses)?
        .map(\.name) ?? []
      classMap = Verifier.classMap(of: manifest)
    }
    allowed += arguments[allowedClasses]
    if let given = arguments[DecodeCommand.classMap] {
      classMap = classMap.merging(given)
    }
    let paths = arguments[path].paths
    let registryName = arguments[registry]
    guard context.configuration.workerRegistries[registryName] != nil else {
      throw UsageError(
        message:
          "Unknown registry '\(registryName)'; this harness serves: \(context.configuration.workerRegistries.keys.sorted().joined(separator: ", "))"
      )
    }
    let runner = context.configuration.runner(registryName: registryName)
    let (keys, keySource) = topKeys(given: arguments[key], bytes: bytes)
    var outcomes: [(DecodePath, Result<DecodeOutcome, WorkerProtocolError>)] = []
    for path in paths {
      let outcome = Result { () throws(WorkerProtocolError) -> DecodeOutcome in
        try runner.outcome(
          bytes, path: path, allowedClasses: allowed, classMap: classMap, topKeys: keys)
      }
      outcomes.append((path, outcome))
    }
    var advice: String? = nil
    if let legacy = try? outcomes.first(where: { $0.0 == .legacy })?.1.get(),
      let secure = try? outcomes.first(where: { $0.0 == .secure })?.1.get(),
      legacy.decodedValue != nil, secure.rejection != nil
    {
      do {
        advice = try runner.advice(bytes, allowedClasses: allowed, classMap: classMap)
      } catch {
        advice = "no allowedClasses advice: \(error)"
      }
    }
    let nilKeys = HarnessDecoder.nilKeys(
      in: outcomes.compactMap { try? $0.1.get().decodedValue }, keys: keys)
    let heldArchives =
      outcomes.contains { (try? $0.1.get())?.decodedValue == nil }
      ? ArchivesInPropertyList.find(in: bytes) : nil
    if arguments[format] == .json {
      var members: [(String, JSONValue)] = [
        ("serializationVersion", .integer(1)), ("file", .string(file)),
        ("allowedClasses", .array(allowed.map(JSONValue.string))),
        ("keys", .array(keys.map(JSONValue.string))), ("keysSource", .string(keySource.rawValue)),
        ("paths", .object(outcomes.map { ($0.0.rawValue, json($0.1)) })),
      ]
      if let advice { members.append(("advice", .string(advice))) }
      if let heldArchives {
        members.append(
          (
            "propertyListArchives",
            heldArchives.jsonValue(file: file, toolName: context.toolName)
          ))
      }
      context.console.output(JSONValue.object(members).render(sortedKeys: true) + "\n")
    } else {
      var text = "\(file)\n"
      switch keySource {
      case .root: break
      case .given: text += "  keys: \(keys.joined(separator: ", "))\n"
      case .everyTopKey:
        text +=
          "  note: the archive has no $top.root; decoding every top key: "
          + keys.joined(separator: ", ") + "\n"
      }
      for (path, result) in outcomes {
        guard case .success(let outcome) = result else {
          if case .failure(let error) = result {
            text += "  \(path.rawValue): \(OutcomeKind.notRun) [\(notRunCategory(error))]\n"
            text += "    \(error)\n"
          }
          continue
        }
        text += "  \(path.rawValue): \(outcome.kind)"
        switch outcome {
        case .decoded(let value): text += "\n    \(value)\n"
        case .rejected(let rejection):
          text +=
            " [\(rejection.category)] at \(rejection.keyPath)\n    \(rejection.message)\n"
        case .crashed(let crash):
          text += " (\(crash.signalName))\n" + TextReportWriter.messageLines(crash.summary)
        }
      }
      if let advice { text += "  advice: \(advice)\n" }
      if !nilKeys.isEmpty { text += "  note: " + HarnessDecoder.nilNote(nilKeys) + "\n" }
      if let heldArchives {
        text += "  hint: " + heldArchives.hint(file: file, toolName: context.toolName) + "\n"
      }
      context.console.output(text)
    }
    // A path that could not run means the run could not proceed.
    if outcomes.contains(where: { (try? $0.1.get()) == nil }) { return .unusable }
    // A decode to nil is a finding: the app gets no object.
    guard nilKeys.isEmpty else { return .findings }
    return outcomes.allSatisfy { (try? $0.1.get())?.decodedValue != nil } ? .success : .findings
  }

  static func json(_ result: Result<DecodeOutcome, WorkerProtocolError>) -> JSONValue {
    switch result {
    case .success(let outcome):
      return json(outcome)
    case .failure(let error):
      return .object([
        ("outcome", .string(OutcomeKind.notRun.rawValue)),
        ("category", .string(notRunCategory(error).description)),
        ("message", .string(error.description)), ("object", .null),
      ])
    }
  }

  /// Why a path did not run, in the report's vocabulary.
  static func notRunCategory(_ error: WorkerProtocolError) -> PathResult.Category {
    error.kind == .unavailable ? .workerUnavailable : .workerFailed
  }

  static func json(_ outcome: DecodeOutcome) -> JSONValue {
    let kind = JSONValue.string(outcome.kind.rawValue)
    switch outcome {
    case .decoded(let value):
      return .object([
        ("outcome", kind), ("category", .null), ("message", .null), ("object", value.jsonValue),
      ])
    case .rejected(let rejection):
      return .object([
        ("outcome", kind), ("category", .string(rejection.category.rawValue)),
        ("keyPath", .string(rejection.keyPath)), ("message", .string(rejection.message)),
        ("object", .null),
      ])
    case .crashed(let crash):
      return .object([
        ("outcome", kind), ("category", .string(crash.cause.description)),
        ("signal", .integer(Int64(crash.signal))), ("message", .string(crash.summary)),
        ("object", .null),
      ])
    }
  }
}
