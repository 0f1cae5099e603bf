import ArchiveCoder
import ArchiveFormat
import Foundation
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs archives through decode workers in child processes and turns a dying worker into a
/// `DecodeOutcome.crashed(_:)` outcome for that archive, then goes on with a fresh worker.
///
/// The worker is the `archive-harness` binary (or any executable that calls
/// `HarnessWorker.run(registries:)` for ``arguments``). Requests
/// are answered one at a time; an archive that takes longer than ``timeout`` has its worker
/// killed and is recorded as crashed with ``CrashReport/timedOut`` set. Each worker also runs
/// under ``memoryLimit`` of address space (Linux); a path whose worker dies of running out of
/// it is `limit-exceeded`, naming the limit, not crashed.
///
/// On Linux the launched worker serves forks (``forkServer``): past its handshake it decodes
/// nothing itself, but forks a child for the supervisor to decode in, and a fresh child when
/// one dies, so that a crash costs a `fork` rather than an `exec`, dynamic loading and
/// Foundation's start. A child's death is reported as a launched worker's is (crashed with its
/// signal, or timed out), and children die with their server, which ends with the supervisor.
/// Where the server runs more than one thread or cannot fork, it decodes itself, as every
/// worker does with ``forkServer`` off and on other systems.
///
/// When a launched worker dies, the next one is launched at once, so that its start-up
/// overlaps the recording of the crash; it is counted in ``workersStarted`` once a request
/// uses it.
///
/// A worker is used only after it answers the handshake: its first frame names it a decode
/// worker and lists its registries. An executable that exits, hangs or writes anything else
/// first (a test runner re-executed, a program without the worker mode) is
/// `WorkerProtocolError.Kind.unavailable`, never a crash, and the supervisor remembers that
/// and starts no further worker. A handshaken worker that exits with a status mid-request
/// (rather than dying from a signal) is a `WorkerProtocolError.Kind.protocolViolation`.
///
/// ```swift
/// let supervisor = WorkerSupervisor(executableURL: harnessURL)
/// let outcome = try supervisor.decode(bytes, path: .foundationSecure,
///                                     allowedClasses: ["ProfileKit.Memo"])
/// ```
///
/// The supervisor ignores `SIGPIPE` process-wide, so that writing to a dead worker is an error
/// rather than the end of the supervising process.
package final class WorkerSupervisor: @unchecked Sendable {
  /// The worker executable.
  package let executableURL: URL
  /// The arguments that select worker mode.
  package let arguments: [String]
  /// The registry requests name.
  package let registryName: String
  /// The longest one archive may take, including starting a worker for it.
  package let timeout: TimeSpan
  /// Whether the launched worker is asked to fork the workers that decode (Linux only).
  package let forkServer: Bool
  /// The address space each worker may use (Linux), passed to it in
  /// `WorkerMemoryLimit.variable`.
  package let memoryLimit: WorkerMemoryLimit

  /// Whether this system can run fork servers: Linux.
  package static var forkServerSupported: Bool {
    #if os(Linux)
      true
    #else
      false
    #endif
  }

  /// Held by every entry point for its whole run, over the mutable state below; one request
  /// at a time.
  private let lock = Locked(())
  /// The worker requests go to: a forked child, or a launched worker serving itself.
  private var worker: (any WorkerHandle)?
  /// The launched worker that forks ``worker``, when it serves forks.
  private var server: WorkerProcess?
  /// A worker launched when the last one died, so that its start-up runs while this process
  /// records the crash; it is handshaken (and counted) only when a request needs it.
  private var spare: WorkerProcess?
  private var nextRequestID = 1
  private var startedWorkers = 0
  private var launches = 0
  /// Whether a forked worker just ended without its server saying how (the server ended too).
  private var lostServer = false
  private var unavailable: WorkerProtocolError?

  /// Creates a supervisor; no worker starts until the first archive.
  ///
  /// - Parameters:
  ///   - executableURL: The worker executable, such as the running `archive-harness` binary.
  ///   - arguments: The arguments that select worker mode.
  ///   - registryName: The worker registry to decode with.
  ///   - timeout: The longest one archive may take.
  ///   - forkServer: Whether the launched worker forks the workers that decode, so that a
  ///     crash costs a `fork` rather than a launch; on by default where
  ///     ``forkServerSupported``, and ignored elsewhere.
  ///   - memoryLimit: The address space each worker may use; what
  ///     `ARCHIVE_HARNESS_WORKER_MEMORY_MIB` says, or 1 GiB, by default.
  ///
  /// ```swift
  /// let supervisor = WorkerSupervisor(executableURL: harnessURL, forkServer: false)
  /// ```
  package init(
    executableURL: URL, arguments: [String] = [HarnessWorker.modeArgument],
    registryName: String = HarnessWorker.defaultRegistryName,
    timeout: TimeSpan = .seconds(20), forkServer: Bool = WorkerSupervisor.forkServerSupported,
    memoryLimit: WorkerMemoryLimit = .fromEnvironment
  ) {
    self.executableURL = executableURL
    self.arguments = arguments
    self.registryName = registryName
    self.timeout = timeout
    self.forkServer = forkServer && Self.forkServerSupported
    self.memoryLimit = memoryLimit
    signal(SIGPIPE, SIG_IGN)
  }

  deinit {
    worker?.stop()
    server?.stop()
    spare?.stop()
  }

  /// How many decode workers this supervisor has started: forked children, and launched
  /// processes that decode themselves (or that never answered the handshake).
  package var workersStarted: Int {
    lock.withLock { _ in startedWorkers }
  }

  /// How many processes this supervisor has launched (each an `exec` and a handshake); with
  /// a fork server, a crash forks a fresh worker and launches nothing.
  ///
  /// ```swift
  /// _ = try supervisor.decode(cyclic, path: .foundationLegacy)  // crashed (SIGSEGV)
  /// _ = try supervisor.decode(memo, path: .foundationLegacy)
  /// print(supervisor.workersStarted, supervisor.workerLaunches)  // 2 1
  /// ```
  package var workerLaunches: Int {
    lock.withLock { _ in launches }
  }

  /// The process ID of the running fork server, if there is one.
  package var forkServerProcessIdentifier: Int32? {
    lock.withLock { _ in
      guard let server, server.isRunning else { return nil }
      return server.processIdentifier
    }
  }

  /// The process ID of the current forked worker, if there is one.
  package var forkedWorkerProcessIdentifier: Int32? {
    lock.withLock { _ in (worker as? ForkedWorker)?.processIdentifier }
  }

  /// The process ID of the current launched worker that decodes itself (no fork server), if
  /// there is one.
  package var launchedWorkerProcessIdentifier: Int32? {
    lock.withLock { _ in (worker as? WorkerProcess)?.processIdentifier }
  }

  /// Decodes one archive on one path in a worker.
  ///
  /// - Parameters:
  ///   - archive: The archive's bytes.
  ///   - path: The path; Foundation paths run `NSKeyedUnarchiver`, harness paths the harness
  ///     coder, when the worker has one.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - guardsUnmappedClasses: Whether unmatched archived names reach Foundation as a failing
  ///     placeholder (`true`) or are left for Foundation to look up (`false`).
  ///   - variant: How a Foundation path calls the unarchiver.
  ///   - topKeys: The `$top` keys the app reads, in order.
  /// - Returns: The outcome; `DecodeOutcome.crashed(_:)` when the worker died or timed out.
  /// - Throws: `WorkerProtocolError` when a worker cannot be started or answers nonsense.
  package func decode(
    _ archive: [UInt8], path: DecodePath, allowedClasses: [String] = [],
    classMap: ClassNameMap = .empty, guardsUnmappedClasses: Bool = true,
    variant: FoundationReferenceVariant = .standard, topKeys: [String] = ["root"]
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    try decodeWithNotes(
      archive, path: path, allowedClasses: allowedClasses, classMap: classMap,
      guardsUnmappedClasses: guardsUnmappedClasses, variant: variant, topKeys: topKeys
    ).outcome
  }

  /// Decodes one archive on one path in a worker, returning the worker's notes too.
  ///
  /// - Parameters:
  ///   - archive: The archive's bytes.
  ///   - path: The decode path.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - guardsUnmappedClasses: Whether unmatched archived names reach Foundation as a failing
  ///     placeholder.
  ///   - variant: How a Foundation path calls the unarchiver.
  ///   - topKeys: The `$top` keys the app reads, in order.
  /// - Returns: The response; a crash has no notes.
  /// - Throws: `WorkerProtocolError` when a worker cannot be started or answers nonsense.
  package func decodeWithNotes(
    _ archive: [UInt8], path: DecodePath, allowedClasses: [String] = [],
    classMap: ClassNameMap = .empty, guardsUnmappedClasses: Bool = true,
    variant: FoundationReferenceVariant = .standard, topKeys: [String] = ["root"]
  ) throws(WorkerProtocolError) -> WorkerResponse {
    try send { id in
      WorkerRequest(
        id: id, path: path, registryName: registryName, archive: Data(archive),
        allowedClasses: allowedClasses, classMap: classMap,
        guardsUnmappedClasses: guardsUnmappedClasses,
        variant: variant == .standard ? nil : variant,
        topKeys: topKeys == ["root"] || topKeys.isEmpty ? nil : topKeys)
    }
  }

  /// Decodes one archive on several paths with one request: the worker runs them in order and
  /// answers each as soon as it is done.
  ///
  /// Each path's outcome is the one ``decode(_:path:allowedClasses:classMap:guardsUnmappedClasses:variant:topKeys:)``
  /// gives, with the whole ``timeout`` counted from the answer before it. The results stop
  /// after the first path that crashed, timed out or failed: the paths after it get none, and
  /// go to a fresh worker one by one when asked for. A forked worker whose server was killed
  /// ends the results before its path, which is then asked for on its own.
  ///
  /// ```swift
  /// let outcomes = try supervisor.decode(bytes, paths: [.legacy, .secure])
  /// ```
  ///
  /// - Parameters:
  ///   - archive: The archive's bytes.
  ///   - paths: The paths, in the order they run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads, in order.
  /// - Returns: The first paths' results, in order: outcomes, and a path that could not be
  ///   run as its error.
  package func decode(
    _ archive: [UInt8], paths: [DecodePath], allowedClasses: [String] = [],
    classMap: ClassNameMap = .empty, topKeys: [String] = ["root"]
  ) -> [Result<DecodeOutcome, WorkerProtocolError>] {
    guard let first = paths.first else { return [] }
    return lock.withLock { _ in
      let id = nextRequestID
      nextRequestID += 1
      let batch = WorkerDecodeBatch(
        paths: paths,
        request: WorkerRequest(
          id: id, path: first, registryName: registryName, archive: Data(archive),
          allowedClasses: allowedClasses, classMap: classMap,
          topKeys: topKeys == ["root"] || topKeys.isEmpty ? nil : topKeys))
      var results: [Result<DecodeOutcome, WorkerProtocolError>] = []
      lostServer = false
      do throws(WorkerProtocolError) {
        try exchange(batch, into: &results)
      } catch {
        // A lost server: the path goes once more, on its own, to a freshly launched server.
        if lostServer {
          lostServer = false
          stopWorker()
        } else {
          results.append(.failure(error))
        }
      }
      return results
    }
  }

  /// Sends a batch to the current (or a fresh) worker and collects its answers until every
  /// path is answered or the worker dies.
  private func exchange(
    _ batch: WorkerDecodeBatch, into results: inout [Result<DecodeOutcome, WorkerProtocolError>]
  ) throws(WorkerProtocolError) {
    let id = batch.request.id
    let current = try currentWorker(deadline: MonotonicInstant.now.advanced(by: timeout))
    // Where the running path's last words start: the end of the path before it.
    var stderrOffset = current.stderrLength()
    let alive = { current.isRunning }
    func recordDeath(timedOut: Bool) throws(WorkerProtocolError) {
      if timedOut {
        current.forceKill()
        let crash = try finish(current, from: stderrOffset)
        results.append(
          .success(
            .crashed(CrashReport(signal: crash.signal, timedOut: true, detail: crash.detail))))
      } else {
        let path = batch.paths.indices.contains(results.count) ? batch.paths[results.count] : nil
        results.append(
          .success(
            try self.died(current, request: id, path: path, stderrFrom: stderrOffset).outcome))
      }
    }
    // A channel failure ends the batch: the worker timed out or died, or the channel broke.
    func recordFailure(_ failure: FileDescriptorChannel.Failure) throws(WorkerProtocolError) {
      switch failure {
      case .timedOut: try recordDeath(timedOut: true)
      case .closed, .peerExited: try recordDeath(timedOut: false)
      case .frameTooLarge, .system:
        stopWorker()
        throw WorkerProtocolError("request \(id): \(failure)")
      }
    }
    do throws(FileDescriptorChannel.Failure) {
      try current.channel.writeFrame(
        batch.encoded, deadline: MonotonicInstant.now.advanced(by: timeout), isPeerAlive: alive)
    } catch {
      return try recordFailure(error)
    }
    for _ in batch.paths {
      let frame: [UInt8]?
      do throws(FileDescriptorChannel.Failure) {
        frame = try current.channel.readFrame(
          deadline: MonotonicInstant.now.advanced(by: timeout), isPeerAlive: alive)
      } catch {
        return try recordFailure(error)
      }
      guard let frame else { return try recordDeath(timedOut: false) }
      let answer: WorkerDecodeBatch.Answer
      do throws(WorkerProtocolError) {
        answer = try WorkerDecodeBatch.Answer(decoding: frame)
      } catch {
        stopWorker()
        throw WorkerProtocolError("cannot parse the answer to request \(id): \(error.message)")
      }
      guard answer.response.id == id else {
        stopWorker()
        throw WorkerProtocolError(
          "answer for request \(answer.response.id) arrived for request \(id)")
      }
      results.append(.success(answer.response.outcome))
      if let length = answer.stderrLength { stderrOffset = length }
    }
  }

  /// Asks a worker which `allowedClasses` would make the secure read succeed where legacy
  /// decodes, running the app's decoders there rather than in this process.
  ///
  /// ```swift
  /// let advice = try supervisor.advice(bytes, allowedClasses: ["ProfileKit.UserProfile"])
  /// // legacy decodes, secure rejects: add NSArray, ProfileKit.Address to allowedClasses …
  /// ```
  ///
  /// - Parameters:
  ///   - archive: The archive's bytes.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: `DifferentialAdvice/message`, or why there is none when the worker crashed
  ///   while trying class lists.
  /// - Throws: `WorkerProtocolError` when no worker could be had or one misbehaved.
  package func advice(
    _ archive: [UInt8], allowedClasses: [String], classMap: ClassNameMap = .empty
  ) throws(WorkerProtocolError) -> String {
    let response = try send { id in
      WorkerRequest(
        id: id, path: .secure, registryName: registryName, archive: Data(archive),
        allowedClasses: allowedClasses, classMap: classMap, advice: true)
    }
    if let crash = response.outcome.crash {
      return
        "no allowedClasses advice: the worker crashed (\(crash.summary)) while trying class lists"
    }
    // A worker that ran out of memory answers with a rejection and no advice.
    if response.notes.isEmpty, let rejection = response.outcome.rejection {
      return "no allowedClasses advice: \(rejection.message)"
    }
    return response.notes.first ?? "no allowedClasses advice: the worker gave none"
  }

  /// Sends one request, built with its number, and returns the answer.
  private func send(_ makeRequest: (Int) -> WorkerRequest) throws(WorkerProtocolError)
    -> WorkerResponse
  {
    try locked { () throws(WorkerProtocolError) in
      let id = nextRequestID
      nextRequestID += 1
      let request = makeRequest(id)
      let payload = request.encoded
      let path: DecodePath? = request.advice == true ? nil : request.path
      lostServer = false
      do throws(WorkerProtocolError) {
        return try exchange(payload, id: id, path: path)
      } catch {
        // A forked worker whose server was killed dies with it, and how it ended cannot be
        // learned: the archive goes once more to a freshly launched server, where it either
        // decodes or dies again, this time with its own signal.
        guard lostServer else { throw error }
        lostServer = false
        stopWorker()
        return try exchange(payload, id: id, path: path)
      }
    }
  }

  /// Sends one encoded request to the current (or a fresh) worker and reads the answer.
  private func exchange(_ payload: [UInt8], id: Int, path: DecodePath?)
    throws(WorkerProtocolError) -> WorkerResponse
  {
    let deadline = MonotonicInstant.now.advanced(by: timeout)
    let current = try currentWorker(deadline: deadline)
    let stderrOffset = current.stderrLength()
    let answer: [UInt8]?
    do throws(FileDescriptorChannel.Failure) {
      let alive = { current.isRunning }
      try current.channel.writeFrame(payload, deadline: deadline, isPeerAlive: alive)
      answer = try current.channel.readFrame(deadline: deadline, isPeerAlive: alive)
    } catch .timedOut {
      current.forceKill()
      let crash = try finish(current, from: stderrOffset)
      return WorkerResponse(
        id: id,
        outcome: .crashed(CrashReport(signal: crash.signal, timedOut: true, detail: crash.detail)))
    } catch .closed, .peerExited {
      return try died(current, request: id, path: path, stderrFrom: stderrOffset)
    } catch {
      stopWorker()
      throw WorkerProtocolError("request \(id): \(error)")
    }
    guard let answer else {
      return try died(current, request: id, path: path, stderrFrom: stderrOffset)
    }
    let response: WorkerResponse
    do throws(WorkerProtocolError) {
      response = try WorkerResponse(decoding: answer)
    } catch {
      stopWorker()
      throw WorkerProtocolError("cannot parse the answer to request \(id): \(error.message)")
    }
    guard response.id == id else {
      stopWorker()
      throw WorkerProtocolError("answer for request \(response.id) arrived for request \(id)")
    }
    return response
  }

  /// The most archive bytes sent to a worker in one migration frame; a larger batch is split.
  static let maximumMigrationFrameBytes = 16 << 20

  /// Migrates archives, typed, in decode workers: each archive's app code runs in a child
  /// process, and one that traps or hangs costs that archive alone.
  ///
  /// The archives go to the worker in batches: one request frame, and answers
  /// that the worker gathers and sends in bunches, so that containment stays
  /// cheap. When the worker dies (a trap in `init?(coder:)`) or passes
  /// ``timeout`` on an archive, the unanswered archives go again to a fresh
  /// worker that answers each on its own: the archive it dies on then is
  /// `TypedMigrationResult.crashed(_:)` with the signal, and the rest of the
  /// batch goes on in another fresh worker.
  ///
  /// ```swift
  /// let results = try supervisor.migrate(
  ///   records, classMap: map, allowedClasses: ["ProfileKit.UserProfile", "ProfileKit.Address"])
  /// ```
  ///
  /// - Parameters:
  ///   - archives: The archives, as stored.
  ///   - classMap: The map applied on the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  /// - Returns: One result per archive, in order.
  /// - Throws: `WorkerProtocolError` when a worker cannot be started or answers nonsense.
  package func migrate(
    _ archives: [[UInt8]], classMap: ClassNameMap, allowedClasses: [String]
  ) throws(WorkerProtocolError) -> [TypedMigrationResult] {
    try locked { () throws(WorkerProtocolError) in
      var results: [TypedMigrationResult] = []
      results.reserveCapacity(archives.count)
      // Archives before this index go again, each answered on its own, after a worker died
      // while its answers were gathered: which one it died on is found that way.
      var answerEachUntil = 0
      while results.count < archives.count {
        // One frame: up to the byte budget, and at least one archive.
        let start = results.count
        let answerEach = start < answerEachUntil
        let limit = answerEach ? answerEachUntil : archives.count
        var end = start
        var size = 0
        while end < limit,
          end == start || size + archives[end].count <= Self.maximumMigrationFrameBytes
        {
          size += archives[end].count
          end += 1
        }
        let id = nextRequestID
        nextRequestID += 1
        let batch = WorkerMigrationBatch(
          header: .init(
            id: id, registryName: registryName, classMap: classMap, allowedClasses: allowedClasses,
            count: end - start, flushEach: answerEach),
          archives: Array(archives[start..<end]))
        if try runMigration(batch, into: &results) == .diedUnattributed {
          answerEachUntil = end
        }
      }
      return results
    }
  }

  /// How one migration frame ended.
  private enum MigrationEnd {
    /// Every archive was answered, or the worker died on an archive it was answering on its own
    /// (which is then recorded as crashed).
    case attributed
    /// The worker died while its answers were gathered: the archive it died on is not known.
    case diedUnattributed
  }

  /// Sends one migration frame and collects answers until the batch is done or the worker dies.
  ///
  /// In the fast mode the worker gathers answers and sends them in bunches
  /// (at least every `HarnessWorker.answerFlushInterval`); when it
  /// dies, the unanswered archives are sent again to a fresh worker with each
  /// answer sent on its own (`WorkerMigrationBatch.Header.flushEach`), so
  /// that the archive it dies on is the next one unanswered, recorded as crashed.
  private func runMigration(
    _ batch: WorkerMigrationBatch, into results: inout [TypedMigrationResult]
  ) throws(WorkerProtocolError) -> MigrationEnd {
    let payload = try batch.encoded()
    let current = try currentWorker(deadline: MonotonicInstant.now.advanced(by: timeout))
    let stderrOffset = current.stderrLength()
    let alive = { current.isRunning }
    let attributed = batch.header.flushEach
    // The worker died: record the crash on the archive it was answering, when that is known.
    func died(timedOut: Bool = false) throws(WorkerProtocolError) -> MigrationEnd {
      let crash = try death(of: current, from: stderrOffset, batch: batch.header.id)
      guard attributed else { return .diedUnattributed }
      if !timedOut, memoryLimit.explains(crash) {
        results.append(
          .refused(
            RecordRefusal(
              .decode, cause: .rejected(.limitExceeded),
              memoryLimit.message(path: nil, crash: crash))))
        return .attributed
      }
      results.append(
        .crashed(
          timedOut ? CrashReport(signal: crash.signal, timedOut: true, detail: crash.detail) : crash
        ))
      return .attributed
    }
    do throws(FileDescriptorChannel.Failure) {
      try current.channel.writeFrame(
        payload, deadline: MonotonicInstant.now.advanced(by: timeout), isPeerAlive: alive)
    } catch .closed, .peerExited {
      // The worker was gone before it read anything: blame the first archive, as a decode would.
      return try died()
    } catch {
      stopWorker()
      throw WorkerProtocolError("migration batch \(batch.header.id): \(error)")
    }
    for _ in 0..<batch.archives.count {
      let answer: [UInt8]?
      do throws(FileDescriptorChannel.Failure) {
        // Each archive gets the whole timeout, counted from the answer before it.
        answer = try current.channel.readFrame(
          deadline: MonotonicInstant.now.advanced(by: timeout), isPeerAlive: alive)
      } catch .timedOut {
        current.forceKill()
        return try died(timedOut: true)
      } catch .closed, .peerExited {
        return try died()
      } catch {
        stopWorker()
        throw WorkerProtocolError("migration batch \(batch.header.id): \(error)")
      }
      guard let answer else { return try died() }
      do throws(WorkerProtocolError) {
        results.append(try TypedMigrationResult(decoding: answer))
      } catch {
        stopWorker()
        throw error
      }
    }
    return .attributed
  }

  /// The running worker, or a fresh one: forked by the running fork server, or launched.
  private func currentWorker(deadline: MonotonicInstant) throws(WorkerProtocolError)
    -> any WorkerHandle
  {
    if let worker, worker.isRunning { return worker }
    worker?.stop()
    worker = nil
    if let running = server {
      if running.isRunning, let child = try? ForkedWorker.fork(from: running, deadline: deadline) {
        startedWorkers += 1
        worker = child
        return child
      }
      // The server ended, refused or failed: launch a fresh one.
      running.stop()
      server = nil
    }
    return try startWorker(deadline: deadline)
  }

  /// Stops the current worker, if any; the next archive starts a fresh one.
  package func shutdown() {
    lock.withLock { _ in stopWorker() }
  }

  /// Runs `body` while holding ``lock``, passing its typed error through.
  private func locked<Value>(_ body: () throws(WorkerProtocolError) -> Value)
    throws(WorkerProtocolError) -> Value
  {
    try lock.withLock { _ in Result(catching: body) }.get()
  }

  private func stopWorker() {
    worker?.stop()
    worker = nil
    server?.stop()
    server = nil
    spare?.stop()
    spare = nil
  }

  /// Launches the standby worker after a death, unless one waits already or no worker can
  /// be had; a launch failure here is left for ``startWorker(deadline:)`` to report.
  private func launchSpare() {
    guard spare == nil, unavailable == nil else { return }
    spare = try? WorkerProcess(
      executableURL: executableURL, arguments: arguments, socket: forkServer,
      memoryLimit: memoryLimit)
  }

  /// The standby worker if it is still running, or a newly launched one.
  private func launchedWorker() throws(WorkerProtocolError) -> WorkerProcess {
    if let waiting = spare {
      spare = nil
      if waiting.isRunning { return waiting }
      waiting.stop()
    }
    return try WorkerProcess(
      executableURL: executableURL, arguments: arguments, socket: forkServer,
      memoryLimit: memoryLimit)
  }

  /// Starts a worker and waits for its handshake; a failure is remembered and thrown again
  /// for every later archive without starting another process.
  ///
  /// A worker that offers to serve forks, when ``forkServer`` is on, becomes the fork server
  /// and the child it forks is returned; where it refuses, it decodes itself.
  private func startWorker(deadline: MonotonicInstant) throws(WorkerProtocolError)
    -> any WorkerHandle
  {
    if let unavailable { throw unavailable }
    let started: WorkerProcess
    let hello: WorkerHello
    do {
      started = try launchedWorker()
      launches += 1
      startedWorkers += 1
      hello = try handshake(with: started, deadline: deadline)
    } catch {
      let failure =
        error.kind == .unavailable
        ? error : WorkerProtocolError(error.message, kind: .unavailable)
      unavailable = failure
      throw failure
    }
    if forkServer, hello.forkServer == true {
      let child: ForkedWorker?
      do {
        child = try ForkedWorker.fork(from: started, deadline: deadline)
      } catch {
        started.stop()
        throw error
      }
      if let child {
        // The launch counted as this worker: the server itself decodes nothing.
        server = started
        worker = child
        return child
      }
    }
    worker = started
    return started
  }

  /// Reads the worker's first frame and checks that it is a decode worker serving our registry.
  private func handshake(with process: WorkerProcess, deadline: MonotonicInstant)
    throws(WorkerProtocolError) -> WorkerHello
  {
    let path = executableURL.path
    let hint =
      "; a worker is a harness executable, whose main hands '\(HarnessWorker.modeArgument)'"
      + " to ArchiveHarnessCommand.main or HarnessWorker.run"
    let frame: [UInt8]?
    do throws(FileDescriptorChannel.Failure) {
      frame = try process.channel.readFrame(
        deadline: deadline, maximumLength: 64 << 10, isPeerAlive: { process.isRunning })
    } catch .timedOut {
      process.forceKill()
      _ = process.waitForDeath(stderrFrom: 0)
      throw WorkerProtocolError(
        "'\(path)' did not answer the worker handshake within \(timeout)" + hint,
        kind: .unavailable)
    } catch .closed, .peerExited {
      frame = nil
    } catch {
      process.stop()
      throw WorkerProtocolError(
        "'\(path)' wrote something other than the worker handshake (\(error))" + hint,
        kind: .unavailable)
    }
    guard let frame else {
      let death = process.waitForDeath(stderrFrom: 0)
      let ending =
        process.exitStatus.map { "exited with status \($0)" } ?? "died of \(death.signalName)"
      let detail = death.detail.isEmpty ? "" : " (\(death.detail))"
      throw WorkerProtocolError(
        "'\(path)' \(ending) before the worker handshake\(detail)" + hint, kind: .unavailable)
    }
    guard let hello = try? JSONDecoder().decode(WorkerHello.self, from: Data(frame)),
      hello.worker == WorkerHello.workerName
    else {
      process.stop()
      throw WorkerProtocolError(
        "'\(path)' wrote something other than the worker handshake" + hint, kind: .unavailable)
    }
    guard hello.protocolVersion == WorkerHello.currentProtocolVersion else {
      process.stop()
      throw WorkerProtocolError(
        "'\(path)' speaks worker protocol \(hello.protocolVersion), this harness "
          + "\(WorkerHello.currentProtocolVersion); rebuild it with this version of ArchiveHarness",
        kind: .unavailable)
    }
    guard hello.registries.contains(registryName) else {
      process.stop()
      throw WorkerProtocolError(
        "'\(path)' serves no registry '\(registryName)' (it serves: "
          + "\(hello.registries.joined(separator: ", ")))", kind: .unavailable)
    }
    return hello
  }

  /// How a worker died while answering a migration batch: a signal is a crash; an exit with a
  /// status is a protocol violation, which a decode cannot cause by trapping.
  private func death(of process: any WorkerHandle, from offset: UInt64, batch id: Int)
    throws(WorkerProtocolError) -> CrashReport
  {
    let crash = try finish(process, from: offset)
    if let status = process.exitStatus {
      let detail = crash.detail.isEmpty ? "" : " (\(crash.detail))"
      throw WorkerProtocolError(
        "the worker exited with status \(status) while answering migration batch \(id)\(detail)")
    }
    return crash
  }

  /// The answer when a worker stopped mid-request: a crash when a signal ended it, or
  /// `limit-exceeded` when it ran out of ``memoryLimit``; a protocol violation when it exited
  /// with a status, which a decode cannot cause by trapping.
  private func died(
    _ process: any WorkerHandle, request id: Int, path: DecodePath?, stderrFrom offset: UInt64
  ) throws(WorkerProtocolError) -> WorkerResponse {
    let crash = try finish(process, from: offset)
    if let status = process.exitStatus {
      let detail = crash.detail.isEmpty ? "" : " (\(crash.detail))"
      throw WorkerProtocolError(
        "the worker exited with status \(status) while answering request \(id)\(detail)")
    }
    if memoryLimit.explains(crash) {
      return WorkerResponse(id: id, outcome: memoryLimit.rejection(path: path, crash: crash))
    }
    return WorkerResponse(id: id, outcome: .crashed(crash))
  }

  /// Waits for a worker that stopped and describes how; with no running fork server to fork
  /// the next one, a spare is launched meanwhile.
  private func finish(_ process: any WorkerHandle, from offset: UInt64)
    throws(WorkerProtocolError) -> CrashReport
  {
    defer { if worker === process { worker = nil } }
    let report: CrashReport
    do {
      report = try process.waitForDeath(stderrFrom: offset)
    } catch {
      lostServer = process is ForkedWorker
      throw error
    }
    if server?.isRunning != true { launchSpare() }
    return report
  }
}
