import ArchiveFormat
import Foundation

/// One entry of a decoded dictionary.
public struct DecodedEntry: Sendable, Hashable, Codable {
  /// The entry's key.
  public let key: DecodedValue
  /// The entry's value.
  public let value: DecodedValue

  /// Creates an entry.
  public init(key: DecodedValue, value: DecodedValue) {
    self.key = key
    self.value = value
  }
}
