import ArchiveCoder
import ArchiveFormat

/// Runs typed migrations somewhere the app's `init?(coder:)` cannot take the run down with it:
/// decode workers (HarnessContainment's `SupervisorPool`), one batch at a time.
///
/// ```swift
/// let transform = TypedTransform(
///   runner: pool, classMap: map, allowedClasses: ["ProfileKit.UserProfile"])
/// ```
package protocol TypedMigrationRunner: Sendable {
  /// Migrates archives, one result per archive, in order.
  ///
  /// - Parameters:
  ///   - archives: The archives' bytes.
  ///   - classMap: Archived name → current name, for the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  /// - Returns: One result per archive; an archive whose decode trapped is `TypedMigrationResult.crashed(_:)`.
  /// - Throws: `WorkerProtocolError` when the runner itself failed, and no archive was migrated.
  func migrate(_ archives: [[UInt8]], classMap: ClassNameMap, allowedClasses: [String])
    throws(WorkerProtocolError) -> [TypedMigrationResult]
}

/// The typed migration of records as a `RecordTransform`: a `TypedMigration`, run by a
/// `TypedMigrationRunner` (decode workers) or in this process.
///
/// A record is already current when the app's own secure read succeeds on
/// it as stored: the current classes, the declared `allowedClasses`, and no
/// class-name map. Otherwise the round trip runs: legacy decode with the map,
/// secure re-encode, secure re-read, field-by-field comparison. A refusal names
/// the step, and says that the app's read of the record fails today (it was
/// just tried).
///
/// With a runner (``init(runner:classMap:allowedClasses:)``), each slice of a batch
/// goes to a decode worker (the harness binary re-executed, as `verify` uses)
/// in one frame, and comes back one answer per record. App code that traps in
/// `init?(coder:)`, or hangs, costs its own record alone: it is refused as
/// `crashed` with the signal, and the rest go on in a fresh worker. In process
/// (``init(registry:classMap:allowedClasses:limits:)``), such a trap ends the
/// process.
///
/// ```swift
/// let pool = SupervisorPool(count: 2) { WorkerSupervisor(executableURL: harness) }
/// let transform = TypedTransform(
///   runner: pool,
///   classMap: ClassNameMap(entries: ["ProfilesApp.UserProfile": "ProfileKit.UserProfile"]),
///   allowedClasses: ["ProfileKit.UserProfile", "ProfileKit.Address"])
/// let plan = RecordMigrator(transform: transform).plan(record)
/// ```
package struct TypedTransform: RecordTransform {
  /// Where the app's decoders run.
  private enum Runner: Sendable {
    case workers(any TypedMigrationRunner)
    case inProcess(TypedMigration)
  }

  private let runner: Runner
  /// Archived name → current name, for the legacy decode.
  package let classMap: ClassNameMap
  /// The classes the app's secure read declares.
  package let allowedClasses: [String]

  /// A typed migration whose decoders run in decode workers.
  ///
  /// - Parameters:
  ///   - runner: The workers, such as a `SupervisorPool` with one per verifying thread.
  ///   - classMap: Archived name → current name, for the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  package init(
    runner: any TypedMigrationRunner, classMap: ClassNameMap, allowedClasses: [String]
  ) {
    self.runner = .workers(runner)
    self.classMap = classMap
    self.allowedClasses = allowedClasses
  }

  /// A typed migration whose decoders run in this process, for model code the caller trusts.
  ///
  /// - Parameters:
  ///   - registry: The app's current classes.
  ///   - classMap: Archived name → current name, for the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  ///   - limits: The bounds on reading.
  package init(
    registry: ClassRegistry, classMap: ClassNameMap, allowedClasses: [String],
    limits: ArchiveLimits = .default
  ) {
    runner = .inProcess(
      TypedMigration(
        registry: registry, classMap: classMap, allowedClasses: allowedClasses, limits: limits))
    self.classMap = classMap
    self.allowedClasses = allowedClasses
  }

  /// The transform's name in reports: `typed`.
  package var name: String { "typed" }

  /// In workers, a slice at a time: one worker round trip per slice, not per record.
  package var prefersBatches: Bool {
    if case .workers = runner { return true }
    return false
  }

  /// Leaves a record the app already reads, or rewrites it after a verified round trip.
  ///
  /// - Parameter input: The record's bytes and its parsed archive.
  /// - Returns: `TransformResult.unchanged`, the new bytes, or a refusal naming the step.
  package func transform(_ input: TransformInput) -> TransformResult {
    transform(batch: [input])[0]
  }

  /// Migrates a slice of records, one result per record, in order.
  ///
  /// - Parameter inputs: The records' bytes and parsed archives.
  /// - Returns: One result per input.
  package func transform(batch inputs: [TransformInput]) -> [TransformResult] {
    guard !inputs.isEmpty else { return [] }
    let results: [TypedMigrationResult]
    switch runner {
    case .inProcess(let migration):
      results = inputs.map { migration.migrate($0.bytes) }
    case .workers(let workers):
      do throws(WorkerProtocolError) {
        results = try workers.migrate(
          inputs.map(\.bytes), classMap: classMap, allowedClasses: allowedClasses)
      } catch {
        // The worker machinery itself failed: refuse every record; none is touched.
        var refusal = RecordRefusal(.decode, "[worker] \(error.message)")
        refusal.currentReadFails = nil
        return Array(repeating: .refused(refusal), count: inputs.count)
      }
    }
    return results.map(Self.transformResult)
  }

  /// The Migration form of a typed migration's result.
  ///
  /// - Parameter result: What the migration made of one archive.
  /// - Returns: The transform's result; a crash is a refusal at the decode step.
  package static func transformResult(_ result: TypedMigrationResult) -> TransformResult {
    switch result {
    case .unchanged:
      return .unchanged
    case .rewritten(let bytes, let className):
      return .rewritten(
        bytes, summary: "\(className) re-encoded with secure coding, re-read and compared")
    case .refused(var refusal):
      refusal.currentReadFails = true
      return .refused(refusal)
    case .crashed(let crash):
      var reason = "the app's decoding \(crash.timedOut ? "hung" : "trapped") "
      reason += "in the decode worker (\(crash))"
      var detail = crash.detail
      while detail.hasSuffix(".") || detail.hasSuffix(" ") { detail.removeLast() }
      if !detail.isEmpty { reason += ": \(detail)" }
      reason += "; the record is left as it is and the run goes on with a fresh worker"
      var refusal = RecordRefusal(.decode, reason, category: .crashed)
      // The trap may be in the app's own read of the stored record, or only in the migration's.
      refusal.currentReadFails = nil
      return .refused(refusal)
    }
  }
}
