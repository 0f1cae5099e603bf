/// A binary keyed archive read in place and checked whole, ready to be written as graph JSON
/// without ever holding its objects.
///
/// Checking reads each entry of `$objects` as ``KeyedArchive/init(view:limits:)`` reads it,
/// with every check in the same order and the same error, but lets go of each entry's values
/// once it is checked (an entry that certainly passes, such as an instance of a class already
/// read whose UIDs are in range, is checked in place, with no values built): only the class
/// descriptions are kept. `ArchiveJSON`'s `write(_:to:)`
/// then reads each entry again and writes it, so that memory holds the file, one offset per
/// list object, one class slot per entry, the class descriptions and one entry's values.
///
/// ```swift
/// if let view = try PropertyListReader().binaryView(bytes) {
///   let checked = try CheckedArchiveView(view: view)
///   var writer = JSONWriter(sortedKeys: false, sink: { print($0, terminator: "") })
///   ArchiveJSON.write(checked, to: &writer)
///   writer.endLine()
/// }
/// ```
package struct CheckedArchiveView {
  /// The root's checked members.
  let header: ViewArchiveHeader
  /// `$top`, checked.
  let top: PropertyListDictionary
  /// The entries' reader, every class description already read.
  fileprivate var reader: ViewObjectReader

  /// Checks a binary list as a keyed archive, throwing what ``KeyedArchive/init(view:limits:)`` throws.
  ///
  /// - Parameters:
  ///   - view: The list, read in place (`PropertyListReader.binaryView(_:)`).
  ///   - limits: The limits; those of the list underneath were applied when the view was made.
  /// - Throws: ``KeyedArchiveError`` for the first problem, in the tree path's order.
  package init(view: BinaryPropertyListView, limits: ArchiveLimits = .default)
    throws(KeyedArchiveError)
  {
    var builder = BinaryPropertyListView.ValueBuilder(view: view, forgets: true)
    header = try ViewArchiveHeader(view: view, limits: limits, builder: &builder)
    top = builder.value(header.top).dictionaryValue ?? PropertyListDictionary()
    builder.forgetBuilt()
    reader = ViewObjectReader(
      view: view, objectsArray: header.objects, count: header.count, builder: consume builder)
    for index in 0..<header.count where !reader.passesQuickCheck(index) {
      _ = try reader.object(index)
      reader.forgetBuilt()
    }
    try KeyedArchive.checkTopReferences(top, count: header.count)
  }

  /// Reads bytes in place and checks them as a keyed archive; `nil` when they are not a binary list.
  ///
  /// ```swift
  /// guard let checked = try CheckedArchiveView(bytes: bytes) else { return }  // XML
  /// ```
  ///
  /// - Throws: ``KeyedArchiveError``, as ``KeyedArchive/init(readingTree:limits:)`` throws it.
  package init?(bytes: [UInt8], limits: ArchiveLimits = .default) throws(KeyedArchiveError) {
    let view: BinaryPropertyListView?
    do {
      view = try PropertyListReader(limits: limits.propertyList).binaryView(bytes)
    } catch {
      throw KeyedArchiveError(error)
    }
    guard let view else { return nil }
    try self.init(view: view, limits: limits)
  }
}

extension ArchiveJSON {
  /// Writes the graph JSON of a checked archive read in place, one entry of `$objects` at a time.
  ///
  /// The text is the one `write(_:to:)` gives for the archive
  /// ``KeyedArchive/init(view:limits:)`` reads from the same list. With a sink, the
  /// text leaves in chunks as it is written; nothing of an entry is kept once it is written.
  ///
  /// ```swift
  /// var writer = JSONWriter(sortedKeys: false, sink: { print($0, terminator: "") })
  /// ArchiveJSON.write(try CheckedArchiveView(view: view), to: &writer)
  /// writer.endLine()
  /// ```
  ///
  /// - Parameters:
  ///   - archive: The checked archive.
  ///   - writer: Where the JSON goes.
  package static func write(_ archive: CheckedArchiveView, to writer: inout JSONWriter) {
    let nesting = NestedArchive.maximumDepth
    var reader = archive.reader
    let lookup = ViewObjectLookup(reader: reader)
    writeHead(
      archiver: archive.header.archiver, version: archive.header.version, top: archive.top,
      to: &writer, nesting: nesting)
    for index in 0..<archive.header.count {
      // Checked when the archive was made, and reading an entry again gives the same result:
      // the `.null` stands in for an error that cannot happen.
      let object = (try? reader.object(index)) ?? .null
      writeObject(object, at: index, lookup: lookup, to: &writer, nesting: nesting)
      reader.forgetBuilt()
    }
    writeTail(to: &writer)
  }
}

