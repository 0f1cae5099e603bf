import Foundation
import HarnessTestSupport
import Testing

/// `decode --key`, decoding every top key of an archive without root, and the unknown-class
/// hint of `inspect` and `decode`, run as a user would.
@Suite("archive-harness top keys and unknown classes, run as a user would")
struct TopKeyAndUnknownClassCommandTests {
  static func corpusPath(_ relative: String) -> String {
    Corpus.directory.appendingPathComponent(relative).path
  }

  @Test("decode of an archive without root decodes every top key and says so")
  func decodeWithoutRootReadsEveryKey() throws {
    let result = try CommandRunner.run([
      "decode", Self.corpusPath("danielpaulus-nskeyedarchiver/arrays.bin"), "--path", "legacy",
      "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["keys"] as? [String] == ["$0", "$1", "$2", "$3"])
    #expect(json["keysSource"] as? String == "every-top-key")
  }

  @Test("decode --key reads the named keys only, in the order given")
  func decodeWithKeys() throws {
    let result = try CommandRunner.run([
      "decode", Self.corpusPath("danielpaulus-nskeyedarchiver/primitives.bin"), "--path",
      "secure", "--allowed-classes", "NSNumber,NSData", "--key", "$11", "--key", "$4",
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("keys: $11, $4"))
    #expect(result.stdout.contains("$top{$11: 42, $4: <16 bytes>}"))
  }

  @Test("decode of an unknown class names its archived fields and both fixes")
  func decodeUnknownClassHint() throws {
    let result = try CommandRunner.run([
      "decode", Self.corpusPath("michaelwright235-nskeyedunarchiver/note.plist"), "--path",
      "legacy",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.contains("its archived fields: array, author, title, published, date"))
    #expect(result.stdout.contains("register 'Note' in your harness executable"))
    #expect(result.stdout.contains("--class-map 'Note=Module.Class'"))
  }

  @Test("inspect lists the classes this harness does not read, with fields and the hint")
  func inspectUnknownClassHint() throws {
    let result = try CommandRunner.run([
      "inspect", Self.corpusPath("michaelwright235-nskeyedunarchiver/note.plist"),
    ])
    #expect(result.status == 0)
    #expect(result.stdout.contains("classes this harness does not read:"))
    #expect(result.stdout.contains("fields: array, author, title, published, date"))
    #expect(result.stdout.contains("hint: register 'Note' in your harness executable"))
  }

  @Test("inspect of an archive of stand-in classes lists no unknown class")
  func inspectStandInsAreKnown() throws {
    let result = try CommandRunner.run([
      "inspect",
      Self.corpusPath("michaelwright235-nskeyedunarchiver/NSMutableAttributedString.plist"),
    ])
    #expect(result.status == 0)
    #expect(!result.stdout.contains("classes this harness does not read"))
  }

  @Test(
    "inspect of a generic NSValue lists no unknown class: the C array holder is Foundation's own",
    arguments: [
      "swift-corelibs-foundation/NSKeyedUnarchiver-ConcreteValueTest.plist",
      "swift-corelibs-foundation/NSKeyedUnarchiver-NotificationTest.plist",
      "swift-corelibs-foundation/macOS-10.14/NSTextCheckingResult-ExtendedRegex.archive",
    ])
  func inspectTypedValueIsKnown(_ archive: String) throws {
    let result = try CommandRunner.run(["inspect", Self.corpusPath(archive)])
    #expect(result.status == 0)
    #expect(!result.stdout.contains("classes this harness does not read"), "\(result.stdout)")
  }
}
