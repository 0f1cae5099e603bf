import Foundation
import Manifest

/// Reads `--schema FILE`: the built-in schema unless a file is named.
enum SchemaOption {
  /// The help text every command's `--schema` option shows.
  static let help = "Validate against this XSD instead of the built-in schema."

  /// The schema to validate with: the `--schema` file, which must exist, or the built-in one.
  static func source(_ arguments: ParsedArguments) throws -> ManifestSchema.Source {
    guard let path = arguments.values("schema").last else { return .builtIn }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else {
      throw CommandFailure(place: path, category: "unreadable", message: "no such schema file")
    }
    return .file(path)
  }
}
