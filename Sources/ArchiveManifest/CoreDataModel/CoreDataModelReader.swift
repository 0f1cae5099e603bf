import ArchiveFormat
import Foundation

/// Reads a Core Data model's transformable attributes from any of the forms a project holds.
///
/// - An Xcode model: a `.xcdatamodeld` folder (its current version, named by
///   `.xccurrentversion`, or its only version), a `.xcdatamodel` folder, or a `contents` file,
///   read with libxml2 under the manifests' safety rules (no DTD, no entities, no network).
/// - A compiled model: a `.momd` folder (its current version, named by `VersionInfo.plist`, or
///   its only `.mom`) or a `.mom` file, which is an `NSManagedObjectModel` keyed archive, read
///   with the project's keyed-archive reader.
///
/// Every error names the file and the place in it (`contents:LINE:COL`, or a key path of the
/// `.mom`); nothing is written.
///
/// ```swift
/// let model = try CoreDataModelReader.read(path: "Books.xcdatamodeld")
/// print(model.transformables.map { "\($0.entity).\($0.name)" })  // ["Book.cover"]
/// ```
package enum CoreDataModelReader {
  /// The largest model file read, in bytes.
  static let maximumSize = 16 << 20

  /// `NSAttributeType` of a transformable attribute (`NSTransformableAttributeType`).
  static let transformableAttributeType: Int64 = 1800

  /// Reads the model at `path`.
  ///
  /// - Throws: `CoreDataModelError` naming the file and place of the first problem.
  package static func read(path: String) throws(CoreDataModelError) -> CoreDataModel {
    let file = try resolve(path)
    let bytes = try contents(of: file)
    let isCompiled =
      file.hasSuffix(".mom") || bytes.starts(with: Array("bplist00".utf8))
    return isCompiled ? try readCompiled(bytes, file: file) : try readXML(bytes, file: file)
  }

  // MARK: Finding the file

  /// The file to read for `path`: the `contents` or `.mom` of a model folder, or `path` itself.
  static func resolve(_ path: String) throws(CoreDataModelError) -> String {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw CoreDataModelError(place: Place(file: path), "no such file or folder")
    }
    guard isFolder.boolValue else { return path }
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    if trimmed.hasSuffix(".xcdatamodeld") {
      let version = try currentVersion(
        in: trimmed, listing: ".xcdatamodel", plist: ".xccurrentversion",
        key: "_XCCurrentVersionName")
      return try resolve(trimmed + "/" + version)
    }
    if trimmed.hasSuffix(".momd") {
      let version = try currentVersion(
        in: trimmed, listing: ".mom", plist: "VersionInfo.plist",
        key: "NSManagedObjectModel_CurrentVersionName")
      return trimmed + "/" + (version.hasSuffix(".mom") ? version : version + ".mom")
    }
    let contents = trimmed + "/contents"
    guard FileManager.default.fileExists(atPath: contents) else {
      throw CoreDataModelError(
        place: Place(file: path),
        "a folder that is not a Core Data model: give a .xcdatamodeld, .xcdatamodel or .momd folder, a contents file or a .mom"
      )
    }
    return contents
  }

  /// The version a versioned model folder names as current, or its only version.
  private static func currentVersion(
    in folder: String, listing suffix: String, plist: String, key: String
  ) throws(CoreDataModelError) -> String {
    let plistPath = folder + "/" + plist
    if FileManager.default.fileExists(atPath: plistPath) {
      let bytes = try contents(of: plistPath)
      let value: PropertyListValue
      do throws(PropertyListError) {
        value = try PropertyListReader().read(bytes)
      } catch {
        throw CoreDataModelError(
          place: Place(file: plistPath), "not a property list: \(error.description)")
      }
      guard case .dictionary(let dictionary) = value, case .string(let name)? = dictionary[key]
      else {
        throw CoreDataModelError(place: Place(file: plistPath), "names no current version (\(key))")
      }
      guard !name.contains("/"), !name.hasPrefix(".") else {
        throw CoreDataModelError(
          place: Place(file: plistPath), "the current version '\(name)' is not a name in the folder"
        )
      }
      return name
    }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      .filter { $0.hasSuffix(suffix) }.sorted()
    guard names.count == 1, let only = names.first else {
      throw CoreDataModelError(
        place: Place(file: folder),
        names.isEmpty
          ? "holds no \(suffix) version"
          : "holds \(names.count) versions (\(names.joined(separator: ", "))) and no \(plist) naming the current one; give the version itself"
      )
    }
    return only
  }

  /// A file's bytes, at most ``maximumSize``.
  private static func contents(of file: String) throws(CoreDataModelError) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: file) else {
      throw CoreDataModelError(place: Place(file: file), "cannot be read")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.read(upToCount: maximumSize + 1) ?? Data()
    } catch {
      throw CoreDataModelError(place: Place(file: file), "cannot be read: \(error)")
    }
    guard data.count <= maximumSize else {
      throw CoreDataModelError(
        place: Place(file: file), "is more than the \(maximumSize)-byte limit for a model")
    }
    return [UInt8](data)
  }

  // MARK: contents XML

  /// Reads a `contents` file.
  static func readXML(_ bytes: [UInt8], file: String) throws(CoreDataModelError) -> CoreDataModel {
    let result = XMLDocumentReader.parse(bytes: bytes, file: file)
    if let error = result.diagnostics.first(where: { $0.severity == .error }) {
      throw CoreDataModelError(place: error.location, error.message)
    }
    guard let root = result.tree else {
      throw CoreDataModelError(place: Place(file: file, line: 1, column: 1), "the model is empty")
    }
    guard root.name == "model" else {
      throw CoreDataModelError(
        place: root.location, "expected a Core Data model (<model>), found <\(root.name)>")
    }
    var model = CoreDataModel(file: file, entities: [], transformables: [])
    for entity in root.children(named: "entity") {
      guard let name = entity[attribute: "name"], !name.isEmpty else {
        throw CoreDataModelError(place: entity.location, "<entity> has no name")
      }
      model.entities.append(
        CoreDataModel.Entity(name: name, parent: entity[attribute: "parentEntity"]))
      for attribute in entity.children(named: "attribute")
      where attribute[attribute: "attributeType"] == "Transformable" {
        guard let attributeName = attribute[attribute: "name"], !attributeName.isEmpty else {
          throw CoreDataModelError(
            place: attribute.location, "an <attribute> of the entity '\(name)' has no name")
        }
        model.transformables.append(
          CoreDataModel.Attribute(
            entity: name, name: attributeName,
            valueTransformerName: attribute[attribute: "valueTransformerName"].flatMap {
              $0.isEmpty ? nil : $0
            },
            customClassName: attribute[attribute: "customClassName"].flatMap {
              $0.isEmpty ? nil : $0
            },
            isTransient: attribute[attribute: "transient"] == "YES",
            place: attribute.location))
      }
    }
    try checkParents(model, place: root.location)
    return model
  }

  /// Refuses a parent entity the model does not declare.
  private static func checkParents(_ model: CoreDataModel, place: Place)
    throws(CoreDataModelError)
  {
    let names = Set(model.entities.map(\.name))
    for entity in model.entities {
      if let parent = entity.parent, !names.contains(parent) {
        throw CoreDataModelError(
          place: place,
          "the entity '\(entity.name)' names the parent '\(parent)', which the model does not declare"
        )
      }
    }
  }

  // MARK: Compiled .mom

  /// Reads a compiled `.mom`: an `NSManagedObjectModel` keyed archive.
  static func readCompiled(_ bytes: [UInt8], file: String) throws(CoreDataModelError)
    -> CoreDataModel
  {
    let archive: KeyedArchive
    do throws(KeyedArchiveError) {
      archive = try KeyedArchive(bytes: bytes)
    } catch {
      throw CoreDataModelError(
        place: Place(file: file, position: error.keyPath.isEmpty ? nil : .keyPath(error.keyPath)),
        "not a compiled Core Data model (a keyed archive): \(error.description)")
    }
    guard case .object(let rootIndex)? = archive.root, let root = archive.instance(at: rootIndex),
      ([root.className] + root.archiveClass.chain).contains("NSManagedObjectModel")
    else {
      let found: String
      if case .object(let index)? = archive.root, let instance = archive.instance(at: index) {
        found = instance.className
      } else {
        found = "no object"
      }
      throw CoreDataModelError(
        place: Place(file: file, position: .keyPath("root")),
        "the archive's root is \(found), not an NSManagedObjectModel")
    }
    guard let entitiesValue = root.fields["NSEntities"] else {
      throw CoreDataModelError(
        place: Place(file: file, position: .keyPath("root")), "the model has no NSEntities")
    }
    var model = CoreDataModel(file: file, entities: [], transformables: [])
    for (component, value) in archive.children(of: archive.node(for: entitiesValue)) {
      guard case .object(let index) = archive.node(for: value),
        let entity = archive.instance(at: index)
      else { continue }
      let keyPath = "NSEntities.\(text(of: component))"
      guard let name = string(entity.fields["NSEntityName"], in: archive) else {
        throw CoreDataModelError(
          place: Place(file: file, position: .keyPath(keyPath)), "the entity has no NSEntityName")
      }
      var parent: String?
      if let superValue = entity.fields["NSSuperentity"],
        case .object(let superIndex) = archive.node(for: superValue),
        let superEntity = archive.instance(at: superIndex)
      {
        parent = string(superEntity.fields["NSEntityName"], in: archive)
      }
      model.entities.append(CoreDataModel.Entity(name: name, parent: parent))
      guard let properties = entity.fields["NSProperties"] else { continue }
      for (propertyComponent, propertyValue) in archive.children(
        of: archive.node(for: properties))
      {
        guard case .object(let propertyIndex) = archive.node(for: propertyValue),
          let property = archive.instance(at: propertyIndex),
          case .integer(let type)? = property.fields["NSAttributeType"],
          type == transformableAttributeType
        else { continue }
        let place = Place(
          file: file, position: .keyPath("\(keyPath).NSProperties.\(text(of: propertyComponent))"))
        guard let attributeName = string(property.fields["NSPropertyName"], in: archive) else {
          throw CoreDataModelError(place: place, "the attribute has no NSPropertyName")
        }
        var transient = false
        if case .bool(let flag)? = property.fields["NSIsTransient"] { transient = flag }
        model.transformables.append(
          CoreDataModel.Attribute(
            entity: name, name: attributeName,
            valueTransformerName: string(property.fields["NSValueTransformerName"], in: archive),
            customClassName: string(property.fields["NSAttributeValueClassName"], in: archive),
            isTransient: transient, place: place))
      }
    }
    model.entities.sort { $0.name < $1.name }
    model.transformables.sort { ($0.entity, $0.name) < ($1.entity, $1.name) }
    try checkParents(model, place: Place(file: file, position: .keyPath("NSEntities")))
    return model
  }

  /// A dictionary key's text, as a key path names it.
  private static func text(of component: ArchiveKeyPath.Component) -> String {
    if case .key(let key) = component { return key }
    if case .index(let index) = component { return "[\(index)]" }
    return "?"
  }

  /// A field's string, through a reference; `nil` for `$null`, a missing field or another type.
  private static func string(_ value: PropertyListValue?, in archive: KeyedArchive) -> String? {
    guard let value, case .string(let text) = archive.leaf(of: archive.node(for: value)) else {
      return nil
    }
    return text.isEmpty ? nil : text
  }
}
