import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// The verify report's JSON against `schemas/verify.schema.json`, over every kind of value it can hold.
@Suite("The verify report's JSON schema")
struct JSONReportSchemaTests {
  /// Every kind of field expectation a manifest can state.
  static let kinds: [FieldExpectation.Kind] = [
    .string("Berlin"), .integer("1"), .integer("99999999999999999999"),
    .real(1.5, tolerance: 0.1), .real(.nan, tolerance: 0), .bool(true),
    .date(631_152_000.5, tolerance: 0.001), .data([1, 2, 3]),
    .dataDigest(sha256: String(repeating: "a", count: 64), length: 3),
    .dataDigest(sha256: String(repeating: "b", count: 64), length: nil), .null,
    .className("ProfileKit.Address"), .present, .absent, .maxLength(40),
    .range(min: 0, max: nil), .count(equals: 3, min: nil, max: nil),
    .count(equals: nil, min: 1, max: 5), .oneOf(["a", "b"]), .matches("[A-Z].*"),
  ]

  /// Every kind of observation the engine makes.
  static let observations: [ExpectationFinding.Observation] = [
    .value(.null), .value(.string("Bern")), .value(.integer(-1)),
    .value(.unsignedInteger(.max)), .value(.real(2.5)), .value(.real(-.infinity)),
    .value(.bool(false)), .value(.date(0)), .value(.date(.greatestFiniteMagnitude)),
    .value(.data([0xFF])), .value(.uuid(Array(repeating: 0xAB, count: 16))),
    .value(.url("https://example.com")), .object(className: "NSArray", count: 2),
    .object(className: "ProfileKit.Memo", count: nil), .present, .absent, .noElements,
    .allMatch(count: 3), .className("NSString"),
    .digest(length: 3, sha256: String(repeating: "c", count: 64)), .utf16Length(7), .count(4),
    .uncountable(.value(.bool(true))),
    .someElementsFail(first: .value(.string("x")), failing: 2, of: 5), .malformedKeyPath,
    .unresolvable(reason: "key path 'tags[*]' matches more than 2 values"),
    .archiveOutsideFolder, .unreadableArchive, .oversizedArchive(size: 20, maxSize: 10),
    .malformedArchive(reason: "not a property list"),
  ]

  /// A decoded object that holds every kind of decoded value.
  static let object = DecodedValue.object(
    className: "ProfileKit.UserProfile",
    fields: [
      DecodedField(key: "null", value: .null), DecodedField(key: "flag", value: .bool(true)),
      DecodedField(key: "id", value: .integer(1001)),
      DecodedField(key: "score", value: .double(.nan)),
      DecodedField(key: "name", value: .string("Avery")),
      DecodedField(key: "photo", value: .data([1, 2])),
      DecodedField(key: "created", value: .date(0)),
      DecodedField(key: "uuid", value: .uuid("68753A44-4D6F-1226-9C60-0050E4C00067")),
      DecodedField(key: "home", value: .url("https://example.com")),
      DecodedField(
        key: "tags", value: .array(className: "NSArray", elements: [.string("a")])),
      DecodedField(key: "set", value: .set(className: "NSSet", elements: [.integer(1)])),
      DecodedField(
        key: "ordered", value: .orderedSet(className: "NSOrderedSet", elements: [])),
      DecodedField(
        key: "settings",
        value: .dictionary(
          className: "NSDictionary",
          entries: [DecodedEntry(key: .string("k"), value: .double(1.5))])),
      DecodedField(key: "me", value: .cycleReference(className: "ProfileKit.UserProfile")),
      DecodedField(
        key: "again", value: .sharedReference(className: "ProfileKit.Address", ordinal: 1)),
      DecodedField(key: "odd", value: .opaque(className: "NSHashTable")),
      DecodedField(key: "none", value: .noObject),
    ])

