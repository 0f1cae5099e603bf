import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation

/// `archive-harness coredata preflight STORE --model MODEL`: reads every row of every
/// transformable attribute the way its value transformer would, and names the rows a secure
/// transformer would turn into `nil`; it writes nothing.
enum CoreDataPreflightCommand {
  static let spec = CommandSpec(
    name: "coredata preflight",
    abstract: "Name the rows a Core Data store's secure value transformers would turn into nil.",
    discussion: """
        STORE is a Core Data SQLite store (Z_PRIMARYKEY, Z_METADATA), opened read-only:
        nothing is written, not even a journal or -shm. --model is the app's model: a
        .xcdatamodeld folder (its current version), a .xcdatamodel folder, its contents
        file, or a compiled .momd folder or .mom file.
        For every Transformable attribute the report gives its valueTransformerName:
        none (the deprecated default, NSKeyedUnarchiveFromData), NSSecureUnarchiveFromData,
        or a custom name, and its customClassName. Every row of its column is then read as
        the transformer would read it: the root's class, and below Foundation collections
        their elements' and keys' classes, must each be in allowedTopLevelClasses; and the
        harness coder decodes the row on its legacy path and on its secure path with that
        list. The list checked is NSSecureUnarchiveFromData's defaults (NSArray,
        NSDictionary, NSSet, NSString, NSNumber, NSDate, NSData, NSURL, NSUUID, NSNull)
        for it and, proposed, for the deprecated default; a custom subclass's list is
        given with --allowed-classes Entity.attribute=Class,Class (without it, the
        defaults are proposed, and rows in a format of the transformer's own are
        counted, not read).
        Per attribute it reports the minimal allowedTopLevelClasses that decodes every
        row, each row (Z_PK) that would become nil and why (the class that is not
        allowed, at which key path), and the NSSecureUnarchiveFromDataTransformer
        subclass to write, with its registration.
        Classes this harness has not registered are checked by their archived names; a
        team's own harness executable registers them and decodes them too, in its decode
        worker: an init?(coder:) that traps loses that row (decoder-crashed), not the
        command.
        To check an attribute on every model change, pin it in a manifest with
        <coreDataAttribute> (the store by checksum, the model, the transformer, the row
        count and the accepted lost rows); verify then checks it as a case.
        With --author FILE, it also drafts that manifest, in a new file (an existing
        one is refused, nothing is replaced): one pin per transformable attribute, the
        store and model relative to --archives (both must be inside it), the store's
        SHA-256, the model's transformer and customClassName, and the row count; a
        custom transformer's allowedClass list (--allowed-classes, or else the minimal
        one, its rows checked again with it) marked REVIEW. A row that would be lost is
        never pinned as accepted: it is a comment holding the <lostRow .../> to paste if
        the loss is accepted, and verify fails on it until then. verify passes on the
        manifest when no row is lost.
        Text output may change between versions; --format json is stable
        (schemas/coredata-preflight.schema.json).
      """,
    arguments: [store],
    options: [
      model, allowedClasses, format, author, VerifyCommand.archives, ManifestAuthorCommand.app,
      ManifestAuthorCommand.version, ManifestAuthorCommand.platform,
      ManifestAuthorCommand.produced, ManifestAuthorCommand.provenance,
    ],
    exitStatus: """
        0  no row would be lost (and the manifest was written)
        1  a row would become nil under the declared or proposed transformer, or under
           a drafted pin (the manifest is written, the row in a comment)
        2  the preflight could not proceed (bad arguments, an unreadable or malformed
           model, a store that is not SQLite or not Core Data, a model attribute with no
           column, no decode worker), or --author could not write: the file exists, or
           the store or model is outside the archives folder; nothing is written
      """)

