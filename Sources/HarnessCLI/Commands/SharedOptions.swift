/// Options that several commands declare alike, declared once here.
enum SharedOptions {
  /// `--schema FILE`: a manifest schema to use instead of the built-in one.
  static let schema = Option<String?>.optional(
    "schema", valueName: "FILE", help: "The manifest schema.",
    defaultDescription: "the built-in schema")

  /// `--archives DIR`: the folder a manifest's archive paths are relative to.
  static let archives = Option.defaulted(
    "archives", valueName: "DIR", help: "The folder archive paths are relative to.",
    default: ManifestFolderLocator.archivesFolder)
}
