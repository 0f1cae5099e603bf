import ArchiveCoder
import CHarnessWorkerProcess
import Foundation
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The entry point of the decode worker: the `archive-harness` binary re-executed with
/// ``modeArgument``, reading requests on standard input and answering on standard output.
///
/// The worker first writes a handshake frame naming itself and its registries; then each
/// request is a length-prefixed binary `WorkerRequest` frame and each answer a
/// `WorkerResponse` frame (no JSON: the archive's bytes and the decoded value go as they are).
/// A `WorkerDecodeBatch` runs one archive on several paths and is answered path by path.
/// A batch of archives to migrate, typed, comes as one binary frame and is answered with one
/// `TypedMigrationResult` frame per archive (see
/// `WorkerSupervisor.migrate(_:classMap:allowedClasses:)`).
/// A decode that traps kills only the worker; `WorkerSupervisor` records the
/// signal and starts a fresh worker. Wire it into a `main.swift` like this:
///
/// ```swift
/// if CommandLine.arguments.dropFirst().first == HarnessWorker.modeArgument {
///   exit(HarnessWorker.run(registry: ClassRegistry(modelClasses: [Memo.self])))
/// }
/// ```
package enum HarnessWorker {
  /// The hidden command-line argument that selects worker mode.
  package static let modeArgument = "__decode-worker"

  /// The name under which ``run(registry:)`` registers its registry.
  package static let defaultRegistryName = ClassRegistry.defaultName

  /// Serves requests with one registry, named ``defaultRegistryName``.
  ///
  /// - Parameter registry: The app's classes.
  /// - Returns: The process exit status: 0 at the end of input, 2 on a protocol error.
  package static func run(registry: ClassRegistry) -> Int32 {
    run(registries: [defaultRegistryName: registry])
  }

  /// Serves requests with several named registries, such as two versions of an app.
  ///
  /// Standard output is kept for answers: anything user code prints goes to standard error.
  /// The `legacy` and `secure` paths run `HarnessDecoder`, so app code that traps in
  /// `init?(coder:)` is contained too. On Linux the process first limits its address space to
  /// `WorkerMemoryLimit.fromEnvironment` (1 GiB unless `ARCHIVE_HARNESS_WORKER_MEMORY_MIB`
  /// says otherwise).
  ///
  /// - Parameter registries: Registries by the name requests give.
  /// - Returns: The process exit status: 0 at the end of input, 2 on a protocol error.
  package static func run(registries: [String: ClassRegistry]) -> Int32 {
    // A crash must leave no image of decoded (or decrypted) records on disk.
    if harness_disable_core_dumps() != 0 {
      report("cannot turn core dumps off (errno \(errno)); the worker does not decode")
      return 2
    }
    #if os(Linux)
      // A decode that grows without bound ends here, not in the machine's memory: before any
      // decode, the warm-up included, and inherited by every forked child.
      let memory = WorkerMemoryLimit.fromEnvironment
      if harness_limit_address_space(memory.bytes) == 0 {
        report(
          "cannot limit the address space to \(memory) (errno \(errno)); the worker does not decode"
        )
        return 2
      }
    #endif
    let parent = getppid()
    let answers = dup(STDOUT_FILENO)
    guard answers >= 0 else {
      FileHandle.standardError.write(Data("decode worker: cannot duplicate stdout\n".utf8))
      return 2
    }
    dup2(STDERR_FILENO, STDOUT_FILENO)
    let channel = FileDescriptorChannel(input: STDIN_FILENO, output: answers)
    let forkServer = ForkServer.canServe(answeringOn: answers) ? ForkServer(channel: channel) : nil
    do {
      let hello = WorkerHello(registries: Array(registries.keys), forkServer: forkServer != nil)
      try channel.writeFrame([UInt8](try JSONEncoder().encode(hello)))
    } catch {
      report("cannot write the handshake: \(error)")
      return 2
    }
    // Once, before the first fork: each child then starts warm rather than filling the
    // runtime's caches again after every crash.
    if forkServer != nil { WorkerWarmUp.run(registries: registries) }
    return serve(channel, registries: registries, forkServer: forkServer, parent: parent)
  }

  /// Answers frames on `channel` until the end of input.
  ///
  /// A fork server (on Linux, after its handshake) forks children on request, each of which
  /// serves on its own channel here and exits; the server then decodes nothing itself. Where
  /// it refuses to fork, it decodes as any worker does.
  ///
  /// A process that decodes watches `parent` from then on and ends when it ends (see
  /// ``watch(parent:)``), unless `watchesParent` is off: a forked child needs no watch, since
  /// the kernel kills it when its server ends (`PR_SET_PDEATHSIG`), and a thread fewer to
  /// start is a cheaper fork after every crash.
  private static func serve(
    _ channel: FileDescriptorChannel, registries: [String: ClassRegistry],
    forkServer: ForkServer?, parent: pid_t, watchesParent: Bool = true
  ) -> Int32 {
    var forkServer = forkServer
    var hasDecoded = false
    while true {
      let frame: [UInt8]
      do {
        guard let next = try channel.readFrame() else { return 0 }
        frame = next
      } catch {
        report("cannot read a request: \(error)")
        return 2
      }
      if frame.first == ForkServerRequest.marker {
        if var server = forkServer {
          do throws(WorkerProtocolError) {
            switch try server.handle(frame, hasDecoded: hasDecoded) {
            case .server:
              forkServer = server
              continue
            case .child(let childChannel):
              // A fresh child: serve its own channel, then end without unwinding the server.
              _exit(
                serve(
                  childChannel, registries: registries, forkServer: nil, parent: getppid(),
                  watchesParent: false))
            }
          } catch {
            report(error.message)
            return 2
          }
        }
        report("a fork-server request came to a worker that does not serve forks")
        return 2
      }
      if let forkServer, forkServer.hasForked {
        report("a decode request came to a fork server, which decodes nothing itself")
        return 2
      }
      if !hasDecoded {
        hasDecoded = true
        if watchesParent { watch(parent: parent) }
      }
      if frame.first == WorkerMigrationBatch.marker {
        do throws(WorkerProtocolError) {
          try migrate(WorkerMigrationBatch(decoding: frame), registries: registries, to: channel)
        } catch {
          report("\(error.message)")
          return 2
        }
        continue
      }
      if frame.first == WorkerDecodeBatch.marker {
        do throws(WorkerProtocolError) {
          try decode(WorkerDecodeBatch(decoding: frame), registries: registries, to: channel)
        } catch {
          report(error.message)
          return 2
        }
        continue
      }
      let request: WorkerRequest
      do throws(WorkerProtocolError) {
        request = try WorkerRequest(decoding: frame)
      } catch {
        report("cannot parse a request: \(error.message)")
        return 2
      }
      let response = answer(request, registries: registries)
      do throws(FileDescriptorChannel.Failure) {
        try channel.writeFrame(response.encoded)
      } catch {
        report("cannot write the answer to request \(request.id): \(error)")
        return 2
      }
    }
  }

  /// Decodes one request in this process; it may trap, which is why it runs in a worker.
  ///
  /// - Parameters:
  ///   - request: The archive and how to read it.
  ///   - registries: Registries by name.
  /// - Returns: The response to send.
  package static func answer(_ request: WorkerRequest, registries: [String: ClassRegistry])
    -> WorkerResponse
  {
    guard let registry = registries[request.registryName] else {
      let known = registries.keys.sorted().joined(separator: ", ")
      let message =
        "\(request.path.rawValue): worker has no registry '\(request.registryName)' "
        + "(known: \(known))"
      return WorkerResponse(
        id: request.id,
        outcome: .rejected(.init(category: .malformed, keyPath: "root", message: message)))
    }
    if request.advice == true {
      let advice = HarnessDecoder(registry: registry, classMap: request.classMap)
        .differentialAdvice([UInt8](request.archive), allowedClasses: request.allowedClasses)
      return WorkerResponse(id: request.id, outcome: advice.secure, notes: [advice.message])
    }
    if request.path.isFoundation {
      let result = onReferenceStack {
        FoundationReferenceDecoder(registry: registry).decode(request)
      }
      return WorkerResponse(id: request.id, outcome: result.outcome, notes: result.notes)
    }
    let decoder = HarnessDecoder(registry: registry, classMap: request.classMap)
    let result = decoder.decode(
      [UInt8](request.archive), secure: request.path.isSecure,
      allowedClasses: request.allowedClasses, topKeys: request.keys)
    return WorkerResponse(
      id: request.id, outcome: result.outcome, notes: result.warnings,
      strictnessFindings: result.strictnessFindings)
  }

  /// Runs one archive on each path of a batch, in order, and sends each answer as soon as it
  /// is ready, so that a trap on one path ends the worker after the answers before it.
  private static func decode(
    _ batch: WorkerDecodeBatch, registries: [String: ClassRegistry],
    to channel: FileDescriptorChannel
  ) throws(WorkerProtocolError) {
    for path in batch.paths {
      let response = answer(batch.request(for: path), registries: registries)
      let pathAnswer = WorkerDecodeBatch.Answer(
        stderrLength: WorkerDecodeBatch.standardErrorLength(), response: response)
      do throws(FileDescriptorChannel.Failure) {
        try channel.writeFrame(pathAnswer.encoded)
      } catch {
        throw WorkerProtocolError(
          "cannot write the \(path.rawValue) answer to request \(batch.request.id): \(error)")
      }
    }
  }

  /// The environment variable that sets the stack of the thread Foundation's reference decode
  /// runs on, in KiB (64 to 65,536).
  package static let referenceStackVariable = "ARCHIVE_HARNESS_REFERENCE_STACK_KIB"

  /// The stack Foundation's reference decode runs on, in bytes, read once per process.
  ///
  /// 512 KiB unless ``referenceStackVariable`` says otherwise: the stack of Apple's secondary
  /// threads (an iOS app's main thread has 1 MiB). NSKeyedUnarchiver recurses once per level
  /// of nesting, so an archive that nests without end (an array that contains itself through
  /// a class that decodes it eagerly) overflows it in milliseconds, where the 8 MiB of a main
  /// thread takes seconds; the overflow kills the worker and the path is `crashed`, as a
  /// device's would be.
  package static let referenceStackSize: Int = {
    let value = ProcessInfo.processInfo.environment[referenceStackVariable].flatMap { Int($0) }
    guard let kib = value, (64...65_536).contains(kib) else { return 512 << 10 }
    return kib << 10
  }()

  /// The thread Foundation's reference decodes run on, started by the first of them.
  private static let referenceThread = ReferenceStackThread(stackSize: referenceStackSize)

  /// Runs `body` on the thread with ``referenceStackSize`` of stack, and waits for it.
  private static func onReferenceStack<Result: Sendable>(
    _ body: @escaping @Sendable () -> Result
  ) -> Result {
    referenceThread.run(body)
  }

  /// The longest a migration answer waits to be sent with later ones.
  package static let answerFlushInterval: TimeSpan = .milliseconds(50)

  /// Migrates a batch, typed, answering every archive in order.
  ///
  /// Answers are gathered and sent in bunches (64 KiB, or after
  /// ``answerFlushInterval``), or each as soon as it is ready when the header asks for it, so
  /// that a trap ends the worker right after the answers before it and the supervisor knows
  /// which archive trapped.
  private static func migrate(
    _ batch: WorkerMigrationBatch, registries: [String: ClassRegistry],
    to channel: FileDescriptorChannel
  ) throws(WorkerProtocolError) {
    let header = batch.header
    let migration = registries[header.registryName].map {
      TypedMigration(
        registry: $0, classMap: header.classMap, allowedClasses: header.allowedClasses)
    }
    var pending: [[UInt8]] = []
    var pendingBytes = 0
    var lastFlush = MonotonicInstant.now
    for (index, archive) in batch.archives.enumerated() {
      let result =
        migration?.migrate(archive)
        ?? .refused(
          RecordRefusal(
            .read, cause: .rejected(.malformed),
            "the decode worker has no registry '\(header.registryName)'"))
      let encoded = result.encoded
      pending.append(encoded)
      pendingBytes += encoded.count
      let last = index == batch.archives.count - 1
      if header.flushEach || last || pendingBytes >= 1 << 16
        || MonotonicInstant.now - lastFlush >= Self.answerFlushInterval
      {
        do throws(FileDescriptorChannel.Failure) {
          try channel.writeFrames(pending)
        } catch {
          throw WorkerProtocolError("cannot answer migration batch \(header.id): \(error)")
        }
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
        lastFlush = MonotonicInstant.now
      }
    }
  }

  /// How often a decoding worker checks that the process that started it still runs.
  static let parentCheckInterval: TimeSpan = .milliseconds(100)

  /// Ends this process when `parent` ends, whatever killed it.
  ///
  /// A worker that waits for a request sees its supervisor's end as the end of input; one
  /// that is busy in app code or Foundation (a decode that loops, say) would not, and would
  /// outlive it. So from its first decode a worker runs one thread that checks its parent
  /// every ``parentCheckInterval`` and ends it with `_exit(2)` once the parent has changed.
  /// A fork server never starts it: it decodes nothing and forks only with one thread, and
  /// its children get `SIGKILL` from the kernel when it ends (`PR_SET_PDEATHSIG`).
  private static func watch(parent: pid_t) {
    let interval = UInt32(parentCheckInterval / .microseconds(1))
    let watcher = Thread {
      while getppid() == parent { usleep(interval) }
      report("the process that started this worker (\(parent)) ended; the worker ends too")
      _exit(2)
    }
    watcher.name = "archive-harness parent watch"
    watcher.start()
  }

  private static func report(_ message: String) {
    FileHandle.standardError.write(Data("decode worker: \(message)\n".utf8))
  }
}

