import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@Suite("Anonymizer")
struct AnonymizerTests {
  /// A fixed key, so that runs can be compared.
  static func key(_ byte: UInt8 = 7) throws -> AnonymizationKey {
    try AnonymizationKey(salt: [UInt8](repeating: byte, count: 32))
  }

  /// Anonymizes the sample note with a fixed key.
  static func anonymizedNote(_ configure: (inout Anonymizer.Options) throws -> Void = { _ in })
    throws -> Anonymizer.Output
  {
    var options = Anonymizer.Options()
    try configure(&options)
    return try Anonymizer(options: options, key: key()).anonymize(SampleNote.bytes())
  }

  /// The leaf at a key path: the first match's.
  static func leaf(_ archive: KeyedArchive, _ path: String) throws -> ArchiveLeaf {
    let match = try #require(try archive.evaluate(ArchiveKeyPath(path)).first)
    return archive.leaf(of: match.node)
  }

  /// The shape of an archive: per object, its kind, class name and field keys.
  static func shape(of archive: KeyedArchive) -> [String] {
    archive.objects.map { object in
      switch object {
      case .null: return "null"
      case .value(let value): return "value \(value.typeName)"
      case .classDescription(let description):
        return "class \(description.name) \(description.chain)"
      case .instance(let instance):
        let fields = instance.fields.entries.map { entry in
          if case .uid(let uid) = entry.value { return "\(entry.key)→\(uid)" }
          return "\(entry.key):\(entry.value.typeName)"
        }
        return "instance \(instance.className) \(fields)"
      }
    }
  }

  /// Every string with a letter or digit in an archive: string objects, inline strings, `NSString` text.
  static func strings(of archive: KeyedArchive) -> Set<String> {
    var strings: Set<String> = []
    func collect(_ value: PropertyListValue) {
      switch value {
      case .string(let text): strings.insert(text)
      case .array(let elements):
        for element in elements { collect(element) }
      case .dictionary(let dictionary):
        for entry in dictionary.entries { collect(entry.value) }
      default: break
      }
    }
    for object in archive.objects {
      switch object {
      case .value(let value): collect(value)
      case .instance(let instance):
        for entry in instance.fields.entries { collect(entry.value) }
      default: break
      }
    }
    return strings.filter {
      $0.unicodeScalars.contains { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
  }

  @Test("The structure stays: every object keeps its place, class, fields and references")
  func keepsStructure() throws {
    let original = try SampleNote.archive()
    let output = try Self.anonymizedNote()
    let anonymized = try KeyedArchive(bytes: output.bytes)
    #expect(Self.shape(of: anonymized) == Self.shape(of: original))
    #expect(anonymized.top.keys == original.top.keys)
  }

  @Test("An anonymized note passes its manifest's pattern, length, type and count expectations")
  func keepsExpectations() throws {
    let output = try Self.anonymizedNote()
    let anonymized = try KeyedArchive(bytes: output.bytes)
    let manifest = """
      <manifest xmlns="urn:archive-harness:manifest:1" schemaVersion="1">
        <producer app="NotesApp" version="1.0" platform="iOS 17" produced="2024-01-01"/>
        <archive path="note.archive" sha256="\(String(repeating: "0", count: 64))">
      \(SampleNote.expectations)
        </archive>
      </manifest>
      """
    let loaded = ManifestLoader.load(
      bytes: Array(manifest.utf8), file: "m.xml", baseDirectory: ".", archivesDirectory: ".")
    let entry = try #require(loaded.manifest?.archives.first)
    #expect(entry.expectations.count == 19)
    let findings = ExpectationEngine().evaluate(entry, in: anonymized)
    for finding in findings where finding.status == .failed {
      Issue.record("\(finding)")
    }
  }

  @Test("No personal string of the original appears in the anonymized bytes")
  func noOriginalStringInBytes() throws {
    let bytes = try Self.anonymizedNote().bytes
    for text in SampleNote.personalStrings + ["Alice", "corp-mail", "Walldorf", "Berlin"] {
      #expect(!Self.contains(bytes, Array(text.utf8)), "'\(text)' survived as UTF-8")
      let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
      #expect(!Self.contains(bytes, utf16), "'\(text)' survived as UTF-16")
    }
  }

  @Test("No original date appears in the anonymized bytes, as a date or as text in a string")
  func noOriginalDateInBytes() throws {
    var builder = KeyedArchiveBuilder()
    let created = builder.object("NSDate", [("NS.time", .real(SampleNote.created))])
    let text = builder.string("Met Alice on 2023-03-08 21:26 and on 08.03.2023")
    builder.setRoot(builder.object("NotesApp.Note", [("created", created), ("text", text)]))
    for policy in [DatePolicy.shift, .truncate(.month)] {
      var options = Anonymizer.Options()
      options.dates = policy
      let bytes = try Anonymizer(options: options, key: Self.key()).anonymize(builder.bytes()).bytes
      let time = SampleNote.created.bitPattern
      let timeBytes = (0..<8).map { UInt8(truncatingIfNeeded: time >> (56 - 8 * $0)) }
      #expect(!Self.contains(bytes, timeBytes), "\(policy): the date survived")
      for date in ["2023-03-08", "08.03.2023", "21:26"] where policy != .shift || date != "21:26" {
        #expect(!Self.contains(bytes, Array(date.utf8)), "\(policy): '\(date)' survived")
      }
    }
  }

  @Test("No original string or date appears in the inspect view")
  func noOriginalInInspectView() throws {
    let anonymized = try KeyedArchive(bytes: Self.anonymizedNote().bytes)
    let view = ArchiveTreePrinter().render(anonymized)
    for text in SampleNote.personalStrings + ["Alice", "corp-mail"] {
      #expect(!view.contains(text), "'\(text)' is in the inspect view")
    }
    for date in [SampleNote.created, SampleNote.birthday] {
      let day = try #require(ISO8601.format(date)).prefix(10)
      #expect(!view.contains(day), "the date \(day) is in the inspect view")
    }
    #expect(!view.contains("E621E1F8"), "the UUID is in the inspect view")
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
      haystack[start..<start + needle.count].elementsEqual(needle)
    }
  }

  @Test("Equal values get equal pseudonyms: a shared string object and an equal string elsewhere")
  func equalValuesStayEqual() throws {
    let anonymized = try KeyedArchive(bytes: Self.anonymizedNote().bytes)
    #expect(try Self.leaf(anonymized, "place") == Self.leaf(anonymized, "author.address.city"))
    #expect(try Self.leaf(anonymized, "tags[0]") == Self.leaf(anonymized, "tags[2]"))
    #expect(try Self.leaf(anonymized, "tags[0]") != Self.leaf(anonymized, "tags[1]"))
  }

  @Test("Different values get different pseudonyms, even short ones")
  func differentValuesStayDifferent() throws {
    var builder = KeyedArchiveBuilder()
    let names = (0..<200).map { "N\($0 % 10)" + String(repeating: "x", count: $0 / 10) }
    let references = names.map { builder.string($0) }
    builder.setRoot(builder.array(references))
    let output = try Anonymizer(key: Self.key()).anonymize(builder.bytes())
    let anonymized = try KeyedArchive(bytes: output.bytes)
    let pseudonyms = try anonymized.evaluate(ArchiveKeyPath("[*]")).map {
      anonymized.leaf(of: $0.node)
    }
    #expect(Set(pseudonyms).count == names.count)
    #expect(
      Set(pseudonyms.compactMap { if case .string(let text) = $0 { text } else { nil } })
        .isDisjoint(with: names))
    #expect(output.report.collisions == 0)
  }

