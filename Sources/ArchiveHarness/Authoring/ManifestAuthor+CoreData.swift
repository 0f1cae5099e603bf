import ArchiveFormat
import ArchiveManifest

extension ManifestAuthor {
  /// The largest store whose SHA-256 authoring computes, as the manifest loader reads it whole.
  static let maximumPinnedStoreSize = 4 << 30

  /// The store's and the model's paths relative to the archives folder, as a pin writes them.
  ///
  /// ```swift
  /// let (store, model) = try ManifestAuthor.coreDataPinPaths(
  ///   store: "LegacyArchives/Books.sqlite", model: "LegacyArchives/Books.xcdatamodeld",
  ///   archivesDirectory: "LegacyArchives")  // ("Books.sqlite", "Books.xcdatamodeld")
  /// ```
  ///
  /// - Parameters:
  ///   - store: The store, as the user gave it.
  ///   - model: The model, as the user gave it.
  ///   - archivesDirectory: The archives folder.
  /// - Returns: Both paths relative to the folder, symbolic links resolved.
  /// - Throws: `MigrationError` (`invalid-options`) naming the store or model that is missing
  ///   or outside the folder, since `verify` reads pins' paths from inside it only.
  package static func coreDataPinPaths(store: String, model: String, archivesDirectory: String)
    throws(MigrationError) -> (store: String, model: String)
  {
    guard ManifestReference.realPath(archivesDirectory) != nil else {
      throw MigrationError(
        .invalidOptions, file: archivesDirectory,
        "the archives folder does not exist (give --archives DIR)")
    }
    var relative: [String] = []
    for (noun, path) in [("store", store), ("model", model)] {
      guard let inside = relativePath(of: path, archivesDirectory: archivesDirectory) else {
        throw MigrationError(
          .invalidOptions, file: path,
          "the \(noun) is not inside the archives folder '\(archivesDirectory)': a pin names "
            + "its \(noun) relative to that folder, as verify reads it; copy it there, or give "
            + "--archives DIR")
      }
      relative.append(inside)
    }
    return (relative[0], relative[1])
  }

  /// Writes a manifest that pins every transformable attribute of a Core Data store: one
  /// `<coreDataAttribute>` each, with the store's SHA-256, the model's transformer and
  /// `customClassName`, and the row count, so that `verify` passes on it while no row is lost.
  ///
  /// A custom transformer's pin lists its `allowedClass` children, marked for review: the list
  /// `preflight` was given for it, or else the minimal one the report found, with which its
  /// rows are checked again. A row that would be lost is never pinned as accepted: each is an
  /// XML comment holding the `<lostRow …/>` to paste, and `verify` fails on it until then. A
  /// transient attribute is a comment, not a pin.
  ///
  /// ```swift
  /// let preflight = TransformerPreflight(storePath: "LegacyArchives/Books.sqlite", runner: runner)
  /// let report = try preflight.run(attributes, model: model.file)
  /// let (result, lostRows) = try ManifestAuthor(options: options).coreDataManifest(
  ///   store: "Books.sqlite", model: "Books.xcdatamodeld", report: report, preflight: preflight)
  /// ```
  ///
  /// - Parameters:
  ///   - store: The store, relative to `Options.archivesDirectory`.
  ///   - model: The model, relative to it.
  ///   - report: The preflight of the store.
  ///   - preflight: The preflight that wrote it, to check a custom transformer's rows again.
  ///   - file: Where the manifest will be written, for diagnostics.
  /// - Returns: The manifest text and the rows its comments name as lost.
  /// - Throws: `MigrationError` when the store cannot be read for its checksum or checked again.
  package func coreDataManifest(
    store: String, model: String, report: TransformerPreflight.Report,
    preflight: TransformerPreflight, file: String = "<authored manifest>"
  ) throws(MigrationError) -> (result: Result, lostRows: Int) {
    var diagnostics: [ManifestDiagnostic] = []
    let storeSHA256 = try Self.checksum(ofStore: preflight.storePath)
    let (attributes, drafted) = try pinnedAttributes(report, preflight: preflight)
    let produced = producedDate(diagnostics: &diagnostics)
    let tool = commentSafe(options.toolName)
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    text += "<!-- Written by \(tool) coredata preflight (with its author option): one pin per "
    text += "transformable attribute, which verify checks on every model change. Review the "
    text += "comments, then edit freely. -->\n"
    text += manifestStart(
      produced: produced,
      provenance:
        "Authored by \(options.toolName) coredata preflight --author from \(store) and \(model).")
    var lostRows = 0
    for (index, attribute) in attributes.enumerated() {
      lostRows += attribute.lostRowCount
      text += pinElement(
        attribute, store: store, storeSHA256: storeSHA256, model: model,
        draftedList: drafted.contains(index))
    }
    if attributes.isEmpty {
      text += "  <!-- the model has no transformable attributes: nothing to pin -->\n"
    }
    text += "</manifest>\n"
    if let error = loadBackError(text, file: file) { diagnostics.append(error) }
    return (Result(text: text, diagnostics: diagnostics, addedArchives: []), lostRows)
  }

