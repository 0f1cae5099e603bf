import ArchiveFormat
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarness

/// `coredata preflight --author FILE`: a manifest pinning every transformable attribute, drafted
/// from CoreDataPlus's real stores and models (`Tests/Fixtures/CoreData`), which `verify`
/// passes on while no row is lost.
@Suite("coredata preflight --author")
struct CoreDataAuthorTests {
  private typealias Fixtures = CoreDataPreflightFixtures

  /// The real fixtures as an archives folder: pins name `CoreDataPlus/…`.
  static let archives = Corpus.packageRoot.appendingPathComponent("Tests/Fixtures/CoreData").path

  /// A new, empty `manifests` folder.
  private func manifestsFolder() throws -> String {
    let folder = try MigrationFixtures.temporaryFolder() + "/manifests"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Runs `coredata preflight STORE --model MODEL --author FILE --archives DIR …`.
  private func author(
    store: String, model: String, file: String, archives: String = Self.archives,
    _ more: [String] = []
  ) throws -> CommandRunner.Result {
    try CommandRunner.run(
      ["coredata", "preflight", store, "--model", model, "--author", file, "--archives", archives]
        + more)
  }

  /// Loads an authored manifest; its diagnostics as text when it has errors.
  private func load(_ file: String, archives: String) throws -> (Manifest?, [String]) {
    let result = ManifestLoader.load(path: file, archivesDirectory: archives)
    return (
      result.manifest,
      result.diagnostics.filter { $0.severity == .error }.map(\.description)
    )
  }

  /// A file's SHA-256, in hexadecimal.
  private func sha(_ path: String) throws -> String {
    SHA256Checksum.hash(try Data(contentsOf: URL(fileURLWithPath: path))).hexadecimal
  }

  /// Names every file of the archives folder that no manifest lists in the manifests folder's
  /// ignore file, so that verify checks the pins alone.
  private func ignoreUnlisted(manifests: String, listed: Set<String>, archives: String) throws {
    let rest = ArchiveFolder.archives(in: archives).filter { path in
      !listed.contains { path == $0 || path.hasPrefix($0 + "/") }
    }
    try Data(rest.joined(separator: "\n").utf8).write(
      to: URL(fileURLWithPath: manifests + "/" + ArchiveFolder.ignoreFileName))
  }

  @Test(
    "Authoring the real SampleModel2 store: one pin per attribute, its checksum, transformer, customClassName, rows and the minimal allowedClass list"
  )
  func authorsRealFixtures() throws {
    let manifests = try manifestsFolder()
    defer { try? FileManager.default.removeItem(atPath: manifests + "/..") }
    let file = manifests + "/Books.xml"
    let run = try author(
      store: Fixtures.path("SampleModel2_V1.sqlite"),
      model: Fixtures.path("SampleModel2-V1-transcribed.xcdatamodel"), file: file,
      ["--app", "Books", "--version", "1.0", "--platform", "iOS 17", "--produced", "2026-01-01"])
    // The report checks the custom transformers against the defaults, which lose every row.
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.contains("rows that would become nil: 52"))
    #expect(run.stderr.contains("manifest written: 2 pinned attributes"), "\(run.stderr)")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains(#"<producer app="Books" version="1.0" platform="iOS 17""#))
    #expect(text.contains("allowedClass: REVIEW"))
    #expect(!text.contains("<lostRow"))
    let (loaded, errors) = try load(file, archives: Self.archives)
    #expect(errors.isEmpty, "\(errors)")
    let manifest = try #require(loaded)
    #expect(manifest.producer.app == "Books")
    let pins = manifest.coreDataAttributes
    #expect(pins.map(\.qualifiedName) == ["Book.cover", "Page.content"])
    let expectedSHA = try sha(Fixtures.path("SampleModel2_V1.sqlite"))
    for pin in pins {
      #expect(pin.store == "CoreDataPlus/SampleModel2_V1.sqlite")
      #expect(pin.model == "CoreDataPlus/SampleModel2-V1-transcribed.xcdatamodel")
      #expect(pin.storeSHA256 == expectedSHA)
      #expect(pin.lostRows.isEmpty)
    }
    #expect(pins.map(\.transformer) == ["CoverTransformer", "ContentTransformer"])
    #expect(pins.map(\.customClassName) == ["Cover", "Content"])
    #expect(pins.map(\.rows) == [52, 4970])
    #expect(
      pins.map { $0.allowedClasses?.map(\.name) } == [["CoreDataPlus_Tests.Cover"], ["Content"]])
  }

  @Test("The authored manifests of both real stores load, and verify passes on them at once")
  func roundTripThroughVerify() throws {
    let manifests = try manifestsFolder()
    defer { try? FileManager.default.removeItem(atPath: manifests + "/..") }
    let books = try author(
      store: Fixtures.path("SampleModel2_V1.sqlite"),
      model: Fixtures.path("SampleModel2-V1-transcribed.xcdatamodel"),
      file: manifests + "/Books.xml")
    #expect(books.status == 1, "\(books.stderr)")
    let cars = try author(
      store: Fixtures.path("SampleModel_V1.sqlite"),
      model: Fixtures.path("SampleModel.xcdatamodeld"), file: manifests + "/Cars.xml")
    #expect(cars.status == 0, "\(cars.stderr)")
    try ignoreUnlisted(
      manifests: manifests,
      listed: [
        "CoreDataPlus/SampleModel2_V1.sqlite",
        "CoreDataPlus/SampleModel2-V1-transcribed.xcdatamodel",
        "CoreDataPlus/SampleModel_V1.sqlite", "CoreDataPlus/SampleModel.xcdatamodeld",
      ], archives: Self.archives)
    let verify = try CommandRunner.run([
      "verify", "--manifests", manifests, "--archives", Self.archives,
    ])
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout.contains("CoreDataPlus/SampleModel2_V1.sqlite#Book.cover"))
    #expect(verify.stdout.contains("CoreDataPlus/SampleModel2_V1.sqlite#Page.content"))
    #expect(verify.stdout.contains("CoreDataPlus/SampleModel_V1.sqlite#Car.color"))
    #expect(verify.stdout.contains("3 passed, 0 failed"), "\(verify.stdout)")
  }

  @Test(
    "A row that would be lost is a comment with the <lostRow> to paste, never a lostRow: exit 1, and verify fails naming it until it is pasted"
  )
  func lostRowsAreCommentsOnly() throws {
    let (folder, _) = try Fixtures.makeDroppingStore()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.copyItem(
      atPath: Fixtures.path("SampleModel-secure-derived.xcdatamodel"),
      toPath: folder + "/Secure.xcdatamodel")
    let manifests = try manifestsFolder()
    defer { try? FileManager.default.removeItem(atPath: manifests + "/..") }
    let file = manifests + "/Cars.xml"
    let run = try author(
      store: folder + "/SampleModel_V1.sqlite", model: folder + "/Secure.xcdatamodel", file: file,
      archives: folder)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stderr.contains("1 rows would become nil"), "\(run.stderr)")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let paste = #"<lostRow pk="3" class="ProfilesApp.UserProfile"/>"#
    let comment = try #require(
      text.split(separator: "\n").first { $0.contains("<!-- LOST: Car[Z_PK=3].color") })
    #expect(comment.contains("If the loss is accepted, paste: " + paste), "\(comment)")
    #expect(comment.contains("class-not-allowed"))
    let (loaded, errors) = try load(file, archives: folder)
    #expect(errors.isEmpty, "\(errors)")
    let pin = try #require(loaded?.coreDataAttributes.first)
    #expect(pin.lostRows.isEmpty)
    #expect(pin.transformer == "NSSecureUnarchiveFromData")
    #expect(pin.allowedClasses == nil)

    let failing = try CommandRunner.run(["verify", "--manifests", manifests, "--archives", folder])
    #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
    #expect(failing.stdout.contains("Car[Z_PK=3].color would become nil"), "\(failing.stdout)")

    // Pasting the comment's element accepts the loss: verify passes.
    let pasted = text.replacingOccurrences(of: String(comment), with: "    " + paste)
    try Data(pasted.utf8).write(to: URL(fileURLWithPath: file))
    let passing = try CommandRunner.run(["verify", "--manifests", manifests, "--archives", folder])
    #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
  }

  @Test(
    "Without --archives, pins are relative to LegacyArchives beside the nearest manifests folder, as verify finds it"
  )
  func defaultArchivesFolder() throws {
    let root = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    for folder in ["manifests", "LegacyArchives/Cars", "work"] {
      try FileManager.default.createDirectory(
        atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(
      atPath: Fixtures.path("SampleModel_V1.sqlite"),
      toPath: root + "/LegacyArchives/Cars/Cars.sqlite")
    try FileManager.default.copyItem(
      atPath: Fixtures.path("SampleModel.xcdatamodeld"),
      toPath: root + "/LegacyArchives/Cars/SampleModel.xcdatamodeld")
    let run = try CommandRunner.run(
      [
        "coredata", "preflight", "../LegacyArchives/Cars/Cars.sqlite", "--model",
        "../LegacyArchives/Cars/SampleModel.xcdatamodeld", "--author", "../manifests/Cars.xml",
      ], in: URL(fileURLWithPath: root + "/work"))
    #expect(run.status == 0, "\(run.stderr)")
    let (loaded, errors) = try load(
      root + "/manifests/Cars.xml", archives: root + "/LegacyArchives")
    #expect(errors.isEmpty, "\(errors)")
    let pin = try #require(loaded?.coreDataAttributes.first)
    #expect(pin.store == "Cars/Cars.sqlite")
    #expect(pin.model == "Cars/SampleModel.xcdatamodeld")
    #expect(pin.rows == 125)
    let verify = try CommandRunner.run(["verify"], in: URL(fileURLWithPath: root + "/work"))
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
  }

  @Test(
    "Without --archives and with no manifests folder here or above: exit 2, saying to give --archives, and nothing is written"
  )
  func noArchivesFolderFound() throws {
    let root = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let run = try CommandRunner.run(
      [
        "coredata", "preflight", Fixtures.path("SampleModel_V1.sqlite"), "--model",
        Fixtures.path("SampleModel.xcdatamodeld"), "--author", "Cars.xml",
      ], in: URL(fileURLWithPath: root))
    #expect(run.status == 2)
    #expect(run.stderr.contains("no manifests folder here or above"), "\(run.stderr)")
    #expect(run.stderr.contains("give --archives DIR"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
  }

  @Test("--author - is a usage error: the report itself goes to stdout")
  func authorToStandardOutputRefused() throws {
    let run = try CommandRunner.run([
      "coredata", "preflight", Fixtures.path("SampleModel_V1.sqlite"), "--model",
      Fixtures.path("SampleModel.xcdatamodeld"), "--author", "-", "--archives", Self.archives,
    ])
    #expect(run.status == 2)
    #expect(run.stderr.contains("--author needs a file"), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
  }

  @Test("An existing FILE is refused: exit 2, and it is left as it was")
  func existingFileRefused() throws {
    let manifests = try manifestsFolder()
    defer { try? FileManager.default.removeItem(atPath: manifests + "/..") }
    let file = manifests + "/Cars.xml"
    try Data("kept\n".utf8).write(to: URL(fileURLWithPath: file))
    let run = try author(
      store: Fixtures.path("SampleModel_V1.sqlite"),
      model: Fixtures.path("SampleModel.xcdatamodeld"), file: file)
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(file): error:"), "\(run.stderr)")
    #expect(run.stderr.contains("already exists"))
    #expect(run.stdout.isEmpty)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "kept\n")
  }

  @Test("A store outside --archives is refused: exit 2, naming it, and nothing is written")
  func storeOutsideArchivesRefused() throws {
    let manifests = try manifestsFolder()
    defer { try? FileManager.default.removeItem(atPath: manifests + "/..") }
    let archives = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: archives) }
    let model = archives + "/SampleModel.xcdatamodeld"
    try FileManager.default.copyItem(
      atPath: Fixtures.path("SampleModel.xcdatamodeld"), toPath: model)
    let file = manifests + "/Cars.xml"
    let store = Fixtures.path("SampleModel_V1.sqlite")
    let run = try author(store: store, model: model, file: file, archives: archives)
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(store): error:"), "\(run.stderr)")
    #expect(run.stderr.contains("the store is not inside the archives folder"))
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test("A model outside --archives is refused: exit 2, naming it, and nothing is written")
  func modelOutsideArchivesRefused() throws {
    let manifests = try manifestsFolder()
    defer { try? FileManager.default.removeItem(atPath: manifests + "/..") }
    let model = Fixtures.path("SampleModel.xcdatamodeld")
    let outside = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: outside) }
    try FileManager.default.copyItem(
      atPath: Fixtures.path("SampleModel_V1.sqlite"), toPath: outside + "/Cars.sqlite")
    let second = manifests + "/Second.xml"
    let refused = try author(
      store: outside + "/Cars.sqlite", model: model, file: second, archives: outside)
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("\(model): error:"), "\(refused.stderr)")
    #expect(refused.stderr.contains("the model is not inside the archives folder"))
    #expect(!FileManager.default.fileExists(atPath: second))
  }

  @Test("A store that is not SQLite is refused: exit 2, naming the file, and nothing is written")
  func notSQLiteStoreRefused() throws {
    let archives = try MigrationFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: archives) }
    let store = archives + "/Cars.sqlite"
    try Data("not a database, only text\n".utf8).write(to: URL(fileURLWithPath: store))
    let model = archives + "/SampleModel.xcdatamodeld"
    try FileManager.default.copyItem(
      atPath: Fixtures.path("SampleModel.xcdatamodeld"), toPath: model)
    let manifests = try manifestsFolder()
    defer { try? FileManager.default.removeItem(atPath: manifests + "/..") }
    let file = manifests + "/Cars.xml"
    let run = try author(store: store, model: model, file: file, archives: archives)
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(store): error:"), "\(run.stderr)")
    #expect(run.stderr.contains("not a database"))
    #expect(!FileManager.default.fileExists(atPath: file))
  }
}
