import Decoding
import Foundation
import HarnessTestSupport
import Testing

/// An archive from the shared corpus whose classes the Foundation registry knows.
struct CorpusCase: Sendable, CustomTestStringConvertible, Codable, Hashable {
  /// The path below the corpus folder, such as `bpylist2/nsmutabledata_archive.plist`.
  let path: String
  /// The archived class names, used as the secure read's allowed classes.
  let classes: [String]

  var testDescription: String { path }

  /// The corpus folder, `Tests/Fixtures/RealArchives` in this repository.
  static let folder: URL = Corpus.directory

  /// Every non-broken keyed archive with a `root` whose classes are all registered.
  static let all: [CorpusCase] = {
    guard
      let inventory = try? String(
        contentsOf: folder.appendingPathComponent("INVENTORY.tsv"), encoding: .utf8)
    else { return [] }
    let registry = ClassRegistry.foundation
    var cases: [CorpusCase] = []
    for line in inventory.split(separator: "\n") {
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count >= 7, columns[2] == "NSKA", !columns[0].contains("broken/"),
        columns[6].split(separator: ",").contains("root")
      else { continue }
      let classes = columns[5].split(separator: ",").map(String.init)
      guard classes.allSatisfy({ registry.registeredClass(named: $0) != nil }) else { continue }
      cases.append(CorpusCase(path: columns[0], classes: classes))
    }
    return cases
  }()

  func bytes() throws -> [UInt8] {
    let folder = CorpusCase.folder
    return [UInt8](try Data(contentsOf: folder.appendingPathComponent(path)))
  }
}
