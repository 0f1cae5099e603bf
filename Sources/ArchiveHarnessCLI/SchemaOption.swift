import ArchiveManifest
import Foundation

/// `--schema FILE`: the built-in schema unless a file is named.
enum SchemaOption {
  /// The option, declared once for every command that reads manifests.
  static let option = Option<String?>.optional(
    "schema", valueName: "FILE", help: "Validate against this XSD file instead.",
    defaultDescription: "the built-in schema")

  /// The schema to validate with: the `--schema` file, which must exist, or the built-in one.
  ///
  /// - Parameter path: The `--schema` value, or nil when it was not given.
  /// - Returns: The file's schema, or the built-in one.
  /// - Throws: `CommandFailure` when the file does not exist or is a folder.
  static func source(_ path: String?) throws -> ManifestSchema.Source {
    guard let path else { return .builtIn }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else {
      throw CommandFailure(file: path, category: .unreadable, message: "no such schema file")
    }
    return .file(path)
  }
}