  static let report: VerificationReport = {
    let expectations = observations.enumerated().map { index, observation in
      ExpectationResult(
        keyPath: "field\(index)", passed: index.isMultiple(of: 2),
        expected: kinds[index % kinds.count], actual: observation,
        location: Place(parsing: "m.xml:\(index):5"))
    }
    let paths = [
      PathResult(
        path: .decode(.legacy), outcome: .decoded, expected: .decodes, matches: true,
        object: object),
      PathResult(
        path: .decode(.secure), outcome: .rejected, category: .rejection(.classNotAllowed),
        message: "secure: root.address: class not allowed",
        expected: .rejected(.classNotAllowed), matches: true),
      PathResult(
        path: .decode(.foundationLegacy), outcome: .crashed, category: .crash(.signal(4)),
        message: "SIGILL", matches: true),
      PathResult(
        path: .decode(.foundationSecure), outcome: .crashed, category: .crash(.timeout),
        message: "SIGKILL (timed out)", expected: .rejected(.crashed), matches: true),
    ]
    return VerificationReport(
      cases: [
        VerificationCase(
          manifest: "m.xml", archive: "a.archive", location: Place(parsing: "m.xml:3:3"),
          paths: paths,
          expectations: expectations, notes: ["legacy and foundation-legacy disagree"]),
        VerificationCase(
          manifest: "m.xml", archive: "gone.archive", location: Place(parsing: "m.xml:9:3"),
          paths: [
            PathResult(
              path: .structure, outcome: .rejected, category: .unreadable,
              message: "gone.archive: cannot read the archive", matches: false)
          ], expectations: []),
        VerificationCase(
          manifest: "m.xml", archive: "no-worker.archive", location: Place(parsing: "m.xml:12:3"),
          paths: [
            PathResult(
              path: .decode(.legacy), outcome: .notRun, category: .workerUnavailable,
              message: "worker unavailable: no executable 'my-harness' among the build products",
              expected: .decodes, matches: false),
            PathResult(
              path: .decode(.secure), outcome: .notRun, category: .workerFailed,
              message: "decode worker: the worker exited with status 3 while answering request 2",
              matches: false),
          ], expectations: []),
        VerificationCase(
          manifest: "m.xml", archive: "personal.archive", location: Place(parsing: "m.xml:15:3"),
          paths: [
            PathResult(
              path: .decode(.legacy), outcome: .decoded, expected: .decodes, matches: true,
              object: .string("x")),
            PathResult(
              path: .privacy, outcome: .rejected, category: .personalData,
              message: "personal.archive: email: [email] xxxx@xxxxxxx.xxx", matches: false),
          ], expectations: []),
      ], notes: ["a manifest note"])
  }()

  private func document() throws -> JSONDocument {
    try JSONDocument(parsing: JSONReportWriter().render(Self.report))
  }

  @Test("A report holding every kind of value follows the schema")
  func everyKindFollowsTheSchema() throws {
    let violations = try JSONSchemas.violations(
      of: JSONReportWriter().render(Self.report), against: .verify)
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
  }

  @Test("The run's parameters, a producer and a decoded object's class follow the schema")
  func runAndProducerFollowTheSchema() throws {
    var report = Self.report
    report.run = RunParameters(
      manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0.1.0",
      platform: "Linux")
    report.cases[0].producer = "ProfilesApp 1.0"
    let text = JSONReportWriter().render(report)
    let document = try JSONDocument(parsing: text)
    let violations = try JSONSchemas.violations(of: text, against: .verify)
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    #expect(document["run"]?["platform"] == .string("Linux"))
    guard case .array(let cases)? = document["cases"] else {
      Issue.record("no cases")
      return
    }
    #expect(cases.first?["producer"] == .string("ProfilesApp 1.0"))
    #expect(cases.first?["paths"]?["legacy"]?["objectClass"] == .string("ProfileKit.UserProfile"))
  }

  @Test("A run without its platform is a violation")
  func runWithoutPlatformIsAViolation() throws {
    var report = Self.report
    report.run = RunParameters(
      manifests: "manifests", archives: "LegacyArchives", harnessVersion: "0.1.0", platform: "")
    let text = JSONReportWriter().render(report).replacingOccurrences(
      of: "\"platform\": \"\"", with: "\"os\": \"\"")
    let violations = try JSONSchemas.violations(of: text, against: .verify)
    #expect(!violations.isEmpty)
  }

  @Test("Expectations are written as typed values, not descriptions")
  func expectationsAreData() throws {
    let first = JSONReportWriter().document(Self.report)
    let text = first.render(sortedKeys: true, pretty: false)
    #expect(text.contains(#""expected":{"type":"string","value":"Berlin"}"#))
    #expect(text.contains(#""actual":{"type":"string","value":"Bern"}"#))
    #expect(text.contains(#"{"type":"integer","value":1}"#))
    #expect(text.contains(#"{"type":"integer","value":"99999999999999999999"}"#))
    #expect(!text.contains("string \\\""))
  }

  @Test("A decoded object is written as decode --format json writes it")
  func objectIsStructured() throws {
    let legacy = try document()["cases"]
    guard case .array(let cases)? = legacy,
      case .object(let paths)? = cases.first?["paths"],
      let object = paths["legacy"]?["object"]
    else {
      Issue.record("the report has no legacy object")
      return
    }
    let expected = try JSONDocument(parsing: Self.object.jsonValue.render())
    #expect(object == expected)
  }

  @Test("The expected outcome is data: an outcome and a category")
  func expectedOutcomeIsData() throws {
    guard case .array(let cases)? = try document()["cases"],
      case .object(let paths)? = cases.first?["paths"]
    else {
      Issue.record("the report has no paths")
      return
    }
    #expect(
      paths["secure"]?["expected"]
        == .object(["outcome": .string("rejected"), "category": .string("class-not-allowed")]))
    #expect(paths["legacy"]?["expected"] == .object(["outcome": .string("decodes")]))
    #expect(paths["foundation-legacy"]?["expected"] == .null)
  }

  @Test("An expectation status the schema does not know is a violation")
  func unknownStatusIsAViolation() throws {
    let text = JSONReportWriter().render(Self.report)
      .replacingOccurrences(of: "\"status\": \"passed\"", with: "\"status\": \"skipped\"")
    #expect(text != JSONReportWriter().render(Self.report))
    let violations = try JSONSchemas.violations(of: text, against: .verify)
    #expect(!violations.isEmpty)
  }
}
