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
  // Mutex (Synchronization) and String(validating:as:) need macOS 15 and iOS 18; Linux has
  // them with the toolchain. On iOS no child process can be had: decode paths run in process
  // (DecodeWorker.inProcess), the Foundation paths do not run.
  platforms: [.macOS(.v15), .iOS(.v18)],
  // What app teams depend on. `ArchiveHarness` is the library a team's code calls (module
  // ArchiveHarness re-exports the pipeline modules) and holds the command line (module
  // HarnessCLI) for a team's own harness executable. `ArchiveHarnessTesting` is the Swift Testing
  // support. Every other module is an implementation detail, reachable only through these.
  products: [
    .executable(name: "archive-harness", targets: ["archive-harness"]),
    .library(name: "ArchiveHarness", targets: ["ArchiveHarness", "HarnessCLI"]),
    .library(name: "ArchiveHarnessTesting", targets: ["ArchiveHarnessTesting"]),
  ],
  targets: [
    // C libraries, through system-library targets with a small shim each.
    // libxml2 is found through pkg-config on Linux by CLibXML2, which exposes no header to
    // Swift: Debian's libxml2 headers include ICU's, which clash with Foundation's own ICU module
    // in any Swift module that sees both. Swift reaches libxml2 only through CXMLBridge, a C
    // target whose header includes nothing of libxml2. Its C file includes `<libxml/…>`, which
    // the SDK resolves on Apple platforms (it has `usr/include/libxml` since Xcode 11.4); a C
    // target does not import CLibXML2's module, so the module's `link` never reaches the
    // linker and CXMLBridge names libxml2 itself.
    .systemLibrary(
      name: "CLibXML2", pkgConfig: libxml2PkgConfig, providers: libxml2Providers),
    .target(
      name: "CXMLBridge", dependencies: ["CLibXML2"],
      linkerSettings: [.linkedLibrary("xml2")]),
    .systemLibrary(name: "CSQLite", pkgConfig: sqlitePkgConfig, providers: sqliteProviders),
    // The one interface to cryptography (digests, HMAC, PBKDF2, AES-256-CBC, random bytes):
    // OpenSSL's libcrypto on Linux (Debian's libssl-dev), CommonCrypto on Darwin. Its header
    // includes neither, so no OpenSSL name reaches Swift.
    .target(
      name: "CCrypto",
      linkerSettings: [.linkedLibrary("crypto", .when(platforms: [.linux]))]),
    // SQLCipher's page format and a SQLite VFS that applies it over the system's libsqlite3.
    .target(
      name: "CSQLCipher", dependencies: ["CCrypto", "CSQLite"],
      linkerSettings: [.linkedLibrary("sqlite3")]),

    // What the decode worker's fork server needs from C on Linux (fork, the parent-death
    // signal, wait statuses, passing a socket): static inline functions in one header.
    .target(name: "CWorkerProcess"),
    // Child processes started with posix_spawn and reaped with waitpid, every wait bounded:
    // the decode worker, and the commands tests run.
    .target(
      name: "ChildProcesses", dependencies: ["CWorkerProcess"], swiftSettings: strictSettings),

    // Every file the project writes goes through FileOutput's one rule (README, "Outputs").
    .target(name: "FileOutput", swiftSettings: strictSettings),

    // The pipeline.
    .target(name: "TextOutput", swiftSettings: strictSettings),
    // SHA-256 (from CCrypto), for manifests' checksums and migration journals alike.
    .target(
      name: "Checksum", dependencies: ["CCrypto", "TextOutput"], swiftSettings: strictSettings),
    .target(name: "HarnessVocabulary", swiftSettings: strictSettings),
    .target(name: "JSONOutput", dependencies: ["TextOutput"], swiftSettings: strictSettings),
    .target(
      name: "PropertyList", dependencies: ["JSONOutput", "TextOutput"],
      swiftSettings: strictSettings),
    .target(
      name: "KeyedArchive",
      dependencies: ["PropertyList", "JSONOutput", "TextOutput", "HarnessVocabulary"],
      swiftSettings: strictSettings),
    .target(
      name: "Decoding",
      dependencies: [
        "KeyedArchive", "PropertyList", "HarnessVocabulary", "TextOutput", "FileOutput",
        "CWorkerProcess", "ChildProcesses",
      ],
      swiftSettings: strictSettings),
    // The manifest model: archives, expectations and the engine that checks them.
    .target(
      name: "Manifest",
      dependencies: [
        "KeyedArchive", "PropertyList", "HarnessVocabulary", "TextOutput", "Checksum",
      ],
      swiftSettings: strictSettings
    ),
    // Manifests as XML: libxml2 (through CXMLBridge) parses and validates against the XSD,
    // the loader builds the model, the writer writes it back.
    .target(
      name: "ManifestXML",
      dependencies: [
        "Manifest", "KeyedArchive", "PropertyList", "CXMLBridge", "HarnessVocabulary", "TextOutput",
        "Checksum",
      ],
      swiftSettings: strictSettings
    ),
    // Writing manifests from archives: the survey, the author, registered-class matching.
    .target(
      name: "ManifestAuthoring",
      dependencies: [
        "Manifest", "ManifestXML", "KeyedArchive", "PropertyList", "TextOutput", "Checksum",
        "HarnessVocabulary", "Verification",
      ],
      swiftSettings: strictSettings
    ),
    // Pseudonyms for archives fit to commit, and the privacy scan (Manifest for the
    // manifests' reviewed values).
    .target(
      name: "Anonymization",
      dependencies: [
        "KeyedArchive", "PropertyList", "Manifest", "Checksum", "CCrypto", "JSONOutput",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "Verification",
      dependencies: [
        "Decoding", "Manifest", "ManifestXML", "KeyedArchive", "PropertyList", "JSONOutput",
        "HarnessVocabulary", "TextOutput", "Checksum", "FileOutput",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "Migration",
      dependencies: [
        "Checksum", "Decoding", "KeyedArchive", "PropertyList", "CSQLite", "CSQLCipher",
        "CCrypto", "JSONOutput", "HarnessVocabulary", "TextOutput", "FileOutput",
      ],
      swiftSettings: strictSettings,
      // CSQLite's module links sqlite3 where it is imported; this says so for the whole target.
      linkerSettings: [.linkedLibrary("sqlite3")]
    ),
    // The team-facing library: the pipeline re-exported, the configuration and the worker choice.
    .target(
      name: "ArchiveHarness",
      dependencies: [
        "PropertyList", "KeyedArchive", "Decoding", "Manifest", "ManifestXML", "ManifestAuthoring",
        "Verification", "Migration", "Anonymization", "JSONOutput", "HarnessVocabulary", "Checksum",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "HarnessCLI",
      dependencies: [
        "ArchiveHarness", "Verification", "Migration", "Decoding", "Manifest", "ManifestXML",
        "ManifestAuthoring", "Anonymization",
        "KeyedArchive", "PropertyList", "HarnessVocabulary", "JSONOutput", "Checksum", "FileOutput",
        "TextOutput",
      ],
      swiftSettings: strictSettings
    ),
    // Swift Testing support for a team's `swift test`: one case per manifest entry, the merge checks.
    .target(
      name: "ArchiveHarnessTesting",
      dependencies: ["ArchiveHarness"],
      swiftSettings: strictSettings
    ),

    // The worked example: v1 (NSCoding) and v2 (NSSecureCoding) of a sample app.
    .target(name: "ProfilesApp", swiftSettings: strictSettings),
    .target(name: "ProfileKit", swiftSettings: strictSettings),

    .executableTarget(
      name: "archive-harness",
      dependencies: ["HarnessCLI", "Decoding", "ProfileKit", "ProfilesApp"],
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
      dependencies: ["KeyedArchive", "PropertyList", "FileOutput"],
      swiftSettings: strictSettings
    ),

    // Benchmarks (run by scripts/bench, scripts/bench-reader and scripts/check-hostile-text;
    // never by the tests).
    .executableTarget(
      name: "harness-bench",
      dependencies: [
        "KeyedArchive", "PropertyList", "Decoding", "ProfileKit", "Anonymization",
        "HarnessTestSupport",
      ],
      swiftSettings: strictSettings
    ),

    // Builds test stores for migration tests, scripts/bench-migrate and scripts/crash-test.
    .executableTarget(
      name: "store-generator",
      dependencies: [
        "HarnessTestSupport", "Manifest", "Migration", "PropertyList", "CSQLite", "Checksum",
        "FileOutput",
      ],
      swiftSettings: strictSettings
    ),

    // Tests.
    .target(
      name: "HarnessTestSupport",
      dependencies: [
        "KeyedArchive", "PropertyList", "JSONOutput", "ChildProcesses", "CWorkerProcess",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ChildProcessesTests", dependencies: ["ChildProcesses", "CWorkerProcess"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "FileOutputTests",
      dependencies: ["FileOutput"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "TextOutputTests", dependencies: ["TextOutput"], swiftSettings: strictSettings),
    .testTarget(
      name: "HarnessTestSupportTests", dependencies: ["HarnessTestSupport", "JSONOutput"],
      swiftSettings: strictSettings),
    // README's module map against every module's imports.
    .testTarget(name: "ArchitectureTests", swiftSettings: strictSettings),
    .testTarget(
      name: "SystemLibraryTests",
      dependencies: ["CXMLBridge", "CSQLite"],
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
      name: "HarnessCLITests",
      dependencies: [
        "HarnessCLI", "HarnessTestSupport", "Checksum", "JSONOutput", "ProfileKit", "ProfilesApp",
        "PropertyList",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "VerificationTests",
      dependencies: [
        "Verification", "Decoding", "Manifest", "ManifestXML", "KeyedArchive", "ProfileKit",
        "HarnessTestSupport", "HarnessVocabulary", "JSONOutput", "TextOutput",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "PropertyListTests",
      dependencies: ["PropertyList", "JSONOutput", "HarnessTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "MigrationTests",
      dependencies: [
        "Migration", "Manifest", "KeyedArchive", "PropertyList", "HarnessTestSupport", "CSQLite",
        "Checksum", "JSONOutput", "HarnessVocabulary",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "KeyedArchiveTests",
      dependencies: ["KeyedArchive", "PropertyList", "HarnessTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "DecodingTests",
      dependencies: [
        "Decoding", "KeyedArchive", "PropertyList", "ProfileKit", "ProfilesApp",
        "HarnessTestSupport", "HarnessVocabulary",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "AnonymizationTests",
      dependencies: [
        "Anonymization", "Manifest", "ManifestXML", "KeyedArchive", "PropertyList",
        "HarnessTestSupport", "Checksum", "TextOutput",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ManifestTests",
      dependencies: [
        "Manifest", "ManifestXML", "ManifestAuthoring", "KeyedArchive", "PropertyList",
        "HarnessTestSupport", "HarnessVocabulary", "Checksum",
      ],
      swiftSettings: strictSettings
    ),
    // Issue 7's adversarial catalogue and the fuzzers' regression inputs
    // (Regressions/ holds input files, found through #filePath).
    .testTarget(
      name: "AdversarialTests",
      dependencies: [
        "KeyedArchive", "PropertyList", "JSONOutput", "HarnessTestSupport", "Decoding",
        "ProfileKit", "Manifest", "ManifestXML",
      ],
      exclude: ["Regressions"],
      swiftSettings: strictSettings
    ),
  ]
)
