import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// Which of the corpus's qualifying archives decode on both harness paths, pinned.
///
/// An archive qualifies when it is a keyed archive outside the `broken/` folders and every class
/// it archives is a Foundation class or an Apple-platform class with a stand-in; each is read as
/// ``CorpusCase`` reads it. `scripts/corpus-decode-table` prints the same set as a table, with
/// Foundation's reference outcomes beside the harness's.
@Suite("Corpus: archives that decode on both harness paths")
struct CorpusDecodeTableTests {
  /// The qualifying archives that do not decode on both paths, each with why.
  static let notDecodedOnBothPaths: [String: String] = [
    "michaelwright235-nskeyedunarchiver/circularReference.plist":
      "an array that contains itself: a cycle on both paths",
    "swift-corelibs-foundation/NSKeyedUnarchiver-NotificationTest.plist":
      "NSNotification adopts NSCoding only: the secure read refuses it, as Apple's does",
    "swift-corelibs-foundation/macOS-10.14/ByteCountFormatter-AllFieldsSet.archive":
      "NSByteCountFormatter adopts NSCoding only",
    "swift-corelibs-foundation/macOS-10.14/ByteCountFormatter-Default.archive":
      "NSByteCountFormatter adopts NSCoding only",
    "swift-corelibs-foundation/macOS-10.14/DateIntervalFormatter-Default.archive":
      "NSDateIntervalFormatter adopts NSCoding only",
    "swift-corelibs-foundation/macOS-10.14/DateIntervalFormatter-ValuesSetWithTemplate.archive":
      "NSDateIntervalFormatter adopts NSCoding only",
    "swift-corelibs-foundation/macOS-10.14/DateIntervalFormatter-ValuesSetWithoutTemplate.archive":
      "NSDateIntervalFormatter adopts NSCoding only",
  ]

  /// Whether a class name is a Foundation class or has a stand-in.
  static func qualifies(_ className: String) -> Bool {
    className.hasPrefix("NS") || className.hasPrefix("_NS")
      || PlatformClass(rawValue: className) != nil
  }

  /// The qualifying archives, by the inventory.
  static let qualifyingPaths: [String] = {
    let inventory = CorpusCase.folder.appendingPathComponent("INVENTORY.tsv")
    guard let text = try? String(contentsOf: inventory, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count >= 7, columns[2] == "NSKA", !columns[0].contains("/broken/"),
        columns[5].split(separator: ",").allSatisfy({ qualifies(String($0)) })
      else { return nil }
      return columns[0]
    }
  }()

  @Test("Every qualifying archive is a corpus case: its classes are all registered")
  func everyQualifyingArchiveIsACase() {
    #expect(Self.qualifyingPaths.count == 74)
    #expect(Set(CorpusCase.all.map(\.path)) == Set(Self.qualifyingPaths))
  }

  @Test("The archives that do not decode on both paths are exactly the listed ones")
  func decodedOnBothPathsIsPinned() {
    let decoder = HarnessDecoder(registry: CorpusCase.registry)
    var failing: [String: String] = [:]
    for corpusCase in CorpusCase.all {
      guard let bytes = try? corpusCase.bytes() else {
        failing[corpusCase.path] = "unreadable"
        continue
      }
      for path in [DecodePath.legacy, .secure] {
        let outcome = decoder.outcome(
          bytes, path: path, allowedClasses: corpusCase.classes, topKeys: corpusCase.topKeys)
        if outcome.kind != .decoded {
          failing[corpusCase.path, default: ""] += "\(path): \(outcome)"
        }
      }
    }
    let unexpected = failing.filter { Self.notDecodedOnBothPaths[$0.key] == nil }
    let nowDecoding = Set(Self.notDecodedOnBothPaths.keys).subtracting(failing.keys)
    #expect(unexpected.isEmpty, "no longer decode on both paths: \(unexpected)")
    #expect(
      nowDecoding.isEmpty, "now decode on both paths; remove them from the list: \(nowDecoding)")
    // The two kiler129 archives whose root is $null decode to nil, as Apple's do.
    #expect(CorpusCase.all.count - failing.count == 67)
  }
}
