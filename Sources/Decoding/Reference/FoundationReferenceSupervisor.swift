import Foundation
import HarnessVocabulary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs archives through decode workers in child processes and turns a dying worker into a
/// ``DecodeOutcome/crashed(_:)`` outcome for that archive, then goes on with a fresh worker.
///
/// The worker is the `archive-harness` binary (or any executable that calls
/// ``FoundationReferenceWorker/run(registries:)`` for ``arguments``). Requests
/// are answered one at a time; an archive that takes longer than ``timeout`` has its worker
/// killed and is recorded as crashed with ``CrashReport/timedOut`` set.
///
/// ```swift
/// let supervisor = FoundationReferenceSupervisor(executableURL: harnessURL)
/// let outcome = try supervisor.decode(bytes, path: .foundationSecure,
///                                     allowedClasses: ["ProfileKit.Memo"])
/// ```
///
/// The supervisor ignores `SIGPIPE` process-wide, so that writing to a dead worker is an error
/// rather than the end of the supervising process.
public final class FoundationReferenceSupervisor: @unchecked Sendable {
  /// The worker executable.
  public let executableURL: URL
  /// The arguments that select worker mode.
  public let arguments: [String]
  /// The registry requests name.
  public let registryName: String
  /// The longest one archive may take, including starting a worker for it.
  public let timeout: Duration

  private let lock = NSLock()
  private var worker: WorkerProcess?
  private var nextRequestID = 1
  private var startedWorkers = 0

  /// Creates a supervisor; no worker starts until the first archive.
  ///
  /// - Parameters:
  ///   - executableURL: The worker executable, such as the running `archive-harness` binary.
  ///   - arguments: The arguments that select worker mode.
  ///   - registryName: The worker registry to decode with.
  ///   - timeout: The longest one archive may take.
  public init(
    executableURL: URL, arguments: [String] = [FoundationReferenceWorker.modeArgument],
    registryName: String = FoundationReferenceWorker.defaultRegistryName,
    timeout: Duration = .seconds(20)
  ) {
    self.executableURL = executableURL
    self.arguments = arguments
    self.registryName = registryName
    self.timeout = timeout
    signal(SIGPIPE, SIG_IGN)
  }

  deinit {
    worker?.stop()
  }

  /// How many worker processes this supervisor has started.
  public var workersStarted: Int {
    lock.lock()
    defer { lock.unlock() }
    return startedWorkers
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
  /// - Returns: The outcome; ``DecodeOutcome/crashed(_:)`` when the worker died or timed out.
  /// - Throws: ``WorkerProtocolError`` when a worker cannot be started or answers nonsense.
  public func decode(
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
  /// - Throws: ``WorkerProtocolError`` when a worker cannot be started or answers nonsense.
  public func decodeWithNotes(
    _ archive: [UInt8], path: DecodePath, allowedClasses: [String] = [],
    classMap: ClassNameMap = .empty, guardsUnmappedClasses: Bool = true,
    variant: FoundationReferenceVariant = .standard, topKeys: [String] = ["root"]
  ) throws(WorkerProtocolError) -> WorkerResponse {
    lock.lock()
    defer { lock.unlock() }
    let id = nextRequestID
    nextRequestID += 1
    let request = WorkerRequest(
      id: id, path: path, registryName: registryName, archive: Data(archive),
      allowedClasses: allowedClasses, classMap: classMap,
      guardsUnmappedClasses: guardsUnmappedClasses,
      variant: variant == .standard ? nil : variant,
      topKeys: topKeys == ["root"] || topKeys.isEmpty ? nil : topKeys)
    let payload: [UInt8]
    do {
      payload = [UInt8](try JSONEncoder().encode(request))
    } catch {
      throw WorkerProtocolError("cannot encode request \(id): \(error)")
    }
    let deadline = ContinuousClock.now.advanced(by: timeout)
    let current: WorkerProcess
    if let worker, worker.isRunning {
      current = worker
    } else {
      worker?.stop()
      worker = nil
      current = try WorkerProcess(executableURL: executableURL, arguments: arguments)
      startedWorkers += 1
      worker = current
    }
    let stderrOffset = current.stderrLength()
    let answer: [UInt8]?
    do throws(FileDescriptorChannel.Failure) {
      let alive = { current.isRunning }
      try current.channel.writeFrame(payload, deadline: deadline, isPeerAlive: alive)
      answer = try current.channel.readFrame(deadline: deadline, isPeerAlive: alive)
    } catch .timedOut {
      current.forceKill()
      let crash = finish(current, from: stderrOffset)
      return WorkerResponse(
        id: id,
        outcome: .crashed(CrashReport(signal: crash.signal, timedOut: true, detail: crash.detail)))
    } catch .closed, .peerExited {
      return WorkerResponse(id: id, outcome: .crashed(finish(current, from: stderrOffset)))
    } catch {
      stopWorker()
      throw WorkerProtocolError("request \(id): \(error)")
    }
    guard let answer else {
      return WorkerResponse(id: id, outcome: .crashed(finish(current, from: stderrOffset)))
    }
    let response: WorkerResponse
    do {
      response = try JSONDecoder().decode(WorkerResponse.self, from: Data(answer))
    } catch {
      stopWorker()
      throw WorkerProtocolError("cannot parse the answer to request \(id): \(error)")
    }
    guard response.id == id else {
      stopWorker()
      throw WorkerProtocolError("answer for request \(response.id) arrived for request \(id)")
    }
    return response
  }

  /// Stops the current worker, if any; the next archive starts a fresh one.
  public func shutdown() {
    lock.lock()
    defer { lock.unlock() }
    stopWorker()
  }

  private func stopWorker() {
    worker?.stop()
    worker = nil
  }

  private func finish(_ process: WorkerProcess, from offset: UInt64) -> CrashReport {
    let report = process.waitForDeath(stderrFrom: offset)
    if worker === process { worker = nil }
    return report
  }
}
