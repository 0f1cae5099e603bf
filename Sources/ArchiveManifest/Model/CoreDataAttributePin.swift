import ArchiveFormat

/// A Core Data attribute a manifest pins: its store (by checksum), its model, the transformer
/// the model must declare, its row count and the rows the transformer turns into `nil`.
///
/// Written `<coreDataAttribute store="…" storeSHA256="…" model="…" entity="Car"
/// attribute="color" transformer="NSSecureUnarchiveFromData" rows="125">` with `<allowedClass>`
/// and `<lostRow>` children. `verify` checks each pin as one case, reading the store as
/// `coredata preflight` does; paths are relative to the archives folder.
///
/// ```swift
/// for pin in manifest.coreDataAttributes {
///   print("\(pin.qualifiedName): \(pin.transformer), \(pin.lostRows.count) rows lost")
/// }
/// ```
package struct CoreDataAttributePin: Sendable, Hashable {
  /// A row the pinned transformer turns into `nil`: `<lostRow pk="3" class="…"/>`.
  package struct LostRow: Sendable, Hashable {
    /// The row's `Z_PK`.
    package var primaryKey: Int64
    /// The archived class the row is lost for, when the pin names one.
    package var className: String?
    /// Where the element was written.
    package var location: Place

    /// Creates a pinned lost row.
    package init(primaryKey: Int64, className: String?, location: Place) {
      self.primaryKey = primaryKey
      self.className = className
      self.location = location
    }
  }

  /// The store, relative to the archives folder.
  package var store: String
  /// The store file's SHA-256, lowercase.
  package var storeSHA256: String
  /// The model, relative to the archives folder.
  package var model: String
  /// The entity.
  package var entity: String
  /// The transformable attribute.
  package var attribute: String
  /// The `valueTransformerName` the model must declare (`NSKeyedUnarchiveFromData` for none).
  package var transformer: String
  /// The `customClassName` the model must declare; not compared when `nil`.
  package var customClassName: String?
  /// The custom transformer's `allowedTopLevelClasses`, or `nil` when the pin lists none.
  package var allowedClasses: [Manifest.ClassReference]?
  /// How many rows the attribute's column has, over the entity and its sub-entities.
  package var rows: Int
  /// The rows the transformer turns into `nil`, in document order.
  package var lostRows: [LostRow]
  /// Where the element was written.
  package var location: Place
  /// Where each of its attributes was written, by name (`store`, `transformer`, `rows`, …).
  package var attributeLocations: [String: Place]

  /// Creates a pin, as the manifest loader reads it.
  package init(
    store: String, storeSHA256: String, model: String, entity: String, attribute: String,
    transformer: String, customClassName: String? = nil,
    allowedClasses: [Manifest.ClassReference]? = nil, rows: Int, lostRows: [LostRow] = [],
    location: Place, attributeLocations: [String: Place] = [:]
  ) {
    self.store = store
    self.storeSHA256 = storeSHA256
    self.model = model
    self.entity = entity
    self.attribute = attribute
    self.transformer = transformer
    self.customClassName = customClassName
    self.allowedClasses = allowedClasses
    self.rows = rows
    self.lostRows = lostRows
    self.location = location
    self.attributeLocations = attributeLocations
  }

  /// `Entity.attribute`.
  package var qualifiedName: String { "\(entity).\(attribute)" }

  /// Where an attribute of the element was written; the element's place when not known.
  ///
  /// - Parameter name: The XML attribute, such as `storeSHA256`.
  /// - Returns: Its place.
  package func location(ofAttribute name: String) -> Place {
    attributeLocations[name] ?? location
  }
}
