import ArchiveHarness
import Testing

/// `verify --shard K/N`: which slice an entry belongs to, and that the slices partition the entries.
@Suite("Shards of a verify run")
struct VerificationShardTests {
  /// Entries in the shape the shipped manifests have, and more.
  static let entries: [(manifest: String, archive: String)] =
    (0..<3).flatMap { manifest in
      (0..<60).map { archive in
        ("manifests/App-\(manifest).xml", "App-\(manifest)/entry-\(archive).archive")
      }
    }

  @Test("The N shards cover every entry exactly once", arguments: 1...8)
  func shardsPartitionTheEntries(count: Int) throws {
    var seen = Array(repeating: 0, count: Self.entries.count)
    for index in 1...count {
      let shard = try #require(VerificationShard(index: index, count: count))
      for (position, entry) in Self.entries.enumerated()
      where shard.contains(manifest: entry.manifest, archive: entry.archive) {
        seen[position] += 1
      }
    }
    #expect(seen.allSatisfy { $0 == 1 })
  }

  @Test("The slice is the SHA-256 of the manifest's file name and the archive path")
  func sliceIsPinned() throws {
    // Python: int.from_bytes(sha256(b"ProfilesApp-1.0.xml\0ProfilesApp-1.0/memo-valid.archive")
    //   .digest()[:8], "big") % N + 1 for N = 1…8.
    let expected = [1, 2, 1, 2, 3, 4, 2, 2]
    for count in 1...8 {
      let shard = try #require(VerificationShard(index: expected[count - 1], count: count))
      #expect(
        shard.contains(
          manifest: "ProfilesApp-1.0.xml", archive: "ProfilesApp-1.0/memo-valid.archive"))
    }
  }

  @Test("Only the manifest's file name counts, not its folder")
  func folderDoesNotCount() throws {
    let shard = try #require(VerificationShard(index: 6, count: 8))
    #expect(shard.contains(manifest: "/tmp/x/manifests/m.xml", archive: "a.archive"))
    #expect(shard.contains(manifest: "m.xml", archive: "a.archive"))
  }

  @Test("K/N reads as a shard")
  func readsShard() throws {
    let shard = try #require(VerificationShard(parsing: "3/8"))
    #expect(shard.index == 3)
    #expect(shard.count == 8)
    #expect(shard.description == "3/8")
  }

  @Test("A zero index is refused")
  func refusesZeroIndex() { #expect(VerificationShard(parsing: "0/3") == nil) }

  @Test("An index above the count is refused")
  func refusesIndexAboveCount() { #expect(VerificationShard(parsing: "4/3") == nil) }

  @Test("A zero count is refused")
  func refusesZeroCount() { #expect(VerificationShard(parsing: "1/0") == nil) }

  @Test("Text that is not K/N is refused")
  func refusesText() { #expect(VerificationShard(parsing: "x") == nil) }

  @Test("Three parts are refused")
  func refusesThreeParts() { #expect(VerificationShard(parsing: "1/2/3") == nil) }

  @Test("A negative index is refused")
  func refusesNegativeIndex() { #expect(VerificationShard(parsing: "-1/3") == nil) }
}
