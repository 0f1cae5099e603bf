import ArchiveFormat

/// A validated manifest: the producer of a set of archives and what must hold for each archive.
///
/// Built by `ManifestLoader` (in `ManifestXML`) from a document that passed the XSD. Every
/// part keeps the ``Place`` it was written at, so later findings
/// can point at `manifest.xml:LINE:COL`.
///
/// ## Topics
package struct Manifest: Sendable {
  /// The app version or store that wrote the archives.
  package struct Producer: Sendable, Hashable {
    /// The app's name.
    package var app: String
    /// The app's version.
    package var version: String
    /// The platform the app ran on.
    package var platform: String
    /// The date (or date and time) the archives were produced, as written.
    package var produced: String
    /// The store the archives came from, if the manifest stands for one.
    package var store: String?
    /// Where the archives came from.
    package var provenance: String?
    /// How the archives were anonymized.
    package var anonymization: String?
    /// Where the producer was written.
    package var location: Place

    /// Creates a producer, as the manifest loader reads it.
    package init(
      app: String, version: String, platform: String, produced: String, store: String? = nil,
      provenance: String? = nil, anonymization: String? = nil, location: Place
    ) {
      self.app = app
      self.version = version
      self.platform = platform
      self.produced = produced
      self.store = store
      self.provenance = provenance
      self.anonymization = anonymization
      self.location = location
    }
  }

  /// One row of a class-name mapping table: an archived name and the current class it means.
  package struct ClassMapping: Sendable, Hashable {
    /// The class name as the archive has it.
    package var archivedName: String
    /// The current (registered) class name.
    package var currentName: String
    /// Where the row was written, in the manifest or in a mapping file.
    package var location: Place

    /// Creates a mapping row.
    package init(archivedName: String, currentName: String, location: Place) {
      self.archivedName = archivedName
      self.currentName = currentName
      self.location = location
    }
  }

  /// A class named by a manifest, such as an allowed class or the root class.
  package struct ClassReference: Sendable, Hashable {
    /// The class name.
    package var name: String
    /// Where it was written.
    package var location: Place

    /// Creates a class reference.
    package init(name: String, location: Place) {
      self.name = name
      self.location = location
    }
  }

  /// A field that a newer version adds, with the default a rewrite may fill in.
  package struct AddedField: Sendable, Hashable {
    /// The current class that gains the field.
    package var className: String
    /// The field's key.
    package var key: String
    /// The field's value type.
    package var type: ValueType
    /// The default, as written, if any.
    package var defaultValue: String?
    /// Where it was written.
    package var location: Place

    /// Creates an added field, as the manifest loader reads it.
    package init(
      className: String, key: String, type: ValueType, defaultValue: String? = nil,
      location: Place
    ) {
      self.className = className
      self.key = key
      self.type = type
      self.defaultValue = defaultValue
      self.location = location
    }
  }

  /// The value types a manifest can name.
  package enum ValueType: String, Sendable, Hashable, CaseIterable {
    /// A string.
    case string
    /// An integer.
    case integer
    /// A real number.
    case real
    /// A Boolean.
    case bool
    /// A date.
    case date
    /// Bytes.
    case data
    /// The archive's null.
    case null
  }

  /// What a rewrite of the archives may change.
  package struct MigrationAllowance: Sendable, Hashable {
    /// Classes a rewrite may rename.
    package var renamedClasses: [ClassMapping] = []
    /// Fields a rewrite may add.
    package var addedFields: [AddedField] = []
    /// Changes the current classes make on purpose to archived fields, which conservation
    /// accepts (`renamedField`, `droppedField`, `convertedField`, `defaultedField`).
    package var fieldChanges: [DeclaredChange] = []

    /// Creates an allowance, as the manifest loader reads it.
    package init(
      renamedClasses: [ClassMapping] = [], addedFields: [AddedField] = [],
      fieldChanges: [DeclaredChange] = []
    ) {
      self.renamedClasses = renamedClasses
      self.addedFields = addedFields
      self.fieldChanges = fieldChanges
    }
  }

  /// A refused record of the store that the manifest accepts: its key, the refusal's category, and why.
  ///
  /// Written `<accepted key="user_17" category="truncated" reason="…"/>` after
  /// `<migration>`. `migrate-dry-run` and `migrate` report the record as
  /// `accepted` and do not fail for it while its refusal keeps that category.
  ///
  /// ```swift
  /// for accepted in manifest.acceptedRefusals {
  ///   print("\(accepted.key): \(accepted.category) (\(accepted.location))")
  /// }
  /// ```
  package struct AcceptedRefusal: Sendable, Hashable {
    /// The record's key: a directory store's relative path, or an SQLite key column's value.
    package var key: String
    /// The category the record's refusal has.
    package var category: RejectionCategory
    /// Why the refusal is accepted.
    package var reason: String
    /// Where the element was written.
    package var location: Place
    /// Where its `key` attribute was written.
    package var keyLocation: Place
    /// Where its `reason` attribute was written.
    package var reasonLocation: Place

    /// Creates an accepted refusal, as the manifest loader reads it.
    package init(
      key: String, category: RejectionCategory, reason: String, location: Place,
      keyLocation: Place? = nil, reasonLocation: Place? = nil
    ) {
      self.key = key
      self.category = category
      self.reason = reason
      self.location = location
      self.keyLocation = keyLocation ?? location
      self.reasonLocation = reasonLocation ?? location
    }

    /// Every place a diagnostic about the element is reported at.
    package var locations: Set<Place> { [location, keyLocation, reasonLocation] }
  }

  /// Where a manifest's store keeps its archives, written `<store kind="sqlite" table="t" …/>`.
  ///
  /// With it, `migrate-dry-run --store FILE --manifest MANIFEST` needs no more
  /// options; options given on the command line take precedence.
  ///
  /// ```swift
  /// if let store = manifest.store, store.kind == .sqlite {
  ///   print(store.table ?? "", store.keyColumn ?? "key", store.valueColumn ?? "value")
  /// }
  /// ```
  package struct StoreShape: Sendable, Hashable {
    /// The kinds of store.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
      /// A folder of archive files.
      case folder
      /// An SQLite table, in the clear or encrypted.
      case sqlite
      /// A Core Data store, by entity and attribute.
      case coreData = "core-data"
      /// A property list whose Data values hold archives.
      case propertyList = "property-list"
    }

    /// The kind of store.
    package var kind: Kind
    /// An SQLite store's table.
    package var table: String?
    /// An SQLite store's key column.
    package var keyColumn: String?
    /// An SQLite store's value column.
    package var valueColumn: String?
    /// A Core Data store's entity.
    package var entity: String?
    /// A Core Data store's attribute.
    package var attribute: String?
    /// A property-list store's key paths; empty for every archive it holds.
    package var keyPaths: [String]
    /// Where the element was written.
    package var location: Place

    /// Creates a store shape.
    package init(
      kind: Kind, table: String? = nil, keyColumn: String? = nil, valueColumn: String? = nil,
      entity: String? = nil, attribute: String? = nil, keyPaths: [String] = [],
      location: Place
    ) {
      self.kind = kind
      self.table = table
      self.keyColumn = keyColumn
      self.valueColumn = valueColumn
      self.entity = entity
      self.attribute = attribute
      self.keyPaths = keyPaths
      self.location = location
    }
  }

  /// The manifest's file, as the caller named it.
  package var file: String
  /// The producer.
  package var producer: Producer
  /// The class-name mappings, inline and from mapping files, in document order.
  package var classMappings: [ClassMapping]
  /// The allowed classes of the app's secure read, if given.
  package var allowedClasses: [ClassReference]?
  /// The expected root class, if given.
  package var rootClass: ClassReference?
  /// What a rewrite may change.
  package var migration: MigrationAllowance
  /// Where the store's archives are, if the manifest says.
  package var store: StoreShape?
  /// The Core Data attributes the manifest pins (`<coreDataAttribute>`), in document order.
  package var coreDataAttributes: [CoreDataAttributePin] = []
  /// The new app version's Keychain queries (`<keychainQuery>`), in document order.
  package var keychainQueries: [KeychainQuery] = []
  /// The Keychain snapshots (`<keychainSnapshot>`) `verify` runs the queries against, in
  /// document order.
  package var keychainSnapshots: [KeychainSnapshotReference] = []
  /// The refused records the manifest accepts, in document order.
  package var acceptedRefusals: [AcceptedRefusal]
  /// The archive entries, in document order.
  package var archives: [ArchiveEntry]
  /// How strictly its entries' secure reads are held to Apple's secure-coding rules.
  ///
  /// The root's `strictness` attribute, ``Strictness/current`` when it has none. A run may
  /// hold them stricter (`verify --strictness apple-future`), never less strictly.
  ///
  /// ```swift
  /// if manifest.strictness == .appleFuture { print("\(manifest.file): Apple's future rules") }
  /// ```
  package var strictness: Strictness = .current
  /// Where the manifest's root element starts.
  package var location: Place

  /// Creates a manifest, as the manifest loader builds it from a validated document.
  package init(
    file: String, producer: Producer, classMappings: [ClassMapping],
    allowedClasses: [ClassReference]? = nil, rootClass: ClassReference? = nil,
    migration: MigrationAllowance, store: StoreShape? = nil,
    acceptedRefusals: [AcceptedRefusal] = [], archives: [ArchiveEntry], location: Place
  ) {
    self.store = store
    self.acceptedRefusals = acceptedRefusals
    self.file = file
    self.producer = producer
    self.classMappings = classMappings
    self.allowedClasses = allowedClasses
    self.rootClass = rootClass
    self.migration = migration
    self.archives = archives
    self.location = location
  }

  /// The paths below the archives folder the manifest names, which are therefore not
  /// unlisted: its archive entries, its Keychain snapshots, and each pinned Core Data store
  /// (with its `-wal` and `-shm` files) and model; a folder among them covers everything below
  /// it.
  ///
  /// ```swift
  /// let unlisted = ArchiveFolder.unlisted(
  ///   archives: "LegacyArchives", manifests: "manifests", listed: manifest.listedPaths)
  /// ```
  package var listedPaths: Set<String> {
    var paths = Set(archives.map(\.path)).union(keychainSnapshots.map(\.path))
    for pin in coreDataAttributes {
      paths.formUnion([pin.store, pin.store + "-wal", pin.store + "-shm", pin.model])
    }
    return paths
  }

  /// Returns the current class name for an archived class name, if a mapping names it.
  package func currentClassName(forArchivedName name: String) -> String? {
    classMappings.first { $0.archivedName == name }?.currentName
  }

  /// Returns the allowed classes that apply to an entry: its own, else the manifest's.
  package func allowedClasses(for entry: ArchiveEntry) -> [ClassReference]? {
    entry.allowedClasses ?? allowedClasses
  }

  /// Returns the root class that applies to an entry: its own, else the manifest's.
  package func rootClass(for entry: ArchiveEntry) -> ClassReference? {
    entry.rootClass ?? rootClass
  }
}
