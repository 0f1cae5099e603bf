import Foundation
import HarnessTestSupport

@testable import ArchiveHarness

/// The Core Data fixtures of `Tests/Fixtures/CoreData` (CoreDataPlus's real models and stores),
/// and stores the preflight tests build from them.
enum CoreDataPreflightFixtures {
  /// `Tests/Fixtures/CoreData/CoreDataPlus`.
  static let folder = Corpus.packageRoot.appendingPathComponent(
    "Tests/Fixtures/CoreData/CoreDataPlus"
  )
  .path

  /// A fixture's path.
  static func path(_ relative: String) -> String { folder + "/" + relative }

  /// The archives written into `ZCAR.ZCOLOR` of the dropping store, by `Z_PK`: three that
  /// Foundation wrote (swift-corelibs-foundation's fixtures, classes NSSecureUnarchiveFromData
  /// allows) and, in row 3, an array of `ProfilesApp.UserProfile` (LegacyArchives), which it
  /// does not allow at `root[0]`.
  static let droppingArchives: [Int64: String] = [
    1: "Tests/Fixtures/RealArchives/swift-corelibs-foundation/NSKeyedUnarchiver-ArrayTest.plist",
    2: "Tests/Fixtures/RealArchives/swift-corelibs-foundation/NSKeyedUnarchiver-UUIDTest.plist",
    3: "LegacyArchives/ProfilesApp-1.0/profiles-list-container-not-allowed.archive",
    4: "Tests/Fixtures/RealArchives/swift-corelibs-foundation/NSKeyedUnarchiver-ComplexTest.plist",
  ]

  /// A copy of the real `SampleModel_V1.sqlite` in a new folder, with ``droppingArchives`` in
  /// `ZCAR.ZCOLOR`: `(folder, store path)`.
  static func makeDroppingStore() throws -> (folder: String, path: String) {
    var archives: [Int64: [UInt8]] = [:]
    for (primaryKey, file) in droppingArchives {
      archives[primaryKey] = try [UInt8](
        Data(contentsOf: Corpus.packageRoot.appendingPathComponent(file)))
    }
    return try makeStore(colors: archives)
  }

  /// A copy of the real `SampleModel_V1.sqlite` in a new folder, with `colors` written into
  /// `ZCAR.ZCOLOR` by `Z_PK`: `(folder, store path)`.
  static func makeStore(colors: [Int64: [UInt8]]) throws -> (folder: String, path: String) {
    let temporary = try MigrationFixtures.temporaryFolder()
    let store = temporary + "/SampleModel_V1.sqlite"
    try FileManager.default.copyItem(atPath: path("SampleModel_V1.sqlite"), toPath: store)
    let database = try SQLiteDatabase(path: store, readOnly: false)
    try database.execute("PRAGMA journal_mode=DELETE")
    let update = try database.prepare("UPDATE ZCAR SET ZCOLOR = ?1 WHERE Z_PK = ?2")
    for (primaryKey, bytes) in colors.sorted(by: { $0.key < $1.key }) {
      try update.bind(.blob(bytes), at: 1)
      try update.bind(.integer(primaryKey), at: 2)
      _ = try update.step()
      update.reset()
    }
    return (temporary, store)
  }

  /// Writes `text` as a model's `contents` in a new `NAME.xcdatamodel` folder of `folder`.
  static func writeModel(_ text: String, in folder: String, name: String = "Broken") throws
    -> String
  {
    let model = folder + "/\(name).xcdatamodel"
    try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: model + "/contents"))
    return model
  }

  /// The files of a folder, for proving a run wrote nothing beside the store.
  static func listing(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }
}
