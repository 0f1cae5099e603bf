// swift-tools-version: 6.1
//
// ArchiveHarness proves that historical NSKeyedArchiver archives still read
// through the legacy and secure decode paths, and migrates stored data only
// after a verified round trip.
//
// Modules are cut where products and dependencies begin, one concept a module, and one
// concept a folder inside it. Imports point down this table, never up or sideways;
// ArchitectureTests holds every `import` in Sources/ against it, and every folder in Sources/
// must be on it (the C shims, CHarness*, aside: they sit below everything).
//
// module-layers:
// | 4 | `ArchiveHarnessXCTest`, `archive-harness`, `profiles-harness`, `crash-test-harness` |
// | 3 | `ArchiveHarnessCLI`, `ArchiveHarnessTesting`, `harness-bench`, `store-generator` |
// | 2 | `ArchiveHarness`, `HarnessTestSupport`, `manifest-reference` |
// | 1 | `ArchiveCoder`, `ArchiveManifest`, `make-legacy-archives` |
// | 0 | `_ArchiveHarnessSystem`, `ArchiveFormat`, `ProfilesApp`, `ProfileKit` |
// /module-layers
//
// - `_ArchiveHarnessSystem` (`package` API only): the POSIX edge: file output by one rule,
//   child processes, the lock type.
// - `ArchiveFormat`: bytes to values, never trapping: property lists, the keyed-archive graph,
//   key paths, JSON and text, SHA-256, and the vocabulary every layer above shares.
// - `ArchiveCoder`: the harness NSCoder. `ArchiveManifest`: manifests, in XML through libxml2.
// - `ArchiveHarness`: the engine a team calls (API/, Verification/, Migration/, Workers/,
//   Authoring/, Anonymization/); the only module that links SQLite and SQLCipher.
// - `ArchiveHarnessCLI`, `ArchiveHarnessTesting`, `ArchiveHarnessXCTest`: the command line and
//   the test support, each over the engine.
// - `ProfilesApp` and `ProfileKit`: the sample app under test (its versions 1 and 2), not the
//   library. `HarnessTestSupport`: what this package's tests share (`package` API only).
//
// Tools 6.1 (Xcode 16.3 on a Mac): the tests keep the error `#expect(throws:)` returns, which
// Swift 6.1 added; exit tests need Swift 6.2 and sit behind `#if compiler(>=6.2)`.

import PackageDescription

// libxml2 and SQLite come from pkg-config, and from apt when missing, only when the manifest is
// evaluated on Linux (Package.swift is evaluated on the host, so this is the host's system). On a
// Mac the SDK has both (libxml2's headers and sqlite3.h, with their .tbd files); a Mac has no
// libxml-2.0.pc of its own, and Homebrew's would put Homebrew's paths first, so that macOS builds
// against another libxml2 and an iOS simulator build fails to link. The link is explicit in
// every case: `linkedLibrary` on the targets below.
#if os(Linux)
  let libxml2PkgConfig: String? = "libxml-2.0"
  let libxml2Providers: [SystemPackageProvider]? = [.apt(["libxml2-dev"])]
  let sqlitePkgConfig: String? = "sqlite3"
  let sqliteProviders: [SystemPackageProvider]? = [.apt(["libsqlite3-dev"])]
#else
  let libxml2PkgConfig: String? = nil
  let libxml2Providers: [SystemPackageProvider]? = nil
  let sqlitePkgConfig: String? = nil
  let sqliteProviders: [SystemPackageProvider]? = nil
#endif

