import ArchiveFormat

/// A Core Data model as `coredata preflight` needs it: its entities and their transformable
/// attributes, each with the place in the model file that declares it.
///
/// Read from an Xcode model (`.xcdatamodeld`, `.xcdatamodel`, or its `contents` XML) or a
/// compiled one (`.momd`, `.mom`, itself a keyed archive) by `CoreDataModelReader`.
///
/// ```swift
/// let model = try CoreDataModelReader.read(path: "Books.xcdatamodeld")
/// for attribute in model.transformables {
///   print(attribute.entity, attribute.name, attribute.valueTransformerName ?? "(default)")
/// }
/// ```
package struct CoreDataModel: Hashable, Sendable {
  /// One entity: its name and its parent's.
  package struct Entity: Hashable, Sendable {
    /// The entity's name.
    package var name: String
    /// The parent entity's name, `nil` for a root entity.
    package var parent: String?
  }

  /// One attribute of type Transformable.
  package struct Attribute: Hashable, Sendable {
    /// The entity that declares it.
    package var entity: String
    /// The attribute's name.
    package var name: String
    /// `valueTransformerName`, `nil` when the model names none (the deprecated default,
    /// `NSKeyedUnarchiveFromData`).
    package var valueTransformerName: String?
    /// `customClassName` (in a `.mom`, `NSAttributeValueClassName`), when given.
    package var customClassName: String?
    /// Whether the attribute is transient, and so has no column.
    package var isTransient: Bool
    /// Where the model declares it: `contents:LINE:COL`, or a key path in a `.mom`.
    package var place: Place
  }

  /// The file read: a `contents` file or a `.mom`.
  package var file: String
  /// Every entity, in the model's order.
  package var entities: [Entity]
  /// Every transformable attribute, in the model's order.
  package var transformables: [Attribute]

  /// The root of an entity's inheritance tree, whose table holds its rows; bounded, so a
  /// cycle of parents ends.
  package func rootEntity(of name: String) -> String {
    var current = name
    var seen: Set<String> = [name]
    while let parent = entities.first(where: { $0.name == current })?.parent,
      !seen.contains(parent)
    {
      seen.insert(parent)
      current = parent
    }
    return current
  }
}

/// Why a Core Data model could not be read, at the place in the file that says so.
///
/// ```swift
/// do { _ = try CoreDataModelReader.read(path: path) } catch { print(error.description) }
/// // Model.xcdatamodel/contents:3:5: entity has no name
/// ```
package struct CoreDataModelError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file and, when known, the line and column or key path.
  package var place: Place
  /// A lowercase description, without the place.
  package var message: String

  /// Creates an error.
  package init(place: Place, _ message: String) {
    self.place = place
    self.message = message
  }

  /// `place: message`.
  package var description: String { "\(place): \(message)" }
}
