import ArchiveFormat
import HarnessTestSupport
import Testing

/// Dictionaries that repeat their keys, which a linear lookup per repeat turns into quadratic work.
@Suite("Repeated keys")
struct RepeatedKeyTests {
  static let distinctKeys = 50_000

  @Test("A binary dictionary that repeats 50,000 keys reads in linear time, last value winning")
  func binaryRepeatedKeys() throws {
    // Objects 1...n are the keys, n+1 the value "first", n+2 the value "last";
    // object 0 lists every key twice.
    let count = Self.distinctKeys
    var objects: [[UInt8]] = [[]]
    for index in 0..<count {
      objects.append(HostileInput.ascii("k\(index)"))
    }
    objects.append(HostileInput.ascii("first"))
    objects.append(HostileInput.ascii("last"))
    let keys = Array(1...count) + Array(1...count)
    let values =
      Array(repeating: count + 1, count: count) + Array(repeating: count + 2, count: count)
    objects[0] = HostileInput.dictionary(keys: keys, values: values, width: 4)
    let bytes = HostileInput.binaryList(objects)
    var value: PropertyListValue?
    let elapsed = try HostileInput.seconds {
      value = try PropertyListReader().read(bytes)
    }
    let dictionary = try #require(value?.dictionaryValue)
    #expect(dictionary.count == count)
    #expect(dictionary.entries.first?.key == "k0")
    #expect(dictionary.entries.last?.value == .string("last"))
    // Linear is milliseconds; a linear scan per repeated key is minutes.
    #expect(elapsed < 10)
  }

  @Test("An XML dictionary that repeats 50,000 keys reads in linear time, last value winning")
  func xmlRepeatedKeys() throws {
    var document = "<plist version=\"1.0\"><dict>"
    for index in 0..<Self.distinctKeys {
      document += "<key>k\(index)</key><string>first</string>"
    }
    for index in 0..<Self.distinctKeys {
      document += "<key>k\(index)</key><string>last</string>"
    }
    document += "</dict></plist>"
    let bytes = Array(document.utf8)
    var value: PropertyListValue?
    let elapsed = try HostileInput.seconds {
      value = try PropertyListReader().read(bytes)
    }
    let dictionary = try #require(value?.dictionaryValue)
    #expect(dictionary.count == Self.distinctKeys)
    #expect(dictionary.entries.last?.value == .string("last"))
    #expect(elapsed < 10)
  }
}
