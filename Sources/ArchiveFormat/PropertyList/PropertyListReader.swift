/// Reads binary and XML property lists from untrusted bytes, within limits, with errors that say where.
///
/// ```swift
/// let value = try PropertyListReader().read(bytes)
/// ```
package struct PropertyListReader: Sendable {
  /// The bounds this reader enforces.
  package var limits: PropertyListLimits
  /// Whether a dictionary that holds a key twice is an error (`PropertyListError.Code.repeatedKey`).
  ///
  /// By default the later value replaces the earlier one in the earlier key's
  /// place, as Foundation reads such a list. A caller that writes the list
  /// back, and must not drop a value it was never shown, refuses them:
  ///
  /// ```swift
  /// let value = try PropertyListReader(refusesRepeatedKeys: true).read(bytes)
  /// ```
  ///
  /// Keys are compared as `String`s are, so two canonically equivalent
  /// spellings (`é` precomposed and decomposed) are the same key.
  package var refusesRepeatedKeys: Bool

  /// Creates a reader with the given limits.
  ///
  /// - Parameters:
  ///   - limits: The bounds it enforces.
  ///   - refusesRepeatedKeys: Whether a repeated dictionary key is an error.
  package init(limits: PropertyListLimits = .default, refusesRepeatedKeys: Bool = false) {
    self.limits = limits
    self.refusesRepeatedKeys = refusesRepeatedKeys
  }

  /// Detects the format of some bytes, or `nil` when they are neither format.
  package static func format(of bytes: [UInt8]) -> PropertyListFormat? {
    bytes.withUnsafeBytes { buffer in
      if BinaryPropertyListReader.hasMagic(buffer) { return .binary }
      if XMLPropertyListReader.looksLikeXML(buffer) { return .xml }
      return nil
    }
  }

  /// Reads a property list in either format.
  ///
  /// - Parameter bytes: The whole file.
  /// - Returns: The top-level value.
  /// - Throws: `PropertyListError` with a byte offset (binary) or line and column (XML).
  package func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
    try readWithFormat(bytes).value
  }

  /// Reads a property list in either format, returning the format too.
  package func readWithFormat(_ bytes: [UInt8]) throws(PropertyListError) -> (
    value: PropertyListValue, format: PropertyListFormat
  ) {
    try checkInputSize(bytes)
    let limits = self.limits
    let refusesRepeatedKeys = self.refusesRepeatedKeys
    let result: Result<(PropertyListValue, PropertyListFormat), PropertyListError> =
      bytes.withUnsafeBytes { buffer in
        do throws(PropertyListError) {
          if BinaryPropertyListReader.hasMagic(buffer) {
            var reader = BinaryPropertyListReader(
              bytes: buffer, limits: limits, refusesRepeatedKeys: refusesRepeatedKeys)
            return .success((try reader.read(), .binary))
          }
          if XMLPropertyListReader.looksLikeXML(buffer) {
            var reader = XMLPropertyListReader(
              bytes: buffer, limits: limits, refusesRepeatedKeys: refusesRepeatedKeys)
            return .success((try reader.read(), .xml))
          }
          return .failure(
            PropertyListError(
              .notAPropertyList, at: 0,
              "not a property list (no 'bplist00' magic and no XML)"))
        } catch {
          return .failure(error)
        }
      }
    switch result {
    case .success(let (value, format)): return (value, format)
    case .failure(let error): throw error
    }
  }

  /// Reads a property list and writes it as JSON, in the shape of ``PropertyListValue/jsonValue``.
  ///
  /// A binary list is first checked whole, with every check and limit of
  /// ``read(_:)``, and then written straight from its bytes without building
  /// the tree, so memory stays near the input's size however many objects it
  /// holds. An XML list is read into a tree and written from it. Either way
  /// the text equals `try read(bytes).writeJSON(to: &writer)`'s, and nothing
  /// is written when the list is invalid.
  ///
  /// ```swift
  /// var writer = JSONWriter(sortedKeys: false, sink: { print($0, terminator: "") })
  /// try PropertyListReader().writeJSON(bytes, to: &writer)
  /// writer.endLine()
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The whole file.
  ///   - writer: Where the JSON goes.
  /// - Throws: `PropertyListError`, as ``read(_:)`` throws it, before anything is written.
  package func writeJSON(_ bytes: [UInt8], to writer: inout JSONWriter) throws(PropertyListError) {
    try checkInputSize(bytes)
    let limits = self.limits
    let refusesRepeatedKeys = self.refusesRepeatedKeys
    let streamed: Result<Bool, PropertyListError> = bytes.withUnsafeBytes { buffer in
      // The streamed check builds no dictionaries, so it cannot see a repeated key.
      guard !refusesRepeatedKeys, BinaryPropertyListReader.hasMagic(buffer) else {
        return .success(false)
      }
      do throws(PropertyListError) {
        var reader = BinaryPropertyListReader(bytes: buffer, limits: limits)
        let top = try reader.validate()
        try reader.writeJSON(top, to: &writer)
        return .success(true)
      } catch {
        return .failure(error)
      }
    }
    if try streamed.get() { return }
    try read(bytes).writeJSON(to: &writer)
  }

  /// Refuses input over `PropertyListLimits.maximumInputSize` before any parsing.
  private func checkInputSize(_ bytes: [UInt8]) throws(PropertyListError) {
    guard bytes.count <= limits.maximumInputSize else {
      throw PropertyListError(
        .limitExceeded, at: 0,
        "input of \(bytes.count) bytes exceeds the limit of \(limits.maximumInputSize) bytes")
    }
  }
}
