import ArchiveCoder
import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `verify` under each strictness: what Apple's platforms only log today is a warning that
/// passes, and under `apple-future` an error that fails the case; one named test per rule.
@Suite("Apple's future strictness in verify")
struct StrictnessVerificationTests {
  static let registry = ClassRegistry(
    modelClasses: [Shelf.self, LooseShelf.self, SloppyLabel.self])
  static let file = "strict.xml"

  /// Verifies one object's archive as the one entry of a manifest.
  ///
  /// - Parameters:
  ///   - root: The object archived.
  ///   - allowed: The read's allowed classes.
  ///   - run: The run's strictness.
  ///   - strictness: The manifest's strictness.
  ///   - secure: What the manifest expects of the secure path; decodes when nil.
  /// - Returns: The verified case.
  /// - Throws: When the object cannot be archived.
  static func verify(
    _ root: NSObject, allowed: [String], run: Strictness = .current,
    manifest strictness: Strictness = .current, secure: OutcomeExpectation.Outcome? = nil
  ) throws -> VerificationCase {
    let bytes = try HarnessArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
    let place = { (line: Int) in Place(file: file, line: line, column: 3) }
    let entry = ArchiveEntry(
      path: "object.archive", sha256: "",
      allowedClasses: allowed.map { Manifest.ClassReference(name: $0, location: place(5)) },
      outcomes: secure.map { [OutcomeExpectation(path: .secure, outcome: $0, location: place(9))] }
        ?? [],
      location: place(8))
    var manifest = Manifest(
      file: file,
      producer: Manifest.Producer(
        app: "Shelves", version: "1", platform: "iOS 17", produced: "2024-01-01",
        location: place(3)),
      classMappings: [], migration: Manifest.MigrationAllowance(), archives: [entry],
      location: place(2))
    manifest.strictness = strictness
    var verifier = Verifier(
      registry: registry, runner: InProcessPathRunner(registry: registry),
      paths: [.legacy, .secure])
    verifier.strictness = run
    return verifier.verify(entry, of: manifest, bytes: bytes)
  }

  @Test("apple-future fails NSObject in allowedClasses; without it the finding is a warning")
  func nsObjectInAllowedClasses() throws {
    let shelf = Shelf(titles: ["Dune"])
    let today = try Self.verify(shelf, allowed: ["NSObject"])
    #expect(today.status == .passed)
    let warning = try #require(today.strictnessFindings.first)
    #expect(today.strictnessFindings.count == 1)
    #expect(warning.severity == .warning)
    #expect(warning.rule == .nsObjectAllowed)

    let future = try Self.verify(shelf, allowed: ["NSObject"], run: .appleFuture)
    #expect(future.status == .failed)
    let finding = try #require(future.strictnessFindings.first)
    #expect(finding.severity == .error)
    #expect(finding.className == "NSObject")
    #expect(finding.keyPath == "root")
    #expect(finding.fix == ["ArchiveHarnessTests.Shelf"])
    #expect(finding.fixText == "allowedClasses: [ArchiveHarnessTests.Shelf.self]")
    // Every path still matches: the finding alone fails the case.
    #expect(future.paths.allSatisfy { $0.matches })
  }

  @Test("apple-future fails an NSString leaf the list does not name, with key path and fix")
  func unlistedLeaf() throws {
    let shelf = LooseShelf(titles: ["Dune", "Emma"])
    #expect(try Self.verify(shelf, allowed: ["ArchiveHarnessTests.LooseShelf"]).status == .passed)
    let future = try Self.verify(
      shelf, allowed: ["ArchiveHarnessTests.LooseShelf"], run: .appleFuture)
    #expect(future.status == .failed)
    #expect(future.strictnessFindings.count == 1)
    let finding = try #require(future.strictnessFindings.first)
    #expect(finding.rule == .unlistedPropertyListClass)
    #expect(finding.className == "NSString")
    #expect(finding.keyPath == "root.titles[0]")
    #expect(finding.decoder == "ArchiveHarnessTests.LooseShelf")
    #expect(finding.key == "titles")
    #expect(
      finding.fixText == #"decodeObject(of: [NSArray.self, NSString.self], forKey: "titles")"#)
  }