  /// The report's attributes as their pins check them: a custom transformer's rows checked
  /// again with the minimal list when no list was given; the indices of those.
  private func pinnedAttributes(
    _ report: TransformerPreflight.Report, preflight: TransformerPreflight
  ) throws(MigrationError) -> ([TransformerPreflight.AttributeReport], Set<Int>) {
    var attributes = report.attributes
    let drafted = attributes.indices.filter {
      attributes[$0].skipped == nil && attributes[$0].basis == .proposedForCustom
        && !attributes[$0].minimalAllowedClasses.isEmpty
    }
    guard !drafted.isEmpty else { return (attributes, []) }
    let again = try preflight.run(
      drafted.map {
        var attribute = attributes[$0].attribute
        attribute.allowedClasses = attributes[$0].minimalAllowedClasses
        return attribute
      }, model: report.model)
    for (index, checked) in zip(drafted, again.attributes) { attributes[index] = checked }
    return (attributes, Set(drafted))
  }

  /// One attribute's `<coreDataAttribute>`, or a comment for a transient one.
  private func pinElement(
    _ attribute: TransformerPreflight.AttributeReport, store: String, storeSHA256: String,
    model: String, draftedList: Bool
  ) -> String {
    let declared = attribute.attribute
    if let skipped = attribute.skipped {
      return "  <!-- \(commentSafe(declared.qualifiedName)) is not pinned: "
        + "\(commentSafe(skipped)) -->\n"
    }
    let e = XMLText.escaped
    var text = "  <coreDataAttribute store=\"\(e(store))\" storeSHA256=\"\(storeSHA256)\""
    text += " model=\"\(e(model))\" entity=\"\(e(declared.entity))\""
    text += " attribute=\"\(e(declared.attribute))\""
    text += " transformer=\"\(e(declared.declaredTransformer ?? "NSKeyedUnarchiveFromData"))\""
    if let custom = declared.customClassName, !custom.isEmpty {
      text += " customClassName=\"\(e(custom))\""
    }
    text += " rows=\"\(attribute.rows)\""
    var children = ""
    if case .custom(let name) = declared.transformer {
      children += allowedClassChildren(attribute, transformer: name, drafted: draftedList)
    }
    for row in attribute.lostRows {
      let element =
        "<lostRow pk=\"\(row.primaryKey)\"\(row.className.map { " class=\"\(e($0))\"" } ?? "")/>"
      children +=
        "    <!-- LOST: \(commentSafe("\(row.entity)[Z_PK=\(row.primaryKey)].\(declared.attribute)")) "
        + "would become nil [\(row.kind.rawValue)]: \(commentSafe(row.message)). "
        + "If the loss is accepted, paste: \(commentSafe(element)) -->\n"
    }
    let unlisted = attribute.lostRowCount - attribute.lostRows.count
    if unlisted > 0 {
      children +=
        "    <!-- LOST: \(unlisted) more rows would become nil; the preflight lists the first "
        + "\(TransformerPreflight.maximumListedRows) -->\n"
    }
    guard !children.isEmpty else { return text + "/>\n" }
    return text + ">\n" + children + "  </coreDataAttribute>\n"
  }

  /// A custom transformer's `allowedClass` children, after a comment marking them for review.
  private func allowedClassChildren(
    _ attribute: TransformerPreflight.AttributeReport, transformer: String, drafted: Bool
  ) -> String {
    let names = attribute.checkedClasses.filter(ManifestXMLWriter.isClassName)
    let name = commentSafe(transformer)
    guard attribute.basis == .declaredCustom, !names.isEmpty else {
      return "    <!-- allowedClass: REVIEW. No row holds an archive, so no list was found: list "
        + "\(name)'s allowedTopLevelClasses, else the rows are checked against "
        + "NSSecureUnarchiveFromData's defaults -->\n"
    }
    var text =
      drafted
      ? "    <!-- allowedClass: REVIEW. The smallest allowedTopLevelClasses that decodes every "
        + "row, not \(name)'s own list: make them the same -->\n"
      : "    <!-- allowedClass: REVIEW. \(name)'s allowedTopLevelClasses, as --allowed-classes "
        + "gave them -->\n"
    for className in names {
      text += "    <allowedClass name=\"\(XMLText.escaped(className))\"/>\n"
    }
    return text
  }

  /// The store file's SHA-256, read by the rule for store files (the path resolved first).
  private static func checksum(ofStore path: String) throws(MigrationError) -> String {
    let file = try DurableFile.readFile(
      ManifestReference.realPath(path) ?? path, limit: maximumPinnedStoreSize)
    guard let bytes = file.bytes else {
      throw MigrationError(
        .limitExceeded, file: path,
        "the store is \(file.size) bytes, more than the \(maximumPinnedStoreSize) a pin's "
          + "checksum is computed for")
    }
    return SHA256Checksum.hash(bytes).hexadecimal
  }
}
