import ArchiveCoder
import ArchiveFormat
import Foundation
import ProfileKit
import Testing

@Suite("HarnessArchiver writes Apple-shaped archives")
struct HarnessArchiverTests {
  private let registry = ClassRegistry(modelClasses: ProfileModel.classes)

  private func profile(_ id: Int, address: Address) -> UserProfile {
    UserProfile(id: id, name: "Name \(id)", isActive: id % 2 == 0, address: address)
  }

  @Test("A profile list re-reads through the secure path with the same fields")
  func profileListRoundTrips() throws {
    let shared = Address(street: "1 Sample Street", city: "Walldorf")
    let list: NSArray = [profile(1, address: shared), profile(2, address: shared)]
    let bytes = try HarnessArchiver.archivedData(withRootObject: list, requiringSecureCoding: true)
    let result = HarnessDecoder(registry: registry).decode(
      bytes, secure: true,
      allowedClasses: ["NSArray", "ProfileKit.UserProfile", "ProfileKit.Address"])
    var describer = ObjectDescriber()
    #expect(result.outcome.decodedValue == describer.describe(list))
  }

  @Test("A shared object is written once and referenced twice")
  func sharedObjectIsWrittenOnce() throws {
    let shared = Address(street: "1 Sample Street", city: "Walldorf")
    let list: NSArray = [profile(1, address: shared), profile(2, address: shared)]
    let archive = try KeyedArchive(
      bytes: HarnessArchiver.archivedData(withRootObject: list, requiringSecureCoding: true))
    let addresses = archive.objects.filter {
      if case .instance(let instance) = $0 { return instance.className == "ProfileKit.Address" }
      return false
    }
    #expect(addresses.count == 1)
  }

  @Test("Class chains are the runtime's and end in NSObject")
  func classChainsEndInNSObject() throws {
    let archive = try KeyedArchive(
      bytes: HarnessArchiver.archivedData(
        withRootObject: Memo(text: "hello"), requiringSecureCoding: true))
    guard case .object(let index)? = archive.root, let memo = archive.instance(at: index) else {
      Issue.record("the root is not an instance")
      return
    }
    #expect(memo.archiveClass.chain == ["ProfileKit.Memo", "NSObject"])
  }

  @Test("Ordered sets are written element by element, as Foundation writes them")
  func orderedSetsUseNumberedKeys() throws {
    let set = NSOrderedSet(array: ["a", "b", "c"])
    let archive = try KeyedArchive(
      bytes: HarnessArchiver.archivedData(withRootObject: set, requiringSecureCoding: true))
    guard case .object(let index)? = archive.root, let instance = archive.instance(at: index) else {
      Issue.record("the root is not an instance")
      return
    }
    #expect(instance.fields.keys == ["NS.object.0", "NS.object.1", "NS.object.2"])
    #expect(
      try archive.evaluate(ArchiveKeyPath("[2]")).map { archive.leaf(of: $0.node) } == [
        .string("c")
      ])
  }

  @Test("Foundation values keep their archived forms")
  func foundationValues() throws {
    let values: NSArray = [
      NSDate(timeIntervalSinceReferenceDate: 12.5), NSNull(), NSNumber(value: 7),
      NSNumber(value: 2.5), NSNumber(value: true), NSData(bytes: [1, 2, 3] as [UInt8], length: 3),
      NSDictionary(dictionary: ["k": "v"]),
    ]
    let archive = try KeyedArchive(
      bytes: HarnessArchiver.archivedData(withRootObject: values, requiringSecureCoding: true))
    let leaves = try archive.evaluate(ArchiveKeyPath("[*]")).map { archive.leaf(of: $0.node) }
    #expect(leaves.count == 7)
    #expect(leaves[0] == .date(12.5))
    #expect(leaves[1] == .null)
    #expect(leaves[2] == .integer(7))
    #expect(leaves[3] == .real(2.5))
    #expect(leaves[4] == .bool(true))
    #expect(leaves[5] == .data([1, 2, 3]))
    #expect(
      try archive.evaluate(ArchiveKeyPath("[6].k")).map { archive.leaf(of: $0.node) } == [
        .string("v")
      ])
  }

  @Test("Under secure coding a class without NSSecureCoding is refused, naming its key path")
  func nonSecureClassIsRefused() {
    #expect {
      _ = try HarnessArchiver.archivedData(
        withRootObject: [PlainNote(text: "x")] as NSArray, requiringSecureCoding: true)
    } throws: { error in
      let failure = error as? HarnessArchiver.Failure
      return failure?.keyPath == "root.[0]" && failure?.message.contains("secure coding") == true
    }
  }

  @Test("A mutable array stays NSMutableArray, not a bridged Swift array written as NSArray")
  func mutableArrayKeepsItsClass() throws {
    let list = NSMutableArray(array: ["a", "b"])
    let archive = try KeyedArchive(
      bytes: HarnessArchiver.archivedData(withRootObject: list, requiringSecureCoding: true))
    guard case .object(let index)? = archive.root, let instance = archive.instance(at: index) else {
      Issue.record("the root is not an instance")
      return
    }
    #expect(instance.archiveClass.chain == ["NSMutableArray", "NSArray", "NSObject"])
  }
}
