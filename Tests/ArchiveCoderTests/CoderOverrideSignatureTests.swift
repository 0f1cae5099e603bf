import Foundation
import HarnessTestSupport
import Testing

/// The harness coder's `override` declarations against the platform table beside it, read as
/// source text: an override that exists on only one Foundation must sit in that platform's
/// `#if` block, so a Darwin compile error shows up on Linux first.
@Suite("Coder overrides by platform")
struct CoderOverrideSignatureTests {
  /// The coder's source files: Sources/ArchiveCoder/Decoder/*.swift.
  static let harnessFolder = Corpus.packageRoot.appendingPathComponent(
    "Sources/ArchiveCoder/Decoder")

  static func harnessSources() throws -> [(file: String, text: String)] {
    let names = try FileManager.default.contentsOfDirectory(atPath: harnessFolder.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
    return try names.map { name in
      (name, try String(contentsOf: harnessFolder.appendingPathComponent(name), encoding: .utf8))
    }
  }

  /// A coder with the table's rows for the planted cases, and the given declarations.
  static func planted(_ declarations: String) -> String {
    """
    // | Member | Darwin | corelibs | Overridden |
    // |---|---|---|---|
    // | decodeObject(forKey:) | open | open | both |
    // | decodeObject(of:forKey:) | @nonobjc overlay | open | corelibs |
    // | __decodeObject(ofClasses:forKey:) | open | absent | darwin |
    final class PlantedCoder: NSCoder {
      override func decodeObject(forKey key: String) -> Any? { nil }
    \(declarations)
    }
    """
  }

  static let corelibsOverride = """
      #if !canImport(Darwin)
        override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? { nil }
      #endif
    """

  static let darwinOverride = """
      #if canImport(Darwin)
        override func __decodeObject(
          ofClasses classes: Set<AnyHashable>?, forKey key: String
        ) -> Any? { nil }
      #endif
    """

  @Test("Every override in the harness coder sits in the block its table row names")
  func harnessOverridesMatchTable() throws {
    let sources = try Self.harnessSources()
    let table = sources.reduce(into: [String: CoderOverrideChecker.Placement]()) {
      $0.merge(CoderOverrideChecker.table(in: $1.text)) { first, _ in first }
    }
    let overrides = sources.flatMap { CoderOverrideChecker.overrides(in: $0.text, file: $0.file) }
    #expect(table.count >= 30, "the table beside HarnessUnarchiver's NSCoder overrides")
    #expect(overrides.count >= 20)
    #expect(CoderOverrideChecker.problems(overrides: overrides, table: table) == [])
  }

  @Test("The table names the platform-specific entry points")
  func tableNamesPlatformEntryPoints() throws {
    let table = try Self.harnessSources().reduce(
      into: [String: CoderOverrideChecker.Placement]()
    ) { $0.merge(CoderOverrideChecker.table(in: $1.text)) { first, _ in first } }
    #expect(table["decodeObject(of:forKey:)"] == .corelibs)
    #expect(table["__decodeObject(ofClasses:forKey:)"] == .darwin)
    #expect(table["decodeBytes(forKey:returnedLength:)"] == .darwin)
    #expect(table["withDecodedUnsafeBytes(forKey:body:)"] == .corelibs)
    #expect(table["allowedClasses"] == .each)
    #expect(table["decodeInteger(forKey:)"] == .both)
  }

  @Test("The checker reads names, labels and blocks from a multi-line, generic declaration")
  func checkerReadsDeclarations() {
    let source = """
        #if !canImport(Darwin)
          public override func withDecodedUnsafeBytes<ResultType>(
            forKey key: String, body: (UnsafeRawBufferPointer?) throws -> ResultType
          ) rethrows -> ResultType {
        #else
          public override var allowedClasses: Set<AnyHashable>? { nil }
        #endif
        public override func failWithError(_ error: any Error) {}
      """
    let found = CoderOverrideChecker.overrides(in: source)
    #expect(
      found.map(\.member) == [
        "withDecodedUnsafeBytes(forKey:body:)", "allowedClasses",
        "failWithError(_:)",
      ])
    #expect(found.map(\.block) == [.corelibs, .darwin, .anywhere])
  }

  @Test("A planted coder with each override in its block passes")
  func plantedCoderPasses() {
    let source = Self.planted(Self.corelibsOverride + "\n" + Self.darwinOverride)
    #expect(CoderOverrideChecker.problems(in: source) == [])
  }

