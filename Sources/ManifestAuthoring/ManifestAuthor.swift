import Checksum
import Foundation
import KeyedArchive
import Manifest
import ManifestXML
import TextOutput

/// Writes manifests from archives: a complete new manifest, or new entries added to an existing one.
///
/// A new manifest holds a class-map skeleton for every class name found
/// (superclass chains included), the allowed classes the secure path needs
/// (every class of an instance reachable from the root: the root, nested and
/// container classes), the root class, checksums, and an expectation for each
/// reachable leaf, up to ``Options/maximumExpectationsPerArchive``. It does not
/// guess decode outcomes of archives that read; add `legacy`/`secure`/`foundation`
/// elements by hand. An archive that does not read as a keyed archive (truncated,
/// an unknown `$version`, another archiver) gets the rejection every path must give.
///
/// Given the classes an executable registers, it maps every archived name to the
/// registered class it must mean (``RegisteredClassMatcher``), names only registered
/// classes in `allowedClasses` and `rootClass`, and reports the names it could not
/// map, as diagnostics and as comments in the class map.
///
/// ```swift
/// let (inputs, problems) = ManifestAuthor.inputs(
///   paths: ["ProfilesApp-1.2/alice.archive"], archivesDirectory: "LegacyArchives")
/// let result = ManifestAuthor().author(inputs)
/// try SafeFileWriter.write(result.text, to: "manifests/ProfilesApp-1.2.xml")  // FileOutput
/// ```
public struct ManifestAuthor: Sendable {
  /// What authoring writes and where it stops.
  public struct Options: Sendable {
    /// The producing app's name.
    public var app = "unknown"
    /// The producing app's version.
    public var version = "unknown"
    /// The platform the app ran on.
    public var platform = "unknown"
    /// The date the archives were produced (`YYYY-MM-DD`); today, in UTC, when nil.
    public var produced: String?
    /// Where the archives came from.
    public var provenance: String?
    /// The most expectations written for one archive; later leaves are counted, not listed.
    public var maximumExpectationsPerArchive = 500
    /// The deepest nesting walked below an archive's root.
    public var maximumDepth = 32
    /// Data up to this many bytes is written as base64, longer data as a sha256 digest.
    public var maximumInlineDataLength = 64
    /// Strings up to this many UTF-16 units are written out, longer ones as a count.
    public var maximumStringLength = 1_000

    /// Creates options with the defaults.
    public init() {}
  }

  /// One archive to author: its path as the manifest should write it, and its bytes.
  public struct Input: Sendable {
    /// The path relative to the archives folder.
    public var path: String
    /// The file's bytes.
    public var bytes: [UInt8]

    /// Creates an input.
    public init(path: String, bytes: [UInt8]) {
      self.path = path
      self.bytes = bytes
    }
  }

  /// A written manifest and the problems met on the way.
  public struct Result: Sendable {
    /// The manifest text; empty when nothing could be written.
    public var text: String
    /// Archives that could not be read, and entries left as they were.
    public var diagnostics: [ManifestDiagnostic]
    /// The paths of the archive entries added.
    public var addedArchives: [String]
  }

  /// What authoring writes and where it stops.
  public var options: Options
  /// The class names the executable registers, or nil to write an identity class-map skeleton.
  public var registeredClasses: Set<String>?

  /// Creates an author.
  ///
  /// - Parameters:
  ///   - options: What authoring writes and where it stops.
  ///   - registeredClasses: The class names the executable registers (its model classes and
  ///     Foundation's). With them, archived names are mapped to registered classes and only
  ///     registered classes are allowed; without them, every archived name is written as is.
  public init(options: Options = Options(), registeredClasses: Set<String>? = nil) {
    self.options = options
    self.registeredClasses = registeredClasses
  }

  /// Returns a file's path relative to the archives folder, as a manifest entry writes it.
  ///
  /// Both paths are resolved (symbolic links included) first, so
  /// `LegacyArchives/../LegacyArchives/v1/a.archive` gives `v1/a.archive`.
  ///
  /// - Parameters:
  ///   - path: A path as the user typed it, absolute or relative to the working folder.
  ///   - archivesDirectory: The archives folder.
  /// - Returns: The relative path, or nil when the file is missing or outside the folder.
  public static func relativePath(of path: String, archivesDirectory: String) -> String? {
    guard let file = ManifestReference.realPath(path),
      let root = ManifestReference.realPath(archivesDirectory)
    else { return nil }
    let prefix = root.hasSuffix("/") ? root : root + "/"
    guard file.hasPrefix(prefix) else { return nil }
    return String(file.dropFirst(prefix.count))
  }

