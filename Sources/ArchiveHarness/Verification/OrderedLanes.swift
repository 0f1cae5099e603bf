import Foundation

/// Computes results on several threads and hands them to the calling thread one at a time, in index order.
///
/// Each lane, a thread of its own, takes the next index as it finishes one.
/// The calling thread receives result 0, then 1, then 2, each as soon as it is
/// ready, and keeps only the results that finished ahead of their turn. A lane
/// starts no index more than `window` ahead of the next one handed over, so
/// however long one index takes, at most `window` results wait in memory.
final class OrderedLanes<Result: Sendable>: @unchecked Sendable {
  /// Guards every variable below; lanes and the caller wait on it.
  private let condition = NSCondition()
  private let count: Int
  private let window: Int
  /// The next index a lane takes.
  private var next = 0
  /// The next index handed to the caller.
  private var delivered = 0
  /// Results that finished and wait for their turn.
  private var finished: [Int: Result] = [:]
  /// Lanes still running.
  private var running = 0
  /// Whether the caller stopped taking results; lanes take no new index.
  private var stopped = false

  private init(count: Int, window: Int) {
    self.count = count
    self.window = window
  }

  /// The stack each lane thread gets: the usual main-thread size, for deep but bounded graphs.
  static var laneStackSize: Int { 8 << 20 }

  /// Computes `body` for `0..<count` on at most `lanes` threads and hands each result to `each`
  /// on the calling thread, in index order.
  ///
  /// With one lane, or a single index, everything runs on the calling thread.
  /// When `each` throws, no new index is started, the lanes finish the ones they
  /// hold (their results are dropped), and the error is rethrown.
  ///
  /// - Parameters:
  ///   - count: How many indices there are.
  ///   - lanes: How many threads compute at once.
  ///   - body: Computes the result of one index; called on a lane thread.
  ///   - each: Receives every result in index order, on the calling thread.
  /// - Throws: What `each` throws.
  static func run<Failure: Error>(
    _ count: Int, lanes: Int, _ body: @escaping @Sendable (Int) -> Result,
    each: (Result) throws(Failure) -> Void
  ) throws(Failure) {
    guard lanes > 1, count > 1 else {
      for index in 0..<count { try each(body(index)) }
      return
    }
    let laneCount = min(lanes, count)
    let state = OrderedLanes(count: count, window: 4 * laneCount)
    state.running = laneCount
    for _ in 0..<laneCount {
      let thread = Thread { state.work(body) }
      thread.stackSize = laneStackSize
      thread.start()
    }
    var failure: Failure? = nil
    for index in 0..<count {
      let result = state.take(index)
      do throws(Failure) {
        try each(result)
      } catch {
        failure = error
        break
      }
    }
    state.stopAndWait()
    if let failure { throw failure }
  }

  /// A lane: takes indices and computes them until none is left or the caller stopped.
  private func work(_ body: @Sendable (Int) -> Result) {
    while let index = start() {
      let result = body(index)
      condition.lock()
      finished[index] = result
      condition.broadcast()
      condition.unlock()
    }
    condition.lock()
    running -= 1
    condition.broadcast()
    condition.unlock()
  }

  /// The next index for a lane, waiting while it is a window ahead of the caller; nil when done.
  private func start() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while !stopped, next < count, next >= delivered + window {
      condition.wait()
    }
    guard !stopped, next < count else { return nil }
    defer { next += 1 }
    return next
  }

  /// The result of `index`, waiting until a lane has finished it; lanes may then go further.
  ///
  /// Index `index` is always either finished or held by a running lane: lanes
  /// take indices in order, and the window never holds back the one the
  /// caller waits for.
  private func take(_ index: Int) -> Result {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let result = finished.removeValue(forKey: index) {
        delivered = index + 1
        condition.broadcast()
        return result
      }
      condition.wait()
    }
  }

  /// Stops the lanes taking new indices and waits until every lane has returned.
  private func stopAndWait() {
    condition.lock()
    stopped = true
    condition.broadcast()
    while running > 0 {
      condition.wait()
    }
    finished.removeAll()
    condition.unlock()
  }
}
