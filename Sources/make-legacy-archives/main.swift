import ArchiveFormat
import Foundation
// Writes the sample app's historical archives into LegacyArchives/, once.
//
// These are the archives version 1 of the sample app (module `ProfilesApp`,
// NSCoding only) wrote, in the shape NSKeyedArchiver gives them on iOS:
// strings inline in `$objects`, `NSMutableString` as `NS.string`, arrays as
// `NS.objects`, `$classes` chains ending in `NSObject`. They are written with
// the project's own writer because Foundation on Linux ignores
// `setClassName(_:for:)` and writes some Foundation classes differently.
//
// Usage: make-legacy-archives OUTPUT-DIRECTORY
import _ArchiveHarnessSystem

/// The archived class names of one producing version.
struct Producer {
  var folder: String
  var userProfile: String
  var address: String
  var memo: String
}

/// 1.0 was built with `@objc(…)`-less Swift classes archived by module-qualified name.
let version10 = Producer(
  folder: "ProfilesApp-1.0", userProfile: "ProfilesApp.UserProfile",
  address: "ProfilesApp.Address", memo: "ProfilesApp.Memo")
/// 1.1 archived the Swift runtime's mangled names, as classes without an ObjC name do.
let version11 = Producer(
  folder: "ProfilesApp-1.1", userProfile: "_TtC11ProfilesApp11UserProfile",
  address: "_TtC11ProfilesApp7Address", memo: "_TtC11ProfilesApp4Memo")

struct Person {
  var id: Int64
  var name: String
  var isActive: Bool
  var street: String
  var city: String
}

let people = [
  Person(
    id: 1001, name: "Avery Example", isActive: true, street: "1 Sample Street", city: "Walldorf"),
  Person(
    id: 1002, name: "Blake Placeholder", isActive: false, street: "22 Test Lane", city: "Palo Alto"),
  Person(id: 1003, name: "Casey Fixture", isActive: true, street: "303 Mock Road", city: "Sofia"),
]

extension KeyedArchiveBuilder {
  // Like NSKeyedArchiver, each object takes its slot before its children do.

  mutating func address(_ producer: Producer, _ person: Person) -> PropertyListValue {
    let slot = reserve()
    let street = string(person.street)
    let city = string(person.city)
    fill(slot, with: instanceValue(producer.address, [("street", street), ("city", city)]))
    return slot
  }

  mutating func profile(
    _ producer: Producer, _ person: Person, mutableName: Bool = false,
    address override: PropertyListValue? = nil
  ) -> PropertyListValue {
    let slot = reserve()
    let name: PropertyListValue
    if mutableName {
      name = object(
        "NSMutableString", chain: ["NSMutableString", "NSString", "NSObject"],
        [("NS.string", .string(person.name))])
    } else {
      name = string(person.name)
    }
    let address = override ?? self.address(producer, person)
    fill(
      slot,
      with: instanceValue(
        producer.userProfile,
        [
          ("id", .integer(person.id)), ("name", name), ("isActive", .bool(person.isActive)),
          ("address", address),
        ]))
    return slot
  }

  mutating func memo(_ producer: Producer, schema: Int64, text: String) -> PropertyListValue {
    let slot = reserve()
    let body = string(text)
    fill(slot, with: instanceValue(producer.memo, [("schema", .integer(schema)), ("text", body)]))
    return slot
  }
}

func archive(_ build: (inout KeyedArchiveBuilder) -> PropertyListValue) -> [UInt8] {
  var builder = KeyedArchiveBuilder()
  let root = build(&builder)
  builder.setRoot(root)
  return builder.bytes()
}

func files(for producer: Producer) -> [(String, [UInt8])] {
  let memoText = "Remember to migrate the cache before the release."
  let validMemo = archive { $0.memo(producer, schema: 1, text: memoText) }
  var files: [(String, [UInt8])] = [
    ("memo-valid.archive", validMemo),
    ("profile-valid.archive", archive { $0.profile(producer, people[0], mutableName: true) }),
    (
      "profiles-list.archive",
      archive { builder in
        let list = builder.reserve()
        let profiles = people.map { builder.profile(producer, $0) }
        builder.fill(
          list, with: builder.instanceValue("NSArray", [("NS.objects", .array(profiles))]))
        return list
      }
    ),
    ("memo-wrong-root.archive", archive { $0.string(memoText) }),
    ("memo-unknown-schema.archive", archive { $0.memo(producer, schema: 2, text: memoText) }),
    ("memo-truncated.archive", Array(validMemo.prefix(12))),
    (
      "memo-text-over-limit.archive",
      archive { $0.memo(producer, schema: 1, text: String(repeating: "Lorem ipsum ", count: 342)) }
    ),
    (
      "profile-address-substituted.archive",
      archive { builder in
        let keys = [builder.string("street"), builder.string("city")]
        let values = [builder.string(people[1].street), builder.string(people[1].city)]
        let dictionary = builder.dictionary(keys: keys, values: values)
        return builder.profile(producer, people[1], address: dictionary)
      }
    ),
    (
      "profiles-list-container-not-allowed.archive",
      archive { builder in
        let list = builder.reserve()
        let profiles = people.prefix(2).map { builder.profile(producer, $0) }
        builder.fill(
          list,
          with: builder.instanceValue(
            "NSMutableArray", chain: ["NSMutableArray", "NSArray", "NSObject"],
            [("NS.objects", .array(profiles))]))
        return list
      }
    ),
    (
      "profile-renamed-unmapped.archive",
      archive { builder in
        var renamed = producer
        renamed.address = producer.address.replacingOccurrences(
          of: "Address", with: "PostalAddress"
        )
        .replacingOccurrences(of: "7PostalAddress", with: "13PostalAddress")
        return builder.profile(renamed, people[2])
      }
    ),
    (
      "profiles-list-cyclic.archive",
      archive { builder in
        let list = builder.reserve()
        let profile = builder.profile(producer, people[0])
        builder.fill(
          list, with: builder.instanceValue("NSArray", [("NS.objects", .array([profile, list]))]))
        return list
      }
    ),
    (
      "profile-address-wrong-class-traps-v1.archive",
      archive { builder in
        let street = builder.string(people[2].street)
        return builder.profile(producer, people[2], address: street)
      }
    ),
  ]
  files.sort { $0.0 < $1.0 }
  return files
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: make-legacy-archives OUTPUT-DIRECTORY\n".utf8))
  exit(2)
}
let output = URL(fileURLWithPath: arguments[1])
for producer in [version10, version11] {
  let folder = output.appendingPathComponent(producer.folder)
  do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, bytes) in files(for: producer) {
      try SafeFileWriter.write(bytes, to: folder.appendingPathComponent(name).path)
      print("\(producer.folder)/\(name)  \(bytes.count) bytes")
    }
  } catch {
    FileHandle.standardError.write(Data("make-legacy-archives: \(folder.path): \(error)\n".utf8))
    exit(2)
  }
}