/// A value a thread leaves for the one waiting on it; the semaphore orders the write and read.
private final class ResultBox<Value>: @unchecked Sendable {
  var value: Value?
}

/// One long-lived thread with a stack of a given size that runs one job at a time for the
/// threads that wait on it: a decode pays a hand-over, not a thread's creation.
///
/// The thread starts with the first job, so a fork server, which never decodes, keeps a
/// single thread and may fork.
private final class ReferenceStackThread: @unchecked Sendable {
  private let stackSize: Int
  /// Whether the thread has started; its lock is held from a job's hand-over to its end: one
  /// job at a time.
  private let started = Locked(false)
  private let jobReady = DispatchSemaphore(value: 0)
  private let jobDone = DispatchSemaphore(value: 0)
  /// The job handed over; written before `jobReady` is signalled, read after it is waited on.
  private var job: (@Sendable () -> Void)?

  init(stackSize: Int) {
    self.stackSize = stackSize
  }

  /// Runs `body` on the thread and returns what it returns.
  func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    let box = ResultBox<Result>()
    return started.withLock { started in
      if !started {
        started = true
        let thread = Thread { [self] in serve() }
        thread.stackSize = stackSize
        thread.name = "archive-harness reference decode"
        thread.start()
      }
      job = { box.value = body() }
      jobReady.signal()
      jobDone.wait()
      // The thread has set the box by now: a decode that does not return ends the process.
      return box.value ?? body()
    }
  }

  private func serve() -> Never {
    while true {
      jobReady.wait()
      let next = job
      job = nil
      next?()
      jobDone.signal()
    }
  }
}
