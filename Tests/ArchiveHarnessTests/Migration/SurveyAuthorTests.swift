import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `archive-harness survey --author`: a manifest for the store, which the dry run then needs
/// nothing else with; and nested archives counted by the survey.
@Suite("survey --author writes the store's manifest; survey counts nested archives")
struct SurveyAuthorTests {
  /// A new folder for the manifest, apart from the store's, and the manifest's path in it.
  private func manifestPath() throws -> (folder: String, path: String) {
    let folder = try MigrationFixtures.temporaryFolder()
    return (folder, folder + "/Store.xml")
  }

  private func read(_ path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
  }

  /// A UserDefaults-style XML property list with a profile archive at `profile.current`.
  private func writePreferences(to path: String) throws {
    let archive = Data(MigrationFixtures.keptProfile(id: 7))
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>a</key><true/><key>profile</key><dict>\
      <key>current</key><data>\(archive.base64EncodedString())</data></dict></dict></plist>
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
  }

  @Test("On a Core Data store: <store> by entity, the class map, and a dry run with nothing else")
  func coreDataStore() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    let (manifestFolder, manifest) = try manifestPath()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: manifestFolder)
    }
    let before = try MigrationFixtures.checksums(ofFolder: folder)
    let run = try CommandRunner.run([
      "survey", path, "--author", manifest, "--place", "Book.cover", "--app", "Books",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
    #expect(
      run.stderr.contains(
        "next: profiles-harness migrate-dry-run --store \(path) --manifest \(manifest)"))
    let text = try read(manifest)
    #expect(text.contains("<store kind=\"core-data\" entity=\"Book\" attribute=\"cover\"/>"))
    #expect(text.contains("<map from=\"ProfilesApp.UserProfile\" to=\"ProfileKit.UserProfile\"/>"))
    #expect(text.contains("<class name=\"ProfileKit.UserProfile\"/>"))
    #expect(text.contains("<producer app=\"Books\""))

    let validate = try CommandRunner.run(["manifest", "validate", manifest])
    #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    let dryRun = try CommandRunner.run([
      "migrate-dry-run", "--store", path, "--manifest", manifest, "--rename-only",
    ])
    #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
    #expect(dryRun.stdout.contains("\(path):Book[Z_PK=1].cover"))
    #expect(dryRun.stdout.contains("summary: 3 will-rewrite"))
    #expect(try MigrationFixtures.checksums(ofFolder: folder) == before)
  }

  @Test("On a table with a key column: <store> with the table and both columns")
  func sqliteTable() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    let (manifestFolder, manifest) = try manifestPath()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: manifestFolder)
    }
    let path = folder + "/cache.sqlite"
    let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
    try database.execute("CREATE TABLE store (key TEXT PRIMARY KEY, value BLOB)")
    let insert = try database.prepare("INSERT INTO store VALUES (?1, ?2)")
    for id in Int64(1)...3 {
      try insert.bind(.text("k\(id)"), at: 1)
      try insert.bind(.blob(MigrationFixtures.keptProfile(id: id)), at: 2)
      _ = try insert.step()
      insert.reset()
    }
    withExtendedLifetime(database) {}
    let run = try CommandRunner.run(["survey", path, "--author", manifest])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try read(manifest).contains(
        "<store kind=\"sqlite\" table=\"store\" keyColumn=\"key\" valueColumn=\"value\"/>"))
    // Values stored inline decode as NSString and NSNumber: the read allows them.
    let text = try read(manifest)
    #expect(
      text.contains(#"<class name="NSString"/>"#) && text.contains(#"<class name="NSNumber"/>"#))
    let dryRun = try CommandRunner.run(["migrate-dry-run", "--store", path, "--manifest", manifest])
    #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
    #expect(dryRun.stdout.contains("summary: 3 will-rewrite"))
  }

  @Test("On a property list: the key paths that hold archives, which the dry run then reads")
  func propertyList() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    let (manifestFolder, manifest) = try manifestPath()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: manifestFolder)
    }
    let path = folder + "/Settings.plist"
    try writePreferences(to: path)
    let run = try CommandRunner.run(["survey", path, "--author", manifest])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try read(manifest).contains(
        "<store kind=\"property-list\">\n    <keyPath>profile.current</keyPath>\n  </store>"))
    let dryRun = try CommandRunner.run(["migrate-dry-run", "--store", path, "--manifest", manifest])
    #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
    #expect(dryRun.stdout.contains("\(path):profile.current"))
    #expect(dryRun.stdout.contains("summary: 1 will-rewrite"))
  }

  @Test("Several columns hold archives and no --place: exit 2 naming each, no manifest written")
  func severalPlacesRefused() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    let (manifestFolder, manifest) = try manifestPath()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: manifestFolder)
    }
    let run = try CommandRunner.run(["survey", path, "--author", manifest])
    #expect(run.status == 2)
    #expect(run.stderr.contains("choose one with --place: Book.cover, "))
    #expect(run.stderr.contains("Note.body"))
    #expect(!FileManager.default.fileExists(atPath: manifest))
  }

  @Test("A --place that holds no archives: exit 2 listing the places that do")
  func unknownPlaceRefused() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    let (manifestFolder, manifest) = try manifestPath()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: manifestFolder)
    }
    let run = try CommandRunner.run([
      "survey", path, "--author", manifest, "--place", "Book.meta",
    ])
    #expect(run.status == 2)
    #expect(run.stderr.contains("'Book.meta' holds no archives; the places that do: Book.cover"))
    #expect(!FileManager.default.fileExists(atPath: manifest))
  }

  @Test("One archive file is no store: exit 2 saying to use manifest author, nothing written")
  func singleFileRefused() throws {
    let (manifestFolder, manifest) = try manifestPath()
    defer { try? FileManager.default.removeItem(atPath: manifestFolder) }
    let archive = Corpus.packageRoot.appendingPathComponent(
      "LegacyArchives/ProfilesApp-1.0/profile-valid.archive"
    ).path
    let run = try CommandRunner.run(["survey", archive, "--author", manifest])
    #expect(run.status == 2)
    #expect(run.stderr.contains("manifest author"))
    #expect(!FileManager.default.fileExists(atPath: manifest))
  }

  @Test("--author - is refused before the store is read: the survey itself goes to stdout")
  func authorToStandardOutputRefused() throws {
    let (folder, path) = try CoreDataFixtures.makeStoreInFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try CommandRunner.run(["survey", path, "--author", "-"])
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
  }

  @Test("An archive inside a Data value is counted with its classes, and --author maps them")
  func nestedArchives() throws {
    let folder = try MigrationFixtures.temporaryFolder()
    let (manifestFolder, manifest) = try manifestPath()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: manifestFolder)
    }
    var builder = KeyedArchiveBuilder()
    let data = builder.add(.data(MigrationFixtures.profile(id: 3)))
    let root = builder.object("ProfilesApp.UserProfile", [("previous", data)])
    builder.setRoot(root)
    try Data(builder.bytes()).write(to: URL(fileURLWithPath: folder + "/settings.archive"))

    let run = try CommandRunner.run(["survey", folder, "--format", "json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try JSONSchemas.violations(of: run.stdout, against: .survey).isEmpty)
    let document = try JSONDocument(parsing: run.stdout)
    guard case .array(let places)? = document["places"], let place = places.first else {
      Issue.record("no place: \(run.stdout)")
      return
    }
    #expect(place["archives"] == .number(1))
    #expect(place["nestedArchives"] == .number(1))
    #expect(
      place["nestedClasses"]
        == .array([
          .string("NSArray"), .string("ProfilesApp.Address"), .string("ProfilesApp.UserProfile"),
        ]))
    let text = try CommandRunner.run(["survey", folder])
    #expect(text.stdout.contains("nested archives: 1 in Data values"))

    let authored = try CommandRunner.run(["survey", folder, "--author", manifest])
    #expect(authored.status == 0, "\(authored.stderr)")
    let manifestText = try read(manifest)
    #expect(manifestText.contains("<store kind=\"folder\"/>"))
    #expect(manifestText.contains("<map from=\"ProfilesApp.Address\" to=\"ProfileKit.Address\"/>"))
    // The nested archive's classes are mapped but not allowed: the app reads it by itself.
    #expect(!manifestText.contains("<class name=\"ProfileKit.Address\"/>"))
    #expect(manifestText.contains("<class name=\"ProfileKit.UserProfile\"/>"))
  }
}
