import Foundation
import Testing

/// The module map in CONTRIBUTING.md, and every module's `import` lines held against it.
///
/// CONTRIBUTING.md lists the modules in layers, bottom first. A module may import only modules on
/// lower layers, so imports point down the pipeline and never back up, and a new module
/// must be placed on the map before any test passes.
@Suite("Import direction")
struct ImportDirectionTests {
  /// The package root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The layers CONTRIBUTING.md declares, by module folder name.
  static func layers() throws -> [String: Int] {
    let contributing = try String(
      contentsOf: root.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
    return try ModuleLayers.parse(contributing)
  }

  /// Every folder under Sources/, each a module.
  static func modules() throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("Sources").path
    ).filter { !$0.hasPrefix(".") }.sorted()
  }

  @Test(
    "Every module in Sources/ is on CONTRIBUTING.md's module map, and every mapped module exists")
  func mapCoversEveryModule() throws {
    let layers = try Self.layers()
    let modules = try Self.modules()
    #expect(
      modules.filter { layers[$0] == nil } == [], "add these to CONTRIBUTING.md's module layers")
    #expect(
      layers.keys.filter { !modules.contains($0) }.sorted() == [],
      "CONTRIBUTING.md's module layers name modules that do not exist")
  }

  @Test("Every import points down CONTRIBUTING.md's module map, never up or sideways")
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
      @_exported import HarnessKeyedArchive
      internal import CHarnessXMLBridge
      public import struct HarnessPropertyList.PropertyListValue
      @testable import HarnessCoder
      // import Verification
      let text = "import Migration"
        import HarnessManifest
      """
    #expect(
      ImportScanner.imports(in: text) == [
        "Foundation", "HarnessKeyedArchive", "CHarnessXMLBridge", "HarnessPropertyList",
        "HarnessCoder", "HarnessManifest",
      ])
  }

  @Test("A module listed on two layers is an error")
  func duplicateModuleRefused() {
    let document = """
      <!-- module-layers -->
      | 0 | `A` |
      | 1 | `A`, `B` |
      <!-- /module-layers -->
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

/// Reads CONTRIBUTING.md's `<!-- module-layers -->` table: `| LAYER | `Module`, `Module` |` rows.
enum ModuleLayers {
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  static func parse(_ document: String) throws -> [String: Int] {
    guard let start = document.range(of: "<!-- module-layers -->"),
      let end = document.range(of: "<!-- /module-layers -->"),
      start.upperBound < end.lowerBound
    else { throw Problem(description: "the document has no <!-- module-layers --> block") }
    var layers: [String: Int] = [:]
    for line in document[start.upperBound..<end.lowerBound].split(separator: "\n") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
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
