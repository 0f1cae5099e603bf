import ArchiveCoder
import Foundation
import HarnessTestSupport
import ProfileKit
import Testing

@testable import ArchiveHarness

/// The harness archiver's output read back by the harness coder and by Foundation's unarchiver.
@Suite("Archiver and coder round trip")
struct ArchiverRoundTripTests {
  let decoder = HarnessDecoder(registry: ClassRegistry(modelClasses: ProfileModel.classes))

  static func profile(id: Int = 1) -> ProfileKit.UserProfile {
    ProfileKit.UserProfile(
      id: id, name: "Ada", isActive: true, address: .init(street: "1 Way", city: "Town"))
  }

  @Test("A v2 profile written by the harness archiver reads back equal, secure")
  func profileRoundTrips() throws {
    let original = Self.profile()
    let bytes = try HarnessArchiver.archivedData(
      withRootObject: original, requiringSecureCoding: true)
    let result = decoder.decode(
      bytes, secure: true, allowedClasses: ["ProfileKit.UserProfile", "ProfileKit.Address"])
    let decoded = try #require(result.object as? ProfileKit.UserProfile)
    #expect(decoded.isEqual(original))
  }

  @Test("A list sharing one profile twice reads back with the sharing kept")
  func sharedListRoundTrips() throws {
    let shared = Self.profile()
    let bytes = try HarnessArchiver.archivedData(
      withRootObject: NSArray(array: [shared, shared, Self.profile(id: 2)]),
      requiringSecureCoding: true)
    let result = decoder.decode(
      bytes, secure: true,
      allowedClasses: ["NSArray", "ProfileKit.UserProfile", "ProfileKit.Address"])
    let array = try #require(result.object as? NSArray)
    #expect(array.count == 3)
    #expect(ObjectIdentifier(array[0] as AnyObject) == ObjectIdentifier(array[1] as AnyObject))
  }

  @Test("A memo written by the harness archiver reads back through Foundation too")
  func memoReadsThroughFoundation() throws {
    let url = try #require(CommandRunner.executable)
    let bytes = try HarnessArchiver.archivedData(
      withRootObject: ProfileKit.Memo(text: "hello"), requiringSecureCoding: true)
    let outcome = try WorkerSupervisor(executableURL: url).decode(
      bytes, path: .foundationSecure, allowedClasses: ["ProfileKit.Memo"])
    #expect(outcome.decodedValue?[field: "text"] == .string("hello"))
    #expect(decoder.outcome(bytes, path: .secure, allowedClasses: ["ProfileKit.Memo"]) == outcome)
  }
}
