/// The archive's graph as JSON: header, `$top`, and every object once, with references as `{"$ref": n}`.
///
/// The shape is stable (`serializationVersion` 1) and linear in the archive's
/// size: shared objects and cycles appear once, referenced by index.
package enum ArchiveJSON {
  /// The archive's JSON text, built in memory.
  ///
  /// ```swift
  /// let text = ArchiveJSON.text(for: archive, sortedKeys: false)
  /// ```
  ///
  /// - Parameters:
  ///   - archive: The archive.
  ///   - sortedKeys: Sorts object members by key (by UTF-8 bytes).
  ///   - pretty: Indents with two spaces, one member or element a line.
  /// - Returns: The JSON text, without a trailing newline.
  package static func text(for archive: KeyedArchive, sortedKeys: Bool = true, pretty: Bool = true)
    -> String
  {
    var writer = JSONWriter(sortedKeys: sortedKeys, pretty: pretty)
    write(archive, to: &writer)
    return writer.text()
  }

  /// Writes the archive's JSON document through a writer, one object at a time, without a value tree.
  ///
  /// ```swift
  /// var writer = JSONWriter(sortedKeys: false, sink: { print($0, terminator: "") })
  /// ArchiveJSON.write(archive, to: &writer)
  /// writer.endLine()
  /// ```
  ///
  /// - Parameters:
  ///   - archive: The archive.
  ///   - writer: The writer; with a sink, the text leaves in chunks as it is written.
  package static func write(_ archive: KeyedArchive, to writer: inout JSONWriter) {
    write(archive, to: &writer, nesting: NestedArchive.maximumDepth)
  }

  /// Writes the graph; `nesting` is how many more levels of nested archives are expanded.
  private static func write(_ archive: KeyedArchive, to writer: inout JSONWriter, nesting: Int) {
    writeHead(
      archiver: archive.archiver, version: archive.version, top: archive.top, to: &writer,
      nesting: nesting)
    // Every object's leaf is read: each string chain is followed once, not from each link.
    let lookup = MemoizingLookup(base: archive)
    for (index, object) in archive.objects.enumerated() {
      writeObject(object, at: index, lookup: lookup, to: &writer, nesting: nesting)
    }
    writeTail(to: &writer)
  }

  /// The document up to its first object: the header, `$top`, and the opening of `objects`.
  static func writeHead(
    archiver: String, version: Int64, top: PropertyListDictionary, to writer: inout JSONWriter,
    nesting: Int
  ) {
    writer.beginObject()
    writer.key("serializationVersion")
    writer.write(.integer(1))
    writer.key("archiver")
    writer.write(.string(archiver))
    writer.key("version")
    writer.write(.integer(version))
    writer.key("top")
    writeFields(top, to: &writer, nesting: nesting)
    writer.key("objects")
    writer.beginArray()
  }

  /// The document after its last object.
  static func writeTail(to writer: inout JSONWriter) {
    writer.endArray()
    writer.endObject()
  }

  /// One entry of `objects`; `lookup` finds the objects an instance's leaf refers to.
  static func writeObject(
    _ object: ArchiveObject, at index: Int, lookup: some ArchiveObjectLookup,
    to writer: inout JSONWriter, nesting: Int
  ) {
    writer.beginObject()
    writer.key("index")
    writer.write(.integer(Int64(index)))
    writer.key("kind")
    switch object {
    case .null:
      writer.write(.string("null"))
    case .value(let value):
      writer.write(.string("value"))
      writer.key("value")
      write(value, to: &writer, nesting: nesting)
    case .classDescription(let description):
      writer.write(.string("class"))
      writer.key("class")
      writer.write(.string(description.name))
      writer.key("classes")
      writeStrings(description.chain, to: &writer)
    case .instance(let instance):
      writer.write(.string("instance"))
      writer.key("class")
      writer.write(.string(instance.className))
      writer.key("classes")
      writeStrings(instance.archiveClass.chain, to: &writer)
      writer.key("classIndex")
      writer.write(.integer(Int64(instance.classIndex)))
      writer.key("fields")
      writeFields(instance.fields, to: &writer, nesting: nesting)
      let leaf = lookup.instanceLeaf(instance, at: index)
      if !leaf.isObject {
        writer.key("foundationValue")
        writer.write(leafJSON(leaf))
        if nesting > 0, case .data(let bytes) = leaf, let nested = NestedArchive(bytes) {
          writer.key("nestedArchive")
          writeNested(nested, to: &writer, nesting: nesting - 1)
        }
      }
    }
    writer.endObject()
  }

  /// A nested archive's mark: its classes, its root class, and its own graph.
  private static func writeNested(
    _ nested: NestedArchive, to writer: inout JSONWriter, nesting: Int
  ) {
    writer.beginObject()
    writer.key("classes")
    writeStrings(nested.classNames, to: &writer)
    writer.key("rootClass")
    writer.write(nested.rootClassName.map(JSONValue.string) ?? .null)
    writer.key("graph")
    write(nested.archive, to: &writer, nesting: nesting)
    writer.endObject()
  }

  private static func writeStrings(_ strings: [String], to writer: inout JSONWriter) {
    writer.beginArray()
    for string in strings { writer.write(.string(string)) }
    writer.endArray()
  }

  private static func writeFields(
    _ fields: PropertyListDictionary, to writer: inout JSONWriter, nesting: Int
  ) {
    writer.beginObject()
    for (key, value) in fields.entries {
      writer.key(key)
      write(value, to: &writer, nesting: nesting)
    }
    writer.endObject()
  }

  /// Writes a field value as JSON, with UIDs as `{"$ref": n}`, streaming arrays and dictionaries.
  private static func write(_ value: PropertyListValue, to writer: inout JSONWriter, nesting: Int) {
    switch value {
    case .data(let bytes) where nesting > 0:
      guard let nested = NestedArchive(bytes) else {
        value.writeJSON(to: &writer)
        return
      }
      // A Data value that is itself a keyed archive: marked, with its classes and graph.
      writer.beginObject()
      writer.key("$data")
      writer.write(.string(Base64.encode(bytes)))
      writer.key("nestedArchive")
      writeNested(nested, to: &writer, nesting: nesting - 1)
      writer.endObject()
    case .uid(let uid):
      writer.beginObject()
      writer.key("$ref")
      writer.write(.unsignedInteger(uid))
      writer.endObject()
    case .array(let elements):
      writer.beginArray()
      for element in elements { write(element, to: &writer, nesting: nesting) }
      writer.endArray()
    case .dictionary(let dictionary):
      writeFields(dictionary, to: &writer, nesting: nesting)
    default:
      value.writeJSON(to: &writer)
    }
  }

  /// A leaf as JSON, in the same conventions as the raw property-list JSON.
  package static func leafJSON(_ leaf: ArchiveLeaf) -> JSONValue {
    switch leaf {
    case .null: return .null
    case .string(let string): return .string(string)
    case .integer(let number): return .integer(number)
    case .unsignedInteger(let number): return .unsignedInteger(number)
    case .real(let number): return PropertyListValue.real(number).jsonValue
    case .bool(let flag): return .bool(flag)
    case .date(let seconds): return PropertyListValue.date(seconds).jsonValue
    case .data(let bytes): return PropertyListValue.data(bytes).jsonValue
    case .uuid(let bytes): return .object([("$uuid", .string(uuidText(bytes)))])
    case .url(let text): return .object([("$url", .string(text))])
    case .object(let className, let index, let count):
      var members: [(String, JSONValue)] = [
        ("$class", .string(className)), ("$ref", .integer(Int64(index))),
      ]
      if let count { members.append(("count", .integer(Int64(count)))) }
      return .object(members)
    }
  }
}
