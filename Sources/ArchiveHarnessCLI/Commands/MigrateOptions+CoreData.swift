import ArchiveHarness

/// `--entity` and `--attribute`: a Core Data entity's attribute, in place of `--table`,
/// `--key-column` and `--value-column`.
extension MigrateOptions {
  /// A Core Data entity and attribute, as given.
  struct CoreDataSelection {
    /// `--entity`.
    var entity: String
    /// `--attribute`.
    var attribute: String
  }

  static let entity = Option<String?>.optional(
    "entity", valueName: "ENTITY",
    help:
      "A Core Data entity (Z_PRIMARYKEY's Z_NAME), with --attribute: --entity Book --attribute cover stands for --table ZBOOK --key-column Z_PK --value-column ZCOVER."
  )
  static let attribute = Option<String?>.optional(
    "attribute", valueName: "ATTRIBUTE",
    help: "The entity's attribute holding the archives (its column is Z + the name, uppercased).")

  /// Reads `--entity` and `--attribute`, which come together and replace the table options.
  ///
  /// - Throws: `UsageError` for one without the other, or either with `--table`,
  ///   `--key-column` or `--value-column`.
  static func coreDataSelection(_ arguments: ParsedArguments) throws -> CoreDataSelection? {
    let entity = arguments[Self.entity]
    let attribute = arguments[Self.attribute]
    guard entity != nil || attribute != nil else { return nil }
    guard let entity, let attribute else {
      throw UsageError(message: "--entity and --attribute go together: give both")
    }
    for name in [table.name, keyColumn.name, valueColumn.name] where arguments.isGiven(name) {
      throw UsageError(
        message:
          "--entity and --attribute name the table and columns themselves: leave out --\(name)")
    }
    return CoreDataSelection(entity: entity, attribute: attribute)
  }

  /// Opens a Core Data entity's attribute as an SQLite store.
}
