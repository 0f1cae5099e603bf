import ArchiveFormat
import ArchiveHarness
import HarnessTestSupport
import Testing

/// Archives built to make the anonymizer or the scanner crash, recurse without bound, or take super-linear time.
///
/// Each test must finish within the time limit; a hang fails it. The suite runs its tests one
/// at a time, so that one test's work does not count against another's limit. That the scan
/// and the anonymizer take linear time on ``HostileText/baits`` is a timing, checked outside
/// the tests by `scripts/check-hostile-text` in a release build.
///
/// Each test has a time limit of its own: on Apple platforms a time limit needs macOS 13 and
/// iOS 16, and Swift Testing allows `@available` on a test function, not on a suite.
@Suite("Hostile archives", .serialized)
struct HostileArchiveTests {
  /// Anonymizes and scans an archive; both must finish, and the output must read back.
  static func survive(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
    _ = PrivacyScanner().scan(bytes, file: "hostile.archive")
    var options = Anonymizer.Options()
    options.dates = .truncate(.year)
    let output = try Anonymizer(options: options).anonymize(bytes)
    _ = try KeyedArchive(bytes: output.bytes)
    _ = PrivacyScanner().scan(output.bytes, file: "anonymized.archive")
  }

  @Test(
    "20,000 characters of one detector's bait each scan, anonymize and read back",
    .timeLimit(.minutes(1)), arguments: HostileText.baits)
  @available(macOS 13, iOS 16, *)
  func survivesLongBait(bait: String) throws {
    try Self.survive(HostileText.archive(holding: HostileText.repeated(bait, length: 20_000)))
  }

  @Test(
    "200,000 letters of an unknown script anonymize without rescanning their block",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, *)
  func survivesUnknownScript() throws {
    try Self.survive(HostileText.archive(holding: String(repeating: "ꦧ", count: 200_000)))
  }

  @Test(
    "Inline arrays nested 400 deep are walked without overflowing the stack",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, *)
  func survivesDeepInlineNesting() throws {
    var value = PropertyListValue.string("alice@corp-mail.de")
    for _ in 0..<400 { value = .array([value]) }
    var builder = KeyedArchiveBuilder()
    builder.setRoot(builder.object("Hostile", [("nested", value)]))
    try Self.survive(builder.bytes())
  }

  @Test(
    "An object graph of 100,000 objects that all point at one another is walked once each",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, *)
  func survivesReferenceWeb() throws {
    var builder = KeyedArchiveBuilder()
    let shared = builder.string("alice@corp-mail.de")
    var previous = shared
    for index in 0..<100_000 {
      previous = builder.object(
        "Node", [("next", previous), ("shared", shared), ("i", .integer(Int64(index)))])
    }
    builder.setRoot(previous)
    var options = Anonymizer.Options()
    options.kept = [try ArchiveKeyPath("next.next.shared")]
    options.scrubbedNumbers = [try ArchiveKeyPath("next.i")]
    let bytes = builder.bytes()
    _ = try Anonymizer(options: options).anonymize(bytes)
    _ = PrivacyScanner().scan(bytes, file: "web.archive")
  }

  @Test(
    "A cycle through the root, and an object that is its own field, are walked once",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, *)
  func survivesCycles() throws {
    var builder = KeyedArchiveBuilder()
    let root = builder.reserve()
    let name = builder.string("Alice Example")
    builder.fill(root, with: builder.instanceValue("Loop", [("me", root), ("name", name)]))
    builder.setRoot(root)
    var options = Anonymizer.Options()
    options.kept = [try ArchiveKeyPath("me.me.me.name")]
    _ = try Anonymizer(options: options).anonymize(builder.bytes())
  }

  @Test(
    "Dates that are not finite, or far beyond year 9999, stay as they are under every policy",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, *)
  func survivesExtremeDates() throws {
    var builder = KeyedArchiveBuilder()
    let dates = [Double.nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude].map {
      builder.object("NSDate", [("NS.time", .real($0))])
    }
    let integerDate = builder.object("NSDate", [("NS.time", .integer(.max))])
    builder.setRoot(builder.array(dates + [integerDate]))
    for policy in [DatePolicy.shift, .keep, .truncate(.day), .truncate(.month), .truncate(.year)] {
      var options = Anonymizer.Options()
      options.dates = policy
      _ = try Anonymizer(options: options).anonymize(builder.bytes())
    }
  }

