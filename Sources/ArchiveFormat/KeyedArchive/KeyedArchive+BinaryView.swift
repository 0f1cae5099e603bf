extension KeyedArchive {
  /// Validates a checked binary property list as a keyed archive, reading it in place.
  ///
  /// The archive is the one ``init(propertyList:limits:)`` makes from the tree
  /// `PropertyListReader.read(_:)` returns for the same bytes, and every
  /// problem is reported with the same code, key path and object index, in
  /// the same order. No tree of the whole list is built: the root, `$objects`
  /// and each object's dictionary are read from the view, and only what the
  /// archive keeps (fields, `$top`, values stored in `$objects`, class
  /// descriptions) becomes ``PropertyListValue``s.
  ///
  /// ```swift
  /// if let view = try PropertyListReader().binaryView(bytes) {
  ///   let archive = try KeyedArchive(view: view)
  /// }
  /// ```
  package init(view: BinaryPropertyListView, limits: ArchiveLimits = .default)
    throws(KeyedArchiveError)
  {
    var builder = BinaryPropertyListView.ValueBuilder(view: view)
    let header = try ViewArchiveHeader(view: view, limits: limits, builder: &builder)
    let top = builder.value(header.top).dictionaryValue ?? PropertyListDictionary()
    var reader = ViewObjectReader(
      view: view, objectsArray: header.objects, count: header.count, builder: consume builder)
    let objects = try reader.objects()
    try Self.checkTopReferences(top, count: header.count)
    self.init(archiver: header.archiver, version: header.version, top: top, objects: objects)
  }

  /// Reads an archive in place when its bytes are a binary list (``init(view:limits:)``), and
  /// through the tree when they are XML: the path the checks against the tree path compare.
  ///
  /// ```swift
  /// let archive = try KeyedArchive(readingInPlace: bytes)
  /// ```
  package init(readingInPlace bytes: [UInt8], limits: ArchiveLimits = .default)
    throws(KeyedArchiveError)
  {
    let view: BinaryPropertyListView?
    do {
      view = try PropertyListReader(limits: limits.propertyList).binaryView(bytes)
    } catch {
      throw KeyedArchiveError(error)
    }
    guard let view else {
      try self.init(readingTree: bytes, limits: limits)
      return
    }
    try self.init(view: view, limits: limits)
  }

  /// Throws for the first UID in `$top` past the end of `$objects`.
  static func checkTopReferences(_ top: PropertyListDictionary, count: Int)
    throws(KeyedArchiveError)
  {
    for entry in top.entries {
      try Self.checkReferences(entry.value, count: count, at: "$top.\(entry.key)", object: nil)
    }
  }

  /// Reads an archive as ``init(bytes:limits:)`` does, with the same archive and errors, but a
  /// binary list through a view (``init(view:limits:)``), which is returned too, so that work on
  /// the bytes after the read need not check them again.
  ///
  /// ```swift
  /// let (archive, view) = try KeyedArchive.readKeepingView(bytes)
  /// if let view { print(view.objectCount) }  // nil for an XML list
  /// ```
  package static func readKeepingView(_ bytes: [UInt8], limits: ArchiveLimits = .default)
    throws(KeyedArchiveError) -> (archive: KeyedArchive, view: BinaryPropertyListView?)
  {
    let view: BinaryPropertyListView?
    do {
      view = try PropertyListReader(limits: limits.propertyList).binaryView(bytes)
    } catch {
      throw KeyedArchiveError(error)
    }
    guard let view else { return (try KeyedArchive(bytes: bytes, limits: limits), nil) }
    return (try KeyedArchive(view: view, limits: limits), view)
  }

  /// Reads an archive the way every archive was read before binary lists were read in place:
  /// the whole property list into a tree, then ``init(propertyList:limits:)``.
  ///
  /// Kept for the checks (tests, fuzzing, benchmarks) that the in-place path agrees with it.
  ///
  /// ```swift
  /// let archive = try KeyedArchive(readingTree: bytes)
  /// ```
  package init(readingTree bytes: [UInt8], limits: ArchiveLimits = .default)
    throws(KeyedArchiveError)
  {
    let value: PropertyListValue
    do {
      value = try PropertyListReader(limits: limits.propertyList).read(bytes)
    } catch {
      throw KeyedArchiveError(error)
    }
    try self.init(propertyList: value, limits: limits)
  }

  /// An object's type name with its article, as errors print it.
  static func article(_ view: BinaryPropertyListView, _ object: Int) -> String {
    view.kind(of: object)?.typeNameWithArticle ?? "an object"
  }
}

