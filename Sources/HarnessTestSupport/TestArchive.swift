import ArchiveFormat

/// Builds small Apple-shaped keyed archives for tests with the project's own writer.
package struct TestArchive {
  package private(set) var objects: [PropertyListValue] = [.string("$null")]
  private var classes: [[String]: UInt64] = [:]

  /// An archive holding only `$null`.
  package init() {}

  /// Appends a raw `$objects` entry and returns its UID.
  package mutating func add(_ value: PropertyListValue) -> UInt64 {
    objects.append(value)
    return UInt64(objects.count - 1)
  }

  /// Reserves a UID whose value is set later, for cycles.
  package mutating func reserve() -> UInt64 { add(.string("$reserved")) }

  /// Sets a reserved entry.
  package mutating func set(_ uid: UInt64, _ value: PropertyListValue) {
    objects[Int(uid)] = value
  }

  /// A reference to an inline string.
  package mutating func string(_ text: String) -> PropertyListValue { .uid(add(.string(text))) }

  /// The UID of a class entry with the given `$classes` chain (first name is `$classname`).
  package mutating func classReference(_ chain: [String]) -> UInt64 {
    if let uid = classes[chain] { return uid }
    let uid = add(
      .dictionary(
        PropertyListDictionary([
          ("$classname", .string(chain[0])), ("$classes", .array(chain.map { .string($0) })),
        ])))
    classes[chain] = uid
    return uid
  }

  /// An object dictionary with a class chain and fields.
  package mutating func objectValue(
    _ chain: [String], _ fields: [(String, PropertyListValue)]
  ) -> PropertyListValue {
    let classUID = classReference(chain)
    return .dictionary(PropertyListDictionary([("$class", .uid(classUID))] + fields))
  }

  /// Appends an object and returns a reference to it.
  package mutating func object(
    _ chain: [String], _ fields: [(String, PropertyListValue)]
  ) -> PropertyListValue {
    .uid(add(objectValue(chain, fields)))
  }

  /// Appends an `NSArray` of references.
  package mutating func array(_ elements: [PropertyListValue], className: String = "NSArray")
    -> PropertyListValue
  {
    let chain =
      className == "NSArray" ? ["NSArray", "NSObject"] : [className, "NSArray", "NSObject"]
    return object(chain, [("NS.objects", .array(elements))])
  }

  /// Appends an `NSDictionary` of string keys.
  package mutating func dictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
    let keys = entries.map { string($0.0) }
    return object(
      ["NSDictionary", "NSObject"],
      [("NS.keys", .array(keys)), ("NS.objects", .array(entries.map(\.1)))])
  }

  /// The archive bytes with the given root.
  package func bytes(root: PropertyListValue) -> [UInt8] {
    BinaryPropertyListWriter().write(
      .dictionary(
        PropertyListDictionary([
          ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
          ("$top", .dictionary(PropertyListDictionary([("root", root)]))),
          ("$objects", .array(objects)),
        ])))
  }
}

/// Ready-made archives of the sample app.
package enum SampleArchives {
  /// An address object with the given module's class name.
  package static func address(
    _ archive: inout TestArchive, module: String = "ProfilesApp",
    street: String = "1 Infinite Loop",
    city: String = "Cupertino"
  ) -> PropertyListValue {
    archive.object(
      ["\(module).Address", "NSObject"],
      [("street", archive.string(street)), ("city", archive.string(city))])
  }

  /// A profile object; `address` defaults to a real address.
  package static func profile(
    _ archive: inout TestArchive, module: String = "ProfilesApp", id: Int64 = 42,
    name: String = "Ada", address: PropertyListValue? = nil, className: String? = nil
  ) -> PropertyListValue {
    let addressValue = address ?? SampleArchives.address(&archive, module: module)
    return archive.object(
      [className ?? "\(module).UserProfile", "NSObject"],
      [
        ("id", .integer(id)), ("name", archive.string(name)), ("isActive", .bool(true)),
        ("address", addressValue),
      ])
  }

  /// A whole profile archive.
  package static func profileArchive(module: String = "ProfilesApp") -> [UInt8] {
    var archive = TestArchive()
    let root = profile(&archive, module: module)
    return archive.bytes(root: root)
  }

  /// A memo archive; `schema: nil` leaves the key out.
  package static func memoArchive(
    module: String = "ProfilesApp", schema: Int64? = 1, text: String? = "hello"
  ) -> [UInt8] {
    var archive = TestArchive()
    var fields: [(String, PropertyListValue)] = []
    if let schema { fields.append(("schema", .integer(schema))) }
    if let text { fields.append(("text", archive.string(text))) }
    let root = archive.object(["\(module).Memo", "NSObject"], fields)
    return archive.bytes(root: root)
  }
}
