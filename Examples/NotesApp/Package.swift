// swift-tools-version: 6.0
//
// The Notes app, a worked example of a team adopting ArchiveHarness: its version 1 model
// (NotesV1, plain NSCoding) and version 2 model (NotesKit, NSSecureCoding), the archives
// version 1 left behind, manifests for them, a harness executable with the app's classes,
// and `swift test` with one case per manifest entry.

import PackageDescription

let strictSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

// SQLite comes from pkg-config, and apt when missing, only when the manifest is evaluated on
// Linux; a Mac's SDK has it, and Homebrew's sqlite3.pc would put Homebrew's paths first (an
// iOS simulator build would then fail to link). The module's `link "sqlite3"` links it.
#if os(Linux)
  let sqlitePkgConfig: String? = "sqlite3"
  let sqliteProviders: [SystemPackageProvider]? = [.apt(["libsqlite3-dev"])]
#else
  let sqlitePkgConfig: String? = nil
  let sqliteProviders: [SystemPackageProvider]? = nil
#endif

let package = Package(
  name: "NotesApp",
  // ArchiveHarness's own minimums (macOS 12, iOS 15): a dependent package may not go lower.
  platforms: [.macOS(.v12), .iOS(.v15)],
  dependencies: [
    // The checkout's folder name is the dependency's identity (`main`, `ArchiveHarness`, …);
    // the name makes `package: "ArchiveHarness"` below work whatever the folder is called.
    .package(name: "ArchiveHarness", path: "../..")
  ],
  targets: [
    // Version 1 of the app's model: what the archives on users' devices were written with.
    .target(name: "NotesV1", swiftSettings: strictSettings),
    // Version 2, the current release: what archives must decode into.
    .target(name: "NotesKit", swiftSettings: strictSettings),

    // The notes a test device gave the team, personal data included: written to RawArchives/
    // (never committed) and anonymized into LegacyArchives/ by scripts/record-archives.
    .target(name: "NotesSamples", dependencies: ["NotesV1"], swiftSettings: strictSettings),

    // The app's own harness: every archive-harness command, with NotesKit's classes registered.
    .executableTarget(
      name: "notes-harness",
      dependencies: [
        "NotesKit", "NotesV1", .product(name: "ArchiveHarnessCLI", package: "ArchiveHarness"),
      ],
      swiftSettings: strictSettings),

    // Writes the device's raw archives with Foundation's NSKeyedArchiver, the damaged ones from
    // anonymized archives, and SQLite stores of v1 records.
    .systemLibrary(name: "CNotesSQLite", pkgConfig: sqlitePkgConfig, providers: sqliteProviders),
    .executableTarget(
      name: "generate-legacy-archives",
      dependencies: [
        "NotesV1", "NotesKit", "NotesSamples", "CNotesSQLite",
        .product(name: "ArchiveHarness", package: "ArchiveHarness"),
      ],
      swiftSettings: strictSettings),

    // One Swift Testing case per manifest entry and the merge checks (ArchiveHarnessTesting),
    // every decode path in notes-harness, which `swift test` builds with the tests.
    .testTarget(
      name: "NotesAppTests",
      dependencies: [
        "NotesKit", "NotesV1", "NotesSamples", "CNotesSQLite",
        .product(name: "ArchiveHarnessTesting", package: "ArchiveHarness"),
      ],
      swiftSettings: strictSettings),

    // The same cases for a team whose tests use XCTest: one test method verifies every entry,
    // each finding its own failure at its manifest line (ArchiveHarnessXCTest).
    .testTarget(
      name: "NotesAppXCTests",
      dependencies: [
        "NotesKit", "NotesV1", .product(name: "ArchiveHarnessXCTest", package: "ArchiveHarness"),
      ],
      swiftSettings: strictSettings),
  ]
)