/// The root of a keyed archive read in place: `$archiver` and `$version` checked, the list
/// objects of `$top` and `$objects`, and the number of objects, within the limit.
struct ViewArchiveHeader {
  var archiver: String
  var version: Int64
  /// The `$top` dictionary's object in the list.
  var top: Int
  /// The `$objects` array's object in the list.
  var objects: Int
  /// The number of entries in `$objects`.
  var count: Int

  /// Reads and checks the root, throwing the tree path's error for the first problem.
  init(
    view: BinaryPropertyListView, limits: ArchiveLimits,
    builder: inout BinaryPropertyListView.ValueBuilder
  ) throws(KeyedArchiveError) {
    let root = view.top
    guard let rootKind = view.kind(of: root), rootKind == .dictionary else {
      let article = view.kind(of: root)?.typeNameWithArticle ?? "an object"
      throw KeyedArchiveError(
        .notAnArchive, at: "", "the property list is \(article), not a keyed archive dictionary")
    }
    // The root's four members, read in one pass; a repeated key takes its last value.
    var archiverObject: Int?
    var versionObject: Int?
    var topObject: Int?
    var objectsObject: Int?
    let (rootCount, rootKeys, rootValues) = view.storedMembers(root) ?? (0, 0, 0)
    for position in 0..<rootCount {
      guard let key = view.reference(at: rootKeys + position * view.referenceWidth),
        let value = view.reference(at: rootValues + position * view.referenceWidth)
      else { break }
      switch builder.name(key) {
      case "$archiver": archiverObject = value
      case "$version": versionObject = value
      case "$top": topObject = value
      case "$objects": objectsObject = value
      default: break
      }
    }
    guard let archiverObject else {
      throw KeyedArchiveError(.missingArchiver, at: "$archiver", "the archive has no $archiver")
    }
    guard view.kind(of: archiverObject) == .string, let archiver = view.string(archiverObject)
    else {
      throw KeyedArchiveError(
        .invalidType, at: "$archiver",
        "$archiver is \(KeyedArchive.article(view, archiverObject)), not a string")
    }
    guard archiver == KeyedArchive.archiverName else {
      throw KeyedArchiveError(
        .wrongArchiver, at: "$archiver",
        "$archiver is '\(archiver.prefix(80))', not '\(KeyedArchive.archiverName)'")
    }
    guard let versionObject else {
      throw KeyedArchiveError(.missingVersion, at: "$version", "the archive has no $version")
    }
    let versionValue = view.integer(versionObject)
    guard case .integer(let version)? = versionValue, version == KeyedArchive.supportedVersion
    else {
      let shown: String
      switch versionValue {
      case .integer(let number)?: shown = String(number)
      case .unsignedInteger(let number)?: shown = String(number)
      default: shown = "a \(view.kind(of: versionObject)?.typeName ?? "object")"
      }
      throw KeyedArchiveError(
        .unknownVersion, at: "$version",
        "$version is \(shown), not \(KeyedArchive.supportedVersion)")
    }
    guard let topObject else {
      throw KeyedArchiveError(.missingTop, at: "$top", "the archive has no $top")
    }
    guard view.kind(of: topObject) == .dictionary else {
      throw KeyedArchiveError(
        .invalidType, at: "$top",
        "$top is \(KeyedArchive.article(view, topObject)), not a dictionary")
    }
    guard let objectsObject else {
      throw KeyedArchiveError(.missingObjects, at: "$objects", "the archive has no $objects")
    }
    guard view.kind(of: objectsObject) == .array else {
      throw KeyedArchiveError(
        .invalidType, at: "$objects",
        "$objects is \(KeyedArchive.article(view, objectsObject)), not an array")
    }
    let count = view.count(of: objectsObject)
    guard count <= limits.propertyList.maximumObjectCount else {
      throw KeyedArchiveError(
        .limitExceeded, at: "$objects",
        "\(count) objects exceed the limit of \(limits.propertyList.maximumObjectCount)")
    }
    self.archiver = archiver
    self.version = version
    self.top = topObject
    self.objects = objectsObject
    self.count = count
  }
}

