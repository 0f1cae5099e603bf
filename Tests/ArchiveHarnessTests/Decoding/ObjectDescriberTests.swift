import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation
import ProfileKit
import Testing

@Suite("ObjectDescriber")
struct ObjectDescriberTests {
  @Test("A shared object is described once, then named by its ordinal")
  func sharedObjectsAreDescribedOnce() {
    let address = Address(street: "1 Sample Street", city: "Walldorf")
    let list: NSArray = [
      UserProfile(id: 1, name: "A", isActive: true, address: address),
      UserProfile(id: 2, name: "B", isActive: false, address: address),
    ]
    var describer = ObjectDescriber()
    let value = describer.describe(list)
    guard case .array(_, let elements) = value else {
      Issue.record("not an array: \(value)")
      return
    }
    #expect(elements[0][field: "address"]?[field: "city"] == .string("Walldorf"))
    #expect(
      elements[1][field: "address"] == .sharedReference(className: "ProfileKit.Address", ordinal: 2)
    )
  }

  @Test("A decoded bomb of shared collections is refused before anything walks it as values")
  func collectionBombIsRefused() {
    var builder = KeyedArchiveBuilder()
    var next = builder.string("leaf")
    for _ in 0..<40 {
      next = builder.array([next, next])
    }
    builder.setRoot(next)
    let bytes = builder.bytes()
    let result = HarnessDecoder(registry: ClassRegistry()).decode(
      bytes, secure: true, allowedClasses: ["NSArray"])
    #expect(result.outcome.rejection?.category == .limitExceeded)
    let trip = RoundTrip(registry: ClassRegistry(), classMap: .empty, allowedClasses: ["NSArray"])
    guard case .failure(let refusal) = trip.run(bytes) else {
      Issue.record("the round trip did not refuse the bomb")
      return
    }
    #expect(refusal.cause == .rejected(.limitExceeded))
  }

  @Test("The expanded size counts shared references and stops at the cap")
  func expandedSize() throws {
    var builder = KeyedArchiveBuilder()
    var next = builder.string("leaf")
    for _ in 0..<3 {
      next = builder.array([next, next])
    }
    builder.setRoot(next)
    let archive = try KeyedArchive(bytes: builder.bytes())
    #expect(archive.expandedSize(limit: 1000) == 16)
    #expect(archive.expandedSize(limit: 10) == 11)
  }

  @Test("A dictionary keyed by an array is described without bridging its keys")
  func dictionaryWithArrayKey() {
    let dictionary = NSMutableDictionary()
    dictionary.setObject("value", forKey: NSArray(array: ["k"]))
    var describer = ObjectDescriber()
    guard case .dictionary(_, let entries) = describer.describe(dictionary) else {
      Issue.record("not a dictionary")
      return
    }
    #expect(entries.count == 1)
    #expect(entries.first?.value == .string("value"))
  }

  /// A fuzz find: the value under an outer dictionary's key is a dictionary keyed by an array.
  ///
  /// Reading that value through Foundation bridges it, and corelibs traps on the array key.
  @Test(
    "A dictionary keyed by an array, nested as another dictionary's value, decodes and is described"
  )
  func nestedDictionaryWithArrayKey() throws {
    var builder = KeyedArchiveBuilder()
    let arrayKey = builder.array([builder.string("zero"), builder.string("one")])
    let inner = builder.dictionary(keys: [arrayKey], values: [builder.string("value")])
    let outer = builder.dictionary(keys: [builder.string("inner")], values: [inner])
    let list = builder.array([outer])
    builder.setRoot(list)
    let result = HarnessDecoder(registry: ClassRegistry()).decode(
      builder.bytes(), secure: true, allowedClasses: ["NSArray", "NSDictionary", "NSString"])
    #expect(result.outcome.rejection == nil)
    let value = try #require(result.outcome.decodedValue)
    guard case .array(_, let elements) = value,
      case .dictionary(_, let outerEntries)? = elements.first,
      case .dictionary(_, let innerEntries)? = outerEntries.first?.value
    else {
      Issue.record("not an array of a dictionary of a dictionary: \(value)")
      return
    }
    #expect(innerEntries.first?.value == .string("value"))
    #expect(
      innerEntries.first?.key
        == .array(className: "NSArray", elements: [.string("zero"), .string("one")]))
  }
}