  @Test("The same salt gives the same archive; another salt gives another")
  func saltDecides() throws {
    let first = try Anonymizer(key: Self.key(1)).anonymize(SampleNote.bytes()).bytes
    let again = try Anonymizer(key: Self.key(1)).anonymize(SampleNote.bytes()).bytes
    let other = try Anonymizer(key: Self.key(2)).anonymize(SampleNote.bytes()).bytes
    #expect(first == again)
    #expect(first != other)
  }

  @Test("A kept key path keeps a string, date, UUID, data, URL, number and Boolean as they are")
  func keepsEveryLeafKind() throws {
    let paths = ["author.name", "created", "identifier", "attachment", "link", "version", "pinned"]
    let original = try SampleNote.archive()
    let output = try Self.anonymizedNote { options in
      options.kept = try paths.map { try ArchiveKeyPath($0) }
    }
    let anonymized = try KeyedArchive(bytes: output.bytes)
    for path in paths {
      #expect(try Self.leaf(anonymized, path) == Self.leaf(original, path), "\(path) changed")
    }
    let kept = Dictionary(output.report.kept.map { ($0.keyPath, $0.kind) }) { first, _ in first }
    #expect(kept["author.name"] == .string)
    #expect(kept["created"] == .date)
    #expect(kept["identifier"] == .uuid)
    #expect(kept["attachment"] == .data)
    #expect(kept["link"] == .string)
    #expect(kept["version"] == .number)
    #expect(kept["pinned"] == .bool)
    #expect(try Self.leaf(anonymized, "author.email") != Self.leaf(original, "author.email"))
  }

