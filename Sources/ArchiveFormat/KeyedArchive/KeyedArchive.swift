/// A validated NSKeyedArchiver archive: its header, its `$top` entries and its `$objects` as a graph.
///
/// Every UID in the archive has been checked to point inside `$objects`, every
/// `$class` to point at a class description. Shared references and cycles are
/// kept as they are: the archive is a graph, not a tree, and everything that
/// walks it (`ArchiveTreePrinter`, `ArchiveKeyPath`, `ArchiveJSON`) visits each
/// object a bounded number of times.
///
/// ```swift
/// let archive = try KeyedArchive(bytes: Array(data))
/// let city = try archive.evaluate(ArchiveKeyPath("address.city"))
/// ```
///
/// ## Topics
public struct KeyedArchive: Hashable, Sendable {
  /// The archiver name NSKeyedArchiver writes.
  public static let archiverName = "NSKeyedArchiver"
  /// The only archive version NSKeyedArchiver writes.
  public static let supportedVersion: Int64 = 100_000

  /// `$archiver`.
  public var archiver: String
  /// `$version`.
  public var version: Int64
  /// `$top`, in archive order; values are UIDs or inline values.
  public var top: PropertyListDictionary
  /// `$objects`, indexed by UID.
  package var objects: [ArchiveObject]

  /// Creates an archive from its parts without validating them; ``init(bytes:limits:)`` validates.
  package init(
    archiver: String = KeyedArchive.archiverName, version: Int64 = KeyedArchive.supportedVersion,
    top: PropertyListDictionary, objects: [ArchiveObject]
  ) {
    self.archiver = archiver
    self.version = version
    self.top = top
    self.objects = objects
  }

  /// Reads and validates an archive from bytes (binary or XML property list).
  ///
  /// The list is read into a tree, then checked as an archive: the archive,
  /// and any error, is the one ``init(propertyList:limits:)`` gives for the
  /// list's tree.
  ///
  /// - Throws: ``KeyedArchiveError``, with a byte offset for syntax errors
  ///   and a key path for structural ones.
  public init(bytes: [UInt8], limits: ArchiveLimits = .default) throws(KeyedArchiveError) {
    // The tree path, not the in-place view (`init(view:limits:)`): while the graph still holds
    // property-list values, building them from the view after its checking pass measured 0.9x
    // the tree path (scripts/bench-reader, plist+graph against plist+graph-via-tree). The view
    // path (`init(view:limits:)`, `KeyedArchive(readingInPlace:)`) is checked against this one
    // by its tests and fuzz targets; `inspect --format json` writes from it (CheckedArchiveView).
    try self.init(readingTree: bytes, limits: limits)
  }

