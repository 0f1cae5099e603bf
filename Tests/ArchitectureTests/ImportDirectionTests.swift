import Foundation
import Testing

/// The module table in Package.swift's header, and every module's `import` lines held against it.
///
/// Package.swift's header lists the modules in at most five layers. A module may import only
/// modules on lower layers, so imports point down and never back up or sideways, and a new
/// module must be placed on the table before any test passes. The C shims (`CHarness*`) sit
/// below every layer and are not listed.
@Suite("Import direction")
struct ImportDirectionTests {
  /// The package root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The layers Package.swift's header declares, by module folder name.
  static func layers() throws -> [String: Int] {
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    return try ModuleLayers.parse(manifest)
  }

  /// Every folder under Sources/, each a module, the C shims aside.
  static func modules() throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("Sources").path
    ).filter { !$0.hasPrefix(".") && !$0.hasPrefix("CHarness") }.sorted()
  }

  @Test("The layer table has at most five rows")
  func atMostFiveLayers() throws {
    let layers = Set(try Self.layers().values)
    #expect(layers.count <= 5, "layers: \(layers.sorted())")
  }

  @Test(
    "Every module in Sources/ is on Package.swift's layer table, and every listed module exists")
  func mapCoversEveryModule() throws {
    let layers = try Self.layers()
    let modules = try Self.modules()
    #expect(
      modules.filter { layers[$0] == nil } == [], "add these to Package.swift's module layers")
    #expect(
      layers.keys.filter { !modules.contains($0) }.sorted() == [],
      "Package.swift's module layers name modules that do not exist")
  }

  @Test("Every import points down Package.swift's layer table, never up or sideways")
  func importsPointDown() throws {
    let layers = try Self.layers()
    // Module names as imported: a folder such as `archive-harness` is the module `archive_harness`.
    var folderOfModule: [String: String] = [:]
    for folder in layers.keys {
      folderOfModule[folder.replacingOccurrences(of: "-", with: "_")] = folder
    }
    var violations: [String] = []
    for module in try Self.modules() {
      guard let layer = layers[module] else { continue }
      let folder = Self.root.appendingPathComponent("Sources/\(module)")
      for file in try Self.swiftFiles(in: folder) {
        let text = try String(contentsOf: file, encoding: .utf8)
        for imported in ImportScanner.imports(in: text) {
          guard let target = folderOfModule[imported], let targetLayer = layers[target] else {
            continue  // Foundation, Glibc, Testing: not ours
          }
          if targetLayer >= layer {
            let name = file.path.dropFirst(Self.root.path.count + 1)
            violations.append(
              "\(name): \(module) (layer \(layer)) imports \(target) (layer \(targetLayer))")
          }
        }
      }
    }
    #expect(violations == [])
  }

  @Test("The import scanner sees every form of import and nothing in comments or strings")
  func scannerForms() {
    let text = """
      import Foundation
      @_exported import ArchiveFormat
      internal import CHarnessXMLBridge
      public import struct ArchiveFormat.PropertyListValue
      @testable import ArchiveCoder
      // import Verification
      let text = "import Migration"
        import ArchiveManifest
      """
    #expect(
      ImportScanner.imports(in: text) == [
        "Foundation", "ArchiveFormat", "CHarnessXMLBridge", "ArchiveFormat", "ArchiveCoder",
        "ArchiveManifest",
      ])
  }

  @Test("A module listed on two layers is an error")
  func duplicateModuleRefused() {
    let document = """
      // module-layers:
      // | 1 | `A`, `B` |
      // | 0 | `A` |
      // /module-layers
      """
    #expect(throws: ModuleLayers.Problem.self) { try ModuleLayers.parse(document) }
  }

  @Test("A document without the module layers block is an error")
  func missingBlockRefused() {
    #expect(throws: ModuleLayers.Problem.self) { try ModuleLayers.parse("# Title\n") }
  }

  private static func swiftFiles(in folder: URL) throws -> [URL] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: nil)
    else { return [] }
    return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
  }
}

/// Reads Package.swift's `// module-layers:` table: `// | LAYER | `Module`, `Module` |` rows.
enum ModuleLayers {
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  static func parse(_ document: String) throws -> [String: Int] {
    guard let start = document.range(of: "// module-layers:"),
      let end = document.range(of: "// /module-layers"),
      start.upperBound < end.lowerBound
    else { throw Problem(description: "the document has no // module-layers: block") }
    var layers: [String: Int] = [:]
    for line in document[start.upperBound..<end.lowerBound].split(separator: "\n") {
      let row = line.trimmingCharacters(in: .whitespaces)
      guard row.hasPrefix("//") else { continue }
      let cells = row.dropFirst(2).trimmingCharacters(in: .whitespaces).split(separator: "|").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 2, let layer = Int(cells[0]) else { continue }
      for name in cells[1].split(separator: ",") {
        let module = name.trimmingCharacters(in: .whitespaces).trimmingCharacters(
          in: CharacterSet(charactersIn: "`"))
        guard !module.isEmpty else { continue }
        if let earlier = layers[module] {
          throw Problem(description: "\(module) is on layers \(earlier) and \(layer)")
        }
        layers[module] = layer
      }
    }
    guard !layers.isEmpty else { throw Problem(description: "the module layers block is empty") }
    return layers
  }
}

/// Finds the modules a Swift file imports, ignoring comments and string literals.
enum ImportScanner {
  private static let kinds: Set<Substring> = [
    "class", "struct", "enum", "protocol", "func", "var", "let", "typealias",
  ]
  private static let modifiers: Set<Substring> = [
    "public", "internal", "package", "private", "fileprivate",
  ]

  static func imports(in text: String) -> [String] {
    var found: [String] = []
    for line in text.split(separator: "\n") {
      var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
      while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) {
        words = words.dropFirst()
      }
      guard words.first == "import" else { continue }
      words = words.dropFirst()
      if let kind = words.first, kinds.contains(kind) { words = words.dropFirst() }
      guard let path = words.first else { continue }
      let module = path.split(separator: ".").first.map(String.init) ?? String(path)
      found.append(module)
    }
    return found
  }
}
