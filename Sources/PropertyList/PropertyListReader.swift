/// Reads binary and XML property lists from untrusted bytes, within limits, with errors that say where.
///
/// ```swift
/// let value = try PropertyListReader().read(bytes)
/// ```
public struct PropertyListReader: Sendable {
  /// The bounds this reader enforces.
  public var limits: PropertyListLimits

  /// Creates a reader with the given limits.
  public init(limits: PropertyListLimits = .default) {
    self.limits = limits
  }

  /// Detects the format of some bytes, or `nil` when they are neither format.
  public static func format(of bytes: [UInt8]) -> PropertyListFormat? {
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
  /// - Throws: ``PropertyListError`` with a byte offset (binary) or line and column (XML).
  public func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
    try readWithFormat(bytes).value
  }

  /// Reads a property list in either format, returning the format too.
  public func readWithFormat(_ bytes: [UInt8]) throws(PropertyListError) -> (
    value: PropertyListValue, format: PropertyListFormat
  ) {
    guard bytes.count <= limits.maximumInputSize else {
      throw PropertyListError(
        .limitExceeded, at: 0,
        "input of \(bytes.count) bytes exceeds the limit of \(limits.maximumInputSize) bytes")
    }
    let limits = self.limits
    let result: Result<(PropertyListValue, PropertyListFormat), PropertyListError> =
      bytes.withUnsafeBytes { buffer in
        do throws(PropertyListError) {
          if BinaryPropertyListReader.hasMagic(buffer) {
            var reader = BinaryPropertyListReader(bytes: buffer, limits: limits)
            return .success((try reader.read(), .binary))
          }
          if XMLPropertyListReader.looksLikeXML(buffer) {
            var reader = XMLPropertyListReader(bytes: buffer, limits: limits)
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
}