/// The objects an instance's leaf refers to, read from a checked view when asked for.
///
/// A leaf follows references only to read a string (`NS.string`, `NS.bytes`), a URL's base
/// (`NS.relative`, `NS.base`) or data stored in `$objects`, so an instance found here carries
/// only those fields, and arrays and dictionaries inside them come back empty: the leaf is the
/// one the whole archive gives, at the cost of the few values it reads.
private struct ViewObjectLookup: ArchiveObjectLookup {
  let view: BinaryPropertyListView
  let objectsArray: Int
  let count: Int
  let classSlots: [Int32]
  let classes: [ArchiveClass]

  /// The fields a leaf reads of an object it reaches by reference.
  static let followedFields = ["NS.string", "NS.bytes", "NS.relative", "NS.base"]

  init(reader: ViewObjectReader) {
    view = reader.view
    objectsArray = reader.objectsArray
    count = reader.count
    classSlots = reader.classSlots
    classes = reader.classes
  }

  /// Objects already looked up, by index: a dictionary's members are walked once, however many
  /// leaves refer to it.
  private let found = FoundObjects()
  /// Every object's leaf is read: each string chain is followed once, not from each link.
  let stringMemo: StringMemo? = StringMemo()

  /// The objects a lookup has found, by index (`nil` for an index it found nothing at).
  private final class FoundObjects {
    var objects: [Int: ArchiveObject?] = [:]
  }

  func object(at index: Int) -> ArchiveObject? {
    if let known = found.objects[index] { return known }
    let object = lookUp(index)
    found.objects[index] = .some(object)
    return object
  }

  private func lookUp(_ index: Int) -> ArchiveObject? {
    guard index >= 0, index < count, let raw = view.element(objectsArray, at: index) else {
      return nil
    }
    let kind = view.kind(of: raw)
    if index == 0, kind == .string, view.string(raw, equals: "$null") { return .null }
    guard kind == .dictionary else { return .value(shallowValue(raw)) }
    let slot = Int(classSlots[index])
    if slot >= 0, slot < classes.count { return .classDescription(classes[slot]) }
    // An instance: its last `$class`, and the last value of each field a leaf follows.
    let (memberCount, keys, values) = view.storedMembers(raw) ?? (0, 0, 0)
    let width = view.referenceWidth
    var classObject: Int?
    // The last member of each followed field, read once after the walk.
    var followed = [Int?](repeating: nil, count: Self.followedFields.count)
    for position in 0..<memberCount {
      guard let key = view.reference(at: keys + position * width),
        let member = view.reference(at: values + position * width)
      else { break }
      if view.string(key, equals: "$class") {
        classObject = member
      } else if let field = Self.followedFields.firstIndex(where: { view.string(key, equals: $0) })
      {
        followed[field] = member
      }
    }
    var fields = PropertyListDictionary()
    for (field, member) in zip(Self.followedFields, followed) {
      if let member { fields[field] = shallowValue(member) }
    }
    guard let classObject, let classUID = view.uid(classObject), classUID < UInt64(count) else {
      return nil
    }
    let classIndex = Int(classUID)
    let classSlot = Int(classSlots[classIndex])
    guard classSlot >= 0, classSlot < classes.count else { return nil }
    return .instance(
      ArchiveInstance(classIndex: classIndex, archiveClass: classes[classSlot], fields: fields))
  }

  /// An object as the reader's tree holds it, except that an array or dictionary comes back empty.
  private func shallowValue(_ object: Int) -> PropertyListValue {
    switch view.kind(of: object) {
    case .string?: .string(view.string(object) ?? "")
    case .data?: .data(view.data(object) ?? [])
    case .array?: .array([])
    case .dictionary?: .dictionary(PropertyListDictionary())
    case .uid?: .uid(view.uid(object) ?? 0)
    case .bool?: .bool(view.bool(object) ?? false)
    case .integer?: view.integer(object) ?? .integer(0)
    case .real?: .real(view.real(object) ?? 0)
    case .date?: .date(view.date(object) ?? 0)
    case nil: .bool(false)
    }
  }
}