  /// Validates a property list as a keyed archive.
  ///
  /// - Throws: ``KeyedArchiveError`` with the key path of the first problem.
  public init(propertyList: PropertyListValue, limits: ArchiveLimits = .default)
    throws(KeyedArchiveError)
  {
    guard case .dictionary(let root) = propertyList else {
      throw KeyedArchiveError(
        .notAnArchive, at: "",
        "the property list is \(propertyList.typeNameWithArticle), not a keyed archive dictionary")
    }
    guard let archiverValue = root["$archiver"] else {
      throw KeyedArchiveError(.missingArchiver, at: "$archiver", "the archive has no $archiver")
    }
    guard case .string(let archiver) = archiverValue else {
      throw KeyedArchiveError(
        .invalidType, at: "$archiver",
        "$archiver is \(archiverValue.typeNameWithArticle), not a string")
    }
    guard archiver == Self.archiverName else {
      throw KeyedArchiveError(
        .wrongArchiver, at: "$archiver",
        "$archiver is '\(archiver.prefix(80))', not '\(Self.archiverName)'")
    }
    guard let versionValue = root["$version"] else {
      throw KeyedArchiveError(.missingVersion, at: "$version", "the archive has no $version")
    }
    guard case .integer(let version) = versionValue, version == Self.supportedVersion else {
      let shown: String
      switch versionValue {
      case .integer(let number): shown = String(number)
      case .unsignedInteger(let number): shown = String(number)
      default: shown = "a \(versionValue.typeName)"
      }
      throw KeyedArchiveError(
        .unknownVersion, at: "$version",
        "$version is \(shown), not \(Self.supportedVersion)")
    }
    guard let topValue = root["$top"] else {
      throw KeyedArchiveError(.missingTop, at: "$top", "the archive has no $top")
    }
    guard case .dictionary(let top) = topValue else {
      throw KeyedArchiveError(
        .invalidType, at: "$top", "$top is \(topValue.typeNameWithArticle), not a dictionary")
    }
    guard let objectsValue = root["$objects"] else {
      throw KeyedArchiveError(.missingObjects, at: "$objects", "the archive has no $objects")
    }
    guard case .array(let rawObjects) = objectsValue else {
      throw KeyedArchiveError(
        .invalidType, at: "$objects",
        "$objects is \(objectsValue.typeNameWithArticle), not an array")
    }
    guard rawObjects.count <= limits.propertyList.maximumObjectCount else {
      throw KeyedArchiveError(
        .limitExceeded, at: "$objects",
        "\(rawObjects.count) objects exceed the limit of \(limits.propertyList.maximumObjectCount)")
    }

    let count = rawObjects.count
    var objects: [ArchiveObject] = []
    objects.reserveCapacity(count)
    // Per object, the position in `classes` of its class description once read, or -1:
    // an array by index rather than a dictionary, so a lookup hashes nothing.
    var classSlots = [Int](repeating: -1, count: count)
    var classes: [ArchiveClass] = []

    func classDescription(_ raw: PropertyListDictionary, at index: Int) throws(KeyedArchiveError)
      -> ArchiveClass
    {
      if classSlots[index] >= 0 { return classes[classSlots[index]] }
      let description = try Self.classDescription(raw, at: index)
      classSlots[index] = classes.count
      classes.append(description)
      return description
    }

    for (index, raw) in rawObjects.enumerated() {
      if index == 0, case .string("$null") = raw {
        objects.append(.null)
        continue
      }
      switch raw {
      case .dictionary(let dictionary):
        if let classValue = dictionary["$class"] {
          guard case .uid(let classUID) = classValue else {
            throw KeyedArchiveError(
              .invalidType, at: "$objects[\(index)].$class", object: index,
              "$class is \(classValue.typeNameWithArticle), not a UID")
          }
          guard classUID < UInt64(count) else {
            throw KeyedArchiveError(
              .uidOutOfRange, at: "$objects[\(index)].$class", object: index,
              "$class UID \(classUID) is past the end of $objects (\(count) objects)")
          }
          let classIndex = Int(classUID)
          guard case .dictionary(let rawClass) = rawObjects[classIndex],
            rawClass["$class"] == nil
          else {
            throw KeyedArchiveError(
              .invalidClassReference, at: "$objects[\(index)].$class", object: index,
              "$class points to object \(classIndex), \(rawObjects[classIndex].typeNameWithArticle) that is not a class description"
            )
          }
          let archiveClass = try classDescription(rawClass, at: classIndex)
          var fields = PropertyListDictionary()
          fields.reserveCapacity(dictionary.count - 1)
          for entry in dictionary.entries where entry.key != "$class" {
            if !Self.referencesAreValid(entry.value, count: count) {
              try Self.checkReferences(
                entry.value, count: count, at: "$objects[\(index)].\(entry.key)", object: index)
            }
            fields.appendUnchecked(key: entry.key, value: entry.value)
          }
          objects.append(
            .instance(
              ArchiveInstance(classIndex: classIndex, archiveClass: archiveClass, fields: fields)))
        } else if dictionary["$classname"] != nil || dictionary["$classes"] != nil {
          objects.append(.classDescription(try classDescription(dictionary, at: index)))
        } else {
          throw KeyedArchiveError(
            .invalidObject, at: "$objects[\(index)]", object: index,
            "dictionary has neither $class (an instance) nor $classname (a class description)")
        }
      case .uid:
        throw KeyedArchiveError(
          .invalidObject, at: "$objects[\(index)]", object: index,
          "a UID cannot stand directly in $objects")
      case .array(let elements):
        if !Self.referencesAreValid(raw, count: count) {
          for (position, element) in elements.enumerated() {
            try Self.checkReferences(
              element, count: count, at: "$objects[\(index)][\(position)]", object: index)
          }
        }
        objects.append(.value(raw))
      default:
        objects.append(.value(raw))
      }
    }
    for entry in top.entries {
      try Self.checkReferences(entry.value, count: count, at: "$top.\(entry.key)", object: nil)
    }
    self.init(archiver: archiver, version: version, top: top, objects: objects)
  }

