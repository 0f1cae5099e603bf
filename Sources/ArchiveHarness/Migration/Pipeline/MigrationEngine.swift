import Dispatch
import Foundation

/// Runs a migration over a store in bounded batches, verifying on worker threads while the calling thread reads and writes.
///
/// Memory holds at most three batches (one being written, one being verified,
/// one being read), so it does not grow with the store. The calling thread
/// reads batch N+1 while the workers verify batch N, then starts N+1's
/// verification and writes N; verification of one batch is split across
/// `workerCount` threads. Without a writer it is a dry
/// run: nothing is written, and SQLite stores are opened read-only by the
/// caller. `shouldStop` is checked after each written batch, so an interrupt
/// leaves the store and the journal at a batch boundary.
///
/// `acceptedRefusals` are the refusals a store's manifest accepts: a refused
/// record whose `RecordID.acceptanceKey` one names is planned as
/// `RecordPlan.Outcome.accepted(_:_:)` when its refusal has the accepted
/// category, and as `RecordPlan.Outcome.categoryChanged(_:_:)` otherwise.
/// Neither is written. An acceptance that matched no refused record is listed in
/// `MigrationSummary.acceptedNoLongerRefused` at the end of a whole run.
///
/// ```swift
/// let engine = MigrationEngine(store: store, migrator: migrator, writer: nil)
/// let summary = try engine.run(onRecord: { plan in print(plan.outcome.name) })
/// ```
package final class MigrationEngine {
  /// The store read.
  package let store: any RecordStore
  /// The per-record decision.
  package let migrator: RecordMigrator
  /// The writer, or `nil` for a dry run.
  package let writer: (any RecordWriter)?
  /// Records per batch (and per SQLite transaction).
  package let batchSize: Int
  /// Threads that verify one batch.
  package let workerCount: Int
  /// The refusals the store's manifest accepts.
  package let acceptedRefusals: [AcceptedRefusal]
  /// The acceptances by key; the first one written wins.
  private let acceptedByKey: [String: AcceptedRefusal]

  /// The default number of verifying threads: one per active processor.
  package static var defaultWorkerCount: Int {
    max(1, ProcessInfo.processInfo.activeProcessorCount)
  }

  /// Creates an engine.
  ///
  /// - Parameters:
  ///   - store: The store to read.
  ///   - migrator: The per-record decision.
  ///   - writer: The writer, or `nil` for a dry run.
  ///   - batchSize: Records per batch (and per SQLite transaction).
  ///   - workerCount: Threads that verify one batch.
  ///   - acceptedRefusals: The refusals the store's manifest accepts, by key and category.
  package init(
    store: any RecordStore, migrator: RecordMigrator, writer: (any RecordWriter)?,
    batchSize: Int = 512, workerCount: Int = MigrationEngine.defaultWorkerCount,
    acceptedRefusals: [AcceptedRefusal] = []
  ) {
    precondition(batchSize > 0, "batchSize must be positive")
    self.store = store
    self.migrator = migrator
    self.writer = writer
    self.batchSize = batchSize
    self.workerCount = max(1, workerCount)
    self.acceptedRefusals = acceptedRefusals
    var byKey: [String: AcceptedRefusal] = [:]
    for accepted in acceptedRefusals where byKey[accepted.key] == nil {
      byKey[accepted.key] = accepted
    }
    acceptedByKey = byKey
  }

  /// Runs over the whole store.
  ///
  /// - Parameters:
  ///   - onRecord: Called on the calling thread for every record, in store order, after its batch was written.
  ///   - onProgress: Called after each batch with the number of records done.
  ///   - shouldStop: Checked after each batch; `true` ends the run there.
  /// - Returns: The counts.
  /// - Throws: `MigrationError` when the store cannot be read or written.
  package func run(
    onRecord: (RecordPlan) -> Void, onProgress: (Int) -> Void = { _ in },
    shouldStop: () -> Bool = { false }
  ) throws(MigrationError) -> MigrationSummary {
    var summary = MigrationSummary()
    var acceptance = AcceptanceTracker(acceptedByKey: acceptedByKey)
    var inFlight: BatchJob?
    var done = 0
    var finishedNormally = false
    defer {
      // A job still running on error or interrupt holds no resources but its batch.
      inFlight?.waitDiscarding()
    }
    while true {
      // Read batch N+1 while the workers verify batch N.
      let batch = try store.nextBatch(maximumCount: batchSize)
      let finished = inFlight?.wait()
      // Start verifying N+1 before writing N, so writes overlap verification.
      inFlight =
        batch.isEmpty
        ? nil
        : BatchJob(
          batch: batch, migrator: migrator, workers: workerCount, checksums: writer != nil)
      if let plans = finished {
        try commit(
          plans, summary: &summary, acceptance: &acceptance, onRecord: onRecord)
        done += plans.count
        onProgress(done)
        if shouldStop() {
          summary.interrupted = true
          break
        }
      }
      if batch.isEmpty {
        finishedNormally = true
        break
      }
    }
    try writer?.finish(interrupted: !finishedNormally)
    if finishedNormally {
      summary.acceptedNoLongerRefused = acceptance.noLongerRefused(in: acceptedRefusals)
    }
    return summary
  }

  private func commit(
    _ plans: [RecordPlan], summary: inout MigrationSummary,
    acceptance: inout AcceptanceTracker, onRecord: (RecordPlan) -> Void
  ) throws(MigrationError) {
    var plans = plans
    if !acceptedByKey.isEmpty {
      // Before any write: an accepted record is a refusal, and refusals are never written.
      for index in plans.indices {
        plans[index].outcome = acceptance.apply(to: plans[index])
      }
    }
    if let writer {
      var indices: [Int] = []
      var rewrites: [PendingRewrite] = []
      for (index, plan) in plans.enumerated() {
        guard case .willRewrite = plan.outcome, let replacement = plan.replacement,
          let original = plan.record.bytes
        else { continue }
        indices.append(index)
        rewrites.append(
          PendingRewrite(
            record: plan.record, original: original, replacement: replacement,
            checksums: plan.checksums))
      }
      if !rewrites.isEmpty {
        let results = try writer.write(rewrites)
        for (position, index) in indices.enumerated() {
          guard case .willRewrite(let summaryText) = plans[index].outcome else { continue }
          if position < results.count, let refusal = results[position] {
            plans[index].outcome = .refused(refusal)
          } else {
            plans[index].outcome = .rewritten(summary: summaryText)
          }
        }
      }
    }
    for plan in plans {
      summary.count(plan.outcome)
      if !acceptedByKey.isEmpty { acceptance.noteFinal(plan) }
      onRecord(plan)
    }
  }
}

