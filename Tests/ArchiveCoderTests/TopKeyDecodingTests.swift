import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// Decoding the objects under `$top` keys other than `root`, one key or several.
@Suite("Top keys")
struct TopKeyDecodingTests {
  static let decoder = HarnessDecoder(registry: .foundation)
  static let unkeyedArrays = "danielpaulus-nskeyedarchiver/arrays.bin"

  @Test("Without root, the default keys are every top key in natural order")
  func defaultKeysWithoutRoot() throws {
    let archive = try KeyedArchive(
      bytes: Corpus.bytes("danielpaulus-nskeyedarchiver/primitives.bin"))
    #expect(
      HarnessDecoder.defaultTopKeys(of: archive) == (0...11).map { "$\($0)" })
  }

  @Test("With root, the default key is root alone")
  func defaultKeyWithRoot() throws {
    let archive = try KeyedArchive(
      bytes: Corpus.bytes("swift-corelibs-foundation/NSKeyedUnarchiver-ArrayTest.plist"))
    #expect(HarnessDecoder.defaultTopKeys(of: archive) == ["root"])
  }

  @Test("Several keys decode to a $top object with one field per key, on both paths")
  func severalKeysDecode() throws {
    let bytes = try Corpus.bytes(Self.unkeyedArrays)
    for secure in [false, true] {
      let outcome = Self.decoder.outcome(
        bytes, path: secure ? .secure : .legacy,
        allowedClasses: ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet"],
        topKeys: ["$0", "$1", "$2", "$3"])
      let value = try #require(outcome.decodedValue, "\(outcome)")
      #expect(value.className == DecodedValue.topLevelClassName)
      #expect(value.topLevelFields?.map(\.key) == ["$0", "$1", "$2", "$3"])
      guard case .array(_, let elements)? = value[field: "$1"] else {
        Issue.record("$1 is not an array: \(value)")
        continue
      }
      #expect(elements.count == 3)
    }
  }

  @Test("One key other than root decodes to its object itself")
  func oneOtherKeyDecodesToItsObject() throws {
    let bytes = try Corpus.bytes("danielpaulus-nskeyedarchiver/primitives.bin")
    let outcome = Self.decoder.outcome(
      bytes, path: .secure, allowedClasses: ["NSNumber"], topKeys: ["$11"])
    #expect(outcome.decodedValue == .integer(42))
  }

  @Test("A key the archive lacks is refused as missing at $top.KEY")
  func missingKeyIsRefused() throws {
    let bytes = try Corpus.bytes(Self.unkeyedArrays)
    let outcome = Self.decoder.outcome(
      bytes, path: .legacy, topKeys: ["$0", "missing"])
    #expect(outcome.rejection?.category == .missingField)
    #expect(outcome.rejection?.keyPath == "$top.missing")
  }

  @Test("A top value of a class the read does not allow is a wrong root class at $top.KEY")
  func rejectionUnderAnotherKeyNamesIt() throws {
    let bytes = try Corpus.bytes(Self.unkeyedArrays)
    let outcome = Self.decoder.outcome(
      bytes, path: .secure, allowedClasses: ["NSArray", "NSMutableArray"],
      topKeys: ["$0", "$2"])
    #expect(outcome.rejection?.category == .wrongRootClass)
    #expect(outcome.rejection?.keyPath == "$top.$2")
  }

  @Test("The key path of a top key is root, or $top.KEY")
  func keyPathOfTopKey() {
    #expect(HarnessDecoder.keyPath(ofTopKey: "root") == "root")
    #expect(HarnessDecoder.keyPath(ofTopKey: "$1") == "$top.$1")
    #expect(
      HarnessDecoder.keyPath(ofTopKey: "IB.objectdata")
        == ArchiveKeyPath(topKey: "IB.objectdata", components: []).description)
  }
}
