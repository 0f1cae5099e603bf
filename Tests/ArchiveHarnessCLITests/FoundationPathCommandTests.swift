import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing
import _ArchiveHarnessSystem

/// `decode` and `inspect` where Foundation's paths would misbehave, where Apple's answer is
/// nil, and on a property list that holds archives rather than being one; run as a user would.
@Suite("archive-harness on Foundation's paths and Apple's answers, run as a user would")
struct FoundationPathCommandTests {
  /// A file in a fresh temporary folder, removed by ``remove(_:)``.
  static func write(_ bytes: [UInt8], named name: String) throws -> String {
    let folder = NSTemporaryDirectory() + "foundation-path-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Removes the folder ``write(_:named:)`` made.
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  /// NSArrays each holding the next twice, 40 deep: 2^40 paths to one string in 1 KB.
  static func referenceBomb() -> [UInt8] {
    var builder = ArchiveBuilder()
    var next = builder.string("leaf")
    for _ in 0..<40 { next = builder.array([next, next]) }
    builder.setRoot(next)
    return builder.bytes()
  }

  /// A preferences file: plain values, and keyed archives as data under three key paths.
  static func preferences() -> [UInt8] {
    var inner = ArchiveBuilder()
    inner.setRoot(inner.string("Ada"))
    let archive = PropertyListValue.data(inner.bytes())
    return BinaryPropertyListWriter().write(
      .dictionary(
        PropertyListDictionary([
          ("NSWindow Frame main", .string("0 0 640 480")), ("profile", archive),
          ("recent", .array([.integer(3), archive])),
          ("cache", .dictionary(PropertyListDictionary([("last", archive)]))),
        ])))
  }

  /// The decode JSON's violations of `schemas/decode.schema.json`.
  static func schemaViolations(_ text: String) throws -> [JSONSchemaViolation] {
    try JSONSchemas.violations(of: text, against: .decode)
  }

  @Test("decode refuses a reference bomb on Foundation's paths without running Foundation")
  func referenceBombIsScreened() throws {
    let path = try Self.write(Self.referenceBomb(), named: "bomb.archive")
    defer { Self.remove(path) }
    let start = MonotonicInstant.now
    let result = try CommandRunner.run(
      ["decode", path, "--allowed-classes", "NSArray,NSString"], timeout: .seconds(120))
    let elapsed = MonotonicInstant.now - start
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    for foundationPath in ["foundation-legacy", "foundation-secure"] {
      #expect(
        result.stdout.contains("\(foundationPath): rejected [limit-exceeded] at root"),
        "\(result.stdout)")
    }
    #expect(result.stdout.contains("not run on Foundation"))
    #expect(!result.stdout.contains("crashed"))
    // Foundation expanding the bomb took a worker's whole 20 s timeout per path (40.7 s).
    #expect(elapsed < .seconds(10), "took \(elapsed)")
  }

  // The memory limit and corelibs' trap are Linux's.
  #if os(Linux)
    @Test("decode reports a worker past its memory limit as limit-exceeded, naming the limit")
    func memoryLimitIsReported() throws {
      // crash-test-harness's Ballast allocates what the archive asks for: 2 GiB here.
      var builder = ArchiveBuilder()
      builder.setRoot(builder.object("crash_test_harness.Ballast", [("mebibytes", .integer(2048))]))
      let path = try Self.write(builder.bytes(), named: "ballast.archive")
      defer { Self.remove(path) }
      var environment = ProcessInfo.processInfo.environment
      environment["ARCHIVE_HARNESS_WORKER_MEMORY_MIB"] = "256"
      let result = try CommandRunner.run(
        [
          "decode", path, "--path", "secure", "--allowed-classes", "crash_test_harness.Ballast",
        ], executableName: "crash-test-harness", environment: environment, timeout: .seconds(120))
      #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
      #expect(result.stdout.contains("secure: rejected [limit-exceeded]"), "\(result.stdout)")
      #expect(result.stdout.contains("memory limit of 256 MiB"))
      #expect(result.stdout.contains("ARCHIVE_HARNESS_WORKER_MEMORY_MIB"))
      #expect(!result.stdout.contains("crashed"))
    }

