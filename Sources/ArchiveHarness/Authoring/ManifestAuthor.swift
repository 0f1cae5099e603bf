import ArchiveFormat
import ArchiveManifest
import Foundation

/// Writes manifests from archives: a complete new manifest, or new entries added to an existing one.
///
/// Authoring records what happens now, as a snapshot test's record mode does, so that
/// `verify` passes on what it writes, over the archives it was written from:
///
/// - a class map for every class name found (superclass chains included);
/// - for each archive, its checksum, its `allowedClasses` (the app's read for its kind of
///   root from `Options.reads`, else the narrowest set the archive needs, marked for
///   review), its root class, and an expectation for each reachable leaf, up to
///   `Options.maximumExpectationsPerArchive`, with `class` expectations under the current
///   (mapped) class names;
/// - with a `verifier`, what each decode path did with it (`legacy`, `secure`,
///   `foundation`, as outcome and category), and only the expectations that hold on the
///   archive and on the object the secure path decodes: one that does not is left out, in a
///   comment saying why.
///
/// Given the classes an executable registers, it maps every archived name to the
/// registered class it must mean (`RegisteredClassMatcher`), names only registered
/// classes in `allowedClasses` and `rootClass`, and reports the names it could not
/// map, as diagnostics and as comments in the class map.
///
/// ```swift
/// let (inputs, problems) = ManifestAuthor.inputs(
///   paths: ["ProfilesApp-1.2/alice.archive"], archivesDirectory: "LegacyArchives")
/// var options = ManifestAuthor.Options()
/// options.archivesDirectory = "LegacyArchives"
/// options.reads["ProfileKit.UserProfile"] = ["ProfileKit.UserProfile", "ProfileKit.Address"]
/// let verifier = Verifier(registry: configuration.registry, runner: configuration.runner())
/// let result = ManifestAuthor(
///   options: options, registeredClasses: Set(configuration.registry.classNames),
///   verifier: verifier
/// ).author(inputs)
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
    /// The `allowedClasses` of the app's reads, by the (current) root class each read asks
    /// for: an archive whose root is a key gets that set, one whose root is not gets the
    /// narrowest set it needs, marked for review.
    public var reads: [String: [String]] = [:]
    /// The class the app's read asks for as the root, for every archive authored; each
    /// archive's own root class (mapped to its current name) when nil.
    public var rootClass: String?
    /// The folder archive paths are relative to.
    public var archivesDirectory = "."
    /// The named registry every entry authored decodes with (`registry="NAME"`).
    ///
    /// Such as an earlier app version's classes; the current classes when nil.
    /// ``ManifestAuthor/registeredClasses`` should then be that registry's.
    public var registry: String?
    /// The running tool's name, for comments and provenance: a team's own harness executable's.
    public var toolName = ToolName.standard
    /// Archived class names the team maps to current ones.
    ///
    /// From `--class-map`, `--class-map-file` or the files of `manifests/maps`: a renamed class
    /// that matching by name cannot find. Each archived name it maps gets its row in the
    /// manifest's class map.
    public var classMap: [String: String] = [:]
    /// Archived module names the team maps to current ones (`Old.*=New.*`).
    public var moduleRenames: [String: String] = [:]

    /// Creates options with the defaults.
    public init() {}
  }

  /// One archive to author: its path as the manifest should write it, and its bytes.
  public struct Input: Sendable {
    /// The path relative to the archives folder.
    public var path: String
    /// The file's bytes, or a Keychain item's data.
    public var bytes: [UInt8]
    /// The Keychain item whose data `bytes` is (its key path, `CLASS.SERVICE.ACCOUNT`), when
    /// `path` is a Keychain snapshot: the entry is written with `keychainItem`, and its string
    /// values as lengths and its data as digests, never as the item's text.
    package var keychainItem: String?

    /// Creates an input.
    public init(path: String, bytes: [UInt8]) {
      self.path = path
      self.bytes = bytes
    }

    /// Creates the input of one Keychain item of a snapshot.
    package init(path: String, keychainItem: String, data: [UInt8]) {
      self.path = path
      self.bytes = data
      self.keychainItem = keychainItem
    }

    /// The entry's name, as its case is named: `PATH`, or `SNAPSHOT:CLASS.SERVICE.ACCOUNT`.
    var name: String { keychainItem.map { "\(path):\($0)" } ?? path }

    /// Where the input is, for diagnostics: the file, or the snapshot's item.
    var place: Place {
      guard let keychainItem else { return Place(file: path, line: 0, column: 0) }
      return Place(file: path, position: .keyPath(keychainItem))
    }

    /// What tells entries apart: the normalized path, and the Keychain item when there is one.
    var entryKey: String {
      ManifestAuthor.entryKey(path: path, keychainItem: keychainItem)
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
    /// The listed archives whose bytes changed and which no longer give what their entries
    /// record; their entries were left as they were.
    public var changedArchives: [String] = []
  }

  /// What authoring writes and where it stops.
  public var options: Options
  /// The class names the executable registers, or nil to write an identity class-map skeleton.
  public var registeredClasses: Set<String>?
  /// Runs the decode paths whose outcomes authoring records; without one, no outcome is
  /// written for an archive that reads, and every expectation found is written.
  package var verifier: Verifier?

  /// An author with the default options, no registered classes and no decode paths: what
  /// ``updateChecksums(existingText:file:checksums:)`` needs.
  ///
  /// ```swift
  /// let update = ManifestAuthor().updateChecksums(
  ///   existingText: text, file: "manifests/MyApp-3.2.xml", checksums: checksums)
  /// ```
  public init() {
    self.init(options: Options())
  }

  /// Creates an author.
  ///
  /// - Parameters:
  ///   - options: What authoring writes and where it stops.
  ///   - registeredClasses: The class names the executable registers (its model classes and
  ///     Foundation's). With them, archived names are mapped to registered classes and only
  ///     registered classes are allowed; without them, every archived name is written as is.
  ///   - verifier: Runs the decode paths, to record what each does with each archive.
  package init(
    options: Options = Options(), registeredClasses: Set<String>? = nil,
    verifier: Verifier? = nil
  ) {
    self.options = options
    self.registeredClasses = registeredClasses
    self.verifier = verifier
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
      let full = file(path, in: archivesDirectory)
      if let bytes = ArchiveFile.read(full) {
        inputs.append(Input(path: path, bytes: bytes))
      } else {
        diagnostics.append(
          ManifestDiagnostic(
            .error, .io, at: Place(file: full, line: 0, column: 0),
            "cannot read the archive (tried '\(full)'; archive paths are relative to the "
              + "archives folder, which --archives sets)"))
      }
    }
    return (inputs, diagnostics)
  }

  /// Writes a complete manifest for the archives.
  ///
  /// Archives that do not read as keyed archives get the rejection every path gives them,
  /// each with a diagnostic.
  ///
  /// - Parameters:
  ///   - inputs: The archives.
  ///   - file: Where the manifest will be written, for diagnostics and `classMapFile` paths.
  /// - Returns: The manifest text and what was met on the way.
  public func author(_ inputs: [Input], file: String = "<authored manifest>") -> Result {
    author(inputs, keychainSnapshots: [], file: file)
  }

  /// Writes a complete manifest for archive files and Keychain snapshots.
  ///
  /// Each snapshot is declared (`<keychainSnapshot path sha256>`), and each of its items whose
  /// data is a property list gets an `<archive keychainItem>` entry, recorded as an archive
  /// file's is; the items whose data is not one are named in a comment.
  ///
  /// - Parameters:
  ///   - inputs: The archive files.
  ///   - keychainSnapshots: The snapshots.
  ///   - file: Where the manifest will be written, for diagnostics and `classMapFile` paths.
  /// - Returns: The manifest text and what was met on the way.
  package func author(
    _ inputs: [Input], keychainSnapshots: [KeychainSnapshotInput],
    file: String = "<authored manifest>"
  ) -> Result {
    var diagnostics: [ManifestDiagnostic] = []
    let surveyed = survey(
      inputs + keychainSnapshots.flatMap(\.archiveInputs), diagnostics: &diagnostics)
    var classNames: Set<String> = []
    var reachable: Set<String> = []
    for item in surveyed {
      classNames.formUnion(item.survey.classNames)
      reachable.formUnion(item.survey.reachableClasses)
    }
    let plan = classPlan(
      classNames, reachable: reachable, existing: [:], surveyed: surveyed,
      diagnostics: &diagnostics)
    var drafts = drafts(surveyed, plan: plan)

    let produced = producedDate(diagnostics: &diagnostics)
    let render = { (drafts: [EntryDraft]) -> String in
      var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      text += "<!-- Written by \(self.commentSafe(self.options.toolName)) manifest author, which "
      text += "recorded what each decode path does now. Edit freely: updating with 'manifest "
      text += "author' keeps your edits and comments. -->\n"
      text += self.manifestHead(
        produced: produced,
        provenance:
          "Authored by \(self.options.toolName) manifest author from \(surveyed.count) archives"
          + Self.snapshotProvenance(keychainSnapshots) + ".",
        plan: plan)
      text += self.keychainSnapshotElements(keychainSnapshots, indent: "  ")
      for draft in drafts {
        text += self.archiveElement(draft, current: plan.current, indent: "  ", prefix: "")
      }
      text += "</manifest>\n"
      return text
    }
    let folder = (file as NSString).deletingLastPathComponent
    record(
      &drafts, in: render(drafts), file: file, baseDirectory: folder.isEmpty ? "." : folder,
      diagnostics: &diagnostics)
    return Result(
      text: render(drafts), diagnostics: diagnostics, addedArchives: surveyed.map(\.input.name))
  }

  /// Adds archives that an existing manifest does not list yet, and refreshes the checksum of
  /// those it lists whose bytes changed, keeping every other byte of it.
  ///
  /// New class names get rows in the last inline `classMap`, and each new archive is appended
  /// as an `archive` element after the manifest's last element, recorded as ``author(_:file:)``
  /// records it. A listed archive whose bytes changed gets its new `sha256` (a note says
  /// `sha256 refreshed`) and keeps its expectations; when what it records no longer holds, a
  /// warning says so, and the entry is not written over. Existing entries, comments and
  /// formatting are otherwise never touched: the edit is done on the text, not by
  /// regenerating it.
  ///
  /// - Parameters:
  ///   - existingText: The manifest as it is now.
  ///   - file: The manifest's path; `classMapFile` references are relative to its folder.
  ///   - inputs: The archives to add or refresh.
  ///   - schema: The XSD, to read the existing manifest; the built-in one unless told otherwise.
  /// - Returns: The edited text, or empty text with diagnostics when the manifest cannot be read.
  public func update(
    existingText: String, file: String, with inputs: [Input],
    schema: ManifestSchema.Source = .builtIn
  )
    -> Result
  {
    if let item = inputs.first(where: { $0.keychainItem != nil }) {
      // Checksums are refreshed and entries found by path, and a snapshot's items share one.
      return Result(
        text: "",
        diagnostics: [
          ManifestDiagnostic(
            .error, .semantic, at: item.place,
            "an update adds archive files; author a Keychain snapshot's manifest without it")
        ], addedArchives: [])
    }
    let folder = (file as NSString).deletingLastPathComponent
    let baseDirectory = folder.isEmpty ? "." : folder
    var text = existingText
    var diagnostics: [ManifestDiagnostic] = []
    let refreshed = refreshChecksums(
      &text, file: file, inputs: inputs, schema: schema, diagnostics: &diagnostics)
    var result = add(text, file: file, with: inputs, refreshed: refreshed, schema: schema)
    result.diagnostics = diagnostics + result.diagnostics
    if !result.text.isEmpty {
      result.changedArchives = reportChanges(
        refreshed, in: result.text, file: file, baseDirectory: baseDirectory,
        diagnostics: &result.diagnostics)
    }
    return result
  }

  /// Rewrites the `sha256` of listed archives whose bytes changed, with a note for each.
  ///
  /// - Returns: The inputs whose checksum was refreshed.
  private func refreshChecksums(
    _ text: inout String, file: String, inputs: [Input], schema: ManifestSchema.Source,
    diagnostics: inout [ManifestDiagnostic]
  ) -> [Input] {
    var checksums: [String: String] = [:]
    for input in inputs { checksums[input.path] = SHA256Checksum.hash(input.bytes).hexadecimal }
    let update = updateChecksums(
      existingText: text, file: file, checksums: checksums, schema: schema)
    guard !update.text.isEmpty, !update.updated.isEmpty else { return [] }
    text = update.text
    let updated = Set(update.updated.map(Self.normalized))
    for path in update.updated.sorted() {
      diagnostics.append(
        ManifestDiagnostic(
          .note, .semantic, at: Place(file: file, line: 0, column: 0),
          "archive '\(path)': sha256 refreshed; its expectations are kept"))
    }
    return inputs.filter { updated.contains(Self.normalized($0.path)) }
  }

  /// Adds the archives the manifest does not list, recorded.
  private func add(
    _ existingText: String, file: String, with inputs: [Input], refreshed: [Input],
    schema: ManifestSchema.Source
  ) -> Result {
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
    let refreshedPaths = Set(refreshed.map { Self.normalized($0.path) })
    var fresh: [Input] = []
    for input in inputs {
      if !listed.contains(Self.normalized(input.path)) {
        fresh.append(input)
      } else if !refreshedPaths.contains(Self.normalized(input.path)) {
        diagnostics.append(
          ManifestDiagnostic(
            .note, .semantic, at: Place(file: file, line: 0, column: 0),
            "archive '\(input.path)' is already listed, with these bytes; its entry is left as "
              + "it is"))
      }
    }
    // A refreshed archive adds no class map rows: its entry may decode with another registry,
    // and a class name it now holds that the map lacks is reported as a changed outcome.
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

    let root = sourceMap.elements[tree.sourceIndex]
    let prefix =
      root.qualifiedName.contains(":") ? root.qualifiedName.split(separator: ":")[0] + ":" : ""
    let childIndent =
      indentation(of: tree.children.first?.sourceIndex, in: sourceMap, bytes: bytes) ?? "  "
    let rowIndent = childIndent + childIndent
    var fixedEdits: [Edit] = []

    if !plan.isEmpty {
      let rows = plan.rows(indent: rowIndent, prefix: prefix)
      if let classMap = tree.children(named: "classMap").last {
        fixedEdits.append(
          appendChildren(rows, to: classMap, in: sourceMap, bytes: bytes, prefix: prefix, order: 0))
      } else if let anchor = tree.children.last(where: {
        ["producer", "classMapFile"].contains($0.name)
      }) {
        fixedEdits.append(
          Edit(
            offset: sourceMap.elements[anchor.sourceIndex].end, order: 0,
            text: "\n\(childIndent)<\(prefix)classMap>\n\(rows)\(childIndent)</\(prefix)classMap>"))
      }
    }
    let edited = { (drafts: [EntryDraft]) -> String in
      var edits = fixedEdits
      if !drafts.isEmpty, let last = tree.children.last {
        var block = ""
        for draft in drafts {
          block += self.archiveElement(
            draft, current: plan.current, indent: childIndent, prefix: prefix)
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
      return String(decoding: output, as: UTF8.self)
    }
    var drafts = drafts(surveyed, plan: plan)
    record(
      &drafts, in: edited(drafts), file: file, baseDirectory: baseDirectory,
      diagnostics: &diagnostics)
    return Result(
      text: edited(drafts), diagnostics: diagnostics, addedArchives: surveyed.map(\.input.path))
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
          Surveyed(
            input: input,
            survey: ArchiveSurvey(
              archive: archive, options: options, masksValues: input.keychainItem != nil)))
      } catch {
        diagnostics.append(
          ManifestDiagnostic(
            .warning, .archive(error), at: input.place,
            "not a keyed archive, listed as rejected [\(ArchiveSurvey.category(of: error))] on "
              + "every path: \(error)"))
        surveyed.append(
          Surveyed(input: input, survey: ArchiveSurvey(readError: error, options: options)))
      }
    }
    return surveyed
  }

  private func archiveElement(
    _ draft: EntryDraft, current: [String: String], indent: String, prefix: String
  ) -> String {
    let item = draft.item
    let inner = indent + (indent.isEmpty ? "  " : indent)
    let sha = SHA256Checksum.hash(item.input.bytes).hexadecimal
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
    let registryAttribute = options.registry.map { " registry=\"\(XMLText.escaped($0))\"" } ?? ""
    let itemAttribute = item.input.keychainItem.map { " keychainItem=\(Self.quoted($0))" } ?? ""
    var text =
      "\(indent)<\(prefix)archive path=\"\(XMLText.escaped(item.input.path))\"\(itemAttribute)"
      + " sha256=\"\(sha)\"\(keysAttribute)\(registryAttribute)>\n"
    if let keysComment { text += keysComment }
    if item.survey.readError == nil {
      text += allowedClassesElement(
        draft.allowedClasses, comment: draft.allowedComment, indent: inner, prefix: prefix)
    }
    if let rootClass = draft.rootClass, ManifestXMLWriter.isClassName(rootClass) {
      text += "\(inner)<\(prefix)rootClass name=\"\(XMLText.escaped(rootClass))\"/>\n"
    }
    if let readError = item.survey.readError {
      text += "\(inner)<!-- does not read as a keyed archive: \(commentSafe(readError)) -->\n"
    }
    if draft.outcomes.isEmpty, item.survey.readError != nil {
      let category = item.survey.readErrorCategory
      text += "\(inner)<\(prefix)legacy outcome=\"rejected\" category=\"\(category.rawValue)\"/>\n"
      text +=
        "\(inner)<\(prefix)secure outcome=\"rejected\" category=\"\(category.rawValue)\"/>\n"
    }
    for (element, outcome) in draft.outcomes {
      text += "\(inner)<\(prefix)\(element) outcome=\"\(outcome.kind.rawValue)\""
      if let category = outcome.category { text += " category=\"\(category.rawValue)\"" }
      text += "/>\n"
    }
    for comment in draft.comments {
      text += "\(inner)<!-- \(commentSafe(comment)) -->\n"
    }
    for (index, expectation) in draft.expectations.enumerated() {
      if let reason = draft.dropped[index] {
        text +=
          "\(inner)<!-- not listed: \(commentSafe(expectation.keyPath)): "
          + "\(commentSafe(reason)) -->\n"
        continue
      }
      let element = expectation.element(current: current)
      text += inner + (prefix.isEmpty ? element : Self.prefixed(element, prefix)) + "\n"
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

  /// An `allowedClasses` element, after a comment saying where its classes came from; names
  /// that are not class names are left out.
  ///
  /// - Parameters:
  ///   - names: The classes, by current name, in the order to write them.
  ///   - comment: Where they came from.
  ///   - indent: The element's indentation.
  ///   - prefix: The namespace prefix, with its colon, or empty.
  /// - Returns: The comment and the element, each line ended.
  func allowedClassesElement(_ names: [String], comment: String, indent: String, prefix: String)
    -> String
  {
    let allowed = names.filter(ManifestXMLWriter.isClassName)
    var text = "\(indent)<!-- \(commentSafe(comment)) -->\n"
    guard !allowed.isEmpty else { return text + "\(indent)<\(prefix)allowedClasses/>\n" }
    text += "\(indent)<\(prefix)allowedClasses>\n"
    for name in allowed {
      text += "\(indent)  <\(prefix)class name=\"\(XMLText.escaped(name))\"/>\n"
    }
    return text + "\(indent)</\(prefix)allowedClasses>\n"
  }

  /// The `produced` date: the option's, or today's; a diagnostic when it is not a date.
  func producedDate(diagnostics: inout [ManifestDiagnostic]) -> String {
    let produced = options.produced ?? Self.today()
    if !XSDValue.isDateOrDateTime(produced) {
      diagnostics.append(
        ManifestDiagnostic(
          .error, .semantic, at: Place(file: "<options>", line: 0, column: 0),
          "produced '\(produced)' is not a date (YYYY-MM-DD) or date and time"))
    }
    return produced
  }

  /// The `manifest` start tag, the `producer` and the `classMap` of a manifest being written.
  ///
  /// - Parameters:
  ///   - produced: The `produced` date.
  ///   - provenance: The provenance written when `Options.provenance` is nil.
  ///   - plan: The class map's rows.
  /// - Returns: The text, up to and with the `classMap`'s end tag.
  func manifestHead(produced: String, provenance: String, plan: ClassPlan) -> String {
    var text = manifestStart(produced: produced, provenance: provenance)
    if registeredClasses == nil {
      text +=
        "  <!-- Class-name mapping skeleton: every class name the archives contain, superclass\n"
      text +=
        "       chains included. Change 'to' where the current class has another name. -->\n"
    } else {
      text += "  <!-- Class-name mapping: each archived name that means a registered class of\n"
      text +=
        "       another name. Names no registered class matches are listed as comments. -->\n"
    }
    text += "  <classMap>\n"
    text += plan.rows(indent: "    ", prefix: "")
    text += "  </classMap>\n"
    return text
  }

  /// The `manifest` start tag and the `producer` of a manifest being written, from the options.
  ///
  /// - Parameters:
  ///   - produced: The `produced` date.
  ///   - provenance: The provenance written when `Options.provenance` is nil.
  /// - Returns: The text, up to and with the `producer`'s end tag.
  func manifestStart(produced: String, provenance: String) -> String {
    var text =
      "<manifest xmlns=\"\(ManifestSchema.namespace)\" schemaVersion=\"\(ManifestSchema.version)\">\n"
    text += "  <producer app=\"\(XMLText.escaped(options.app))\""
    text += " version=\"\(XMLText.escaped(options.version))\""
    text += " platform=\"\(XMLText.escaped(options.platform))\""
    text += " produced=\"\(XMLText.escaped(produced))\">\n"
    text += "    <provenance>\(XMLText.escaped(options.provenance ?? provenance))</provenance>\n"
    return text + "  </producer>\n"
  }

  /// An error diagnostic when a manifest written for a store does not load back, else nil.
  ///
  /// - Parameters:
  ///   - text: The manifest text.
  ///   - file: Where it will be written, for diagnostics.
  /// - Returns: The error, naming every load error.
  func loadBackError(_ text: String, file: String) -> ManifestDiagnostic? {
    let loaded = ManifestLoader.load(
      bytes: Array(text.utf8), file: file, baseDirectory: ".",
      archivesDirectory: options.archivesDirectory)
    let errors = loaded.diagnostics.filter { $0.severity == .error }
    guard loaded.manifest == nil || !errors.isEmpty else { return nil }
    return ManifestDiagnostic(
      .error, .semantic, at: Place(file: file, line: 0, column: 0),
      "the manifest written for the store does not load: "
        + errors.map(\.description).joined(separator: "; "))
  }

  /// Text fit for an XML comment: no `--`, no line breaks, no characters XML forbids.
  func commentSafe(_ text: String) -> String {
    var safe = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n", "\r", "\t": safe.unicodeScalars.append(" ")
      default:
        if XMLText.isValid(String(scalar)) { safe.unicodeScalars.append(scalar) }
      }
    }
    while safe.contains("--") { safe = safe.replacingOccurrences(of: "--", with: "- -") }
    if safe.hasSuffix("-") { safe += " " }
    return safe
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

  /// What tells entries apart: the normalized path, and the Keychain item when there is one
  /// (several entries read items of one snapshot).
  static func entryKey(path: String, keychainItem: String?) -> String {
    keychainItem.map { "\(normalized(path))\u{0}\($0)" } ?? normalized(path)
  }

  /// An attribute value in quotes: single ones when it holds a double quote and no single one,
  /// as a key path with a quoted key reads best (`'genericPassword."com.example.auth".alice'`).
  static func quoted(_ value: String) -> String {
    let escaped = XMLText.escaped(value)
    guard value.contains("\""), !value.contains("'") else { return "\"\(escaped)\"" }
    return "'" + escaped.replacingOccurrences(of: "&quot;", with: "\"") + "'"
  }

  private static func today() -> String {
    let seconds = Date().timeIntervalSinceReferenceDate
    return String(XSDValue.formatDateTime(seconds.rounded(.down)).prefix(10))
  }
}
