import ArchiveFormat

extension DecodedValue {
  /// The value with its text and bytes replaced by their length.
  ///
  /// For an archive whose values may be secrets, such as a Keychain item's token, a string
  /// becomes `‹43 characters, masked›`, a URL's text the same, and data `‹32 bytes, masked›`
  /// (a string, since data has no place for a note). Numbers, dates, UUIDs, classes and field
  /// keys stay; a dictionary's keys are masked too, since they can be data.
  ///
  /// ```swift
  /// DecodedValue.string("t0k3n").maskingText  // "‹5 characters, masked›"
  /// ```
  package var maskingText: DecodedValue {
    switch self {
    case .string(let text): .string(MaskedText.characters(text))
    case .url(let text): .url(MaskedText.characters(text))
    case .data(let bytes): .string(MaskedText.bytes(bytes))
    case .array(let name, let elements):
      .array(className: name, elements: elements.map(\.maskingText))
    case .set(let name, let elements): .set(className: name, elements: elements.map(\.maskingText))
    case .orderedSet(let name, let elements):
      .orderedSet(className: name, elements: elements.map(\.maskingText))
    case .dictionary(let name, let entries):
      .dictionary(
        className: name,
        entries: entries.map { DecodedEntry(key: $0.key.maskingText, value: $0.value.maskingText) })
    case .object(let name, let fields):
      .object(
        className: name,
        fields: fields.map { DecodedField(key: $0.key, value: $0.value.maskingText) })
    case .null, .bool, .integer, .double, .date, .uuid, .cycleReference, .sharedReference, .opaque,
      .noObject:
      self
    }
  }
}
