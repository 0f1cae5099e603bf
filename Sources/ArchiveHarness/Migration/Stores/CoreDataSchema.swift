import ArchiveFormat
import CHarnessSQLite

/// What an SQLite store says of the Core Data model that wrote it: its entities, from
/// `Z_PRIMARYKEY`, and its version, from `Z_METADATA`.
///
/// Core Data keeps an entity's rows in the table `Z` + the uppercased name of the root of its
/// inheritance tree (`Book` in `ZBOOK`; a `Novel` whose parent is `Book` in `ZBOOK` too, told
/// apart by `Z_ENT`), and an attribute in the column `Z` + its uppercased name (`cover` in
/// `ZCOVER`). The store keeps no attribute names of its own, so attributes are named from their
/// columns, lowercased.
///
/// ```swift
/// let report = try StoreSurvey(path: "Books.sqlite").run()
/// print(report.coreData?.entities.map(\.name) ?? [])  // ["Book", "Novel"]
/// ```
package struct CoreDataSchema: Hashable, Sendable {
  /// One entity: a row of `Z_PRIMARYKEY`.
  package struct Entity: Hashable, Sendable {
    /// `Z_ENT`, the number rows of the entity carry in their `Z_ENT` column.
    package var id: Int64
    /// `Z_NAME`, the entity's name in the model.
    package var name: String
    /// `Z_SUPER`, the parent entity's number; `nil` for a root entity (`Z_SUPER` 0).
    package var superID: Int64?
    /// The table that holds the entity's rows: `Z` + its root entity's name, uppercased.
    package var table: String
  }

  /// Every entity, in `Z_ENT` order.
  package var entities: [Entity]
  /// `Z_METADATA.Z_VERSION`.
  package var version: Int64?
  /// `Z_METADATA.Z_UUID`, the store's identifier.
  package var uuid: String?
  /// `NSStoreModelVersionIdentifiers` of `Z_METADATA.Z_PLIST`: the model versions' identifiers.
  package var versionIdentifiers: [String]
  /// `NSStoreModelVersionHashesVersion` of `Z_METADATA.Z_PLIST`.
  package var versionHashesVersion: Int64?
  /// Why `Z_METADATA` could not be read in full, if it could not.
  package var metadataProblem: String?

  /// The entity with this `Z_ENT`.
  package func entity(id: Int64) -> Entity? {
    entities.first { $0.id == id }
  }

  /// The entity a name names: exactly, or else the one entity whose name differs only in case.
  package func entity(named name: String) -> Entity? {
    if let exact = entities.first(where: { $0.name == name }) { return exact }
    let folded = entities.filter { $0.name.lowercased() == name.lowercased() }
    return folded.count == 1 ? folded.first : nil
  }

  /// The entities whose rows live in a table (matched as SQLite matches names, ignoring case).
  package func entities(inTable table: String) -> [Entity] {
    entities.filter { $0.table.lowercased() == table.lowercased() }
  }

  /// An entity's number and those of every entity below it.
  package func subtree(of id: Int64) -> Set<Int64> {
    var result: Set<Int64> = [id]
    var grew = true
    while grew {
      grew = false
      for entity in entities where !result.contains(entity.id) {
        if let parent = entity.superID, result.contains(parent) {
          result.insert(entity.id)
          grew = true
        }
      }
    }
    return result
  }

  /// An entity's chain of parents, itself first; bounded, so a cycle in `Z_SUPER` ends it.
  package func ancestors(of id: Int64) -> [Int64] {
    var chain: [Int64] = []
    var current: Int64? = id
    while let next = current, chain.count <= entities.count, !chain.contains(next) {
      chain.append(next)
      current = entity(id: next)?.superID
    }
    return chain
  }

  /// The nearest entity that every one of `ids` is or descends from; `nil` when they share none.
  package func commonAncestor(of ids: some Collection<Int64>) -> Entity? {
    guard let first = ids.first else { return nil }
    var common = ancestors(of: first)
    for id in ids.dropFirst() {
      let chain = Set(ancestors(of: id))
      common = common.filter(chain.contains)
    }
    return common.first.flatMap(entity(id:))
  }

  /// The attribute a column holds: the column without its `Z`, lowercased; `nil` for Core Data's
  /// own columns (`Z_PK`, `Z_ENT`, `Z_OPT`, …) and columns that do not start with `Z`.
  package static func attributeName(ofColumn column: String) -> String? {
    guard column.count > 1, column.first == "Z" || column.first == "z",
      !column.hasPrefix("Z_"), !column.hasPrefix("z_")
    else { return nil }
    return String(column.dropFirst()).lowercased()
  }

  /// The column of an attribute: `Z` + its name, uppercased.
  package static func columnName(ofAttribute attribute: String) -> String {
    "Z" + attribute.uppercased()
  }

  /// The table's name for a root entity: `Z` + its name, uppercased.
  static func tableName(ofRoot name: String) -> String {
    "Z" + name.uppercased()
  }
}

extension CoreDataSchema {
  /// Reads the model from a store, or returns `nil` when the store has no `Z_PRIMARYKEY` and
  /// `Z_METADATA` tables (it is not a Core Data store).
  ///
  /// - Throws: `MigrationError` when `Z_PRIMARYKEY` cannot be read; a `Z_METADATA` that cannot
  ///   be read is a ``metadataProblem``, not an error.
  static func read(_ database: SQLiteDatabase) throws(MigrationError) -> CoreDataSchema? {
    let lookup = try database.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('Z_PRIMARYKEY', 'Z_METADATA') COLLATE NOCASE"
    )
    var found: Set<String> = []
    while try lookup.step() {
      if case .text(let name) = lookup.value(0) { found.insert(name.uppercased()) }
    }
    guard found == ["Z_PRIMARYKEY", "Z_METADATA"] else { return nil }

