extension SHA256Checksum {
  /// The lowercase hexadecimal SHA-256 of some bytes, as journals record originals and replacements.
  public static func hex(_ bytes: [UInt8]) -> String {
    hash(bytes).hexadecimal
  }
}
