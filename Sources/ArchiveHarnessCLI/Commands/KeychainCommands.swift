import ArchiveFormat
import ArchiveHarness
import ArchiveManifest

/// `archive-harness keychain check SNAPSHOT --manifest M`: a Keychain snapshot's items against
/// the new app's Keychain queries; it writes nothing.
enum KeychainCheckCommand {
  static let spec = CommandSpec(
    name: "keychain check",
    abstract: "Check a Keychain snapshot's items against a manifest's Keychain queries.",
    discussion: """
        SNAPSHOT is a Keychain snapshot (keychain export, or KeychainSnapshotExporter
        in an app's debug build or test host). MANIFEST declares the new app
        version's queries (<keychainQuery>): class, service, account or
        accountPattern, access group, and the accessibility it requires. Reported
        as errors: an item no query finds (the app would lose it: a changed
        service, account or access group), with the nearest query and what it
        differs in; an item readable more often than its query requires (always
        where afterFirstUnlock is required); an item that is not ThisDeviceOnly
        where its query requires it. A query that finds no item is a warning.
        Each finding names the item (SNAPSHOT:CLASS.SERVICE.ACCOUNT) or the
        query's line. The items' data, which holds keys and tokens, is never
        printed. The archives in the items are read by migrate-dry-run --store
        SNAPSHOT. verify runs the same check for each <keychainSnapshot> a
        manifest declares.
      """,
    arguments: [snapshot], options: [manifest, SchemaOption.option],
    exitStatus: """
        0  every item is found by a query that accepts its accessibility
        1  an item would be lost or is too accessible, or a query finds nothing
        2  the snapshot or the manifest cannot be read
      """)

  static let snapshot = Argument.single("snapshot", help: "A Keychain snapshot (JSON).")
  static let manifest = Option<String>.required(
    "manifest", valueName: "FILE", help: "The manifest with the new app's <keychainQuery>s.")

  static let command = Command(spec: spec) { arguments, context in
    let path = arguments[snapshot]
    let manifestPath = arguments[manifest]
    let schema = try SchemaOption.source(arguments[SchemaOption.option])
    let result = ManifestLoader.load(
      path: manifestPath, archivesDirectory: ".", schema: schema,
      registeredClasses: Set(context.configuration.registry.classNames))
    // The archive entries' semantic errors (a missing file) do not concern the queries; the
    // queries' own (an account and an accountPattern) do.
    let errors = result.diagnostics.filter {
      $0.severity == .error
        && ($0.category != .semantic || $0.message.hasPrefix("a Keychain query"))
    }
    ManifestDiagnosticsPrinter.print(errors, to: context.console)
    guard let loaded = result.manifest, errors.isEmpty else {
      throw CommandFailure(
        file: manifestPath, category: .invalidManifest, message: "the manifest is not usable")
    }
    guard !loaded.keychainQueries.isEmpty else {
      throw CommandFailure(
        file: manifestPath, category: .invalidManifest,
        message: "the manifest declares no <keychainQuery>")
    }
    let checked: (snapshot: KeychainSnapshot, findings: [KeychainQueryFinding])
    do throws(MigrationError) {
      checked = try KeychainQueryFinding.check(snapshotAt: path, queries: loaded.keychainQueries)
    } catch {
      throw CommandFailure(error)
    }
    let findings = checked.findings
    for finding in findings {
      context.console.diagnose(
        finding.severity, place: finding.place, category: nil, finding.message)
    }
    let errorCount = findings.filter { $0.severity == .error }.count
    context.console.output(
      "\(path): \(checked.snapshot.items.count) items, \(loaded.keychainQueries.count) queries: "
        + "\(errorCount) errors, \(findings.count - errorCount) warnings\n")
    return findings.isEmpty ? .success : .findings
  }
}

/// `archive-harness keychain export --service S … --output FILE`: the Keychain's items as a
/// snapshot, on a Mac (Security's `SecItemCopyMatching`).
enum KeychainExportCommand {
  static let spec = CommandSpec(
    name: "keychain export",
    abstract: "Write the Keychain's items of some services as a snapshot (macOS).",
    discussion: """
        Reads the items of each --service (every generic and internet password
        whose service or server it is) with their attributes and data, through
        Security's SecItemCopyMatching, and writes them as a Keychain snapshot
        to a new file: nothing that exists at the path is replaced. The macOS
        Keychain may ask to allow access to each item. An iOS app's items are
        read by the app itself: call KeychainSnapshotExporter.export from its
        debug build or test host. Available where Security is (macOS); elsewhere
        it exits 2.
      """,
    options: [services, itemClass, accessGroup, output],
    exitStatus: """
        0  the snapshot was written
        2  Security failed, the platform has no Keychain, or the file cannot be written
      """)

  static let services = Option<[String]>.repeating(
    "service", valueName: "SERVICE",
    help: "A service (or internet password's server) whose items to export (repeatable).")
  static let itemClass = Option<KeychainItemClass?>.optional(
    "class", valueName: "CLASS", help: "Only items of this class.",
    defaultDescription: "every class")
  static let accessGroup = Option<String?>.optional(
    "access-group", valueName: "GROUP", help: "Only items of this access group.")
  static let output = Option<String>.required(
    "output", valueName: "FILE", help: "The new snapshot file; it must not exist.")

  static let command = Command(spec: spec) { arguments, context in
    guard !arguments[services].isEmpty else {
      throw UsageError(message: "name the items' services with --service (repeatable)")
    }
    #if canImport(Security)
      let classes = arguments[itemClass].map { [$0] } ?? KeychainItemClass.allCases
      let count: Int
      do throws(MigrationError) {
        count = try KeychainSnapshotExporter.export(
          services: arguments[services], classes: classes, accessGroup: arguments[accessGroup],
          to: arguments[output])
      } catch {
        throw CommandFailure(error)
      }
      context.console.diagnose(
        .note, file: arguments[output], category: nil, "a snapshot of \(count) items written")
      return .success
    #else
      throw CommandFailure(
        file: arguments[output], category: .invalidOptions,
        message:
          "keychain export reads the Keychain through Security, which this platform does not have; run it on a Mac"
      )
    #endif
  }
}

extension KeychainItemClass: ArgumentValue {}

/// The options `migrate` takes for a Keychain snapshot store.
enum KeychainMigrateOptions {
  static let newSnapshot = Option<String?>.optional(
    "new-snapshot", valueName: "FILE",
    help:
      "For a Keychain snapshot store: write the migrated items to this new snapshot (the store is never changed)."
  )
  static let applyToKeychain = Flag(
    name: "apply-to-keychain",
    help:
      "For a Keychain snapshot store, on Apple platforms: update the Keychain's items in place with SecItemUpdate (the snapshot, copied under --backup, is the rollback)."
  )
}