  @Test("A corelibs-only override outside any #if is reported")
  func corelibsOnlyOverrideOutsideIfIsReported() {
    let source = Self.planted(
      """
        override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? { nil }
      """ + "\n" + Self.darwinOverride)
    let problems = CoderOverrideChecker.problems(in: source)
    #expect(problems.count == 2, "\(problems)")
    #expect(
      problems.contains {
        $0.contains("'decodeObject(of:forKey:)' (corelibs) is overridden outside any #if")
      })
    #expect(problems.contains { $0.contains("has no override in a !canImport(Darwin) block") })
  }

  @Test("A Darwin-only override outside any #if is reported")
  func darwinOnlyOverrideOutsideIfIsReported() {
    let source = Self.planted(
      Self.corelibsOverride + "\n"
        + """
          override func __decodeObject(ofClasses classes: Set<AnyHashable>?, forKey key: String)
            -> Any? { nil }
        """)
    let problems = CoderOverrideChecker.problems(in: source)
    #expect(
      problems.contains {
        $0.contains("'__decodeObject(ofClasses:forKey:)' (darwin) is overridden outside any #if")
      }, "\(problems)")
  }

  @Test("A macOS-and-corelibs override outside any #if is reported: iOS's NSCoder lacks it")
  func macOSAndCorelibsOverrideOutsideIfIsReported() {
    let source =
      Self.planted(Self.corelibsOverride + "\n" + Self.darwinOverride)
      .replacingOccurrences(
        of: "// | __decodeObject(ofClasses:forKey:) | open | absent | darwin |",
        with: """
          // | __decodeObject(ofClasses:forKey:) | open | absent | darwin |
          // | decodePropertyList() | open (macOS only) | open | macOS and corelibs |
          """
      )
      .replacingOccurrences(
        of: "final class PlantedCoder: NSCoder {",
        with: """
          final class PlantedCoder: NSCoder {
            override func decodePropertyList() -> Any? { nil }
          """)
    let problems = CoderOverrideChecker.problems(in: source)
    #expect(
      problems.contains {
        $0.contains("'decodePropertyList()' (macOS and corelibs) is overridden outside any #if")
      }, "\(problems)")
  }

  @Test("A Darwin-only override in the corelibs block is reported")
  func darwinOverrideInCorelibsBlockIsReported() {
    let source = Self.planted(
      Self.corelibsOverride + "\n"
        + """
          #if canImport(Darwin)
          #else
            override func __decodeObject(
              ofClasses classes: Set<AnyHashable>?, forKey key: String) -> Any? { nil }
          #endif
        """)
    let problems = CoderOverrideChecker.problems(in: source)
    #expect(
      problems.contains {
        $0.contains("(darwin) is overridden in a !canImport(Darwin) block")
      }, "\(problems)")
  }

  @Test("An override valid on both inside a platform block is reported")
  func sharedOverrideInsidePlatformBlockIsReported() {
    let source = Self.planted(
      Self.corelibsOverride + "\n" + Self.darwinOverride + "\n"
        + """
          #if canImport(Darwin)
            override func decodeObject(forKey key: String) -> Any? { nil }
          #endif
        """)
    let problems = CoderOverrideChecker.problems(in: source)
    #expect(
      problems.contains {
        $0.contains("'decodeObject(forKey:)' (both) is overridden in a canImport")
      },
      "\(problems)")
  }

  @Test("An override the table does not list is reported")
  func unlistedOverrideIsReported() {
    let source = Self.planted(
      Self.corelibsOverride + "\n" + Self.darwinOverride + "\n"
        + """
          override var systemVersion: UInt32 { 1 }
        """)
    let problems = CoderOverrideChecker.problems(in: source)
    #expect(problems == ["source:16: 'systemVersion' is overridden but not in the table"])
  }

  @Test("A table row whose override is missing is reported")
  func missingOverrideIsReported() {
    let problems = CoderOverrideChecker.problems(in: Self.planted(Self.corelibsOverride))
    #expect(
      problems == [
        "'__decodeObject(ofClasses:forKey:)' (darwin) has no override in a canImport(Darwin) block"
      ])
  }

  @Test("An override under a condition the checker does not read is reported")
  func unreadConditionIsReported() {
    let source = Self.planted(
      Self.darwinOverride + "\n"
        + """
          #if os(Linux)
            override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? { nil }
          #endif
        """)
    let problems = CoderOverrideChecker.problems(in: source)
    #expect(problems.contains { $0.contains("is overridden under '#if os(Linux)'") }, "\(problems)")
  }
}
