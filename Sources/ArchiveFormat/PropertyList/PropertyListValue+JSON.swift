extension PropertyListValue {
  /// The property list as JSON, in the shape `inspect --raw --format json` promises.
  ///
  /// Dictionaries become objects, arrays arrays, strings strings, integers and
  /// reals numbers, bools bools; a date becomes `{"$date": "<ISO 8601 UTC with
  /// milliseconds>"}`, data `{"$data": "<base64>"}` and a UID `{"$uid": n}`.
  /// A real that is not finite becomes `{"$real": "nan" | "inf" | "-inf"}`,
  /// which JSON numbers cannot express.
  package var jsonValue: JSONValue {
    switch self {
    case .dictionary(let dictionary):
      return .object(dictionary.entries.map { ($0.key, $0.value.jsonValue) })
    case .array(let elements):
      return .array(elements.map(\.jsonValue))
    default:
      if let (name, value) = taggedMember { return .object([(name, value)]) }
      return scalarJSON
    }
  }

  /// The one member of the object a date, data, UID or non-finite real becomes, or `nil`.
  var taggedMember: (String, JSONValue)? {
    switch self {
    case .real(let number):
      if number.isNaN { return ("$real", .string("nan")) }
      if number.isInfinite { return ("$real", .string(number < 0 ? "-inf" : "inf")) }
      return nil
    case .date(let seconds):
      let text = ISO8601.formatExpanded(seconds, fractionalDigits: 3) ?? "invalid:\(seconds)"
      return ("$date", .string(text))
    case .data(let bytes):
      return ("$data", .string(Base64.encode(bytes)))
    case .uid(let number):
      return ("$uid", .unsignedInteger(number))
    default:
      return nil
    }
  }

  /// A string, number or bool as JSON; `null` for the kinds that are not plain scalars.
  private var scalarJSON: JSONValue {
    switch self {
    case .string(let string): .string(string)
    case .integer(let number): .integer(number)
    case .unsignedInteger(let number): .unsignedInteger(number)
    case .real(let number): .number(number)
    case .bool(let flag): .bool(flag)
    default: .null
    }
  }
}

extension PropertyListValue {
  /// Writes the property list as JSON, in the shape of ``jsonValue``, without building a value tree.
  ///
  /// ```swift
  /// var writer = JSONWriter(sortedKeys: false, sink: { print($0, terminator: "") })
  /// value.writeJSON(to: &writer)
  /// writer.endLine()
  /// ```
  ///
  /// - Parameter writer: The writer; dictionaries and arrays are streamed through it.
  package func writeJSON(to writer: inout JSONWriter) {
    switch self {
    case .dictionary(let dictionary):
      writer.beginObject()
      for (key, value) in dictionary.entries {
        writer.key(key)
        value.writeJSON(to: &writer)
      }
      writer.endObject()
    case .array(let elements):
      writer.beginArray()
      for element in elements { element.writeJSON(to: &writer) }
      writer.endArray()
    default:
      if let (name, value) = taggedMember {
        writer.beginObject()
        writer.key(name)
        writer.write(value)
        writer.endObject()
      } else {
        writer.write(scalarJSON)
      }
    }
  }
}