  static let store = Argument.single("store", help: "A Core Data SQLite store.")
  static let model = Option<String>.required(
    "model", valueName: "MODEL",
    help: "The model: a .xcdatamodeld or .xcdatamodel folder, a contents file, a .momd or a .mom.")
  static let allowedClasses = Option<[String]>.repeating(
    "allowed-classes", valueName: "ATTRIBUTE=CLASSES",
    help:
      "A custom transformer's allowedTopLevelClasses, such as Book.cover=NSArray,Module.Cover (repeatable)."
  )
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Output format.",
    default: TransformerPreflightReportWriter.Format.text)
  static let author = Option<String?>.optional(
    "author", valueName: "FILE",
    help:
      "Also draft a manifest pinning every transformable attribute (<coreDataAttribute>), in a new file."
  )

  static let command = Command(spec: spec) { arguments, context in
    let lists = try parseAllowedClasses(arguments[allowedClasses])
    let modelPath = arguments[model]
    let coreDataModel: CoreDataModel
    do throws(CoreDataModelError) {
      coreDataModel = try CoreDataModelReader.read(path: modelPath)
    } catch {
      throw CommandFailure(place: error.place, category: .invalidModel, message: error.message)
    }
    let manifestPath = arguments[author]
    var pinPaths: (store: String, model: String)?
    var archivesDirectory = ManifestFolder.archivesFolder
    if let manifestPath {
      if manifestPath == "-" {
        throw UsageError(message: "--author needs a file: the preflight itself goes to stdout")
      }
      try OutputWriting.checkNew(manifestPath)
      // As verify finds it: LegacyArchives beside the nearest manifests folder.
      if let given = arguments[VerifyCommand.archives] {
        archivesDirectory = given
      } else {
        do throws(ManifestFolder.NotFound) {
          archivesDirectory =
            try ManifestFolder.locate(
              from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            ).archives
        } catch {
          throw CommandFailure(
            file: ManifestFolder.manifestsFolder, category: .invalidOptions,
            message:
              "--author needs the archives folder, LegacyArchives beside the nearest manifests "
              + "folder, but there is no manifests folder here or above (looked in "
              + error.searched.joined(separator: ", ") + "); give --archives DIR")
        }
      }
      do throws(MigrationError) {
        pinPaths = try ManifestAuthor.coreDataPinPaths(
          store: arguments[store], model: modelPath, archivesDirectory: archivesDirectory)
      } catch {
        throw CommandFailure(error)
      }
    }
    let known = Set(coreDataModel.transformables.map { "\($0.entity).\($0.name)" })
    for name in lists.keys.sorted() where !known.contains(name) {
      throw UsageError(
        message:
          "--allowed-classes names \(name), which is not a transformable attribute of the model; its transformable attributes are: \(known.isEmpty ? "(none)" : known.sorted().joined(separator: ", "))"
      )
    }
    let attributes = coreDataModel.transformables.map { attribute in
      TransformerPreflight.Attribute(
        entity: attribute.entity, attribute: attribute.name,
        declaredTransformer: attribute.valueTransformerName,
        customClassName: attribute.customClassName, modelPlace: attribute.place.description,
        allowedClasses: lists["\(attribute.entity).\(attribute.name)"],
        isTransient: attribute.isTransient)
    }
    let preflight = TransformerPreflight(
      storePath: arguments[store], runner: context.configuration.preflightRunner())
    let report: TransformerPreflight.Report
    do throws(MigrationError) {
      report = try preflight.run(attributes, model: coreDataModel.file)
    } catch {
      throw CommandFailure(error)
    }
    let writer = TransformerPreflightReportWriter(
      format: arguments[format], toolName: context.toolName)
    context.console.output(writer.render(report))
    guard let manifestPath, let pinPaths else {
      return report.lostRowCount > 0 ? .findings : .success
    }
    var options = ManifestAuthorCommand.producerOptions(arguments, toolName: context.toolName)
    options.archivesDirectory = archivesDirectory
    let drafted: (result: ManifestAuthor.Result, lostRows: Int)
    do throws(MigrationError) {
      drafted = try ManifestAuthor(options: options).coreDataManifest(
        store: pinPaths.store, model: pinPaths.model, report: report, preflight: preflight,
        file: manifestPath)
    } catch {
      throw CommandFailure(error)
    }
    ManifestDiagnosticsPrinter.print(drafted.result.diagnostics, to: context.console)
    try OutputWriting.writeNew(drafted.result.text, to: manifestPath)
    let pins = report.attributes.filter { $0.skipped == nil }.count
    context.console.diagnose(
      .note, file: manifestPath, category: nil,
      "manifest written: \(pins) pinned attributes; "
        + (drafted.lostRows == 0
          ? "verify passes on it while the store and model stay as they are"
          : "\(drafted.lostRows) rows would become nil, each in a comment with the <lostRow> to "
            + "paste if the loss is accepted; verify fails until then"))
    let failed = drafted.result.diagnostics.contains { $0.severity == .error }
    return report.lostRowCount > 0 || drafted.lostRows > 0 || failed ? .findings : .success
  }

  /// `Entity.attribute=Class,Class` options, by attribute.
  static func parseAllowedClasses(_ given: [String]) throws -> [String: [String]] {
    var lists: [String: [String]] = [:]
    for text in given {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, parts[0].contains("."),
        !parts[1].trimmingCharacters(in: .whitespaces).isEmpty
      else {
        throw UsageError(
          message:
            "--allowed-classes takes Entity.attribute=Class,Class (such as Book.cover=NSArray,Module.Cover); got '\(text)'"
        )
      }
      let classes = parts[1].split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      }.filter { !$0.isEmpty }
      lists[parts[0], default: []] += classes
    }
    return lists
  }
}

extension TransformerPreflightReportWriter.Format: ArgumentValue {}

extension DiagnosticCategory {
  /// A Core Data model that cannot be read.
  static let invalidModel = DiagnosticCategory(rawValue: "invalid-model")
}
