/// Options that several commands declare alike, declared once here.
enum SharedOptions {
  /// `--archives DIR`: the folder a manifest's archive paths are relative to.
  static let archives = Option.defaulted(
    "archives", valueName: "DIR", help: "The folder archive paths are relative to.",
    default: ManifestFolder.archivesFolder)
}