  @Test("Keeping an object keeps what lies under it, not what a back-reference reaches")
  func keepingStopsAtBackReferences() throws {
    let original = try SampleNote.archive()
    let anonymized = try KeyedArchive(
      bytes: Self.anonymizedNote { $0.kept = [try ArchiveKeyPath("author")] }.bytes)
    #expect(
      try Self.leaf(anonymized, "author.address.city") == Self.leaf(original, "author.address.city")
    )
    #expect(try Self.leaf(anonymized, "title") != Self.leaf(original, "title"))
  }

  @Test("A kept key path that matches nothing is an error")
  func rejectsUnmatchedKeptPath() throws {
    #expect(throws: AnonymizationError.self) {
      try Self.anonymizedNote { $0.kept = [try ArchiveKeyPath("versoin")] }
    }
  }

  @Test("A scrubbed key path that matches nothing is an error")
  func rejectsUnmatchedScrubbedPath() throws {
    let error = try #require(throws: AnonymizationError.self) {
      try Self.anonymizedNote { $0.scrubbedNumbers = [try ArchiveKeyPath("author.customerNumbr")] }
    }
    #expect(error.code == .unmatchedKeyPath)
    #expect(error.message.contains("'author.customerNumbr'"))
  }

  @Test("Numbers stay unless scrubbed; a scrubbed number keeps its sign and width")
  func scrubsNumbersToTheSameWidth() throws {
    let anonymized = try KeyedArchive(
      bytes: Self.anonymizedNote {
        $0.scrubbedNumbers = [
          try ArchiveKeyPath("author.customerNumber"), try ArchiveKeyPath("score"),
        ]
      }.bytes)
    #expect(try Self.leaf(anonymized, "version") == .integer(3))
    guard case .integer(let number) = try Self.leaf(anonymized, "author.customerNumber") else {
      Issue.record("author.customerNumber is not an integer")
      return
    }
    #expect((1000...9999).contains(number) && number != 4711)
    guard case .real(let score) = try Self.leaf(anonymized, "score") else {
      Issue.record("score is not a real")
      return
    }
    #expect(score >= 0 && score < 10 && score != 4.25)
  }

  @Test("Dates shift by one offset per run: their order and differences stay")
  func shiftsDates() throws {
    let anonymized = try KeyedArchive(bytes: Self.anonymizedNote().bytes)
    guard case .date(let created) = try Self.leaf(anonymized, "created"),
      case .date(let birthday) = try Self.leaf(anonymized, "author.birthday")
    else {
      Issue.record("the dates are not dates")
      return
    }
    #expect(created != SampleNote.created)
    #expect(created - birthday == SampleNote.created - SampleNote.birthday)
    #expect(abs(created - SampleNote.created) >= 30 * 86_400)
  }

  @Test(
    "Dates truncate to the start of their day, month or year",
    arguments: [
      (DatePolicy.Unit.day, "2023-03-08T00:00:00Z"), (.month, "2023-03-01T00:00:00Z"),
      (.year, "2023-01-01T00:00:00Z"),
    ])
  func truncatesDates(unit: DatePolicy.Unit, expected: String) throws {
    let anonymized = try KeyedArchive(
      bytes: Self.anonymizedNote { $0.dates = .truncate(unit) }.bytes)
    guard case .date(let created) = try Self.leaf(anonymized, "created") else {
      Issue.record("created is not a date")
      return
    }
    #expect(ISO8601.format(created) == expected)
  }

  @Test("Dates stay as they are with the keep policy")
  func keepsDates() throws {
    let anonymized = try KeyedArchive(bytes: Self.anonymizedNote { $0.dates = .keep }.bytes)
    #expect(try Self.leaf(anonymized, "created") == .date(SampleNote.created))
  }

  @Test("A date policy parses from its command-line text; anything else is an error")
  func parsesDatePolicies() throws {
    #expect(try DatePolicy("truncate:month") == .truncate(.month))
    #expect(try DatePolicy("shift") == .shift)
    #expect(throws: AnonymizationError.self) { try DatePolicy("truncate:week") }
  }

  @Test("A UUID becomes a version-4 UUID, the same one wherever the UUID appears")
  func replacesUUIDsConsistently() throws {
    let anonymizer = Anonymizer(key: try Self.key())
    let outputs = try anonymizer.anonymize([SampleNote.archive(), SampleNote.archive()])
    let first = try Self.leaf(outputs[0].archive, "identifier")
    guard case .uuid(let bytes) = first else {
      Issue.record("identifier is not a UUID")
      return
    }
    #expect(bytes != SampleNote.identifier)
    #expect(bytes[6] >> 4 == 4 && bytes[8] >> 6 == 2)
    #expect(try Self.leaf(outputs[1].archive, "identifier") == first)
  }

  @Test("Data keeps its length, and with keepsFileSignatures its PNG signature only")
  func replacesDataKeepingLength() throws {
    let plain = try KeyedArchive(bytes: Self.anonymizedNote().bytes)
    let signed = try KeyedArchive(
      bytes: Self.anonymizedNote { $0.keepsFileSignatures = true }.bytes)
    guard case .data(let plainBytes) = try Self.leaf(plain, "attachment"),
      case .data(let signedBytes) = try Self.leaf(signed, "attachment")
    else {
      Issue.record("attachment is not data")
      return
    }
    #expect(plainBytes.count == SampleNote.attachment.count)
    #expect(Array(plainBytes.prefix(8)) != Array(SampleNote.attachment.prefix(8)))
    #expect(Array(signedBytes.prefix(8)) == Array(SampleNote.attachment.prefix(8)))
    #expect(Array(signedBytes.dropFirst(8)) != Array(SampleNote.attachment.dropFirst(8)))
  }

  @Test("A dictionary key that looks like an email is replaced; other keys stay as structure")
  func replacesPersonalDictionaryKeys() throws {
    let output = try Self.anonymizedNote()
    let anonymized = try KeyedArchive(bytes: output.bytes)
    let metadata = try #require(try anonymized.evaluate(ArchiveKeyPath("metadata")).first)
    let keys = anonymized.children(of: metadata.node).compactMap {
      if case .key(let key) = $0.component { key } else { nil }
    }
    #expect(keys.contains("theme"))
    #expect(!keys.contains("owner@corp-mail.de"))
    #expect(keys.contains { $0.hasSuffix("@example.com") || $0.hasSuffix(".example") })
    #expect(output.report.replacedCount(of: .dictionaryKey) == 1)
  }

  @Test("Under --pseudonymize-keys every key of the dictionary gets a pseudonym of its shape")
  func pseudonymizesKeysOfASelectedDictionary() throws {
    let output = try Self.anonymizedNote { $0.pseudonymizedKeys = [try ArchiveKeyPath("metadata")] }
    let anonymized = try KeyedArchive(bytes: output.bytes)
    let metadata = try #require(try anonymized.evaluate(ArchiveKeyPath("metadata")).first)
    let keys = anonymized.children(of: metadata.node).compactMap {
      if case .key(let key) = $0.component { key } else { nil }
    }
    #expect(keys.count == 2)
    #expect(!keys.contains("theme"))
    #expect(!keys.contains("owner@corp-mail.de"))
    #expect(keys.allSatisfy { $0.utf16.count == 5 || $0.contains("@") })
    #expect(output.report.replacedCount(of: .dictionaryKey) == 2)
  }

  @Test("A --pseudonymize-keys key path that matches nothing is an error")
  func unmatchedPseudonymizedKeysIsAnError() throws {
    #expect(throws: AnonymizationError.self) {
      try Self.anonymizedNote { $0.pseudonymizedKeys = [try ArchiveKeyPath("metadataa")] }
    }
  }

  @Test("A batch gives a value shared by two archives one pseudonym")
  func batchSharesPseudonyms() throws {
    let first = try KeyedArchive(bytes: SampleNote.bytes(title: "First note"))
    let second = try KeyedArchive(bytes: SampleNote.bytes(title: "Second note"))
    let outputs = try Anonymizer(key: Self.key()).anonymize([first, second])
    #expect(
      try Self.leaf(outputs[0].archive, "author.address.city")
        == Self.leaf(outputs[1].archive, "author.address.city"))
    #expect(try Self.leaf(outputs[0].archive, "title") != Self.leaf(outputs[1].archive, "title"))
  }

  @Test("Input that is not a keyed archive is an error")
  func rejectsNonArchive() {
    #expect(throws: AnonymizationError.self) { try Anonymizer().anonymize([0, 1, 2]) }
  }

  @Test(
    "Corpus archives keep their shape and lose every string with a letter or digit",
    arguments: Corpus.validFiles)
  func anonymizesCorpusArchive(file: String) throws {
    let bytes = try Corpus.bytes(file)
    guard let original = try? KeyedArchive(bytes: bytes) else { return }
    let output = try Anonymizer(key: Self.key()).anonymize(bytes)
    let anonymized = try KeyedArchive(bytes: output.bytes)
    #expect(Self.shape(of: anonymized) == Self.shape(of: original))
    var keys: Set<String> = []
    for case .instance(let instance) in original.objects {
      if case .dictionary(let dictionaryKeys, _)? = original.foundationForm(of: instance) {
        keys.formUnion(dictionaryKeys.compactMap { original.stringValue(of: $0) })
      }
    }
    let leftovers = Self.strings(of: anonymized).intersection(Self.strings(of: original))
      .subtracting(keys)
    #expect(leftovers.count <= output.report.collisions, "\(leftovers.prefix(5))")
    #expect(output.report.flagged == 0)
  }
}
