// swift-tools-version: 6.1
//
// ArchiveHarness proves that historical NSKeyedArchiver archives still read
// through the legacy and secure decode paths, and migrates stored data only
// after a verified round trip.
//
// Targets follow the pipeline; imports point down it, never back up:
//
//   PropertyList -> KeyedArchive -> Decoding -> Verification -> HarnessCLI
//                         \-> Manifest -> ManifestXML -/    Migration -/
//                                    Verification -> ManifestAuthoring (records manifests)
//                                 \-> Anonymization (pseudonyms, privacy scan) -/
//
// Below them all: TextOutput (escaping, quoting, hex), JSONOutput, and
// HarnessVocabulary (decode paths, outcomes, categories, steps, severities).
// FileOutput, below them all too, writes every file by one rule.
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
  // `ArchiveHarness` is the library a team's code calls (it re-exports the pipeline modules);
  // `HarnessCLI` is the command line of a team's own harness executable (it re-exports
  // ArchiveHarness); `ArchiveHarnessTesting` is the `swift test` support, and
  // `ArchiveHarnessXCTest` adds XCTest's, in a module of its own so that a Swift Testing target
  // never links XCTest. Every other module is an implementation detail, reachable only through
  // these.
  products: [
    .executable(name: "archive-harness", targets: ["archive-harness"]),
    .library(name: "ArchiveHarness", targets: ["ArchiveHarness"]),
    .library(name: "HarnessCLI", targets: ["HarnessCLI"]),
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
    // Child processes started with posix_spawn and reaped with waitpid, every wait bounded:
    // the decode worker, and the commands tests run.
    .target(
      name: "HarnessChildProcesses",
      dependencies: ["_ArchiveHarnessSystem", "CHarnessWorkerProcess"],
      swiftSettings: strictSettings),

    // The system edge the other modules share: the lock type (os_unfair_lock, pthread_mutex_t).
    .target(name: "_ArchiveHarnessSystem", swiftSettings: strictSettings),
    // Every file the project writes goes through FileOutput's one rule (the Outputs article).
    .target(name: "HarnessFileOutput", swiftSettings: strictSettings),

    // The pipeline.
    .target(name: "HarnessTextOutput", swiftSettings: strictSettings),
    // SHA-256 (from CHarnessCrypto), for manifests' checksums and migration journals alike.
    .target(
      name: "HarnessChecksum", dependencies: ["CHarnessCrypto", "HarnessTextOutput"],
      swiftSettings: strictSettings),
    .target(name: "HarnessVocabulary", swiftSettings: strictSettings),
    .target(
      name: "HarnessJSONOutput", dependencies: ["HarnessTextOutput", "HarnessVocabulary"],
      swiftSettings: strictSettings),
    .target(
      name: "HarnessPropertyList",
      dependencies: ["HarnessJSONOutput", "HarnessTextOutput", "HarnessVocabulary"],
      swiftSettings: strictSettings),
    .target(
      name: "HarnessKeyedArchive",
      dependencies: [
        "HarnessPropertyList", "HarnessJSONOutput", "HarnessTextOutput", "HarnessVocabulary",
      ],
      swiftSettings: strictSettings),
    // The harness NSCoder: the class registry and class-name maps, the decoder (legacy and
    // secure paths) and the encoder, and what a decode gives.
    .target(
      name: "HarnessCoder",
      dependencies: [
        "HarnessKeyedArchive", "HarnessPropertyList", "HarnessVocabulary", "HarnessTextOutput",
        "HarnessFileOutput", "_ArchiveHarnessSystem",
      ],
      swiftSettings: strictSettings),
    // The manifest model: archives, expectations and the engine that checks them.
    .target(
      name: "HarnessManifest",
      dependencies: [
        "HarnessKeyedArchive", "HarnessPropertyList", "HarnessVocabulary", "HarnessTextOutput",
        "HarnessChecksum",
      ],
      swiftSettings: strictSettings
    ),
    // Manifests as XML: libxml2 (through CHarnessXMLBridge) parses and validates against the XSD,
    // the loader builds the model, the writer writes it back.
    .target(
      name: "HarnessManifestXML",
      dependencies: [
        "HarnessManifest", "HarnessKeyedArchive", "HarnessPropertyList", "CHarnessXMLBridge",
        "HarnessVocabulary", "HarnessTextOutput",
        "HarnessChecksum",
      ],
      swiftSettings: strictSettings
    ),
    // Writing manifests from archives: the survey, the author, registered-class matching.
    .target(
      name: "HarnessManifestAuthoring",
      dependencies: [
        "HarnessManifest", "HarnessManifestXML", "HarnessKeyedArchive", "HarnessPropertyList",
        "HarnessTextOutput", "HarnessChecksum",
        "HarnessVocabulary", "HarnessVerification",
      ],
      swiftSettings: strictSettings
    ),
    // Pseudonyms for archives fit to commit, and the privacy scan (Manifest for the
    // manifests' reviewed values).
    .target(
      name: "HarnessAnonymization",
      dependencies: [
        "HarnessKeyedArchive", "HarnessPropertyList", "HarnessManifest", "HarnessChecksum",
        "CHarnessCrypto", "HarnessJSONOutput", "HarnessTextOutput",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "HarnessVerification",
      dependencies: [
        "_ArchiveHarnessSystem",
        "HarnessCoder", "HarnessManifest", "HarnessManifestXML", "HarnessKeyedArchive",
        "HarnessPropertyList", "HarnessJSONOutput",
        "HarnessVocabulary", "HarnessTextOutput", "HarnessChecksum", "HarnessFileOutput",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "HarnessMigration",
      dependencies: [
        "HarnessChecksum", "HarnessCoder", "HarnessKeyedArchive", "HarnessPropertyList",
        "CHarnessSQLite", "CHarnessSQLCipher",
        "CHarnessCrypto", "HarnessJSONOutput", "HarnessVocabulary", "HarnessTextOutput",
        "HarnessFileOutput", "_ArchiveHarnessSystem",
      ],
      swiftSettings: strictSettings,
      // CHarnessSQLite's module links sqlite3 where it is imported; this says so for the whole target.
      linkerSettings: [.linkedLibrary("sqlite3")]
    ),
    // Where decoding runs: the decode worker (the harness executable re-executed), its fork
    // server, supervisor and frames, and the runners Verification and Migration take (in
    // workers, in process, or none).
    .target(
      name: "HarnessContainment",
      dependencies: [
        "_ArchiveHarnessSystem",
        "HarnessCoder", "HarnessVerification", "HarnessMigration", "HarnessKeyedArchive",
        "HarnessPropertyList", "HarnessVocabulary", "HarnessTextOutput", "HarnessFileOutput",
        "CHarnessWorkerProcess", "HarnessChildProcesses",
      ],
      swiftSettings: strictSettings
    ),
    // The team-facing library: the pipeline re-exported, the configuration and the worker choice.
    .target(
      name: "ArchiveHarness",
      dependencies: [
        "_ArchiveHarnessSystem",
        "HarnessPropertyList", "HarnessKeyedArchive", "HarnessCoder", "HarnessManifest",
        "HarnessManifestXML", "HarnessManifestAuthoring",
        "HarnessVerification", "HarnessMigration", "HarnessAnonymization", "HarnessJSONOutput",
        "HarnessVocabulary", "HarnessChecksum", "HarnessContainment",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "HarnessCLI",
      dependencies: [
        "ArchiveHarness", "HarnessVerification", "HarnessMigration", "HarnessCoder",
        "HarnessContainment",
        "HarnessManifest", "HarnessManifestXML",
        "HarnessManifestAuthoring", "HarnessAnonymization",
        "HarnessKeyedArchive", "HarnessPropertyList", "HarnessVocabulary", "HarnessJSONOutput",
        "HarnessChecksum", "HarnessFileOutput",
        "HarnessTextOutput",
      ],
      swiftSettings: strictSettings
    ),
    // Swift Testing support for a team's `swift test`: one case per manifest entry, the merge
    // checks, record mode (which writes manifests through FileOutput's one rule).
    .target(
      name: "ArchiveHarnessTesting",
      dependencies: ["ArchiveHarness", "HarnessFileOutput", "_ArchiveHarnessSystem"],
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
      name: "archive-harness",
      dependencies: ["HarnessCLI", "HarnessCoder"],
      swiftSettings: strictSettings
    ),
    // The repository's own harness over the sample app, as a team builds theirs: the worker of
    // this repository's tests, scripts and main job. Not a product.
    .executableTarget(
      name: "profiles-harness",
      dependencies: ["HarnessCLI", "HarnessCoder", "ProfileKit", "ProfilesApp"],
      swiftSettings: strictSettings
    ),

    // A harness over ProfileKit plus a class whose init?(coder:) traps on one record shape:
    // scripts/crash-test and the migration tests prove a typed migrate contains it.
    .executableTarget(
      name: "crash-test-harness",
      dependencies: ["HarnessCLI", "ProfileKit"],
      swiftSettings: strictSettings
    ),

    // Writes LegacyArchives/ once (scripts/make-legacy-archives).
    .executableTarget(
      name: "make-legacy-archives",
      dependencies: ["HarnessKeyedArchive", "HarnessPropertyList", "HarnessFileOutput"],
      swiftSettings: strictSettings
    ),

    // Benchmarks (run by scripts/bench, scripts/bench-reader and scripts/check-hostile-text;
    // never by the tests).
    .executableTarget(
      name: "harness-bench",
      dependencies: [
        "HarnessKeyedArchive", "HarnessPropertyList", "HarnessCoder", "HarnessMigration",
        "ProfileKit", "HarnessAnonymization", "HarnessTestSupport", "HarnessContainment",
        "HarnessVocabulary",
      ],
      swiftSettings: strictSettings
    ),

    // Builds test stores for migration tests, scripts/bench-migrate and scripts/crash-test.
    .executableTarget(
      name: "store-generator",
      dependencies: [
        "HarnessTestSupport", "HarnessManifest", "HarnessMigration", "HarnessPropertyList",
        "CHarnessSQLite", "HarnessChecksum",
        "HarnessFileOutput",
      ],
      swiftSettings: strictSettings
    ),

    // Tests.
    .target(
      name: "HarnessTestSupport",
      dependencies: [
        "_ArchiveHarnessSystem",
        "HarnessKeyedArchive", "HarnessPropertyList", "HarnessJSONOutput", "HarnessChildProcesses",
        "CHarnessWorkerProcess",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ChildProcessesTests",
      dependencies: ["_ArchiveHarnessSystem", "HarnessChildProcesses", "CHarnessWorkerProcess"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "FileOutputTests",
      dependencies: ["HarnessFileOutput"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ArchiveHarnessSystemTests", dependencies: ["_ArchiveHarnessSystem"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "TextOutputTests", dependencies: ["HarnessTextOutput"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "ChecksumTests", dependencies: ["HarnessChecksum", "HarnessTestSupport"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "JSONOutputTests", dependencies: ["HarnessJSONOutput"], swiftSettings: strictSettings),
    .testTarget(
      name: "HarnessTestSupportTests", dependencies: ["HarnessTestSupport", "HarnessJSONOutput"],
      swiftSettings: strictSettings),
    // The module map in CONTRIBUTING.md against every module's imports.
    .testTarget(name: "ArchitectureTests", swiftSettings: strictSettings),
    .testTarget(
      name: "SystemLibraryTests",
      dependencies: ["CHarnessXMLBridge", "CHarnessSQLite"],
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
      name: "HarnessCLITests",
      dependencies: [
        "HarnessCLI", "HarnessTestSupport", "HarnessChecksum", "HarnessJSONOutput", "ProfileKit",
        "ProfilesApp",
        "HarnessPropertyList", "HarnessMigration", "HarnessVerification", "HarnessChildProcesses",
        "_ArchiveHarnessSystem",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "VerificationTests",
      dependencies: [
        "HarnessContainment",
        "HarnessVerification", "HarnessCoder", "HarnessManifest", "HarnessManifestXML",
        "HarnessKeyedArchive", "ProfileKit",
        "HarnessTestSupport", "HarnessVocabulary", "HarnessJSONOutput", "HarnessTextOutput",
        "_ArchiveHarnessSystem",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "PropertyListTests",
      dependencies: ["HarnessPropertyList", "HarnessJSONOutput", "HarnessTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "MigrationTests",
      dependencies: [
        "HarnessContainment",
        "HarnessMigration", "HarnessManifest", "HarnessKeyedArchive", "HarnessPropertyList",
        "HarnessTestSupport", "CHarnessSQLite", "_ArchiveHarnessSystem",
        "HarnessChecksum", "HarnessJSONOutput", "HarnessVocabulary",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "KeyedArchiveTests",
      dependencies: ["HarnessKeyedArchive", "HarnessPropertyList", "HarnessTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "DecodingTests",
      dependencies: [
        "HarnessContainment", "HarnessMigration",
        "HarnessCoder", "HarnessKeyedArchive", "HarnessPropertyList", "ProfileKit",
        "ProfilesApp",
        "HarnessTestSupport", "HarnessVocabulary", "_ArchiveHarnessSystem",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "AnonymizationTests",
      dependencies: [
        "HarnessAnonymization", "HarnessManifest", "HarnessManifestXML", "HarnessKeyedArchive",
        "HarnessPropertyList",
        "HarnessTestSupport", "HarnessChecksum", "HarnessTextOutput",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ManifestTests",
      dependencies: [
        "_ArchiveHarnessSystem",
        "HarnessManifest", "HarnessManifestXML", "HarnessManifestAuthoring", "HarnessKeyedArchive",
        "HarnessPropertyList",
        "HarnessTestSupport", "HarnessVocabulary", "HarnessChecksum",
      ],
      swiftSettings: strictSettings
    ),
    // Issue 7's adversarial catalogue and the fuzzers' regression inputs
    // (Regressions/ holds input files, found through #filePath).
    .testTarget(
      name: "AdversarialTests",
      dependencies: [
        "_ArchiveHarnessSystem",
        "HarnessContainment",
        "HarnessKeyedArchive", "HarnessPropertyList", "HarnessJSONOutput", "HarnessTestSupport",
        "HarnessCoder",
        "ProfileKit", "HarnessManifest", "HarnessManifestXML",
      ],
      exclude: ["Regressions"],
      swiftSettings: strictSettings
    ),
  ]
)