    @Test("decode's foundation-secure gives class-not-allowed where corelibs would trap")
    func disallowedRootClassIsNotACrash() throws {
      // The root is an NSDictionary; the read allows only NSArray.
      let archive = try Corpus.bytes(
        "swift-corelibs-foundation/NSKeyedUnarchiver-ComplexTest.plist")
      let path = try Self.write(archive, named: "dictionary.plist")
      defer { Self.remove(path) }
      let result = try CommandRunner.run([
        "decode", path, "--path", "foundation-secure", "--allowed-classes", "NSArray",
      ])
      #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
      #expect(
        result.stdout.contains("foundation-secure: rejected [class-not-allowed] at root"),
        "\(result.stdout)")
      #expect(result.stdout.contains("swift-corelibs-foundation would trap"))
      #expect(!result.stdout.contains("crashed"))
    }
  #endif

  @Test("decode prints a nil root as nil on every path, a finding")
  func nilRootDecodesToNil() throws {
    let result = try CommandRunner.run([
      "decode",
      Corpus.directory.appendingPathComponent(
        "kiler129-NSKeyedUnarchiver/ArchivedData/null.bin.plist"
      ).path, "--allowed-classes", "NSString",
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    for decodePath in ["legacy", "secure", "foundation-legacy", "foundation-secure"] {
      #expect(result.stdout.contains("  \(decodePath): decoded\n    nil\n"), "\(result.stdout)")
    }
    #expect(result.stdout.contains("note: $top.root holds $null: the decode gives nil"))
    #expect(!result.stdout.contains("rejected"))
  }

  @Test("decode prints nil under a $top key beside the other keys, in text and JSON")
  func nilUnderTopKeyDecodesToNil() throws {
    var builder = ArchiveBuilder()
    builder.top = PropertyListDictionary([
      ("$0", builder.string("title")), ("$1", ArchiveBuilder.null),
    ])
    let path = try Self.write(builder.bytes(), named: "note.archive")
    defer { Self.remove(path) }
    let text = try CommandRunner.run(["decode", path, "--path", "legacy"])
    #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
    #expect(text.stdout.contains(#"$top{$0: "title", $1: nil}"#), "\(text.stdout)")
    #expect(text.stdout.contains("note: $top.$1 holds $null"))
    let json = try CommandRunner.run(["decode", path, "--format", "json"])
    #expect(json.status == 1)
    let document = try JSONDocument(parsing: json.stdout)
    #expect(
      document["paths"]?["legacy"]?["object"]?["$1"]?["$nil"] == .bool(true), "\(json.stdout)")
    #expect(try Self.schemaViolations(json.stdout).isEmpty)
  }

  @Test("decode of a preferences file names the archives it holds and the survey to run")
  func decodeNamesArchivesInPropertyList() throws {
    let path = try Self.write(Self.preferences(), named: "Preferences.plist")
    defer { Self.remove(path) }
    let result = try CommandRunner.run(["decode", path])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "hint: this is a property list, not a keyed archive: it holds 3 keyed archives as "
          + "data values, at profile, recent[1], cache.last;"), "\(result.stdout)")
    #expect(result.stdout.contains("run `profiles-harness survey \(path)`"))
    let json = try CommandRunner.run(["decode", path, "--format", "json"])
    let document = try JSONDocument(parsing: json.stdout)
    #expect(document["propertyListArchives"]?["count"] == .number(3))
    #expect(try Self.schemaViolations(json.stdout).isEmpty)
  }

  @Test("inspect of a preferences file names the archives it holds and the survey to run")
  func inspectNamesArchivesInPropertyList() throws {
    let path = try Self.write(Self.preferences(), named: "Preferences.plist")
    defer { Self.remove(path) }
    let result = try CommandRunner.run(["inspect", path])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("error: [missing-archiver]"), "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "\(path): note: this is a property list, not a keyed archive: it holds 3 keyed archives"
      ), "\(result.stderr)")
    #expect(result.stderr.contains("run `profiles-harness survey \(path)`"))
  }

  @Test("inspect of a property list that holds no archive gives no hint")
  func inspectWithoutArchivesGivesNoHint() throws {
    let plain = BinaryPropertyListWriter().write(
      .dictionary(PropertyListDictionary([("volume", .integer(7))])))
    let path = try Self.write(plain, named: "Plain.plist")
    defer { Self.remove(path) }
    let result = try CommandRunner.run(["inspect", path])
    #expect(result.status == 2)
    #expect(!result.stderr.contains("survey"), "\(result.stderr)")
  }
}
