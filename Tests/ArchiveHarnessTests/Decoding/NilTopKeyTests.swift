import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

/// `$null` under a `$top` key: Apple's unarchiver returns nil without an error, and so does the
/// harness coder (``DecodedValue/noObject``), never a value to write back.
@Suite("Nil under a $top key")
struct NilTopKeyTests {
  static let decoder = HarnessDecoder(registry: .foundation)
  /// A real archive whose root is `$null` (kiler129/NSKeyedUnarchiver's test data).
  static let nullRoot = "kiler129-NSKeyedUnarchiver/ArchivedData/null.bin.plist"

  /// An archive whose `$0` is a string and whose `$1` is `$null`, as iOS Notes records hold.
  static func nilSecondKey() -> [UInt8] {
    var builder = ArchiveBuilder()
    builder.top = PropertyListDictionary([
      ("$0", builder.string("title")), ("$1", ArchiveBuilder.null),
    ])
    return builder.bytes()
  }

  @Test("A nil root decodes to nil on both harness paths", arguments: [DecodePath.legacy, .secure])
  func nilRootDecodesToNil(_ path: DecodePath) throws {
    let result = Self.decoder.decode(
      try Corpus.bytes(Self.nullRoot), secure: path.isSecure, allowedClasses: ["NSString"])
    #expect(result.outcome == .decoded(.noObject), "\(result.outcome)")
    #expect(result.object == nil)
    #expect(result.warnings.contains { $0.contains("$top.root is $null") }, "\(result.warnings)")
  }

  @Test("A nil root decodes to nil without describing, as a migration's first read does")
  func nilRootUndescribedDecodesToNil() throws {
    let result = Self.decoder.decodeUndescribed(
      try Corpus.bytes(Self.nullRoot), secure: false, allowedClasses: [])
    #expect(result.outcome == .decoded(.noObject))
    #expect(result.object == nil)
  }

  @Test("Nil under one $top key decodes to nil beside the other keys' objects")
  func nilUnderOneKeyDecodes() throws {
    for path in [DecodePath.legacy, .secure] {
      let outcome = Self.decoder.outcome(
        Self.nilSecondKey(), path: path, allowedClasses: ["NSString"], topKeys: ["$0", "$1"])
      let value = try #require(outcome.decodedValue, "\(path): \(outcome)")
      #expect(value[field: "$0"] == .string("title"))
      #expect(value[field: "$1"] == .noObject)
      #expect(value.description == #"$top{$0: "title", $1: nil}"#)
    }
  }

  @Test("The keys that decode to nil are named, in the order read")
  func nilKeysAreNamed() throws {
    let outcome = Self.decoder.outcome(
      Self.nilSecondKey(), path: .legacy, topKeys: ["$0", "$1"])
    let value = try #require(outcome.decodedValue)
    #expect(HarnessDecoder.nilKeys(in: [value], keys: ["$0", "$1"]) == ["$1"])
    #expect(HarnessDecoder.nilKeys(in: [.noObject], keys: ["root"]) == ["root"])
    #expect(HarnessDecoder.nilKeys(in: [.null], keys: ["root"]).isEmpty)
  }

  @Test("A key the archive lacks is still missing-field, not nil")
  func absentKeyIsStillMissing() throws {
    let outcome = Self.decoder.outcome(
      Self.nilSecondKey(), path: .legacy, topKeys: ["$0", "$2"])
    #expect(outcome.rejection?.category == .missingField, "\(outcome)")
    #expect(outcome.rejection?.keyPath == "$top.$2")
  }

  @Test("A typed migration refuses a nil root as nil-decode: nothing is written back")
  func migrationRefusesNilRoot() throws {
    let migration = TypedMigration(
      registry: .foundation, classMap: .empty, allowedClasses: ["NSString"])
    let result = migration.migrate(try Corpus.bytes(Self.nullRoot))
    guard case .refused(let refusal) = result else {
      Issue.record("a nil root was not refused: \(result)")
      return
    }
    #expect(refusal.step == .decode)
    #expect(refusal.cause == .nilDecode)
    #expect(refusal.reason.contains("the archive's root is $null"), "\(refusal)")
  }

  @Test("Nil is printed as nil and is not NSNull")
  func nilIsNotNSNull() {
    #expect(DecodedValue.noObject.description == "nil")
    #expect(DecodedValue.noObject.className == "nil")
    #expect(DecodedValue.noObject != .null)
  }
}
