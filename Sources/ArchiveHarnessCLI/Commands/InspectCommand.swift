import ArchiveCoder
import ArchiveFormat

/// `archive-harness inspect FILE`: the archive as a tree, its graph as JSON, or the raw property list as JSON.
enum InspectCommand {
  static let spec = CommandSpec(
    name: "inspect",
    abstract: "Show a keyed archive as a tree of key paths, classes and values.",
    discussion: """
        The tree prints each object once; later references show '→ #N (shared)'
        and references back into an object being printed show '→ #N (cycle)'.
        A property list that is not an archive but holds archives as data values
        (a preferences file) is named in a note, with the survey command that
        reads them.
        Text output may change between versions; --format json is stable.
      """,
    arguments: [file], options: [format], flags: [raw])

  /// The output formats.
  enum Format: String, CaseIterable, ArgumentValue {
    /// The tree, for people.
    case text
    /// JSON, stable.
    case json
  }

  static let file = Argument.single(
    "file", help: "The archive to read (binary or XML property list).")
  static let format = Option.defaulted(
    "format", valueName: "FORMAT", help: "Output format.", default: Format.text)
  static let raw = Flag(
    name: "raw", help: "Show the property list itself rather than the archive graph.")

  static let command = Command(spec: spec) { arguments, context in
    let path = arguments[file]
    let limits = ArchiveLimits.default
    let bytes = try FileReading.bytes(at: path, limit: limits.propertyList.maximumInputSize)
    let json = arguments[format] == .json
    if arguments[raw] {
      let reader = PropertyListReader(limits: limits.propertyList)
      do throws(PropertyListError) {
        if json {
          // Streamed from the bytes once they are checked: no tree, nothing written on error.
          var writer = JSONWriter(sortedKeys: false, sink: context.console.output)
          try reader.writeJSON(bytes, to: &writer)
          writer.endLine()
        } else {
          context.console.output(XMLPropertyListWriter().write(try reader.read(bytes)))
        }
      } catch {
        throw CommandFailure(
          place: error.place.in(path),
          category: DiagnosticCategory(rawValue: error.code.name), message: error.message)
      }
      return .success
    }
    if json, let checked = checkedInPlace(bytes, limits: limits) {
      // A binary archive: written from its bytes one object at a time, with no tree and no graph.
      var writer = JSONWriter(sortedKeys: false, sink: context.console.output)
      ArchiveJSON.write(checked, to: &writer)
      writer.endLine()
      return .success
    }
    let archive: KeyedArchive
    do {
      archive = try readArchive(bytes, path: path, limits: limits)
    } catch var failure as CommandFailure {
      // A preferences file holds archives rather than being one: say so, and what reads them.
      if let held = ArchivesInPropertyList.find(in: bytes, limits: limits) {
        failure.notes.append(held.hint(file: path, toolName: context.toolName))
      }
      throw failure
    }
    if json {
      var writer = JSONWriter(sortedKeys: false, sink: context.console.output)
      ArchiveJSON.write(archive, to: &writer)
      writer.endLine()
    } else {
      context.console.output(
        ArchiveTreePrinter(limits: limits).render(archive)
          + unknownClassesText(archive, registry: context.configuration.registry))
    }
    return .success
  }

  /// The classes this harness cannot read, with their archived fields and the two fixes.
  static func unknownClassesText(_ archive: KeyedArchive, registry: ClassRegistry) -> String {
    let report = UnknownClassReport(archive: archive, registry: registry, classMap: .empty)
    guard !report.classes.isEmpty else { return "" }
    var text = "\nclasses this harness does not read:\n"
    for unknown in report.classes {
      let objects = unknown.objectCount == 1 ? "1 object" : "\(unknown.objectCount) objects"
      text += "  \(unknown.name) (\(objects)"
      if !unknown.superclassNames.isEmpty {
        text += ", archived chain: " + unknown.superclassNames.joined(separator: ", ")
      }
      text += ")\n"
      text +=
        "    fields: "
        + (unknown.fieldKeys.isEmpty ? "none" : unknown.fieldKeys.joined(separator: ", ")) + "\n"
      text += "    hint: " + UnknownClassReport.hint(for: unknown.name) + "\n"
    }
    return text
  }

  /// A binary archive read in place and checked whole, or `nil` for an XML list or any error:
  /// the tree path then reads the bytes again and reports the error, as it always has.
  static func checkedInPlace(_ bytes: [UInt8], limits: ArchiveLimits) -> CheckedArchiveView? {
    (try? CheckedArchiveView(bytes: bytes, limits: limits)) ?? nil
  }

  /// Reads an archive, turning its error into a diagnostic at `FILE:PLACE`.
  static func readArchive(_ bytes: [UInt8], path: String, limits: ArchiveLimits) throws
    -> KeyedArchive
  {
    do throws(KeyedArchiveError) {
      return try KeyedArchive(bytes: bytes, limits: limits)
    } catch {
      throw CommandFailure(
        place: error.place.in(path),
        category: DiagnosticCategory(
          rawValue: error.propertyListError?.code.name ?? error.code.name), message: error.message)
    }
  }
}
