import ArchiveFormat
import ArchiveManifest

extension ManifestAuthor.StoreFindings {
  /// Why a survey gives no store manifest.
  ///
  /// ```swift
  /// do {
  ///   _ = try ManifestAuthor.StoreFindings(report, place: nil)
  /// } catch .severalPlaces(let places) {
  ///   print("choose one of", places)
  /// } catch {
  ///   print(error)
  /// }
  /// ```
  public enum Problem: Error, Equatable, CustomStringConvertible {
    /// No place of the store holds keyed archives.
    case noArchives
    /// The store is one archive file, which no store manifest describes.
    case singleFile
    /// Several places hold archives and none was chosen; their names.
    case severalPlaces([String])
    /// The place chosen holds no archives; the places that do.
    case unknownPlace(String, [String])
    /// The column chosen has no key column a migration can use; why.
    case noKeyColumn(String, String)

    /// What went wrong, and what to do.
    public var description: String {
      switch self {
      case .noArchives:
        "no place in the store holds keyed archives, so there is no store manifest to write"
      case .singleFile:
        "one archive file is no store: author its manifest with 'manifest author', or survey "
          + "the folder it is in"
      case .severalPlaces(let places):
        "several places hold archives; choose one with --place: " + places.joined(separator: ", ")
      case .unknownPlace(let place, let places):
        "'\(place)' holds no archives; the places that do: " + places.joined(separator: ", ")
      case .noKeyColumn(let place, let reason):
        "\(place) has no key column a migration can use: \(reason)"
      }
    }
  }

  /// The findings at one place of a survey: its `<store>` shape and the class names there.
  ///
  /// A property-list store's shape lists every key path that holds archives, or the one
  /// chosen; a folder's takes every subfolder's classes. An SQLite store needs one column: the
  /// only one that holds archives, or `place`, named as the survey names it (`ZBOOK.ZCOVER`,
  /// or the entity and attribute, `Book.cover`).
  ///
  /// - Parameters:
  ///   - report: The survey.
  ///   - place: The place to describe; needed when several columns hold archives.
  /// - Throws: `Problem` when no single place can be described.
  package init(_ report: SurveyReport, place: String?) throws(Problem) {
    let candidates = report.archivePlaces
    guard !candidates.isEmpty else { throw .noArchives }
    let names = candidates.map(\.name)
    var chosen = candidates
    if let place {
      chosen = candidates.filter { $0.name == place || $0.place.description == place }
      guard !chosen.isEmpty else { throw .unknownPlace(place, names) }
    }
    let location = Place(file: report.store, line: 0, column: 0)
    let shape: Manifest.StoreShape
    switch report.kind {
    case .file:
      throw .singleFile
    case .folder:
      shape = Manifest.StoreShape(kind: .folder, location: location)
    case .propertyList, .keychainSnapshot:
      // A Keychain snapshot's items are named by key paths too (CLASS.SERVICE.ACCOUNT).
      // An array's elements are one place, whatever their number on this device: `recent[*]`.
      var keyPaths: [String] = []
      for text in chosen.map(\.place.description) {
        let general = Self.everyElement(text)
        if !keyPaths.contains(general) { keyPaths.append(general) }
      }
      shape = Manifest.StoreShape(kind: .propertyList, keyPaths: keyPaths, location: location)
    case .sqlite:
      guard chosen.count == 1, let column = chosen.first else { throw .severalPlaces(names) }
      guard case .column(let table, let valueColumn) = column.place else { throw .noArchives }
      if let entity = column.entity, let attribute = column.attribute {
        shape = Manifest.StoreShape(
          kind: .coreData, entity: entity, attribute: attribute, location: location)
      } else if let key = column.keyColumn {
        shape = Manifest.StoreShape(
          kind: .sqlite, table: table, keyColumn: key.column, valueColumn: valueColumn,
          location: location)
      } else {
        throw .noKeyColumn(column.place.description, column.keyProblem ?? "none was found")
      }
    }
    self.init(
      store: report.store, shape: shape, archives: chosen.reduce(0) { $0 + $1.archives },
      classNames: chosen.reduce(into: Set()) { $0.formUnion($1.classNames) },
      nestedClassNames: chosen.reduce(into: Set()) { $0.formUnion($1.nestedClassNames) },
      classNamesLeftOut: chosen.reduce(0) { $0 + $1.classNamesLeftOut },
      sampled: chosen.contains { $0.notRead > 0 })
  }

  /// A property-list key path with each array index written `[*]`: `recent[2].data` is
  /// `recent[*].data`; text that is not a key path stays as it is.
  static func everyElement(_ text: String) -> String {
    guard let path = PropertyListKeyPath(parsing: text) else { return text }
    var general = ""
    for component in path.components {
      switch component {
      case .key:
        let key = PropertyListKeyPath([component]).description
        general += general.isEmpty ? key : "." + key
      case .index:
        general += "[*]"
      }
    }
    return general
  }
}
