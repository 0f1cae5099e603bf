import ArchiveCoder
import Foundation

/// A fixed set of supervisors, one per thread that decodes at a time, each with its own worker.
///
/// `migrate` verifies a batch on several threads; each thread borrows a
/// supervisor for its slice, so slices run in parallel worker processes.
/// Workers start on first use and stop when the pool is released.
///
/// ```swift
/// let pool = SupervisorPool(count: 2) { WorkerSupervisor(executableURL: url) }
/// let results = try pool.withSupervisor { try $0.migrate(archives, classMap: map, allowedClasses: allowed) }
/// ```
package final class SupervisorPool: @unchecked Sendable {
  private let condition = NSCondition()
  private var idle: [WorkerSupervisor]
  private let all: [WorkerSupervisor]

  /// Creates a pool of `count` supervisors (at least one).
  ///
  /// - Parameters:
  ///   - count: How many may be used at once.
  ///   - make: Makes one supervisor.
  package init(count: Int, make: () -> WorkerSupervisor) {
    all = (0..<max(1, count)).map { _ in make() }
    idle = all
  }

  /// How many worker processes the pool's supervisors have started, in all.
  package var workersStarted: Int { all.reduce(0) { $0 + $1.workersStarted } }

  /// How many processes the pool's supervisors have launched, in all (forked workers aside).
  package var workerLaunches: Int { all.reduce(0) { $0 + $1.workerLaunches } }

  /// Runs `body` with a supervisor no other thread uses meanwhile, waiting for one if needed.
  ///
  /// - Parameter body: The work; it must not keep the supervisor.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  package func withSupervisor<Result, Failure: Error>(
    _ body: (WorkerSupervisor) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    condition.lock()
    while idle.isEmpty { condition.wait() }
    let supervisor = idle.removeLast()
    condition.unlock()
    defer {
      condition.lock()
      idle.append(supervisor)
      condition.signal()
      condition.unlock()
    }
    return try body(supervisor)
  }
}
