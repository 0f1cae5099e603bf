import JSONOutput
import PropertyList

/// The archive's graph as JSON: header, `$top`, and every object once, with references as `{"$ref": n}`.
///
/// The shape is stable (`serializationVersion` 1) and linear in the archive's
/// size: shared objects and cycles appear once, referenced by index.
public enum ArchiveJSON {
  /// The JSON document for an archive.
  public static func document(for archive: KeyedArchive) -> JSONValue {
    var objects: [JSONValue] = []
    objects.reserveCapacity(archive.objects.count)
    for (index, object) in archive.objects.enumerated() {
      var members: [(String, JSONValue)] = [("index", .integer(Int64(index)))]
      switch object {
      case .null:
        members.append(("kind", .string("null")))
      case .value(let value):
        members.append(("kind", .string("value")))
        members.append(("value", json(value)))
      case .classDescription(let description):
        members.append(("kind", .string("class")))
        members.append(("class", .string(description.name)))
        members.append(("classes", .array(description.chain.map(JSONValue.string))))
      case .instance(let instance):
        members.append(("kind", .string("instance")))
        members.append(("class", .string(instance.className)))
        members.append(("classes", .array(instance.archiveClass.chain.map(JSONValue.string))))
        members.append(("classIndex", .integer(Int64(instance.classIndex))))
        members.append(
          ("fields", .object(instance.fields.entries.map { ($0.key, json($0.value)) })))
        let leaf = archive.leaf(of: .object(index))
        if !leaf.isObject {
          members.append(("foundationValue", leafJSON(leaf)))
        }
      }
      objects.append(.object(members))
    }
    return .object([
      ("serializationVersion", .integer(1)),
      ("archiver", .string(archive.archiver)),
      ("version", .integer(archive.version)),
      ("top", .object(archive.top.entries.map { ($0.key, json($0.value)) })),
      ("objects", .array(objects)),
    ])
  }

  /// A field value as JSON, with UIDs as `{"$ref": n}`.
  public static func json(_ value: PropertyListValue) -> JSONValue {
    switch value {
    case .uid(let uid): return .object([("$ref", .unsignedInteger(uid))])
    case .array(let elements): return .array(elements.map(json))
    case .dictionary(let dictionary):
      return .object(dictionary.entries.map { ($0.key, json($0.value)) })
    default: return value.jsonValue
    }
  }

  /// A leaf as JSON, in the same conventions as the raw property-list JSON.
  public static func leafJSON(_ leaf: ArchiveLeaf) -> JSONValue {
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
