import ArchiveFormat
import ArchiveManifest

extension ManifestAuthor {
  /// What a survey found at the place of a store that a manifest is written for.
  ///
  /// ```swift
  /// let findings = ManifestAuthor.StoreFindings(
  ///   store: "Books.sqlite",
  ///   shape: Manifest.StoreShape(
  ///     kind: .coreData, entity: "Book", attribute: "cover",
  ///     location: Place(file: "Store.xml", line: 0, column: 0)),
  ///   archives: 4970, classNames: ["NSArray", "CoreDataPlus_Tests.Cover"])
  /// ```
  public struct StoreFindings: Sendable {
    /// The store's path, as the survey was given it.
    public var store: String
    /// Where the store's archives are: the manifest's `<store>`.
    package var shape: Manifest.StoreShape
    /// The archives read there.
    public var archives: Int
    /// The archived class names of the archives' instances.
    public var classNames: Set<String>
    /// The archived class names of the archives held in their `Data` values.
    public var nestedClassNames: Set<String>
    /// Class names the survey could not keep, past its bound; the class map may lack them.
    public var classNamesLeftOut: Int
    /// Whether only a sample of the archives was read.
    public var sampled: Bool

    /// Creates findings.
    package init(
      store: String, shape: Manifest.StoreShape, archives: Int, classNames: Set<String>,
      nestedClassNames: Set<String> = [], classNamesLeftOut: Int = 0, sampled: Bool = false
    ) {
      self.store = store
      self.shape = shape
      self.archives = archives
      self.classNames = classNames
      self.nestedClassNames = nestedClassNames
      self.classNamesLeftOut = classNamesLeftOut
      self.sampled = sampled
    }
  }

  /// Writes a manifest for a store: where its archives are (`<store>`), a class map for every
  /// class name they hold (nested archives' included), and `allowedClasses`, so that
  /// `migrate-dry-run --store FILE --manifest MANIFEST` needs no more options.
  ///
  /// Archived names are mapped to registered classes as ``author(_:file:)`` maps them.
  /// `allowedClasses` is the narrowest set the store's archives need, marked for review (the
  /// app's own read may allow more); a nested archive's classes are left out of it, since the
  /// app reads a nested archive by itself. The text is loaded back before it is returned: a
  /// manifest that would not load comes with an error diagnostic.
  ///
  /// - Parameters:
  ///   - findings: What the survey found.
  ///   - file: Where the manifest will be written, for diagnostics.
  /// - Returns: The manifest text and what was met on the way; `Result.addedArchives` is empty.
  public func storeManifest(_ findings: StoreFindings, file: String = "<authored manifest>")
    -> Result
  {
    var diagnostics: [ManifestDiagnostic] = []
    let place = "\(findings.store) (\(Self.placeName(findings.shape)))"
    let allNames = findings.classNames.union(findings.nestedClassNames)
    let plan = classPlan(
      allNames, reachable: allNames, existing: [:], surveyed: [], place: place,
      diagnostics: &diagnostics)
    if findings.classNamesLeftOut > 0 {
      diagnostics.append(
        ManifestDiagnostic(
          .warning, .semantic, at: Place(file: place, line: 0, column: 0),
          "\(findings.classNamesLeftOut) class names were past the survey's bound and are not "
            + "in the class map; map them by hand"))
    }
    let produced = producedDate(diagnostics: &diagnostics)
    let sample = findings.sampled ? " (a sample of them)" : ""
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    text += "<!-- Written by \(commentSafe(options.toolName)) survey (with its author option) "
    text += "from the class names the store's archives hold\(sample). Edit freely. -->\n"
    text += manifestHead(
      produced: produced,
      provenance:
        "Authored by \(options.toolName) survey --author from \(findings.archives) archives in "
        + "\(place)\(sample).",
      plan: plan)
    // Strings and numbers stored inline in an archive (a record whose root is a string, say)
    // decode as NSString and NSNumber, which no class description names: a secure read must
    // allow them, and so the list is never empty.
    let mapped = Set(findings.classNames.compactMap { plan.current[$0] })
    let allowed = mapped.union(Self.inlineLeafClasses).sorted()
    if mapped.isEmpty, !findings.classNames.isEmpty {
      diagnostics.append(
        ManifestDiagnostic(
          .warning, .semantic, at: Place(file: place, line: 0, column: 0),
          "no registered class decodes the store's classes ("
            + findings.classNames.sorted().prefix(5).joined(separator: ", ")
            + "): register them in the harness executable first (HarnessConfiguration"
            + "(modelClasses:)), or migrate with --rename-only and a class map"))
    }
    text += allowedClassesElement(
      allowed,
      comment:
        "allowedClasses: REVIEW. The narrowest set the store's archives need, not the app's own "
        + "read, with NSString and NSNumber for values stored inline; nested archives' classes "
        + "are left out, the app reads those by themselves.",
      indent: "  ", prefix: "")
    if !findings.shape.keyPaths.isEmpty {
      text += "  <!-- The key paths the survey found archives at. Without keyPath elements, "
      text += "every Data value that holds an archive is a record. -->\n"
    }
    text += ManifestXMLWriter.storeElement(findings.shape)
    text += "</manifest>\n"

    if let error = loadBackError(text, file: file) { diagnostics.append(error) }
    return Result(text: text, diagnostics: diagnostics, addedArchives: [])
  }

  /// The classes inline property-list values decode as, which a store's read must allow.
  static let inlineLeafClasses: Set<String> = ["NSNumber", "NSString"]

  /// `TABLE.COLUMN`, `Entity.attribute`, the key paths, or `folder`, for diagnostics.
  private static func placeName(_ shape: Manifest.StoreShape) -> String {
    switch shape.kind {
    case .sqlite: "\(shape.table ?? "?").\(shape.valueColumn ?? "?")"
    case .coreData: "\(shape.entity ?? "?").\(shape.attribute ?? "?")"
    case .propertyList:
      shape.keyPaths.isEmpty ? "every key path" : shape.keyPaths.joined(separator: ", ")
    case .folder: "folder"
    }
  }
}