  /// Reads archive files for authoring.
  ///
  /// - Parameters:
  ///   - paths: Paths relative to `archivesDirectory`.
  ///   - archivesDirectory: The archives folder.
  /// - Returns: The inputs that could be read, and a diagnostic for each that could not.
  public static func inputs(paths: [String], archivesDirectory: String) -> (
    [Input], [ManifestDiagnostic]
  ) {
    var inputs: [Input] = []
    var diagnostics: [ManifestDiagnostic] = []
    for path in paths {
      let full = archivesDirectory.isEmpty ? path : "\(archivesDirectory)/\(path)"
      if let bytes = ArchiveFile.read(full) {
        inputs.append(Input(path: path, bytes: bytes))
      } else {
        diagnostics.append(
          ManifestDiagnostic(
            .error, .io, at: ManifestLocation(file: full, line: 0, column: 0),
            "cannot read the archive (tried '\(full)'; archive paths are relative to the "
              + "archives folder, which --archives sets)"))
      }
    }
    return (inputs, diagnostics)
  }

  /// Writes a complete manifest for the archives.
  ///
  /// Archives that do not read as keyed archives are left out, each with a diagnostic.
  public func author(_ inputs: [Input]) -> Result {
    var diagnostics: [ManifestDiagnostic] = []
    let surveyed = survey(inputs, diagnostics: &diagnostics)
    var classNames: Set<String> = []
    var allowed: Set<String> = []
    for item in surveyed {
      classNames.formUnion(item.survey.classNames)
      allowed.formUnion(item.survey.reachableClasses)
    }
    let plan = classPlan(
      classNames, reachable: allowed, existing: [:], surveyed: surveyed, diagnostics: &diagnostics)
    allowed = Set(allowed.compactMap { plan.current[$0] })
    let roots = Set(
      surveyed.filter { $0.survey.readError == nil }.map {
        $0.survey.rootClassName.flatMap(plan.root)
      }
    )
    let sharedRoot: String? = roots.count == 1 ? roots.first ?? nil : nil

    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    text += "<!-- Written by archive-harness manifest author. Edit freely: "
    text += "updating with 'manifest author' keeps your edits and comments. -->\n"
    text +=
      "<manifest xmlns=\"\(ManifestSchema.namespace)\" schemaVersion=\"\(ManifestSchema.version)\">\n"
    text += "  <producer app=\"\(XMLText.escaped(options.app))\""
    text += " version=\"\(XMLText.escaped(options.version))\""
    text += " platform=\"\(XMLText.escaped(options.platform))\""
    let produced = options.produced ?? Self.today()
    if !XSDValue.isDateOrDateTime(produced) {
      diagnostics.append(
        ManifestDiagnostic(
          .error, .semantic, at: ManifestLocation(file: "<options>", line: 0, column: 0),
          "produced '\(produced)' is not a date (YYYY-MM-DD) or date and time"))
    }
    text += " produced=\"\(XMLText.escaped(produced))\">\n"
    let provenance =
      options.provenance
      ?? "Authored by archive-harness manifest author from \(surveyed.count) archives."
    text += "    <provenance>\(XMLText.escaped(provenance))</provenance>\n"
    text += "  </producer>\n"
    if registeredClasses == nil {
      text +=
        "  <!-- Class-name mapping skeleton: every class name the archives contain, superclass\n"
      text += "       chains included. Change 'to' where the current class has another name. -->\n"
    } else {
      text += "  <!-- Class-name mapping: each archived name that means a registered class of\n"
      text += "       another name. Names no registered class matches are listed as comments. -->\n"
    }
    text += "  <classMap>\n"
    text += plan.rows(indent: "    ", prefix: "")
    text += "  </classMap>\n"
    text += "  <allowedClasses>\n"
    text += classRows(allowed, indent: "    ", prefix: "")
    text += "  </allowedClasses>\n"
    if let sharedRoot, ManifestXMLWriter.isClassName(sharedRoot) {
      text += "  <rootClass name=\"\(XMLText.escaped(sharedRoot))\"/>\n"
    }
    for item in surveyed {
      let root = sharedRoot == nil ? item.survey.rootClassName.flatMap(plan.root) : nil
      text += archiveElement(item, rootClass: root, indent: "  ", prefix: "")
    }
    text += "</manifest>\n"
    return Result(text: text, diagnostics: diagnostics, addedArchives: surveyed.map(\.input.path))
  }

