import ArchiveCoder
import ArchiveFormat

extension ClassNameMap: Codable {
  private enum CodingKeys: String, CodingKey {
    case entries
    case moduleRenames
    case fieldChanges
  }

  /// Decodes the map's entries and module renames.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      entries: try container.decode([String: String].self, forKey: .entries),
      moduleRenames: try container.decode([String: String].self, forKey: .moduleRenames),
      fieldChanges: try container.decodeIfPresent([DeclaredChange].self, forKey: .fieldChanges)
        ?? [])
  }

  /// Encodes the map's entries and module renames.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entries, forKey: .entries)
    try container.encode(moduleRenames, forKey: .moduleRenames)
    if !fieldChanges.isEmpty { try container.encode(fieldChanges, forKey: .fieldChanges) }
  }
}
