import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// An archive from the shared corpus whose classes the Foundation registry, with every
/// Apple-platform stand-in, knows.
struct CorpusCase: Sendable, CustomTestStringConvertible, Codable, Hashable {
  /// The path below the corpus folder, such as `bpylist2/nsmutabledata_archive.plist`.
  let path: String
  /// The secure read's allowed classes: the archived class names, and the class of each top
  /// value that is an inline string, number, data or date, as an app reading it would list.
  let classes: [String]
  /// The `$top` keys read: `root`, or every top key of an archive without one.
  let topKeys: [String]

  var testDescription: String { path }

  /// The corpus folder, `Tests/Fixtures/RealArchives` in this repository.
  static let folder: URL = Corpus.directory

  /// The registry the cases decode with: Foundation's value classes and every stand-in.
  static let registry = ClassRegistry(platformClasses: PlatformClass.allCases)

  /// Every non-broken keyed archive whose classes are all registered.
  static let all: [CorpusCase] = {
    guard
      let inventory = try? String(
        contentsOf: folder.appendingPathComponent("INVENTORY.tsv"), encoding: .utf8)
    else { return [] }
    var cases: [CorpusCase] = []
    for line in inventory.split(separator: "\n") {
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count >= 7, columns[2] == "NSKA", !columns[0].contains("broken/") else {
        continue
      }
      // The holder of a C array's elements is read by the NSValue that refers to it and is
      // never instantiated: an app does not list it.
      var classes = columns[5].split(separator: ",").map(String.init).filter {
        !archiverInternalClassNames.contains($0)
      }
      guard classes.allSatisfy({ registry.registeredClass(named: $0) != nil }),
        let data = try? Data(contentsOf: folder.appendingPathComponent(columns[0])),
        let archive = try? KeyedArchive(bytes: [UInt8](data))
      else { continue }
      let topKeys = HarnessDecoder.defaultTopKeys(of: archive)
      for key in topKeys {
        if let leaf = leafClassName(archive, archive.top[key]), !classes.contains(leaf) {
          classes.append(leaf)
        }
      }
      cases.append(CorpusCase(path: columns[0], classes: classes, topKeys: topKeys))
    }
    return cases
  }()

  /// The classes Foundation's archiver writes for its own bookkeeping, read by the object that
  /// refers to them.
  static let archiverInternalClassNames: Set<String> = ["_NSKeyedCoderOldStyleArray"]

  /// The Foundation class of a top value that is an inline leaf, following one reference.
  private static func leafClassName(_ archive: KeyedArchive, _ value: PropertyListValue?)
    -> String?
  {
    switch value {
    case .string?: return "NSString"
    case .integer?, .unsignedInteger?, .real?, .bool?: return "NSNumber"
    case .data?: return "NSData"
    case .date?: return "NSDate"
    case .uid(let uid)?:
      guard case .value(let inner)? = archive.object(at: Int(clamping: uid)), inner.uidValue == nil
      else { return nil }
      return leafClassName(archive, inner)
    default: return nil
    }
  }

  func bytes() throws -> [UInt8] {
    let folder = CorpusCase.folder
    return [UInt8](try Data(contentsOf: folder.appendingPathComponent(path)))
  }
}