  /// Reads a class description's `$classname`, `$classes` and other keys, or throws for the first problem.
  static func classDescription(_ raw: PropertyListDictionary, at index: Int)
    throws(KeyedArchiveError) -> ArchiveClass
  {
    guard let nameValue = raw["$classname"] else {
      throw KeyedArchiveError(
        .missingClassName, at: "$objects[\(index)]", object: index,
        "class description has no $classname")
    }
    guard case .string(let name) = nameValue else {
      throw KeyedArchiveError(
        .invalidClassName, at: "$objects[\(index)].$classname", object: index,
        "$classname is \(nameValue.typeNameWithArticle), not a string")
    }
    var chain: [String] = []
    if let chainValue = raw["$classes"] {
      guard case .array(let elements) = chainValue else {
        throw KeyedArchiveError(
          .invalidClassChain, at: "$objects[\(index)].$classes", object: index,
          "$classes is \(chainValue.typeNameWithArticle), not an array")
      }
      for (position, element) in elements.enumerated() {
        guard case .string(let superclass) = element else {
          throw KeyedArchiveError(
            .invalidClassChain, at: "$objects[\(index)].$classes[\(position)]", object: index,
            "$classes holds \(element.typeNameWithArticle), not a class name")
        }
        chain.append(superclass)
      }
    }
    // Most descriptions hold only $classname and $classes: then there is nothing to copy.
    var extra = PropertyListDictionary()
    if raw.count > (raw["$classes"] == nil ? 1 : 2) {
      extra = raw
      extra["$classname"] = nil
      extra["$classes"] = nil
    }
    return ArchiveClass(name: name, chain: chain, extra: extra)
  }

  /// Whether every UID in a value is in range; the fast check before ``checkReferences``.
  static func referencesAreValid(_ value: PropertyListValue, count: Int) -> Bool {
    switch value {
    case .uid(let uid):
      return uid < UInt64(count)
    case .array(let elements):
      for element in elements where !referencesAreValid(element, count: count) {
        return false
      }
      return true
    case .dictionary(let dictionary):
      for entry in dictionary.entries where !referencesAreValid(entry.value, count: count) {
        return false
      }
      return true
    default:
      return true
    }
  }

  /// Throws for the first UID out of range, naming its key path.
  static func checkReferences(
    _ value: PropertyListValue, count: Int, at path: String, object: Int?
  ) throws(KeyedArchiveError) {
    switch value {
    case .uid(let uid):
      guard uid < UInt64(count) else {
        throw KeyedArchiveError(
          .uidOutOfRange, at: path, object: object,
          "UID \(uid) is past the end of $objects (\(count) objects)")
      }
    case .array(let elements):
      for (position, element) in elements.enumerated() {
        try checkReferences(element, count: count, at: "\(path)[\(position)]", object: object)
      }
    case .dictionary(let dictionary):
      for entry in dictionary.entries {
        try checkReferences(entry.value, count: count, at: "\(path).\(entry.key)", object: object)
      }
    default:
      break
    }
  }

  /// The property list this archive is, for writing with `BinaryPropertyListWriter`.
  public var propertyList: PropertyListValue {
    var rawObjects: [PropertyListValue] = []
    rawObjects.reserveCapacity(objects.count)
    for object in objects {
      switch object {
      case .null:
        rawObjects.append(.string("$null"))
      case .value(let value):
        rawObjects.append(value)
      case .instance(let instance):
        var dictionary = PropertyListDictionary()
        dictionary.reserveCapacity(instance.fields.count + 1)
        for entry in instance.fields.entries {
          dictionary.appendUnchecked(key: entry.key, value: entry.value)
        }
        dictionary["$class"] = .uid(UInt64(instance.classIndex))
        rawObjects.append(.dictionary(dictionary))
      case .classDescription(let description):
        var dictionary = PropertyListDictionary()
        dictionary["$classes"] = .array(description.chain.map(PropertyListValue.string))
        dictionary["$classname"] = .string(description.name)
        for entry in description.extra.entries {
          dictionary[entry.key] = entry.value
        }
        rawObjects.append(.dictionary(dictionary))
      }
    }
    return .dictionary([
      "$version": .integer(version),
      "$archiver": .string(archiver),
      "$top": .dictionary(top),
      "$objects": .array(rawObjects),
    ])
  }

  /// The object a UID names, or `nil` when the UID is out of range.
  package func object(at index: Int) -> ArchiveObject? {
    objects.indices.contains(index) ? objects[index] : nil
  }

  /// The instance at an index, when the object there is one.
  package func instance(at index: Int) -> ArchiveInstance? {
    guard objects.indices.contains(index), case .instance(let instance) = objects[index] else {
      return nil
    }
    return instance
  }
}