  /// Adds archives that an existing manifest does not list yet, keeping every other byte of it.
  ///
  /// New class names get identity rows in the last inline `classMap`, newly
  /// reachable classes join `allowedClasses`, and each new archive is appended
  /// as an `archive` element after the manifest's last element. Existing
  /// entries, comments and formatting are never touched: the edit is done on
  /// the text, not by regenerating it.
  ///
  /// - Parameters:
  ///   - existingText: The manifest as it is now.
  ///   - file: The manifest's path; `classMapFile` references are relative to its folder.
  ///   - inputs: The archives to add; those already listed are left alone.
  ///   - schema: The XSD, to read the existing manifest; the built-in one unless told otherwise.
  /// - Returns: The edited text, or empty text with diagnostics when the manifest cannot be read.
  public func update(
    existingText: String, file: String, with inputs: [Input],
    schema: ManifestSchema.Source = .builtIn
  )
    -> Result
  {
    let bytes = Array(existingText.utf8)
    let read = XMLDocumentReader.read(
      bytes: bytes, file: file, schema: schema, rootName: "manifest")
    guard let tree = read.tree, let sourceMap = read.sourceMap else {
      return Result(text: "", diagnostics: read.diagnostics, addedArchives: [])
    }
    var diagnostics = read.diagnostics
    var builder = ManifestModelBuilder()
    let manifest = builder.manifest(from: tree, file: file)

    var mapped: [String: String] = [:]
    for mapping in manifest.classMappings { mapped[mapping.archivedName] = mapping.currentName }
    let folder = (file as NSString).deletingLastPathComponent
    let baseDirectory = folder.isEmpty ? "." : folder
    // The same confinement as loading: a reference out of the manifest's folder is not read.
    let references = ManifestReference(baseDirectory: baseDirectory, root: baseDirectory)
    for reference in tree.children(named: "classMapFile") {
      let href = reference[attribute: "href"] ?? ""
      switch references.resolve(href, at: reference.location(ofAttribute: "href")) {
      case .refused(let diagnostic):
        diagnostics.append(diagnostic)
      case .file(let path):
        for mapping in ManifestLoader.loadClassMap(path: path, schema: schema).mappings {
          mapped[mapping.archivedName] = mapping.currentName
        }
      }
    }
    let listed = Set(manifest.archives.map { Self.normalized($0.path) })
    var fresh: [Input] = []
    for input in inputs {
      if listed.contains(Self.normalized(input.path)) {
        diagnostics.append(
          ManifestDiagnostic(
            .note, .semantic, at: ManifestLocation(file: file, line: 0, column: 0),
            "archive '\(input.path)' is already listed; its entry is left as it is"))
      } else {
        fresh.append(input)
      }
    }
    let surveyed = survey(fresh, diagnostics: &diagnostics)

    var classNames: Set<String> = []
    var reachable: Set<String> = []
    for item in surveyed {
      classNames.formUnion(item.survey.classNames)
      reachable.formUnion(item.survey.reachableClasses)
    }
    let plan = classPlan(
      classNames, reachable: reachable, existing: mapped, surveyed: surveyed,
      diagnostics: &diagnostics)
    let allowedNow = Set((manifest.allowedClasses ?? []).map(\.name))
    let newAllowed = Set(reachable.compactMap { plan.current[$0] }).subtracting(allowedNow)

    let root = sourceMap.elements[tree.sourceIndex]
    let prefix =
      root.qualifiedName.contains(":") ? root.qualifiedName.split(separator: ":")[0] + ":" : ""
    let childIndent =
      indentation(of: tree.children.first?.sourceIndex, in: sourceMap, bytes: bytes) ?? "  "
    let rowIndent = childIndent + childIndent
    var edits: [Edit] = []
    var anchorBlock = ""

    if !plan.isEmpty {
      let rows = plan.rows(indent: rowIndent, prefix: prefix)
      if let classMap = tree.children(named: "classMap").last {
        edits.append(
          appendChildren(rows, to: classMap, in: sourceMap, bytes: bytes, prefix: prefix, order: 0))
      } else {
        anchorBlock +=
          "\(childIndent)<\(prefix)classMap>\n\(rows)\(childIndent)</\(prefix)classMap>\n"
      }
    }
    if !newAllowed.isEmpty {
      let rows = classRows(newAllowed, indent: rowIndent, prefix: prefix)
      if let allowedClasses = tree.child(named: "allowedClasses") {
        edits.append(
          appendChildren(
            rows, to: allowedClasses, in: sourceMap, bytes: bytes, prefix: prefix, order: 0))
      } else {
        anchorBlock +=
          "\(childIndent)<\(prefix)allowedClasses>\n\(rows)\(childIndent)</\(prefix)allowedClasses>\n"
      }
    }
    if !anchorBlock.isEmpty,
      let anchor = tree.children.last(where: {
        ["producer", "classMapFile", "classMap"].contains($0.name)
      })
    {
      edits.append(
        Edit(
          offset: sourceMap.elements[anchor.sourceIndex].end, order: 0,
          text: "\n" + String(anchorBlock.dropLast())))
    }
    if !surveyed.isEmpty, let last = tree.children.last {
      var block = ""
      for item in surveyed {
        let rootName = item.survey.rootClassName.flatMap(plan.root)
        let rootClass = rootName == manifest.rootClass?.name ? nil : rootName
        block += archiveElement(item, rootClass: rootClass, indent: childIndent, prefix: prefix)
      }
      edits.append(
        Edit(
          offset: sourceMap.elements[last.sourceIndex].end, order: 1,
          text: "\n" + String(block.dropLast())))
    }

    var output = bytes
    for edit in edits.sorted(by: { ($0.offset, $0.order) > ($1.offset, $1.order) }) {
      output.replaceSubrange(
        edit.offset..<edit.offset + edit.replacedLength, with: Array(edit.text.utf8))
    }
    return Result(
      text: String(decoding: output, as: UTF8.self), diagnostics: diagnostics,
      addedArchives: surveyed.map(\.input.path))
  }

