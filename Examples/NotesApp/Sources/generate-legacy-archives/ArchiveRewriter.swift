import Foundation

/// Changes what Linux Foundation's `NSKeyedArchiver` wrote, with Foundation's property-list tools.
///
/// swift-corelibs-foundation writes `NSStringFromClass` names whatever `setClassName(_:for:)`
/// says, so names an older build wrote (Swift 4's `_TtC7NotesV14Note`) are made by rewriting
/// the class descriptions in `$objects`, then re-read to prove the archive still parses.
enum ArchiveRewriter {
  /// Rewrites class names in the archive's class descriptions; fails when none was named.
  static func renamingClasses(_ bytes: [UInt8], _ names: [String: String]) throws -> [UInt8] {
    var archive = try dictionary(bytes)
    guard var objects = archive["$objects"] as? [Any] else {
      throw GeneratorError("the archive has no $objects")
    }
    var renamed = 0
    for (index, object) in objects.enumerated() {
      guard var description = object as? [String: Any],
        let name = description["$classname"] as? String, let new = names[name]
      else { continue }
      description["$classname"] = new
      if let classes = description["$classes"] as? [String] {
        description["$classes"] = classes.map { names[$0] ?? $0 }
      }
      objects[index] = description
      renamed += 1
    }
    guard renamed > 0 else {
      throw GeneratorError("no class named \(names.keys.sorted()) in the archive")
    }
    archive["$objects"] = objects
    return try written(archive)
  }

  /// Sets the archive's `$version`, as an archiver of another format version would write it.
  static func settingVersion(_ bytes: [UInt8], to version: Int64) throws -> [UInt8] {
    var archive = try dictionary(bytes)
    archive["$version"] = NSNumber(value: version)
    return try written(archive)
  }

  private static func dictionary(_ bytes: [UInt8]) throws -> [String: Any] {
    guard
      let archive = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
        as? [String: Any]
    else { throw GeneratorError("the archive is not a dictionary") }
    return archive
  }

  /// Writes the archive as a binary property list and reads it back.
  private static func written(_ archive: [String: Any]) throws -> [UInt8] {
    let data = try PropertyListSerialization.data(
      fromPropertyList: archive, format: .binary, options: 0)
    _ = try dictionary([UInt8](data))
    return [UInt8](data)
  }
}
