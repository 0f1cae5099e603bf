import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

#if canImport(Glibc)
  import Glibc
#endif

/// swift-corelibs-foundation behaviours from issue 3, measured through the harness worker.
///
/// Each is a value the harness records, never a crash of this process. The harness coder's
/// answer to the same archive is checked alongside where it differs.
@Suite(
  "Corelibs behaviours, documented",
  .enabled(
    if: FoundationImplementation.isCorelibs, "pins swift-corelibs-foundation's behaviour"))
struct CorelibsBehaviourTests {
  let supervisor: WorkerSupervisor
  let harness = HarnessDecoder(registry: .foundation)

  init() throws {
    supervisor = WorkerSupervisor(
      executableURL: try #require(
        CommandRunner.executable, "build the archive-harness product first"))
  }

  private static func isTrap(_ outcome: DecodeOutcome) -> Bool {
    guard let crash = outcome.crash else { return false }
    return FoundationImplementation.isTrap(crash.signal)
  }

  @Test("Under the default .raiseException policy any decode error is fatal")
  func defaultPolicyIsFatal() throws {
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationLegacy, variant: .defaultFailurePolicy)
    #expect(Self.isTrap(outcome))
    #expect(outcome.crash?.detail.contains("decoding failure policy is .raiseException") == true)
  }

  @Test("Changing the policy after decoding started is fatal")
  func policyChangeAfterStartIsFatal() throws {
    var archive = TestArchive()
    let root = archive.string("text")
    let outcome = try supervisor.decode(
      archive.bytes(root: root), path: .foundationLegacy, variant: .policyChangeAfterDecoding)
    #expect(Self.isTrap(outcome))
    #expect(outcome.crash?.detail.contains("cannot change the decoding policy") == true)
  }

  @Test("unarchiveTopLevelObjectWithData traps on garbage bytes")
  func topLevelConvenienceTrapsOnGarbage() throws {
    let outcome = try supervisor.decode(
      [0x00, 0x01, 0x02, 0x03], path: .foundationLegacy, variant: .unarchiveTopLevelObject)
    #expect(Self.isTrap(outcome))
  }

  @Test("unarchiveTopLevelObjectWithData traps on a truncated archive")
  func topLevelConvenienceTrapsOnTruncation() throws {
    let bytes = Array(SampleArchives.memoArchive().prefix(12))
    let outcome = try supervisor.decode(
      bytes, path: .foundationLegacy, variant: .unarchiveTopLevelObject)
    #expect(Self.isTrap(outcome))
  }

  @Test("unarchiveObject(with:) traps on empty bytes")
  func unarchiveObjectTrapsOnEmpty() throws {
    let outcome = try supervisor.decode([], path: .foundationLegacy, variant: .unarchiveObject)
    #expect(Self.isTrap(outcome))
  }

  @Test("init(forReadingFrom:) throws on the same bytes instead")
  func initForReadingThrows() throws {
    let outcome = try supervisor.decode([], path: .foundationLegacy)
    #expect(outcome.rejection?.category == .malformed)
  }

  @Test("Nesting thousands of levels overflows corelibs' stack; the harness stops at its limit")
  func deepNestingOverflows() throws {
    var archive = TestArchive()
    var inner = archive.array([])
    for _ in 0..<20_000 { inner = archive.array([inner]) }
    let bytes = archive.bytes(root: inner)
    let outcome = try supervisor.decode(bytes, path: .foundationLegacy)
    #expect(outcome.crash?.signal == SIGSEGV)
    #expect(harness.outcome(bytes, path: .legacy).rejection?.category == .limitExceeded)
  }

  @Test("An NSDictionary with more keys than objects decodes, then crashes when used")
  func dictionaryCountMismatchCrashesOnUse() throws {
    var archive = TestArchive()
    let dictionary = archive.object(
      ["NSDictionary", "NSObject"],
      [
        ("NS.keys", .array([archive.string("a"), archive.string("b")])),
        ("NS.objects", .array([archive.string("1")])),
      ])
    let bytes = archive.bytes(root: dictionary)
    let outcome = try supervisor.decode(bytes, path: .foundationLegacy)
    #expect(outcome.crash != nil, "\(outcome)")
    #expect(harness.outcome(bytes, path: .legacy).rejection?.category == .malformed)
  }

  @Test("The class check is skipped for a $class UID that already passed once")
  func classCheckSkippedForValidatedClassUID() throws {
    let renames = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
    let allowed = ["ProfileKit.UserProfile", "ProfileKit.Address"]
    // The name is an NSMutableString object, checked against [NSString] and passing; the
    // address is another NSMutableString with the same $class UID, read with [Address].
    var shared = TestArchive()
    let name = shared.object(
      ["NSMutableString", "NSString", "NSObject"], [("NS.string", .string("Ada"))])
    let fakeAddress = shared.object(
      ["NSMutableString", "NSString", "NSObject"], [("NS.string", .string("1 Loop"))])
    let profile = shared.object(
      ["ProfilesApp.UserProfile", "NSObject"],
      [("id", .integer(1)), ("name", name), ("isActive", .bool(true)), ("address", fakeAddress)])
    let skipped = try supervisor.decode(
      shared.bytes(root: profile), path: .foundationSecure, allowedClasses: allowed,
      classMap: renames)
    #expect(skipped.rejection != nil, "\(skipped)")
    // Without the earlier pass the same substitution is a fatalError.
    var fresh = TestArchive()
    let lonelyAddress = fresh.object(
      ["NSMutableString", "NSString", "NSObject"], [("NS.string", .string("1 Loop"))])
    let freshProfile = fresh.object(
      ["ProfilesApp.UserProfile", "NSObject"],
      [
        ("id", .integer(1)), ("name", fresh.string("Ada")), ("isActive", .bool(true)),
        ("address", lonelyAddress),
      ])
    let checked = try supervisor.decode(
      fresh.bytes(root: freshProfile), path: .foundationSecure, allowedClasses: allowed,
      classMap: renames)
    #expect(Self.isTrap(checked), "\(checked)")
  }

  @Test("init(forReadingFrom:) leaves requiresSecureCoding false")
  func requiresSecureCodingDefaultsFalse() throws {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(SampleArchives.memoArchive()))
    #expect(!unarchiver.requiresSecureCoding)
    unarchiver.finishDecoding()
  }
}