  // MARK: - Pieces

  /// A change to the manifest text: replace `replacedLength` bytes at `offset` by `text`.
  private struct Edit {
    var offset: Int
    var replacedLength = 0
    /// Orders edits at the same offset: a lower order ends up first in the text.
    var order: Int
    var text: String
  }

  struct Surveyed {
    var input: Input
    var survey: ArchiveSurvey
  }

  /// Surveys each input; one that does not read still gets an entry, with a warning.
  private func survey(_ inputs: [Input], diagnostics: inout [ManifestDiagnostic]) -> [Surveyed] {
    var surveyed: [Surveyed] = []
    for input in inputs {
      do {
        let archive = try KeyedArchive(bytes: input.bytes)
        surveyed.append(
          Surveyed(input: input, survey: ArchiveSurvey(archive: archive, options: options)))
      } catch {
        diagnostics.append(
          ManifestDiagnostic(
            .warning, .io, at: ManifestLocation(file: input.path, line: 0, column: 0),
            "not a keyed archive, listed as rejected [\(ArchiveSurvey.category(of: error))] on "
              + "every path: \(error)"))
        surveyed.append(
          Surveyed(input: input, survey: ArchiveSurvey(readError: error, options: options)))
      }
    }
    return surveyed
  }

  private func classRows(_ names: Set<String>, indent: String, prefix: String) -> String {
    names.filter(ManifestXMLWriter.isClassName).sorted().map {
      "\(indent)<\(prefix)class name=\"\(XMLText.escaped($0))\"/>\n"
    }.joined()
  }

