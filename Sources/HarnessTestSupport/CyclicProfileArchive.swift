import ArchiveFormat
import Foundation

/// A small UserProfile archive with shared references and cycles, written by the project's writer.
package enum CyclicProfileArchive {
  /// The archive: a profile whose address points back at it, and which points at itself.
  package static func archive(city: String = "Berlin") -> KeyedArchive {
    let objects: [ArchiveObject] = [
      .null,
      .instance(
        ArchiveInstance(
          classIndex: 7, archiveClass: userProfileClass,
          fields: [
            "name": .uid(2), "age": .integer(42), "tags": .uid(3), "address": .uid(5),
            "score": .real(3.5), "active": .bool(true), "created": .uid(8),
            "photo": .data([1, 2, 3]), "me": .uid(1), "nickname": .uid(0),
          ])),
      .value(.string("Alice")),
      .instance(
        ArchiveInstance(
          classIndex: 6, archiveClass: arrayClass,
          fields: ["NS.objects": .array([.uid(4), .uid(10), .uid(4)])])),
      .value(.string("swift")),
      .instance(
        ArchiveInstance(
          classIndex: 9, archiveClass: addressClass,
          fields: ["city": .uid(11), "owner": .uid(1)])),
      .classDescription(arrayClass),
      .classDescription(userProfileClass),
      .instance(
        ArchiveInstance(
          classIndex: 12, archiveClass: dateClass, fields: ["NS.time": .real(631_152_000.5)])),
      .classDescription(addressClass),
      .value(.string("archives")),
      .value(.string(city)),
      .classDescription(dateClass),
    ]
    return KeyedArchive(top: ["root": .uid(1)], objects: objects)
  }

  package static let userProfileClass = ArchiveClass(
    name: "ProfilesApp.UserProfile", chain: ["ProfilesApp.UserProfile", "NSObject"])
  package static let addressClass = ArchiveClass(
    name: "ProfilesApp.Address", chain: ["ProfilesApp.Address", "NSObject"])
  package static let arrayClass = ArchiveClass(
    name: "NSMutableArray", chain: ["NSMutableArray", "NSArray", "NSObject"])
  package static let dateClass = ArchiveClass(name: "NSDate", chain: ["NSDate", "NSObject"])

  /// The archive as binary property-list bytes.
  package static func bytes(city: String = "Berlin") -> [UInt8] {
    BinaryPropertyListWriter().write(archive(city: city).propertyList)
  }

  /// Writes the archive into `directory/name` and returns the bytes.
  @discardableResult
  package static func write(
    to directory: String, name: String = "alice.archive", city: String = "Berlin"
  ) throws -> [UInt8] {
    let bytes = bytes(city: city)
    let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
    return bytes
  }
}