/// Reads `$objects` from a view into `ArchiveObject`s, as ``KeyedArchive/init(propertyList:limits:)``
/// reads them from a tree.
struct ViewObjectReader {
  let view: BinaryPropertyListView
  /// The `$objects` array's object in the list.
  let objectsArray: Int
  /// The number of entries in `$objects`.
  let count: Int
  /// Per entry, the position in `classes` of its class description once read, or -1
  /// (entries are at most 2^22 by the limits, four bytes a slot).
  var classSlots: [Int32]
  var classes: [ArchiveClass] = []
  /// The values built so far, each string, data and container object once.
  var builder: BinaryPropertyListView.ValueBuilder

  init(
    view: BinaryPropertyListView, objectsArray: Int, count: Int,
    builder: BinaryPropertyListView.ValueBuilder
  ) {
    self.view = view
    self.objectsArray = objectsArray
    self.count = count
    self.classSlots = [Int32](repeating: -1, count: count)
    self.builder = builder
  }

  /// The list object of entry `index` of `$objects`; checked, so only a broken invariant misses.
  func entry(_ index: Int) -> Int {
    view.element(objectsArray, at: index) ?? -1
  }

  mutating func objects() throws(KeyedArchiveError) -> [ArchiveObject] {
    var objects: [ArchiveObject] = []
    objects.reserveCapacity(count)
    for index in 0..<count {
      objects.append(try object(index))
    }
    return objects
  }

  /// Entry `index` of `$objects`, checked as the tree path checks it.
  mutating func object(_ index: Int) throws(KeyedArchiveError) -> ArchiveObject {
    let raw = entry(index)
    let kind = view.kind(of: raw)
    if index == 0, kind == .string, builder.name(raw) == "$null" {
      return .null
    }
    switch kind {
    case .dictionary?:
      return try dictionaryObject(raw, at: index)
    case .uid?:
      throw KeyedArchiveError(
        .invalidObject, at: "$objects[\(index)]", object: index,
        "a UID cannot stand directly in $objects")
    case .array?:
      let value = builder.value(raw)
      if !KeyedArchive.referencesAreValid(value, count: count), case .array(let elements) = value {
        for (position, element) in elements.enumerated() {
          try KeyedArchive.checkReferences(
            element, count: count, at: "$objects[\(index)][\(position)]", object: index)
        }
      }
      return .value(value)
    default:
      return .value(builder.value(raw))
    }
  }

  /// Whether entry `index` certainly passes the checks of ``object(_:)``, found without building
  /// its values: a value other than a UID (an array with every UID in range), or an instance
  /// whose class description was read already and whose fields hold no UID out of range.
  ///
  /// `false` decides nothing: ``object(_:)`` then checks the entry and throws its error, if it
  /// has one. Skipping ``object(_:)`` where this holds changes nothing a later entry sees.
  func passesQuickCheck(_ index: Int) -> Bool {
    let raw = entry(index)
    switch view.kind(of: raw) {
    case .dictionary?: break
    case .array?: return referencesAreValid(raw)
    case .uid?, nil: return false
    default: return true
    }
    guard let (memberCount, keys, values) = view.storedMembers(raw) else { return false }
    let width = view.referenceWidth
    var classObject: Int?
    for position in 0..<memberCount {
      guard let key = view.reference(at: keys + position * width),
        let member = view.reference(at: values + position * width)
      else { return false }
      if view.string(key, equals: "$class") {
        classObject = member
      } else if !referencesAreValid(member) {
        return false
      }
    }
    guard let classObject, let classUID = view.uid(classObject), classUID < UInt64(count) else {
      return false
    }
    return classSlots[Int(classUID)] >= 0
  }