  private func archiveElement(_ item: Surveyed, rootClass: String?, indent: String, prefix: String)
    -> String
  {
    let inner = indent + (indent.isEmpty ? "  " : indent)
    let sha = SHA256.hash(item.input.bytes).hexadecimal
    var keysAttribute = ""
    var keysComment: String?
    if let keys = item.survey.decodeKeys, !keys.isEmpty {
      // decodeKeys is a space-separated list: a key with white space in it cannot be listed.
      if keys.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) {
        keysAttribute = " decodeKeys=\"\(XMLText.escaped(keys.joined(separator: " ")))\""
      } else {
        keysComment =
          "\(inner)<!-- the archive has no $top.root, and a $top key holds white space, which "
          + "decodeKeys cannot list -->\n"
      }
    }
    var text =
      "\(indent)<\(prefix)archive path=\"\(XMLText.escaped(item.input.path))\" sha256=\"\(sha)\""
      + "\(keysAttribute)>\n"
    if let keysComment { text += keysComment }
    if let rootClass, ManifestXMLWriter.isClassName(rootClass) {
      text += "\(inner)<\(prefix)rootClass name=\"\(XMLText.escaped(rootClass))\"/>\n"
    }
    if let readError = item.survey.readError {
      let reason = readError.replacing("--", with: "- -")
      let category = item.survey.readErrorCategory
      text += "\(inner)<!-- does not read as a keyed archive: \(reason) -->\n"
      text += "\(inner)<\(prefix)legacy outcome=\"rejected\" category=\"\(category)\"/>\n"
      text += "\(inner)<\(prefix)secure outcome=\"rejected\" category=\"\(category)\"/>\n"
    }
    for expectation in item.survey.expectations {
      text +=
        inner + (prefix.isEmpty ? expectation.element : Self.prefixed(expectation.element, prefix))
        + "\n"
    }
    if item.survey.omittedLeaves > 0 {
      text +=
        "\(inner)<!-- authoring stopped after \(item.survey.expectations.count) expectations; "
      text += "\(item.survey.omittedLeaves) more values are not listed -->\n"
    }
    if item.survey.reachedDepthLimit {
      text +=
        "\(inner)<!-- values nested deeper than \(options.maximumDepth) levels are not listed -->\n"
    }
    text += "\(indent)</\(prefix)archive>\n"
    return text
  }

  /// Adds a namespace prefix to a one-element expectation written without one.
  private static func prefixed(_ element: String, _ prefix: String) -> String {
    var text = element
    if text.hasPrefix("<") {
      text.insert(contentsOf: prefix, at: text.index(after: text.startIndex))
    }
    if let close = text.range(of: "</", options: .backwards) {
      text.insert(contentsOf: prefix, at: close.upperBound)
    }
    return text
  }

  /// An edit that appends rows as the last children of an element.
  private func appendChildren(
    _ rows: String, to element: XMLTree, in sourceMap: XMLSourceMap, bytes: [UInt8],
    prefix: String, order: Int
  ) -> Edit {
    let written = sourceMap.elements[element.sourceIndex]
    let indent = indentation(of: element.sourceIndex, in: sourceMap, bytes: bytes) ?? "  "
    let body = String(rows.dropLast())
    if written.isSelfClosing {
      // `<name/>` becomes `<name>`, the rows, and an end tag.
      return Edit(
        offset: written.endTagStart, replacedLength: written.end - written.endTagStart,
        order: order,
        text: ">\n\(body)\n\(indent)</\(prefix)\(element.name)>")
    }
    if let last = element.children.last {
      return Edit(offset: sourceMap.elements[last.sourceIndex].end, order: order, text: "\n" + body)
    }
    return Edit(offset: written.startTagEnd, order: order, text: "\n" + body)
  }

  /// The whitespace before an element on its line, when only whitespace precedes it.
  private func indentation(of index: Int?, in sourceMap: XMLSourceMap, bytes: [UInt8]) -> String? {
    guard let index, index >= 0, index < sourceMap.elements.count else { return nil }
    var start = sourceMap.elements[index].start.offset
    var indent: [UInt8] = []
    while start > 0 {
      start -= 1
      let byte = bytes[start]
      if byte == UInt8(ascii: "\n") { break }
      guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") else { return nil }
      indent.insert(byte, at: 0)
    }
    return String(decoding: indent, as: UTF8.self)
  }

  static func normalized(_ path: String) -> String {
    path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
  }

  private static func today() -> String {
    let seconds = Date().timeIntervalSinceReferenceDate
    return String(XSDValue.formatDateTime(seconds.rounded(.down)).prefix(10))
  }
}
