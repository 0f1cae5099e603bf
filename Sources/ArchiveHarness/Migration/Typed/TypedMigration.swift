import ArchiveCoder
import ArchiveFormat

/// The typed migration of one archive: already current, or the verified ``RoundTrip``.
///
/// An archive is already current when the app's own secure read succeeds on
/// it as stored: the current classes, the declared `allowedClasses`, and no
/// class-name map. Otherwise the round trip runs: legacy decode with the map,
/// secure re-encode, secure re-read, field-by-field comparison.
///
/// Both steps run the app's `init?(coder:)`, which may trap; ``migrate(_:)``
/// runs it in this process. `migrate` runs it in decode workers instead,
/// through `WorkerSupervisor/migrate(_:classMap:allowedClasses:)` (HarnessContainment),
/// where a trap costs one record, not the run.
///
/// ```swift
/// let migration = TypedMigration(
///   registry: registry, classMap: map, allowedClasses: ["ProfileKit.UserProfile"])
/// if case .rewritten(let bytes, _) = migration.migrate(archive) { write(bytes) }
/// ```
package struct TypedMigration: Sendable {
  /// The round trip that migrates an archive that is not already current; its settings are the
  /// migration's.
  package var roundTrip: RoundTrip

  /// The app's current classes.
  package var registry: ClassRegistry {
    get { roundTrip.registry }
    set { roundTrip.registry = newValue }
  }
  /// Archived name → current name, for the legacy decode.
  package var classMap: ClassNameMap {
    get { roundTrip.classMap }
    set { roundTrip.classMap = newValue }
  }
  /// The classes the app's secure read declares.
  package var allowedClasses: [String] {
    get { roundTrip.allowedClasses }
    set { roundTrip.allowedClasses = newValue }
  }
  /// The bounds on reading.
  package var limits: ArchiveLimits {
    get { roundTrip.limits }
    set { roundTrip.limits = newValue }
  }

  /// Creates a typed migration whose round trip is `roundTrip`.
  ///
  /// ```swift
  /// let trip = RoundTrip(registry: registry, classMap: map, allowedClasses: ["ProfileKit.Memo"])
  /// let migration = TypedMigration(roundTrip: trip)
  /// ```
  ///
  /// - Parameter roundTrip: The registry, map, allowed classes and limits to migrate with.
  package init(roundTrip: RoundTrip) {
    self.roundTrip = roundTrip
  }

  /// Creates a typed migration.
  ///
  /// - Parameters:
  ///   - registry: The app's current classes.
  ///   - classMap: The map applied on the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  ///   - limits: The bounds on reading.
  package init(
    registry: ClassRegistry, classMap: ClassNameMap, allowedClasses: [String],
    limits: ArchiveLimits = .default
  ) {
    self.init(
      roundTrip: RoundTrip(
        registry: registry, classMap: classMap, allowedClasses: allowedClasses, limits: limits))
  }

  /// Migrates one archive in this process; app code that traps ends the process.
  ///
  /// - Parameter bytes: The archive as stored.
  /// - Returns: Unchanged, the verified new bytes, or the refusal with its step.
  package func migrate(_ bytes: [UInt8]) -> TypedMigrationResult {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes, limits: limits)
    } catch {
      return .refused(
        RecordRefusal(.read, cause: .rejected(.malformed), error.description))
    }
    // One read of the bytes serves the app's current read and the round trip.
    let current = HarnessDecoder(registry: registry, limits: limits)
      .decode(archive, secure: true, allowedClasses: allowedClasses)
    if current.object != nil, current.outcome.decodedValue != nil {
      return .unchanged
    }
    switch roundTrip.run(archive) {
    case .success(let migrated):
      return .rewritten(migrated.bytes, className: migrated.after.className)
    case .failure(let refusal):
      return .refused(refusal)
    }
  }
}