  @Test("apple-future fails decodeObject(forKey:) on a secure coder, naming class and key")
  func untypedDecode() throws {
    let label = SloppyLabel(text: "fragile")
    // The harness coder refuses the call on the secure path; the manifest says so.
    let today = try Self.verify(
      label, allowed: ["ArchiveHarnessTests.SloppyLabel"], secure: .rejected(.notSecureCoding))
    #expect(today.status == .passed)
    #expect(today.strictnessFindings.map(\.severity) == [.warning])
    let future = try Self.verify(
      label, allowed: ["ArchiveHarnessTests.SloppyLabel"], run: .appleFuture,
      secure: .rejected(.notSecureCoding))
    #expect(future.status == .failed)
    let finding = try #require(future.strictnessFindings.first)
    #expect(finding.rule == .untypedDecode)
    #expect(finding.className == "ArchiveHarnessTests.SloppyLabel")
    #expect(finding.key == "text")
    #expect(finding.keyPath == "root.text")
    #expect(finding.fixText == #"decodeObject(of: [NSString.self], forKey: "text")"#)
  }

  @Test("A manifest's apple-future holds its entries to it; a run's current does not loosen it")
  func manifestStrictness() throws {
    let shelf = Shelf(titles: ["Dune"])
    let held = try Self.verify(shelf, allowed: ["NSObject"], run: .current, manifest: .appleFuture)
    #expect(held.status == .failed)
    #expect(held.strictnessFindings.map(\.severity) == [.error])
    let clean = try Self.verify(
      shelf, allowed: ["ArchiveHarnessTests.Shelf"], run: .appleFuture, manifest: .appleFuture)
    #expect(clean.status == .passed)
    #expect(clean.strictnessFindings.isEmpty)
  }

  @Test("Text, JSON, JUnit and HTML reports show the findings; the JSON follows its schema")
  func reportsShowFindings() throws {
    let failing = try Self.verify(
      LooseShelf(titles: ["Dune"]), allowed: ["ArchiveHarnessTests.LooseShelf"], run: .appleFuture)
    let warned = try Self.verify(Shelf(titles: ["Dune"]), allowed: ["NSObject"])
    let report = VerificationReport(cases: [failing, warned])

    let text = TextReportWriter().render(report)
    #expect(
      text.contains(
        "    ✗ error: [unlisted-plist-class] root.titles[0]: NSString decoded although the "
          + "classes [NSArray] ArchiveHarnessTests.LooseShelf's init?(coder:) allows for key "
          + "\"titles\" do not name it"))
    #expect(text.contains("    warning: [nsobject-allowed] root: the read's allowed classes"))

    let json = JSONReportWriter().render(report)
    let violations = try JSONSchemas.violations(of: json, against: .verify)
    #expect(violations.isEmpty, "\(violations)")
    let read = try VerificationReportReader().report(JSONDocument(parsing: json))
    #expect(read.cases.map(\.strictnessFindings) == report.cases.map(\.strictnessFindings))
    #expect(read.cases.map(\.status) == [.failed, .passed])

    let junit = JUnitReportWriter().render(report)
    #expect(junit.contains("strictness: [unlisted-plist-class] root.titles[0]"))
    #expect(!junit.contains("nsobject-allowed"))

    let page = HTMLReportWriter(
      parameters: RunParameters(
        manifests: "m", archives: "a", harnessVersion: "0", platform: "Linux")
    ).render(report)
    #expect(page.contains("✗ error: [unlisted-plist-class] <code>root.titles[0]</code>"))
    #expect(page.contains("warning: [nsobject-allowed] <code>root</code>"))
  }

  @Test("The verify schema lists every strictness rule, in order")
  func schemaListsEveryRule() throws {
    let rules = try JSONSchemas.schema(.verify)["$defs"]?["StrictnessFinding"]?[
      "properties"]?["rule"]?["enum"]
    guard case .array(let names)? = rules else {
      Issue.record("no rule enum in the verify schema")
      return
    }
    #expect(
      names.compactMap { if case .string(let name) = $0 { name } else { nil } }
        == StrictnessRule.allCases.map(\.rawValue))
  }
}
