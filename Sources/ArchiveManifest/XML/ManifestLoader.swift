import ArchiveFormat
import Foundation

/// Reads manifests: parse, XSD validation, then the semantic checks the schema cannot express.
///
/// ```swift
/// let result = ManifestLoader.load(
///   path: "manifests/ProfilesApp-1.2.xml", archivesDirectory: "LegacyArchives",
///   registeredClasses: ["ProfileKit.UserProfile"])
/// for diagnostic in result.diagnostics { print(diagnostic) }
/// ```
package enum ManifestLoader {
  /// The Foundation class names the harness coder builds itself; they count as registered.
  package static let foundationClassNames: Set<String> = [
    "NSObject", "NSString", "NSMutableString", "NSNumber", "NSDecimalNumber", "NSArray",
    "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
    "NSOrderedSet", "NSMutableOrderedSet", "NSCountedSet", "NSDate", "NSData", "NSMutableData",
    "NSUUID", "NSURL", "NSNull", "NSValue",
  ]

  /// Loads, validates and checks the manifest at `path`.
  ///
  /// - Parameters:
  ///   - path: The manifest file; diagnostics name it as given.
  ///   - archivesDirectory: The folder that archive entry paths are relative to.
  ///   - schema: The XSD; the built-in one unless told otherwise.
  ///   - registeredClasses: The class names the app registers with the decoder. When they name
  ///     any class beyond Foundation's, every map target, allowed class, root class and
  ///     migration result must be one of them, and each that is not is an error at its
  ///     `LINE:COLUMN`; otherwise a class mapping's target counts as known.
  ///   - manifestsRoot: The folder `classMapFile` references must stay inside; the manifest's
  ///     own folder when nil.
  /// - Returns: The model, when the document follows the schema, and every diagnostic.
  package static func load(
    path: String, archivesDirectory: String, schema: ManifestSchema.Source = .builtIn,
    registeredClasses: Set<String> = [], manifestsRoot: String? = nil
  ) -> ManifestLoadResult {
    guard let data = FileManager.default.contents(atPath: path) else {
      return ManifestLoadResult(
        manifest: nil,
        diagnostics: [
          ManifestDiagnostic(
            .error, .io, at: Place(file: path, line: 0, column: 0),
            "cannot read the manifest")
        ])
    }
    let baseDirectory = (path as NSString).deletingLastPathComponent
    return load(
      bytes: Array(data), file: path, baseDirectory: baseDirectory.isEmpty ? "." : baseDirectory,
      archivesDirectory: archivesDirectory, schema: schema,
      registeredClasses: registeredClasses, manifestsRoot: manifestsRoot)
  }

  /// Loads, validates and checks a manifest held in memory.
  ///
  /// - Parameters:
  ///   - bytes: The manifest text, UTF-8.
  ///   - file: The name diagnostics give the manifest.
  ///   - baseDirectory: The folder that `classMapFile` references are relative to.
  ///   - archivesDirectory: The folder that archive entry paths are relative to.
  ///   - schema: The XSD; the built-in one unless told otherwise.
  ///   - registeredClasses: The class names the app registers with the decoder.
  ///   - manifestsRoot: The folder `classMapFile` references must stay inside (no `..`, no
  ///     absolute path, no symbolic link out); `baseDirectory` when nil.
  /// - Returns: The model, when the document follows the schema, and every diagnostic.
  package static func load(
    bytes: [UInt8], file: String, baseDirectory: String, archivesDirectory: String,
    schema: ManifestSchema.Source = .builtIn, registeredClasses: Set<String> = [],
    manifestsRoot: String? = nil
  ) -> ManifestLoadResult {
    let read = XMLDocumentReader.read(
      bytes: bytes, file: file, schema: schema, rootName: "manifest")
    var diagnostics = read.diagnostics
    guard let tree = read.tree else {
      return ManifestLoadResult(manifest: nil, diagnostics: diagnostics)
    }
    var builder = ManifestModelBuilder()
    var manifest = builder.manifest(from: tree, file: file)
    diagnostics += builder.diagnostics

    var fileMappings: [Manifest.ClassMapping] = []
    let references = ManifestReference(
      baseDirectory: baseDirectory, root: manifestsRoot ?? baseDirectory)
    for reference in tree.children where reference.name == "classMapFile" {
      let (mappings, problems) = loadClassMapFile(
        reference, references: references, schema: schema)
      fileMappings += mappings
      diagnostics += problems
    }
    manifest.classMappings = fileMappings + manifest.classMappings

    var checker = ManifestSemanticChecker(
      manifest: manifest, archivesDirectory: archivesDirectory,
      registeredClasses: registeredClasses.union(foundationClassNames))
    checker.run()
    diagnostics += checker.diagnostics
    return ManifestLoadResult(manifest: manifest, diagnostics: sortedByPlace(diagnostics))
  }

  /// Loads and validates a standalone class-name mapping file (root element `classMap`).
  ///
  /// - Parameters:
  ///   - path: The mapping file.
  ///   - schema: The XSD; the built-in one unless told otherwise.
  /// - Returns: The mappings, in document order, and every diagnostic.
  package static func loadClassMap(path: String, schema: ManifestSchema.Source = .builtIn) -> (
    mappings: [Manifest.ClassMapping], diagnostics: [ManifestDiagnostic]
  ) {
    guard let data = FileManager.default.contents(atPath: path) else {
      return (
        [],
        [
          ManifestDiagnostic(
            .error, .io, at: Place(file: path, line: 0, column: 0),
            "cannot read the class map")
        ]
      )
    }
    let read = XMLDocumentReader.read(
      bytes: Array(data), file: path, schema: schema, rootName: "classMap")
    guard let tree = read.tree else { return ([], read.diagnostics) }
    return (ManifestModelBuilder().classMappings(in: tree), read.diagnostics)
  }

  /// Sorts the manifest's own diagnostics by line and column; other files keep their order, after it.
  private static func sortedByPlace(_ diagnostics: [ManifestDiagnostic]) -> [ManifestDiagnostic] {
    guard let file = diagnostics.first?.location.file else { return diagnostics }
    let indexed = diagnostics.enumerated().map { ($0.offset, $0.element) }
    return indexed.sorted { left, right in
      let leftKey = (
        left.1.location.file == file ? 0 : 1, left.1.location.line, left.1.location.column, left.0
      )
      let rightKey = (
        right.1.location.file == file ? 0 : 1, right.1.location.line, right.1.location.column,
        right.0
      )
      return leftKey < rightKey
    }.map(\.1)
  }

  private static func loadClassMapFile(
    _ reference: XMLTree, references: ManifestReference, schema: ManifestSchema.Source
  ) -> ([Manifest.ClassMapping], [ManifestDiagnostic]) {
    let href = reference[attribute: "href"] ?? ""
    switch references.resolve(href, at: reference.location(ofAttribute: "href")) {
    case .refused(let diagnostic):
      return ([], [diagnostic])
    case .file(let path):
      // The checked, link-free path: what is read is what was confined.
      return loadClassMap(path: path, schema: schema)
    }
  }
}