/// Which acceptances matched a refused record, and what became of the keys that did not.
private struct AcceptanceTracker {
  let acceptedByKey: [String: AcceptedRefusal]
  /// Keys whose record was refused (accepted, or with another category).
  private var refusedKeys: Set<String> = []
  /// The first outcome of a record with an accepted key that was not refused.
  private var otherOutcomes: [String: RecordPlan.Outcome] = [:]

  init(acceptedByKey: [String: AcceptedRefusal]) {
    self.acceptedByKey = acceptedByKey
  }

  /// The plan's outcome with the store manifest's acceptance applied.
  mutating func apply(to plan: RecordPlan) -> RecordPlan.Outcome {
    guard let key = plan.record.id.acceptanceKey, let accepted = acceptedByKey[key] else {
      return plan.outcome
    }
    guard case .refused(let refusal) = plan.outcome else { return plan.outcome }
    refusedKeys.insert(key)
    return refusal.category == accepted.category
      ? .accepted(refusal, accepted) : .categoryChanged(refusal, accepted)
  }

  /// Notes a record's final outcome (after its write), for an accepted key no refusal matched.
  mutating func noteFinal(_ plan: RecordPlan) {
    guard let key = plan.record.id.acceptanceKey, acceptedByKey[key] != nil,
      otherOutcomes[key] == nil
    else { return }
    switch plan.outcome {
    case .accepted, .categoryChanged: return
    default: otherOutcomes[key] = plan.outcome
    }
  }

  /// The acceptances no refused record matched, in the order given.
  func noLongerRefused(in acceptances: [AcceptedRefusal]) -> [AcceptedRefusal.NoLongerRefused] {
    var reported: Set<String> = []
    var result: [AcceptedRefusal.NoLongerRefused] = []
    for accepted in acceptances
    where !refusedKeys.contains(accepted.key) && reported.insert(accepted.key).inserted {
      result.append(
        AcceptedRefusal.NoLongerRefused(accepted: accepted, outcome: otherOutcomes[accepted.key]))
    }
    return result
  }
}

/// One batch being verified on worker threads; ``wait()`` returns its plans in order.
private final class BatchJob: @unchecked Sendable {
  private let condition = NSCondition()
  private var slices: [[RecordPlan]?]
  private var remaining: Int

  /// Starts verifying a batch; with `checksums`, each slice also computes the journal's
  /// checksums of its rewrites, so that the commit, which writes on one thread, does not.
  init(batch: [StoreRecord], migrator: RecordMigrator, workers: Int, checksums: Bool) {
    let sliceCount = max(1, min(workers, batch.count / 16))
    slices = Array(repeating: nil, count: sliceCount)
    remaining = sliceCount
    let sliceSize = (batch.count + sliceCount - 1) / sliceCount
    for slice in 0..<sliceCount {
      let start = slice * sliceSize
      let end = min(batch.count, start + sliceSize)
      let records = start < end ? Array(batch[start..<end]) : []
      DispatchQueue.global().async { [self] in
        var plans = migrator.plan(records)
        if checksums {
          for index in plans.indices {
            guard case .willRewrite = plans[index].outcome,
              let replacement = plans[index].replacement,
              let original = plans[index].record.bytes
            else { continue }
            plans[index].checksums = RewriteChecksums(
              original: original, replacement: replacement)
          }
        }
        condition.lock()
        slices[slice] = plans
        remaining -= 1
        if remaining == 0 { condition.broadcast() }
        condition.unlock()
      }
    }
  }

  /// Blocks until every slice is done and returns the plans in batch order.
  func wait() -> [RecordPlan] {
    condition.lock()
    while remaining > 0 { condition.wait() }
    let result = slices.flatMap { $0 ?? [] }
    slices = []
    condition.unlock()
    return result
  }

  /// Blocks until the work ends and drops it.
  func waitDiscarding() {
    _ = wait()
  }
}
