import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation
import Testing

/// A round trip of dictionaries keyed by collections, which corelibs cannot bridge.
///
/// Reading such a dictionary, or a dictionary that holds one as a value, through Swift bridges
/// it, and corelibs traps hashing an array key. The round trip must describe, re-encode and
/// compare what the decode built instead, and never crash the process that runs it.
@Suite("Round trip of collection-keyed dictionaries")
struct RoundTripCollectionKeyTests {
  static let allowed = ["NSArray", "NSDictionary", "NSString"]

  /// An array holding `{"inner": {["zero", "one"]: "value"}}`.
  static func nestedArrayKeyArchive() -> [UInt8] {
    var builder = KeyedArchiveBuilder()
    let arrayKey = builder.array([builder.string("zero"), builder.string("one")])
    let inner = builder.dictionary(keys: [arrayKey], values: [builder.string("value")])
    let outer = builder.dictionary(keys: [builder.string("inner")], values: [inner])
    builder.setRoot(builder.array([outer]))
    return builder.bytes()
  }

  @Test("A dictionary keyed by an array, nested as a value, round-trips with its key intact")
  func nestedArrayKeyRoundTrips() throws {
    let trip = RoundTrip(
      registry: ClassRegistry(), classMap: ClassNameMap(), allowedClasses: Self.allowed)
    let migrated = try trip.run(Self.nestedArrayKeyArchive()).get()
    #expect(migrated.after == migrated.before)
    guard case .array(_, let elements) = migrated.after,
      case .dictionary(_, let outerEntries)? = elements.first,
      case .dictionary(_, let innerEntries)? = outerEntries.first?.value
    else {
      Issue.record("not an array of a dictionary of a dictionary: \(migrated.after)")
      return
    }
    #expect(
      innerEntries.first?.key
        == .array(className: "NSArray", elements: [.string("zero"), .string("one")]))
    #expect(innerEntries.first?.value == .string("value"))
  }

  @Test("A root dictionary keyed by an array round-trips")
  func rootArrayKeyRoundTrips() throws {
    var builder = KeyedArchiveBuilder()
    let arrayKey = builder.array([builder.string("k")])
    builder.setRoot(builder.dictionary(keys: [arrayKey], values: [builder.string("v")]))
    let trip = RoundTrip(
      registry: ClassRegistry(), classMap: ClassNameMap(), allowedClasses: Self.allowed)
    let migrated = try trip.run(builder.bytes()).get()
    guard case .dictionary(_, let entries) = migrated.after else {
      Issue.record("not a dictionary: \(migrated.after)")
      return
    }
    #expect(entries.first?.key == .array(className: "NSArray", elements: [.string("k")]))
    #expect(entries.first?.value == .string("v"))
  }
}
