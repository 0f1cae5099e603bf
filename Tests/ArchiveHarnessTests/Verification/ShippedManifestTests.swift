import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import ProfileKit
import Testing

@Suite("The shipped historical archives")
struct ShippedManifestTests {
  @Test("The shipped manifests load without errors")
  func manifestsLoad() {
    let errors = ManifestCase.loaded.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(errors.map(\.description).joined(separator: "\n"))")
    #expect(ManifestCase.all.count >= 24)
  }

  @Test("Each archive entry is as its manifest says", arguments: ManifestCase.all)
  func entry(_ manifestCase: ManifestCase) throws {
    let result = try manifestCase.run()
    let findings = JUnitReportWriter().failureLines(result)
    #expect(result.status == .passed, "\(findings.joined(separator: "\n"))")
  }
}

@Suite("The five checks every team needs before merging")
struct MergeChecks {
  private func archive(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: ManifestCase.archives).appendingPathComponent(name)
    return try Data(contentsOf: url).withUnsafeBytes { [UInt8]($0) }
  }

  private var roundTrip: RoundTrip {
    RoundTrip(
      registry: ManifestCase.registry,
      classMap: ClassNameMap(entries: [
        "ProfilesApp.UserProfile": "ProfileKit.UserProfile",
        "ProfilesApp.Address": "ProfileKit.Address",
        "ProfilesApp.Memo": "ProfileKit.Memo",
      ]),
      allowedClasses: [
        "ProfileKit.UserProfile", "ProfileKit.Address", "ProfileKit.Memo", "NSArray",
      ])
  }

  @Test("1. The valid sample's fields are identical after the round trip")
  func validSampleRoundTrips() throws {
    let migrated = try roundTrip.run(archive("ProfilesApp-1.0/profile-valid.archive")).get()
    #expect(migrated.before == migrated.after)
    #expect(migrated.after[field: "id"] == .integer(1001))
    #expect(migrated.after[field: "name"] == .string("Avery Example"))
    #expect(migrated.after[field: "isActive"] == .bool(true))
    #expect(migrated.after[field: "address"]?[field: "city"] == .string("Walldorf"))
    // The new archive names the current classes and reads on its own.
    let rewritten = try KeyedArchive(bytes: migrated.bytes)
    let names = rewritten.objects.compactMap { object -> String? in
      if case .classDescription(let description) = object { return description.name }
      return nil
    }
    #expect(names.contains("ProfileKit.UserProfile"))
    #expect(!names.contains { $0.hasPrefix("ProfilesApp.") })
  }

  @Test("2. A wrong root class is rejected")
  func wrongRootClassIsRejected() throws {
    let result = try ManifestCase(
      manifest: "ProfilesApp-1.0.xml", archive: "ProfilesApp-1.0/memo-wrong-root.archive"
    ).run()
    let secure = try #require(result.paths.first { $0.path == .decode(.secure) })
    #expect(secure.outcome == .rejected)
    #expect(secure.category == .rejection(.wrongRootClass))
    #expect(throws: RecordRefusal.self) {
      var trip = roundTrip
      trip.allowedClasses = ["ProfileKit.Memo"]
      _ = try trip.run(archive("ProfilesApp-1.0/memo-wrong-root.archive")).get()
    }
  }

  @Test("3. An unknown schema version is rejected")
  func unknownVersionIsRejected() throws {
    let result = try ManifestCase(
      manifest: "ProfilesApp-1.0.xml", archive: "ProfilesApp-1.0/memo-unknown-schema.archive"
    ).run()
    for path in result.paths where path.path == .decode(.legacy) || path.path == .decode(.secure) {
      #expect(path.outcome == .rejected)
      #expect(path.message?.contains("schema 2") == true)
    }
    let refusal = try #require(
      roundTrip.run(archive("ProfilesApp-1.0/memo-unknown-schema.archive")).failure)
    #expect(refusal.step == .decode)
  }

  @Test("4. Truncated input leads to no rewrite counted as a success")
  func truncatedInputIsRefused() throws {
    let bytes = try archive("ProfilesApp-1.0/memo-truncated.archive")
    let refusal = try #require(roundTrip.run(bytes).failure)
    #expect(refusal.step == .read)
    let result = try ManifestCase(
      manifest: "ProfilesApp-1.0.xml", archive: "ProfilesApp-1.0/memo-truncated.archive"
    ).run()
    #expect(
      result.paths.allSatisfy { $0.outcome == .rejected && $0.category == .rejection(.truncated) })
  }

  @Test("5. The historical archives pass")
  func historicalArchivesPass() {
    let report = ManifestCase.verifier.verify(
      ManifestCase.loaded.manifests, archivesDirectory: ManifestCase.archives)
    #expect(report.cases.count == ManifestCase.all.count)
    #expect(report.passed, "\(TextReportWriter().render(report))")
  }
}

extension Result {
  /// The error, when the result is a failure.
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
