import Decoding
import KeyedArchive
import Migration

/// The typed migration of records as a Migration ``RecordTransform``, run in decode workers.
///
/// Each slice of a batch goes to a decode worker (the harness binary
/// re-executed, as `verify` uses) in one frame, and comes back one answer per
/// record: already current when the app's own secure read succeeds on the
/// record as stored, else Decoding's verified round trip (legacy decode with
/// the map, secure re-encode, secure re-read, field-by-field comparison). App
/// code that traps in `init?(coder:)`, or hangs, costs its own record alone:
/// it is refused as `crashed` with the signal, and the rest go on in a fresh
/// worker. A refusal names the step, and says that the app's read of the
/// record fails today (it was just tried).
struct MigrateTypedTransform: RecordTransform {
  /// The workers, one per verifying thread.
  var pool: SupervisorPool
  /// Archived name → current name, for the legacy decode.
  var classMap: ClassNameMap
  /// The classes the app's secure read declares.
  var allowedClasses: [String]

  var name: String { "typed" }

  /// A slice at a time: one worker round trip per slice, not per record.
  var prefersBatches: Bool { true }

  func transform(_ input: TransformInput) -> TransformResult {
    transform(batch: [input])[0]
  }

  func transform(batch inputs: [TransformInput]) -> [TransformResult] {
    guard !inputs.isEmpty else { return [] }
    let results: [TypedMigrationResult]
    do throws(WorkerProtocolError) {
      results = try pool.withSupervisor { supervisor throws(WorkerProtocolError) in
        try supervisor.migrate(
          inputs.map(\.bytes), classMap: classMap, allowedClasses: allowedClasses)
      }
    } catch {
      // The worker machinery itself failed: refuse every record; none is touched.
      var refusal = RecordRefusal(.decode, "[worker] \(error.message)")
      refusal.currentReadFails = nil
      return Array(repeating: .refused(refusal), count: inputs.count)
    }
    return results.map(Self.transformResult)
  }

  /// The Migration form of a worker's result.
  static func transformResult(_ result: TypedMigrationResult) -> TransformResult {
    switch result {
    case .unchanged:
      return .unchanged
    case .rewritten(let bytes, let className):
      return .rewritten(
        bytes, summary: "\(className) re-encoded with secure coding, re-read and compared")
    case .refused(let refusal):
      return .refused(
        RecordRefusal(
          refusal.step, "[\(refusal.category)] \(refusal.reason)", currentReadFails: true))
    case .crashed(let crash):
      var reason = "[crashed] the app's decoding \(crash.timedOut ? "hung" : "trapped") "
      reason += "in the decode worker (\(crash))"
      var detail = crash.detail
      while detail.hasSuffix(".") || detail.hasSuffix(" ") { detail.removeLast() }
      if !detail.isEmpty { reason += ": \(detail)" }
      reason += "; the record is left as it is and the run goes on with a fresh worker"
      var refusal = RecordRefusal(.decode, reason)
      // The trap may be in the app's own read of the stored record, or only in the migration's.
      refusal.currentReadFails = nil
      return .refused(refusal)
    }
  }
}
