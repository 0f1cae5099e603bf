import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@Suite("SHA-256")
struct SHA256Tests {
  struct Vector: Sendable, CustomTestStringConvertible {
    var message: String
    var repeatCount: Int
    var digest: String
    var testDescription: String { "\(repeatCount) × '\(message.prefix(12))'" }
  }

  static let vectors: [Vector] = [
    Vector(
      message: "", repeatCount: 1,
      digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    Vector(
      message: "abc", repeatCount: 1,
      digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    Vector(
      message: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", repeatCount: 1,
      digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    Vector(
      message: "a", repeatCount: 1_000_000,
      digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
  ]

  @Test("FIPS 180-4 test vectors", arguments: vectors)
  func fipsVectors(vector: Vector) {
    let bytes = Array(String(repeating: vector.message, count: vector.repeatCount).utf8)
    #expect(SHA256Checksum.hash(bytes).hexadecimal == vector.digest)
  }

  @Test("Hashing in uneven pieces equals hashing at once")
  func incrementalEqualsOneShot() {
    let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    for pieceSize in [1, 3, 63, 64, 65, 200] {
      var hasher = SHA256Checksum()
      var offset = 0
      while offset < bytes.count {
        let end = min(offset + pieceSize, bytes.count)
        hasher.update(Array(bytes[offset..<end]))
        offset = end
      }
      #expect(hasher.finalize() == SHA256Checksum.hash(bytes), "piece size \(pieceSize)")
    }
  }

  @Test("A copy of a hasher hashes on independently of the original")
  func copiesAreIndependent() {
    var original = SHA256Checksum()
    original.update(Array("ab".utf8))
    var copy = original
    copy.update(Array("c".utf8))
    original.update(Array("x".utf8))
    let shared = original
    #expect(copy.finalize() == SHA256Checksum.hash(Array("abc".utf8)))
    #expect(original.finalize() == SHA256Checksum.hash(Array("abx".utf8)))
    var untouched = shared
    #expect(
      untouched.finalize() == SHA256Checksum.hash(Array("abx".utf8)),
      "a copy made before finalize keeps its state")
  }

  @Test("A finalized hasher starts over with nothing hashed")
  func finalizeStartsOver() {
    var hasher = SHA256Checksum()
    hasher.update(Array("abc".utf8))
    _ = hasher.finalize()
    #expect(hasher.finalize() == SHA256Checksum.hash([]))
    hasher.update(Array("abc".utf8))
    #expect(hasher.finalize() == SHA256Checksum.hash(Array("abc".utf8)))
  }

  @Test("Any sequence of bytes hashes like the same bytes in an array")
  func sequences() {
    let bytes = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(SHA256Checksum.hash(bytes.lazy.map { $0 }) == SHA256Checksum.hash(bytes))
    #expect(SHA256Checksum.hash(bytes[3...]) == SHA256Checksum.hash(Array(bytes[3...])))
    #expect(SHA256Checksum.hash(Data(bytes)) == SHA256Checksum.hash(bytes))
  }

  @Test(
    "Digests of corpus files match sha256sum",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum"),
      "skipped: /usr/bin/sha256sum is absent"))
  func matchesSHA256Sum() throws {
    let tool = "/usr/bin/sha256sum"
    let corpus = Corpus.directory.path
    let names = try FileManager.default.subpathsOfDirectory(atPath: corpus)
    let files = names.sorted().prefix(20).map { "\(corpus)/\($0)" }
      .filter { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
          && !isDirectory.boolValue
      }
    let result = try CommandRunner.run(program: tool, files)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == files.count)
    for (line, file) in zip(lines, files) {
      let expected = String(line.prefix(64))
      let bytes = try #require(FileManager.default.contents(atPath: file))
      #expect(SHA256Checksum.hash(bytes).hexadecimal == expected, "\(file)")
    }
  }
}