let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "ArchiveHarness",
  // The deployment targets app teams ship; `darwin-typecheck` checks every target at them, with
  // availability checking on. On iOS no child process can be had: decode paths run in process
  // (DecodeWorker.inProcess), the Foundation paths do not run.
  platforms: [.macOS(.v12), .iOS(.v15)],
  // What app teams depend on, each product named for the module a team imports.
  // `ArchiveHarness` is the library a team's code calls (its curated API, with the public types of
  // the modules below it); `ArchiveHarnessCLI` is the command line of a team's own harness
  // executable (it re-exports
  // ArchiveHarness); `ArchiveHarnessTesting` is the `swift test` support, and
  // `ArchiveHarnessXCTest` adds XCTest's, in a module of its own so that a Swift Testing target
  // never links XCTest. Every other module is an implementation detail, reachable only through
  // these.
  products: [
    .executable(name: "archive-harness", targets: ["archive-harness"]),
    .library(name: "ArchiveHarness", targets: ["ArchiveHarness"]),
    .library(name: "ArchiveHarnessCLI", targets: ["ArchiveHarnessCLI"]),
    .library(name: "ArchiveHarnessTesting", targets: ["ArchiveHarnessTesting"]),
    .library(name: "ArchiveHarnessXCTest", targets: ["ArchiveHarnessXCTest"]),
  ],
  targets: [
    // C libraries, through system-library targets with a small shim each.
    // libxml2 is found through pkg-config on Linux by CHarnessLibXML2, which exposes no header to
    // Swift: Debian's libxml2 headers include ICU's, which clash with Foundation's own ICU module
    // in any Swift module that sees both. Swift reaches libxml2 only through CHarnessXMLBridge, a C
    // target whose header includes nothing of libxml2. Its C file includes `<libxml/…>`, which
    // the SDK resolves on Apple platforms (it has `usr/include/libxml` since Xcode 11.4); a C
    // target does not import CHarnessLibXML2's module, so the module's `link` never reaches the
    // linker and CHarnessXMLBridge names libxml2 itself.
    .systemLibrary(
      name: "CHarnessLibXML2", pkgConfig: libxml2PkgConfig, providers: libxml2Providers),
    .target(
      name: "CHarnessXMLBridge", dependencies: ["CHarnessLibXML2"],
      linkerSettings: [.linkedLibrary("xml2")]),
    .systemLibrary(name: "CHarnessSQLite", pkgConfig: sqlitePkgConfig, providers: sqliteProviders),
    // The one interface to cryptography (digests, HMAC, PBKDF2, AES-256-CBC, random bytes):
    // OpenSSL's libcrypto on Linux (Debian's libssl-dev), CommonCrypto on Darwin. Its header
    // includes neither, so no OpenSSL name reaches Swift.
    .target(
      name: "CHarnessCrypto",
      linkerSettings: [.linkedLibrary("crypto", .when(platforms: [.linux]))]),
    // SQLCipher's page format and a SQLite VFS that applies it over the system's libsqlite3.
    .target(
      name: "CHarnessSQLCipher", dependencies: ["CHarnessCrypto", "CHarnessSQLite"],
      linkerSettings: [.linkedLibrary("sqlite3")]),

    // What the decode worker's fork server needs from C on Linux (fork, the parent-death
    // signal, wait statuses, passing a socket): static inline functions in one header.
    .target(name: "CHarnessWorkerProcess"),
    // The system edge, `package` API only: every file written by one rule (FileOutput) and read
    // by one rule (FileInput), child processes started with posix_spawn and reaped with every
    // wait bounded (ChildProcesses), the lock type and time spans (Concurrency). The one home of
    // the C library shims for processes.
    .target(
      name: "_ArchiveHarnessSystem", dependencies: ["CHarnessWorkerProcess"],
      swiftSettings: strictSettings),
    // Bytes to values, never trapping, in pure Swift: the vocabulary (decode paths, outcomes,
    // categories, steps, severities, places), text and JSON writers and the JSON reader,
    // property lists, the keyed-archive graph and key paths, and SHA-256. The fuzz targets link
    // only this (and CHarnessCrypto, its digests).
    .target(
      name: "ArchiveFormat", dependencies: ["CHarnessCrypto"], swiftSettings: strictSettings),
    // The harness NSCoder: the class registry and class-name maps, the decoder (legacy and
    // secure paths) and the encoder, the platform stand-ins, what a decode gives, and the
    // conservation comparison of an archive with its decode.
    .target(
      name: "ArchiveCoder", dependencies: ["ArchiveFormat", "_ArchiveHarnessSystem"],
      swiftSettings: strictSettings),
    // Manifests: the model and its expectations (Model/), and XML through libxml2, by
    // CHarnessXMLBridge (XML/): parsed and validated against the XSD, loaded, written back.
    .target(
      name: "ArchiveManifest", dependencies: ["ArchiveFormat", "CHarnessXMLBridge"],
      swiftSettings: strictSettings),
    // The engine, one concept a folder: API/ (what a team calls), Verification/, Migration/
    // (stores, survey, the pipeline, typed migration, writing, journal and rollback, reports),
    // Workers/ (where decoding runs), Authoring/, Anonymization/. The only module that links
    // SQLite and SQLCipher.
    .target(
      name: "ArchiveHarness",
      dependencies: [
        "ArchiveFormat", "ArchiveCoder", "ArchiveManifest", "_ArchiveHarnessSystem",
        "CHarnessSQLite", "CHarnessSQLCipher", "CHarnessCrypto", "CHarnessWorkerProcess",
      ],
      swiftSettings: strictSettings,
      // CHarnessSQLite's module links sqlite3 where it is imported; this says so for the target.
      linkerSettings: [.linkedLibrary("sqlite3")]),
    // The command line: arguments, help, exit statuses; each command is a call into the engine.
    .target(
      name: "ArchiveHarnessCLI",
      dependencies: [
        "ArchiveHarness", "ArchiveFormat", "ArchiveCoder", "ArchiveManifest",
        "_ArchiveHarnessSystem",
      ],
      swiftSettings: strictSettings),
    // Swift Testing support for a team's `swift test`: one case per manifest entry, the merge
    // checks, record mode (which writes manifests through FileOutput's one rule).
    .target(
      name: "ArchiveHarnessTesting",
      dependencies: ["ArchiveHarness", "_ArchiveHarnessSystem"],
      swiftSettings: strictSettings
    ),
    // XCTest support: every manifest entry in one test method, each finding its own failure at
    // its manifest line. Over ArchiveHarnessTesting's project, cases and record mode.
    .target(
      name: "ArchiveHarnessXCTest",
      dependencies: ["ArchiveHarnessTesting"],
      swiftSettings: strictSettings
    ),

    // The worked example: v1 (NSCoding) and v2 (NSSecureCoding) of a sample app.
    .target(name: "ProfilesApp", swiftSettings: strictSettings),
    .target(name: "ProfileKit", swiftSettings: strictSettings),

    // The archive-harness teams install: no app's classes, the platform stand-ins only.
    .executableTarget(
      name: "archive-harness", dependencies: ["ArchiveHarnessCLI"],
      swiftSettings: strictSettings),
    // The repository's own harness over the sample app, as a team builds theirs: the worker of
    // this repository's tests, scripts and main job. Not a product.
    .executableTarget(
      name: "profiles-harness",
      dependencies: ["ArchiveHarnessCLI", "ProfileKit", "ProfilesApp"],
      swiftSettings: strictSettings),
    // A harness over ProfileKit plus a class whose init?(coder:) traps on one record shape:
    // scripts/crash-test and the migration tests prove a typed migrate contains it.
    .executableTarget(
      name: "crash-test-harness", dependencies: ["ArchiveHarnessCLI", "ProfileKit"],
      swiftSettings: strictSettings),

    // Maintainers' tools, not products.
    // Writes LegacyArchives/ once (scripts/make-legacy-archives).
    .executableTarget(
      name: "make-legacy-archives", dependencies: ["ArchiveFormat", "_ArchiveHarnessSystem"],
      swiftSettings: strictSettings),
    // Writes docs/ManifestFormat.md from the XSD's annotations (scripts/manifest-reference).
    .executableTarget(
      name: "manifest-reference",
      dependencies: ["ArchiveManifest", "ArchiveFormat", "_ArchiveHarnessSystem"],
      swiftSettings: strictSettings),
    // Benchmarks (run by scripts/bench, scripts/bench-reader and scripts/check-hostile-text;
    // never by the tests).
    .executableTarget(
      name: "harness-bench",
      dependencies: [
        "ArchiveHarness", "ArchiveFormat", "ArchiveCoder", "ProfileKit", "HarnessTestSupport",
      ],
      swiftSettings: strictSettings),
    // Builds test stores for migration tests, scripts/bench-migrate and scripts/crash-test.
    .executableTarget(
      name: "store-generator",
      dependencies: [
        "ArchiveHarness", "ArchiveFormat", "ArchiveManifest", "_ArchiveHarnessSystem",
        "HarnessTestSupport", "CHarnessSQLite",
      ],
      swiftSettings: strictSettings),

    // Tests, and what they share (`package` API only).
    .target(
      name: "HarnessTestSupport",
      dependencies: [
        "_ArchiveHarnessSystem", "ArchiveFormat", "ArchiveManifest", "CHarnessWorkerProcess",
      ],
      swiftSettings: strictSettings
    ),
    // One test target per library module, each with its module's concepts as folders (the
    // test targets these were before: ChildProcesses/, FileOutput/, PropertyList/, Decoding/…).
    .testTarget(
      name: "ArchiveHarnessSystemTests",
      dependencies: ["_ArchiveHarnessSystem", "CHarnessWorkerProcess"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "ArchiveFormatTests", dependencies: ["ArchiveFormat", "HarnessTestSupport"],
      swiftSettings: strictSettings),
    // The harness coder alone; where a decode needs a worker, its test is ArchiveHarnessTests'.
    .testTarget(
      name: "ArchiveCoderTests",
      dependencies: [
        "ArchiveCoder", "ArchiveFormat", "_ArchiveHarnessSystem", "HarnessTestSupport",
        "ProfileKit", "ProfilesApp",
      ],
      swiftSettings: strictSettings),
    // Manifests alone; authoring them is the engine's, and its tests ArchiveHarnessTests'.
    .testTarget(
      name: "ArchiveManifestTests",
      dependencies: [
        "ArchiveManifest", "ArchiveFormat", "_ArchiveHarnessSystem", "HarnessTestSupport",
      ],
      swiftSettings: strictSettings),
    // The engine: Verification/, Migration/, Anonymization/, Decoding/ (in workers), Manifest/
    // (authoring), and Adversarial/, issue 7's catalogue, with the fuzzers' regression inputs
    // (Adversarial/Regressions/ holds input files, found through #filePath).
    .testTarget(
      name: "ArchiveHarnessTests",
      dependencies: [
        "ArchiveHarness", "ArchiveCoder", "ArchiveManifest", "ArchiveFormat",
        "_ArchiveHarnessSystem", "HarnessTestSupport", "ProfileKit", "CHarnessSQLite",
      ],
      exclude: ["Adversarial/Regressions"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "ArchiveHarnessCLITests",
      dependencies: [
        "ArchiveHarnessCLI", "ArchiveHarness", "ArchiveFormat", "_ArchiveHarnessSystem",
        "HarnessTestSupport", "ProfileKit", "ProfilesApp",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ArchiveHarnessTestingTests",
      dependencies: [
        "ArchiveHarnessTesting", "ArchiveHarness", "ProfileKit", "ProfilesApp",
        "HarnessTestSupport",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ArchiveHarnessXCTestTests",
      dependencies: ["ArchiveHarnessXCTest", "ProfileKit", "ProfilesApp", "HarnessTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HarnessTestSupportTests", dependencies: ["HarnessTestSupport", "ArchiveFormat"],
      swiftSettings: strictSettings),
    // The layer table in this file's header against every module's imports.
    .testTarget(name: "ArchitectureTests", swiftSettings: strictSettings),
    .testTarget(
      name: "SystemLibraryTests",
      dependencies: ["CHarnessXMLBridge", "CHarnessSQLite"],
      swiftSettings: strictSettings
    ),
    // The maintainers' reference generator, and docs/ManifestFormat.md against it.
    .testTarget(
      name: "ManifestReferenceTests", dependencies: ["manifest-reference", "ArchiveManifest"],
      swiftSettings: strictSettings),
  ]
)