  @Test(
    "Scrubbed numbers at the integer limits keep their width without overflowing",
    .timeLimit(.minutes(1)))
  @available(macOS 13, iOS 16, *)
  func survivesExtremeNumbers() throws {
    var builder = KeyedArchiveBuilder()
    builder.setRoot(
      builder.object(
        "Numbers",
        [
          ("minimum", .integer(.min)), ("maximum", .integer(.max)),
          ("unsigned", .unsignedInteger(.max)), ("nan", .real(.nan)),
          ("tiny", .real(.leastNonzeroMagnitude)), ("huge", .real(.greatestFiniteMagnitude)),
        ]))
    var options = Anonymizer.Options()
    options.scrubbedNumbers = [
      try ArchiveKeyPath("minimum"), try ArchiveKeyPath("maximum"), try ArchiveKeyPath("unsigned"),
      try ArchiveKeyPath("nan"), try ArchiveKeyPath("tiny"), try ArchiveKeyPath("huge"),
    ]
    let output = try Anonymizer(options: options).anonymize(builder.bytes())
    let archive = try KeyedArchive(bytes: output.bytes)
    let minimum = try #require(try archive.evaluate(ArchiveKeyPath("minimum")).first)
    guard case .integer(let value) = archive.leaf(of: minimum.node) else {
      Issue.record("minimum is not an integer")
      return
    }
    #expect(value < 0 && String(value.magnitude).count == 19)
  }

  @Test(
    "A wildcard key path over a wide archive is bounded by the match limit", .timeLimit(.minutes(1))
  )
  @available(macOS 13, iOS 16, *)
  func survivesWildcardFanOut() throws {
    var builder = KeyedArchiveBuilder()
    let leaves = (0..<1000).map { builder.string("item \($0)") }
    let rows = (0..<200).map { _ in builder.array(leaves) }
    builder.setRoot(builder.array(rows))
    var options = Anonymizer.Options()
    options.kept = [try ArchiveKeyPath("[*][*]")]
    options.limits.maximumKeyPathMatches = 1000
    _ = try Anonymizer(options: options).anonymize(builder.bytes())
  }

  @Test(
    "Every corpus file, broken ones included, scans and anonymizes or is refused",
    .timeLimit(.minutes(1)), arguments: Corpus.allFiles)
  @available(macOS 13, iOS 16, *)
  func survivesCorpus(file: String) throws {
    let bytes = try Corpus.bytes(file)
    _ = PrivacyScanner().scan(bytes, file: file)
    _ = try? Anonymizer().anonymize(bytes)
  }
}

/// Pseudonyms drawn character by character can line up by chance into something the privacy
/// scan reports; the anonymizer draws those stretches again, so its output passes the scan.
@Suite("Pseudonyms that line up by chance")
struct AccidentalFindingTests {
  @Test(
    "20,000 characters of IBAN-like words anonymize to text the privacy scan passes",
    arguments: ["DE89 ", "GB82 WEST ", "DE89"])
  func ibanLikeWordsPassTheScan(bait: String) throws {
    let bytes = HostileText.archive(holding: HostileText.repeated(bait, length: 20_000))
    let output = try Anonymizer().anonymize(bytes)
    #expect(output.report.flagged == 0)
    let findings = PrivacyScanner().scan(output.bytes, file: "anonymized.archive")
    #expect(findings.isEmpty, "\(findings.prefix(3).map(\.kind))")
  }

  @Test("The same text and salt give the same repaired pseudonym")
  func repairIsDeterministic() throws {
    let bytes = HostileText.archive(holding: HostileText.repeated("DE89 ", length: 5_000))
    let key = try AnonymizationKey(salt: [UInt8](repeating: 5, count: 32))
    let first = try Anonymizer(key: key).anonymize(bytes)
    let second = try Anonymizer(key: key).anonymize(bytes)
    #expect(first.bytes == second.bytes)
  }
}
