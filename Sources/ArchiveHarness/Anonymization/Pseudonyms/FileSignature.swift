/// The leading bytes that identify common file formats, which `--keep-magic` keeps in anonymized data.
///
/// Only a signature is kept, never anything after it, so an image still
/// reads as "an image" by its header and nothing of its content survives.
enum FileSignature {
  /// Signatures as (offset, bytes that must be there, bytes to keep from the start).
  private static let signatures: [(offset: Int, bytes: [UInt8], kept: Int)] = [
    (0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], 8),  // PNG
    (0, [0xFF, 0xD8, 0xFF], 3),  // JPEG
    (0, Array("GIF87a".utf8), 6),
    (0, Array("GIF89a".utf8), 6),
    (0, Array("%PDF-".utf8), 5),
    (0, Array("bplist00".utf8), 8),
    (0, [0x50, 0x4B, 0x03, 0x04], 4),  // ZIP
    (0, [0x1F, 0x8B], 2),  // gzip
    (0, [0x49, 0x49, 0x2A, 0x00], 4),  // TIFF, little-endian
    (0, [0x4D, 0x4D, 0x00, 0x2A], 4),  // TIFF, big-endian
    (8, Array("WEBP".utf8), 12),  // RIFF….WEBP
    (4, Array("ftyp".utf8), 12),  // ISO media: HEIC, MP4, MOV (the brand included)
  ]

  /// How many leading bytes form a known signature, or 0.
  static func length(of bytes: [UInt8]) -> Int {
    for signature in signatures {
      let end = signature.offset + signature.bytes.count
      guard bytes.count >= max(end, signature.kept),
        Array(bytes[signature.offset..<end]) == signature.bytes
      else { continue }
      return signature.kept
    }
    return 0
  }
}
