import ArchiveCoder
import ArchiveFormat

extension DecodedValue {
  /// The decoded object as JSON: objects as `{"$class": …, fields…}`, collections as arrays;
  /// a decode to nil (`DecodedValue.noObject`) as `{"$nil": true}`, apart from `NSNull`'s
  /// `null`.
  package var jsonValue: JSONValue {
    switch self {
    case .null: return .null
    case .noObject: return .object([("$nil", .bool(true))])
    case .bool(let flag): return .bool(flag)
    case .integer(let number): return .integer(number)
    case .double(let number): return PropertyListValue.real(number).jsonValue
    case .string(let string): return .string(string)
    case .data(let bytes): return PropertyListValue.data(bytes).jsonValue
    case .date(let seconds): return PropertyListValue.date(seconds).jsonValue
    case .uuid(let text): return .object([("$uuid", .string(text))])
    case .url(let text): return .object([("$url", .string(text))])
    case .array(_, let elements), .orderedSet(_, let elements), .set(_, let elements):
      return .array(elements.map(\.jsonValue))
    case .dictionary(_, let entries):
      return .array(
        entries.map { .object([("key", $0.key.jsonValue), ("value", $0.value.jsonValue)]) })
    case .object(let className, let fields):
      return .object([("$class", .string(className))] + fields.map { ($0.key, $0.value.jsonValue) })
    case .sharedReference(let className, let ordinal):
      return .object([("$shared", .string(className)), ("ordinal", .integer(Int64(ordinal)))])
    case .cycleReference(let className):
      return .object([("$cycle", .string(className))])
    case .opaque(let className):
      return .object([("$opaque", .string(className))])
    }
  }
}
