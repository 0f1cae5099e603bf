import ArchiveFormat
import ArchiveHarness
import ArchiveManifest

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
        Text output may change between versions; --format json is stable
        (schemas/coredata-preflight.schema.json).
      """,
    arguments: [store],
    options: [model, allowedClasses, format],
    exitStatus: """
        0  no row would be lost
        1  a row would become nil under the declared or proposed transformer
        2  the preflight could not proceed (bad arguments, an unreadable or malformed
           model, a store that is not Core Data, a model attribute with no column, no
           decode worker)
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

  static let command = Command(spec: spec) { arguments, context in
    let lists = try parseAllowedClasses(arguments[allowedClasses])
    let modelPath = arguments[model]
    let coreDataModel: CoreDataModel
    do throws(CoreDataModelError) {
      coreDataModel = try CoreDataModelReader.read(path: modelPath)
    } catch {
      throw CommandFailure(place: error.place, category: .invalidModel, message: error.message)
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
    return report.lostRowCount > 0 ? .findings : .success
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
