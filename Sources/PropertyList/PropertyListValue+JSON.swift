import JSONOutput

extension PropertyListValue {
  /// The property list as JSON, in the shape `inspect --raw --format json` promises.
  ///
  /// Dictionaries become objects, arrays arrays, strings strings, integers and
  /// reals numbers, bools bools; a date becomes `{"$date": "<ISO 8601 UTC with
  /// milliseconds>"}`, data `{"$data": "<base64>"}` and a UID `{"$uid": n}`.
  /// A real that is not finite becomes `{"$real": "nan" | "inf" | "-inf"}`,
  /// which JSON numbers cannot express.
  public var jsonValue: JSONValue {
    switch self {
    case .dictionary(let dictionary):
      return .object(dictionary.entries.map { ($0.key, $0.value.jsonValue) })
    case .array(let elements):
      return .array(elements.map(\.jsonValue))
    case .string(let string):
      return .string(string)
    case .integer(let number):
      return .integer(number)
    case .unsignedInteger(let number):
      return .unsignedInteger(number)
    case .real(let number):
      if number.isNaN { return .object([("$real", .string("nan"))]) }
      if number.isInfinite { return .object([("$real", .string(number < 0 ? "-inf" : "inf"))]) }
      return .number(number)
    case .bool(let flag):
      return .bool(flag)
    case .date(let seconds):
      let text = ISO8601.format(seconds, fractionalDigits: 3) ?? "invalid:\(seconds)"
      return .object([("$date", .string(text))])
    case .data(let bytes):
      return .object([("$data", .string(Base64.encode(bytes)))])
    case .uid(let number):
      return .object([("$uid", .unsignedInteger(number))])
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
  public func writeJSON(to writer: inout JSONWriter) {
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
      writer.write(jsonValue)
    }
  }
}