  /// Whether every UID in a list object and below it (every stored member, repeated keys
  /// included) is in range; the view's checks bound the depth and the work.
  private func referencesAreValid(_ object: Int) -> Bool {
    switch view.kind(of: object) {
    case .uid?:
      guard let uid = view.uid(object) else { return false }
      return uid < UInt64(count)
    case .array?:
      for position in 0..<view.count(of: object) {
        guard let element = view.element(object, at: position), referencesAreValid(element)
        else { return false }
      }
      return true
    case .dictionary?:
      guard let (memberCount, _, values) = view.storedMembers(object) else { return false }
      for position in 0..<memberCount {
        guard let member = view.reference(at: values + position * view.referenceWidth),
          referencesAreValid(member)
        else { return false }
      }
      return true
    case nil:
      return false
    default:
      return true
    }
  }

  /// Lets go of the values built for the objects read so far; class descriptions stay.
  mutating func forgetBuilt() {
    builder.forgetBuilt()
  }

  /// A dictionary entry of `$objects`: an instance or a class description.
  ///
  /// Its members are merged as the reader merges them (a repeated key keeps
  /// its first place and takes its last value), `$class` set apart, before
  /// anything is checked, so that the checks run in the tree path's order.
  mutating func dictionaryObject(_ raw: Int, at index: Int) throws(KeyedArchiveError)
    -> ArchiveObject
  {
    let (memberCount, keys, values) = view.storedMembers(raw) ?? (0, 0, 0)
    let width = view.referenceWidth
    var fields = PropertyListDictionary()
    fields.reserveCapacity(memberCount)
    var places = KeyPositions(count: memberCount)
    var classObject: Int?
    for position in 0..<memberCount {
      guard let key = view.reference(at: keys + position * width),
        let member = view.reference(at: values + position * width)
      else { break }
      let name = builder.name(key)
      if name == "$class" {
        classObject = member
        continue
      }
      let value = builder.value(member)
      if let earlier = places.earlier(
        name, next: fields.count, scan: { fields.entries.firstIndex { $0.key == name } })
      {
        fields.replaceValue(at: earlier, with: value)
      } else {
        fields.appendUnchecked(key: name, value: value)
      }
    }
    guard let classObject else {
      if fields["$classname"] != nil || fields["$classes"] != nil {
        return .classDescription(try classDescription(raw, at: index))
      }
      throw KeyedArchiveError(
        .invalidObject, at: "$objects[\(index)]", object: index,
        "dictionary has neither $class (an instance) nor $classname (a class description)")
    }
    guard view.kind(of: classObject) == .uid, let classUID = view.uid(classObject) else {
      throw KeyedArchiveError(
        .invalidType, at: "$objects[\(index)].$class", object: index,
        "$class is \(view.kind(of: classObject)?.typeNameWithArticle ?? "an object"), not a UID")
    }
    guard classUID < UInt64(count) else {
      throw KeyedArchiveError(
        .uidOutOfRange, at: "$objects[\(index)].$class", object: index,
        "$class UID \(classUID) is past the end of $objects (\(count) objects)")
    }
    let classIndex = Int(classUID)
    let rawClass = entry(classIndex)
    if classSlots[classIndex] < 0 {
      guard case .dictionary(let classFields) = builder.value(rawClass),
        classFields["$class"] == nil
      else {
        let article = view.kind(of: rawClass)?.typeNameWithArticle ?? "an object"
        throw KeyedArchiveError(
          .invalidClassReference, at: "$objects[\(index)].$class", object: index,
          "$class points to object \(classIndex), \(article) that is not a class description")
      }
    }
    let archiveClass = try classDescription(rawClass, at: classIndex)
    for entry in fields.entries where !KeyedArchive.referencesAreValid(entry.value, count: count) {
      try KeyedArchive.checkReferences(
        entry.value, count: count, at: "$objects[\(index)].\(entry.key)", object: index)
    }
    return .instance(
      ArchiveInstance(classIndex: classIndex, archiveClass: archiveClass, fields: fields))
  }

  /// The class description of entry `index` (list object `raw`), read once.
  mutating func classDescription(_ raw: Int, at index: Int) throws(KeyedArchiveError)
    -> ArchiveClass
  {
    if classSlots[index] >= 0 { return classes[Int(classSlots[index])] }
    let fields = builder.value(raw).dictionaryValue ?? PropertyListDictionary()
    let description = try KeyedArchive.classDescription(fields, at: index)
    classSlots[index] = Int32(truncatingIfNeeded: classes.count)
    classes.append(description)
    return description
  }
}
