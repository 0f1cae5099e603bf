import ArchiveFormat
import ArchiveManifest
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

@Suite("Per-record decisions")
struct RecordMigratorTests {
  private let id = RecordID.file(path: "/store/x.archive", relativePath: "x.archive")

  private func outcome(
    _ content: StoreRecord.Content,
    transform: any RecordTransform = RenameOnlyTransform(mapping: MigrationFixtures.mapping)
  )
    -> RecordPlan.Outcome
  {
    RecordMigrator(transform: transform).plan(StoreRecord(id: id, content: content)).outcome
  }

  @Test("A transform that prefers batches gets a slice's archives at once, results in order")
  func batchingTransformGetsSlices() {
    let transform = BatchRecordingTransform()
    let records = [
      StoreRecord(id: id, content: .bytes(MigrationFixtures.profile(id: 1))),
      StoreRecord(id: id, content: .null),
      StoreRecord(id: id, content: .bytes(MigrationFixtures.profile(module: "ProfileKit", id: 2))),
      StoreRecord(id: id, content: .bytes(Array("not an archive".utf8))),
      StoreRecord(id: id, content: .bytes(MigrationFixtures.profile(id: 3))),
    ]
    let plans = RecordMigrator(transform: transform).plan(records)
    #expect(transform.batchSizes == [3], "the three archives in one call")
    #expect(
      plans.map(\.outcome.name) == ["refused", "skipped", "already-current", "skipped", "refused"])
  }

  @Test("An empty decode (no bytes) is refused, never written")
  func emptyDecodeRefused() {
    let result = outcome(
      .bytes(MigrationFixtures.profile()), transform: FixedBytesTransform(bytes: []))
    guard case .refused(let refusal) = result else {
      Issue.record("expected a refusal, got \(result)")
      return
    }
    #expect(refusal.step == .encode)
  }

  @Test("A nil decode (an archive whose root is $null) is refused, never written")
  func nilDecodeRefused() {
    var builder = ArchiveBuilder()
    builder.setRoot(ArchiveBuilder.null)
    let result = outcome(
      .bytes(MigrationFixtures.profile()), transform: FixedBytesTransform(bytes: builder.bytes()))
    guard case .refused(let refusal) = result else {
      Issue.record("expected a refusal, got \(result)")
      return
    }
    #expect(refusal.step == .decode)
    #expect(refusal.reason.contains("nil"))
  }

  @Test("Bytes that are not an archive from a transform are refused at re-read")
  func garbageReplacementRefused() {
    let result = outcome(
      .bytes(MigrationFixtures.profile()), transform: FixedBytesTransform(bytes: [1, 2, 3]))
    guard case .refused(let refusal) = result else {
      Issue.record("expected a refusal, got \(result)")
      return
    }
    #expect(refusal.step == .reRead)
  }

  @Test("A truncated archive is refused at the read step with today's read consequence")
  func truncatedRefused() {
    let result = outcome(.bytes(Array(MigrationFixtures.profile().prefix(12))))
    guard case .refused(let refusal) = result else {
      Issue.record("expected a refusal, got \(result)")
      return
    }
    #expect(refusal.step == .read)
    #expect(refusal.currentReadConsequence.contains("typeConversionFailed"))
    #expect(refusal.currentReadConsequence.contains("returns nil and logs"))
  }

  @Test("NULL is skipped")
  func nullSkipped() {
    #expect(outcome(.null) == .skipped("the value is NULL"))
  }

  @Test("A value that is not a property list is skipped")
  func notPropertyListSkipped() {
    guard case .skipped(let reason) = outcome(.bytes(Array("hello".utf8))) else {
      Issue.record("expected skipped")
      return
    }
    #expect(reason.hasPrefix("not an archive"))
  }

  @Test("A property list that is not a keyed archive is skipped")
  func plainPropertyListSkipped() {
    let bytes = BinaryPropertyListWriter().write(.dictionary(["a": .integer(1)]))
    guard case .skipped(let reason) = outcome(.bytes(bytes)) else {
      Issue.record("expected skipped")
      return
    }
    #expect(reason.contains("not a keyed archive"))
  }

  @Test("A transform returning the same bytes means already current")
  func sameBytesAlreadyCurrent() {
    let bytes = MigrationFixtures.profile()
    #expect(outcome(.bytes(bytes), transform: FixedBytesTransform(bytes: bytes)) == .alreadyCurrent)
  }

  @Test("Class maps parse OLD=NEW and reject malformed pairs")
  func classMapParsing() throws {
    let mapping = try ClassNameMapping(pairs: ["A=B", "C=D"])
    #expect(mapping.map("A") == "B")
    #expect(throws: MigrationError.self) { try ClassNameMapping(pairs: ["A"]) }
    #expect(throws: MigrationError.self) { try ClassNameMapping(pairs: ["A=B", "A=C"]) }
  }

  @Test("SHA-256 matches the FIPS 180-4 test vectors")
  func sha256Vectors() {
    #expect(
      SHA256Checksum.hex(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256Checksum.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256Checksum.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }
}

/// Records the size of every batch it is given; refuses v1 profiles, keeps the rest.
final class BatchRecordingTransform: RecordTransform, @unchecked Sendable {
  private(set) var batchSizes: [Int] = []
  var name: String { "batch-recording" }
  var prefersBatches: Bool { true }

  func transform(_ input: TransformInput) -> TransformResult {
    transform(batch: [input])[0]
  }

  func transform(batch inputs: [TransformInput]) -> [TransformResult] {
    batchSizes.append(inputs.count)
    return inputs.map { input in
      let isVersion1 = input.archive.objects.contains {
        if case .classDescription(let description) = $0 {
          return description.name.hasPrefix("ProfilesApp.")
        }
        return false
      }
      return isVersion1 ? .refused(RecordRefusal(.decode, "version 1")) : .unchanged
    }
  }
}
