import ArchiveFormat
import Foundation

/// One field of a decoded app object.
public struct DecodedField: Sendable, Hashable, Codable {
  /// The key the field was encoded under.
  public let key: String
  /// The field's value.
  public let value: DecodedValue

  /// Creates a field.
  public init(key: String, value: DecodedValue) {
    self.key = key
    self.value = value
  }
}
