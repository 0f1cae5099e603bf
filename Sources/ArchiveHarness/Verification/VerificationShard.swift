import ArchiveFormat

/// One of N deterministic slices of the archive entries, for running `verify` on N machines.
///
/// An entry belongs to the slice its SHA-256 picks: the hash of the manifest's
/// file name and the archive path, so every machine puts every entry in the
/// same slice whatever the folders are called. The N slices of a run cover
/// every entry exactly once.
///
/// ```swift
/// if let shard = VerificationShard(parsing: "2/4"),
///   shard.contains(manifest: "manifests/ProfilesApp-1.0.xml", archive: "memo.archive")
/// {
///   print("this machine verifies memo.archive")
/// }
/// ```
public struct VerificationShard: Sendable, Hashable, CustomStringConvertible {
  /// The slice, from 1 to ``count``.
  public var index: Int
  /// The number of slices.
  public var count: Int

  /// Creates a shard, or `nil` unless `1 <= index <= count`.
  ///
  /// - Parameters:
  ///   - index: The slice, from 1.
  ///   - count: The number of slices.
  public init?(index: Int, count: Int) {
    guard count >= 1, index >= 1, index <= count else { return nil }
    self.index = index
    self.count = count
  }

  /// Reads a shard written as `K/N`, or `nil` when the text is not one.
  ///
  /// - Parameter text: Such as `2/4`.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
    self.init(index: index, count: count)
  }

  /// The shard as `K/N`.
  public var description: String { "\(index)/\(count)" }

  /// Whether an archive entry belongs to this slice.
  ///
  /// - Parameters:
  ///   - manifest: The manifest's path; only its file name counts.
  ///   - archive: The archive's path relative to the archives folder.
  /// - Returns: Whether the entry's hash picks this slice.
  public func contains(manifest: String, archive: String) -> Bool {
    Self.slice(manifest: manifest, archive: archive, count: count) == index
  }

  /// The slice, from 1 to `count`, that an archive entry belongs to.
  static func slice(manifest: String, archive: String, count: Int) -> Int {
    let name = manifest.split(separator: "/").last.map(String.init) ?? manifest
    let digest = SHA256Checksum.hash(Array((name + "\u{0}" + archive).utf8))
    let number = digest.bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return Int(number % UInt64(count)) + 1
  }
}