    var raw: [(id: Int64, name: String, superID: Int64?)] = []
    let rows = try database.prepare(
      "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    while try rows.step() {
      guard case .integer(let id) = rows.value(0), case .text(let name) = rows.value(1) else {
        continue
      }
      var superID: Int64?
      if case .integer(let parent) = rows.value(2), parent != 0 { superID = parent }
      raw.append((id, name, superID))
    }
    var schema = CoreDataSchema(
      entities: raw.map { Entity(id: $0.id, name: $0.name, superID: $0.superID, table: "") },
      versionIdentifiers: [])
    for index in schema.entities.indices {
      let chain = schema.ancestors(of: schema.entities[index].id)
      let root = chain.last.flatMap(schema.entity(id:)) ?? schema.entities[index]
      schema.entities[index].table = tableName(ofRoot: root.name)
    }
    schema.readMetadata(database)
    return schema
  }

  /// Fills in the version from `Z_METADATA`, or says why it could not.
  private mutating func readMetadata(_ database: SQLiteDatabase) {
    do throws(MigrationError) {
      let statement = try database.prepare(
        "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
      guard try statement.step() else {
        metadataProblem = "Z_METADATA holds no row"
        return
      }
      if case .integer(let number) = statement.value(0) { version = number }
      if case .text(let text) = statement.value(1) { uuid = text }
      guard statement.columnType(2) == SQLITE_BLOB else { return }
      let bytes = statement.bytes(2)
      let value: PropertyListValue
      do throws(PropertyListError) {
        value = try PropertyListReader().read(bytes)
      } catch {
        metadataProblem = "Z_PLIST is not a property list: \(error.description)"
        return
      }
      guard case .dictionary(let plist) = value else {
        metadataProblem = "Z_PLIST is \(value.typeNameWithArticle), not a dictionary"
        return
      }
      if case .array(let identifiers) = plist["NSStoreModelVersionIdentifiers"] {
        versionIdentifiers = identifiers.compactMap {
          if case .string(let text) = $0 { return text }
          return nil
        }
      }
      switch plist["NSStoreModelVersionHashesVersion"] {
      case .integer(let number): versionHashesVersion = number
      default: break
      }
    } catch {
      metadataProblem = "Z_METADATA cannot be read: \(error.message)"
    }
  }
}

extension CoreDataSchema {
  /// A Core Data entity's attribute as a table, a key column and a value column, with the
  /// entities whose rows it covers.
  struct Target {
    /// The table, as the schema spells it.
    var table: String
    /// The attribute's column, as the schema spells it.
    var column: String
    /// The entity named.
    var entity: Entity
    /// The attribute as the user named it.
    var attribute: String
    /// The `Z_ENT` values of the rows to read: the entity and those below it; `nil` when the
    /// table holds no other entity's rows.
    var entityFilter: Set<Int64>?
    /// Entity names by `Z_ENT`, to name each row by its own entity.
    var names: [Int64: String]
  }

  /// Resolves `--entity` and `--attribute` against `Z_PRIMARYKEY` and the table's columns.
  ///
  /// - Throws: `MigrationError` with code `MigrationError.Code.invalidIdentifier` naming the
  ///   entities, or the entity's attributes, that exist.
  func target(entity name: String, attribute: String, in database: SQLiteDatabase, path: String)
    throws(MigrationError) -> Target
  {
    guard let entity = entity(named: name) else {
      let names = entities.map(\.name).sorted()
      throw MigrationError(
        .invalidIdentifier, place: Place(file: path, position: .table("Z_PRIMARYKEY")),
        "no entity '\(name)'; the entities are: \(names.isEmpty ? "(none)" : names.joined(separator: ", "))"
      )
    }
    let lookup = try database.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name = ?1 COLLATE NOCASE")
    try lookup.bind(.text(entity.table), at: 1)
    guard try lookup.step(), case .text(let table) = lookup.value(0) else {
      throw MigrationError(
        .invalidIdentifier, file: path,
        "the entity '\(entity.name)' should be in the table \(entity.table), which the store does not have"
      )
    }
    let info = try database.prepare("PRAGMA table_info(\(SQLiteDatabase.quote(table)))")
    var columns: [String] = []
    while try info.step() {
      if case .text(let column) = info.value(1) { columns.append(column) }
    }
    let wanted = Self.columnName(ofAttribute: attribute)
    guard let column = columns.first(where: { $0.uppercased() == wanted }) else {
      let attributes = columns.compactMap(Self.attributeName(ofColumn:))
      throw MigrationError(
        .invalidIdentifier, place: Place(file: path, position: .table(table)),
        "the entity '\(entity.name)' (table \(table)) has no attribute '\(attribute)' (column \(wanted)); its attributes are: \(attributes.isEmpty ? "(none)" : attributes.joined(separator: ", "))"
      )
    }
    let sharing = entities(inTable: table).map(\.id)
    let covered = subtree(of: entity.id)
    let hasEntityColumn = columns.contains { $0.uppercased() == "Z_ENT" }
    let filter: Set<Int64>? =
      hasEntityColumn && !Set(sharing).isSubset(of: covered) ? covered : nil
    var names: [Int64: String] = [:]
    for shared in entities(inTable: table) { names[shared.id] = shared.name }
    return Target(
      table: table, column: column, entity: entity, attribute: attribute, entityFilter: filter,
      names: hasEntityColumn ? names : [:])
  }
}
