import ArchiveCoder
import ArchiveFormat
import Foundation
import ProfileKit
import Testing

/// Inputs the fuzzers found, kept under `Regressions/`; each must be answered with an error or a value, never a trap or a hang.
@Suite("Fuzzer regressions")
struct FuzzRegressionTests {
  /// The folder of regression inputs, found from this file's path.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Regressions")

  static func input(_ name: String) throws -> [UInt8] {
    try Data(contentsOf: directory.appendingPathComponent(name)).withUnsafeBytes { Array($0) }
  }

  @Test("plist: an XML date with 19 fraction digits is refused, not an Int64 overflow")
  func dateWithNineteenFractionDigits() throws {
    let bytes = try Self.input("plist-date-with-19-fraction-digits.xml")
    #expect(HostileInput.plistError(bytes)?.code == .invalidNumber)
  }

  @Test("archive: containers shared inside the plist no longer make the tree printer time out")
  func sharedInlineArraysTimeout() throws {
    let bytes = try Self.input("archive-shared-inline-arrays-timeout.bplist")
    var elapsed = 0.0
    elapsed = try HostileInput.seconds {
      if let archive = try? KeyedArchive(bytes: bytes) {
        try HostileInput.walkEverything(archive)
      }
    }
    #expect(elapsed < 5)
  }

  @Test(
    "secure-decode: a legacy decode of an NSDictionary keyed by an NSArray is described without a trap",
    .disabled("corelibs traps bridging the dictionary in ObjectDescriber; reported, not yet fixed"))
  func legacyDictionaryWithArrayKey() throws {
    let bytes = try Self.input("legacy-decode-dictionary-with-array-key-crash.bplist")
    let decoder = HarnessDecoder(registry: ClassRegistry(modelClasses: ProfileModel.classes))
    let result = decoder.decode(bytes, secure: false)
    #expect(result.outcome.kind != .crashed)
  }

  @Test(
    "value-forms: an attributed string's attribute dictionaries are read without bridging, so a dictionary keyed by an array is no trap"
  )
  func attributesArrayBridging() throws {
    let bytes = try Self.input("value-forms-attributes-array-bridging-crash.bplist")
    var decoder = HarnessDecoder(
      registry: ClassRegistry(platformClasses: PlatformClass.allCases))
    decoder.describesObjects = false
    let archive = try KeyedArchive(bytes: bytes)
    let everyClass = decoder.registry.classNames
    for secure in [true, false] {
      let result = decoder.decode(
        archive, secure: secure, allowedClasses: secure ? everyClass : [],
        topKeys: HarnessDecoder.defaultTopKeys(of: archive))
      #expect(result.outcome.kind != .crashed)
    }
  }

  @Test(
    "value-forms: index-set ranges that overlap one ending at NSNotFound are merged before corelibs sees them"
  )
  func indexSetRangeToNotFound() throws {
    let bytes = try Self.input("value-forms-index-set-range-to-notfound-crash.bplist")
    let decoder = HarnessDecoder(registry: .foundation)
    for secure in [true, false] {
      let result = decoder.decode(bytes, secure: secure, allowedClasses: ["NSIndexSet"])
      #expect(result.outcome.kind != .crashed)
    }
  }

  @Test("value-forms: an NSURL whose base has no absolute URL is built without corelibs' bridging")
  func urlBaseBridging() throws {
    let bytes = try Self.input("value-forms-url-base-bridging-crash.bplist")
    var decoder = HarnessDecoder(registry: .foundation)
    decoder.describesObjects = false
    let archive = try KeyedArchive(bytes: bytes)
    for secure in [true, false] {
      let result = decoder.decode(
        archive, secure: secure, allowedClasses: secure ? decoder.registry.classNames : [],
        topKeys: HarnessDecoder.defaultTopKeys(of: archive))
      #expect(result.outcome.kind != .crashed)
    }
  }

  @Test("Every regression input reads or fails with a typed error through both layers")
  func everyInputIsAnswered() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).sorted()
    #expect(!names.isEmpty)
    for name in names {
      let bytes = try Self.input(name)
      _ = try? PropertyListReader().read(bytes)
      if let archive = try? KeyedArchive(bytes: bytes) {
        try HostileInput.walkEverything(archive)
      }
    }
  }
}
