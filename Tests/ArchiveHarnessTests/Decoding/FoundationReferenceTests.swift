import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

#if canImport(Glibc)
  import Glibc
#endif

/// The Foundation reference path: corelibs' NSKeyedUnarchiver in a worker process.
///
/// On Linux these tests document swift-corelibs-foundation's behaviour (Swift 6.3.1); each
/// crash is an expected outcome recorded by the supervisor, never a crash of the test process.
@Suite(
  "Foundation reference path",
  .enabled(
    if: FoundationImplementation.isCorelibs, "pins swift-corelibs-foundation's behaviour"))
struct FoundationReferenceTests {
  let supervisor: WorkerSupervisor
  let renames: ClassNameMap

  init() throws {
    let url = try #require(CommandRunner.executable, "build the archive-harness product first")
    supervisor = WorkerSupervisor(executableURL: url)
    renames = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
  }

  static let profileClasses = ["ProfileKit.UserProfile", "ProfileKit.Address"]

  @Test("A v1 profile decodes into v2 classes through the module rename, legacy")
  func legacyDecodesThroughModuleRename() throws {
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationLegacy, classMap: renames)
    let value = try #require(outcome.decodedValue)
    #expect(value.className == "ProfileKit.UserProfile")
    #expect(value[field: "name"] == .string("Ada"))
    #expect(value[field: "id"] == .integer(42))
    #expect(value[field: "isActive"] == .bool(true))
    #expect(value[field: "address"]?[field: "city"] == .string("Cupertino"))
  }

  @Test("A v1 profile decodes into v2 classes through the module rename, secure")
  func secureDecodesThroughModuleRename() throws {
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationSecure,
      allowedClasses: Self.profileClasses, classMap: renames)
    #expect(outcome.decodedValue?.className == "ProfileKit.UserProfile")
  }

  @Test("Corelibs applies the per-call rule: the nested class need not be in the top-level set")
  func nestedClassCheckedPerCall() throws {
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationSecure,
      allowedClasses: ["ProfileKit.UserProfile"], classMap: renames)
    #expect(outcome.decodedValue?[field: "address"]?.className == "ProfileKit.Address")
  }

  @Test("A root outside the allowed classes is class-not-allowed, checked before corelibs")
  func disallowedRootIsRefusedFirst() throws {
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationSecure,
      allowedClasses: ["ProfileKit.Memo"], classMap: renames)
    let rejection = try #require(outcome.rejection, "\(outcome)")
    #expect(rejection.category == .classNotAllowed)
    #expect(rejection.keyPath == "root")
    #expect(rejection.message.contains("class 'ProfilesApp.UserProfile' is not among"))
    #expect(rejection.message.contains("swift-corelibs-foundation would trap"))
  }

  @Test("Left to itself, corelibs traps on a root outside the allowed classes: crashed(SIGILL)")
  func disallowedRootCrashesCorelibs() throws {
    // The variants call corelibs as it is, without the harness's check first.
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationSecure,
      allowedClasses: ["ProfileKit.Memo"], classMap: renames, variant: .defaultFailurePolicy)
    let crash = try #require(outcome.crash)
    #expect(FoundationImplementation.isTrap(crash.signal))
    #expect(crash.detail.contains("unexpected class"))
  }

  @Test("A root whose class nothing maps is unmapped-class, where corelibs would trap")
  func unmappedRootIsRefusedFirst() throws {
    // No class map: ProfilesApp.UserProfile reaches corelibs as the failing placeholder.
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationSecure,
      allowedClasses: Self.profileClasses)
    let rejection = try #require(outcome.rejection, "\(outcome)")
    #expect(rejection.category == .unmappedClass)
    #expect(rejection.message.contains("'ProfilesApp.UserProfile' maps to no registered class"))
  }

  @Test("A container outside the set is class-not-allowed too, where corelibs would trap")
  func disallowedContainerIsRefusedFirst() throws {
    var archive = TestArchive()
    let profile = SampleArchives.profile(&archive)
    let list = archive.array([profile])
    let outcome = try supervisor.decode(
      archive.bytes(root: list), path: .foundationSecure,
      allowedClasses: Self.profileClasses, classMap: renames)
    #expect(outcome.rejection?.category == .classNotAllowed, "\(outcome)")
    #expect(outcome.rejection?.message.contains("class 'NSArray' is not among") == true)
  }

  @Test("An element of an allowed collection outside the set is class-not-allowed at its place")
  func disallowedElementIsRefusedFirst() throws {
    var archive = TestArchive()
    let profile = SampleArchives.profile(&archive)
    let extra = archive.dictionary([("note", archive.string("hi"))])
    let list = archive.array([profile, extra])
    let outcome = try supervisor.decode(
      archive.bytes(root: list), path: .foundationSecure,
      allowedClasses: ["NSArray"] + Self.profileClasses, classMap: renames)
    let rejection = try #require(outcome.rejection, "\(outcome)")
    #expect(rejection.category == .classNotAllowed)
    #expect(rejection.keyPath == "root[1]")
    #expect(rejection.message.contains("class 'NSDictionary' is not among"))
    let allowingDictionaries = try supervisor.decode(
      archive.bytes(root: list), path: .foundationSecure,
      allowedClasses: ["NSArray", "NSDictionary"] + Self.profileClasses, classMap: renames)
    #expect(allowingDictionaries.decodedValue != nil, "\(allowingDictionaries)")
  }

  @Test(
    "A nil root decodes to nil on Foundation's paths, as Apple's does",
    arguments: [DecodePath.foundationLegacy, .foundationSecure])
  func nilRootDecodesToNil(_ path: DecodePath) throws {
    let archive = TestArchive()
    let outcome = try supervisor.decode(
      archive.bytes(root: .uid(0)), path: path, allowedClasses: ["NSString"])
    #expect(outcome == .decoded(.noObject), "\(outcome)")
  }

  @Test("Nil under a $top key decodes to nil beside the other keys on Foundation's paths")
  func nilUnderTopKeyDecodesToNil() throws {
    for path in [DecodePath.foundationLegacy, .foundationSecure] {
      let outcome = try supervisor.decode(
        NilTopKeyTests.nilSecondKey(), path: path, allowedClasses: ["NSString"],
        topKeys: ["$0", "$1"])
      let value = try #require(outcome.decodedValue, "\(path): \(outcome)")
      #expect(value[field: "$0"] == .string("title"))
      #expect(value[field: "$1"] == .noObject)
    }
  }

  @Test("A list of profiles decodes when NSArray is allowed")
  func listDecodesWithContainerClass() throws {
    var archive = TestArchive()
    let profile = SampleArchives.profile(&archive)
    let list = archive.array([profile, profile])
    let outcome = try supervisor.decode(
      archive.bytes(root: list), path: .foundationSecure,
      allowedClasses: ["NSArray"] + Self.profileClasses, classMap: renames)
    guard case .array(_, let elements)? = outcome.decodedValue else {
      Issue.record("expected an array, got \(outcome)")
      return
    }
    #expect(elements.count == 2)
  }

  /// An NSArray that contains itself: corelibs follows it until its stack overflows.
  static func selfReferencingArray() -> [UInt8] {
    var archive = TestArchive()
    let array = archive.reserve()
    let arrayClass = archive.classReference(["NSArray", "NSObject"])
    archive.set(
      array,
      .dictionary(
        PropertyListDictionary([
          ("$class", .uid(arrayClass)), ("NS.objects", .array([.uid(array)])),
        ])
      ))
    return archive.bytes(root: .uid(array))
  }

  @Test("A self-referencing array overflows corelibs' stack: crashed(SIGSEGV)")
  func selfReferencingArrayCrashes() throws {
    let outcome = try supervisor.decode(Self.selfReferencingArray(), path: .foundationLegacy)
    #expect(outcome.crash?.signal == SIGSEGV)
  }

  @Test("A worker that dies is replaced and the next archive still decodes")
  func freshWorkerAfterCrash() throws {
    let crashed = try supervisor.decode(Self.selfReferencingArray(), path: .foundationLegacy)
    #expect(crashed.crash != nil)
    let decoded = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationLegacy, classMap: renames)
    #expect(decoded.decodedValue != nil)
    #expect(supervisor.workersStarted == 2)
  }

  @Test("The standby launched after a crash counts as started only once an archive uses it")
  func standbyCountedWhenUsed() throws {
    let crashed = try supervisor.decode(Self.selfReferencingArray(), path: .foundationLegacy)
    #expect(crashed.crash != nil)
    #expect(supervisor.workersStarted == 1)
    let again = try supervisor.decode(Self.selfReferencingArray(), path: .foundationLegacy)
    #expect(again.crash != nil)
    let decoded = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationLegacy, classMap: renames)
    #expect(decoded.decodedValue != nil)
    #expect(supervisor.workersStarted == 3)
  }

  @Test("One worker serves many archives")
  func oneWorkerManyArchives() throws {
    for _ in 0..<5 {
      let outcome = try supervisor.decode(
        SampleArchives.memoArchive(), path: .foundationSecure,
        allowedClasses: ["ProfileKit.Memo"], classMap: renames)
      #expect(outcome.decodedValue?[field: "text"] == .string("hello"))
    }
    #expect(supervisor.workersStarted == 1)
  }

  @Test("Garbage bytes make init(forReadingFrom:) throw: rejected as malformed")
  func garbageIsMalformed() throws {
    let outcome = try supervisor.decode([0x62, 0x70, 0x6C, 0x00, 0x01], path: .foundationLegacy)
    #expect(outcome.rejection?.category == .malformed)
  }

  @Test("Truncated archive bytes are rejected, not a crash")
  func truncatedIsRejected() throws {
    let bytes = Array(SampleArchives.profileArchive().prefix(12))
    let outcome = try supervisor.decode(bytes, path: .foundationLegacy)
    #expect(outcome.rejection?.category == .malformed)
  }

  @Test("An unmapped class reaches Foundation as the failing placeholder, legacy")
  func unmappedClassIsRejected() throws {
    let outcome = try supervisor.decode(SampleArchives.profileArchive(), path: .foundationLegacy)
    let rejection = try #require(outcome.rejection)
    #expect(rejection.category == .unmappedClass)
    #expect(rejection.message.contains("'ProfilesApp.UserProfile'"))
  }

  @Test("Left to itself, Foundation finds any class linked into the binary by name")
  func unguardedLookupFindsLinkedClasses() throws {
    let outcome = try supervisor.decode(
      SampleArchives.profileArchive(), path: .foundationLegacy, guardsUnmappedClasses: false)
    // The worker links version 1, so NSClassFromString finds it; the v2 app would not.
    #expect(outcome.decodedValue?.className == "ProfilesApp.UserProfile")
  }

  @Test("An unknown class nested in a container: rejected with the root also returned")
  func unknownClassInContainer() throws {
    var archive = TestArchive()
    let unknown = archive.object(["NoSuchClass", "NSObject"], [])
    let list = archive.array([unknown])
    let response = try supervisor.decodeWithNotes(
      archive.bytes(root: list), path: .foundationLegacy, guardsUnmappedClasses: false)
    #expect(response.outcome.rejection?.category == .unmappedClass)
    #expect(response.notes.contains("the root came back with .error also set"))
  }

  @Test("failWithError's error is replaced by corelibs' generic 'failed to decode'")
  func failWithErrorIsReplaced() throws {
    let outcome = try supervisor.decode(
      SampleArchives.memoArchive(schema: 2), path: .foundationSecure,
      allowedClasses: ["ProfileKit.Memo"], classMap: renames)
    let rejection = try #require(outcome.rejection)
    #expect(rejection.category == .initReturnedNil)
    #expect(rejection.message.contains("Class Memo failed to decode"))
  }

  @Test("A class substituted for a nested field is a fatalError under secure coding")
  func substitutedClassCrashesSecure() throws {
    var archive = TestArchive()
    let fake = archive.dictionary([("street", archive.string("x"))])
    let profile = SampleArchives.profile(&archive, address: fake)
    let outcome = try supervisor.decode(
      archive.bytes(root: profile), path: .foundationSecure,
      allowedClasses: Self.profileClasses, classMap: renames)
    #expect(outcome.crash?.detail.contains("unexpected class NSDictionary") == true)
  }

  @Test("The v1 init's 'as! Address' traps in the worker: crashed, not the harness")
  func version1ForceCastTraps() throws {
    let url = try #require(CommandRunner.executable)
    let version1 = WorkerSupervisor(executableURL: url, registryName: "ProfilesApp-1")
    var archive = TestArchive()
    let fake = archive.dictionary([("street", archive.string("x"))])
    let profile = SampleArchives.profile(&archive, address: fake)
    let outcome = try version1.decode(archive.bytes(root: profile), path: .foundationLegacy)
    let crash = try #require(outcome.crash)
    // A failed `as!` is swift_dynamicCastFailure, which aborts: SIGABRT on Linux.
    #expect(crash.signal == SIGABRT)
    #expect(crash.detail.contains("Could not cast value of type 'Foundation.NSDictionary'"))
  }

  @Test("An archive that takes too long has its worker killed: crashed(SIGKILL), timed out")
  func timeoutKillsWorker() throws {
    let script = try FakeWorker.script("answers the handshake, then sleeps", body: "exec sleep 30")
    defer { FakeWorker.remove(script) }
    let sleeper = WorkerSupervisor(
      executableURL: script, arguments: [], timeout: .milliseconds(500))
    let outcome = try sleeper.decode(SampleArchives.memoArchive(), path: .foundationLegacy)
    let crash = try #require(outcome.crash)
    #expect(crash.timedOut)
    #expect(crash.signal == SIGKILL)
  }

  @Test("A missing worker executable is an error naming the path")
  func missingExecutableThrows() {
    let missing = WorkerSupervisor(
      executableURL: URL(fileURLWithPath: "/nonexistent/archive-harness"))
    #expect(throws: WorkerProtocolError.self) {
      try missing.decode(SampleArchives.memoArchive(), path: .foundationLegacy)
    }
  }

  @Test("An allowed class the registry lacks is refused before Foundation runs")
  func unregisteredAllowedClassIsRefused() throws {
    let outcome = try supervisor.decode(
      SampleArchives.memoArchive(), path: .foundationSecure, allowedClasses: ["NSPredicate"])
    #expect(outcome.rejection?.message.contains("'NSPredicate' is not registered") == true)
  }
}
