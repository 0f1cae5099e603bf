/// Options that several commands declare alike, declared once here.
enum SharedOptions {
  /// `--archives DIR`: the folder a manifest's archive paths are relative to.
  static let archives = Option.defaulted(
    "archives", valueName: "DIR", help: "The folder archive paths are relative to.",
    default: ManifestFolder.archivesFolder)
  /// `--class-map OLD=NEW`: an archived class name and its current one (`manifest author`,
  /// `diff`); `ManifestAuthorCommand.teamClassMap(_:files:manifest:console:)` reads it.
  static let classMap = Option<[String]>.repeating(
    "class-map", valueName: "OLD=NEW",
    help:
      "An archived class name and the name it has now (repeatable; OLD.*=NEW.* maps a module).")
  /// `--class-map-file FILE`: a class map file whose rows apply too.
  static let classMapFile = Option<[String]>.repeating(
    "class-map-file", valueName: "FILE",
    help:
      "A class map file (root <classMap>) whose rows apply too (repeatable); manifest author"
      + " reads those in maps/ beside the manifest unless one is given.")
}
