import ArchiveCoder
import Foundation
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A decode worker that a fork server forked: its socket, its process ID, and the server that
/// reaps it and says how it ended.
///
/// The supervisor cannot wait for a grandchild, so each ending goes through the server: a
/// `ForkServerRequest.Action.reap` request answers with the signal or exit status, which
/// becomes the same ``CrashReport`` a launched worker's death gives. The child writes its
/// standard error to the server's log, so its last words are read from there.
final class ForkedWorker: WorkerHandle {
  let channel: FileDescriptorChannel
  /// The child's process ID.
  let processIdentifier: Int32
  private let server: WorkerProcess
  /// The supervisor's end of the child's socket; -1 once closed.
  private var socket: Int32
  /// How the child ended, once the server reaped it.
  private var ending: ForkServerReply?
  /// Why the server could not say how the child ended.
  private var reapFailure: WorkerProtocolError?

  private init(server: WorkerProcess, child: Int32, socket: Int32) {
    self.server = server
    self.processIdentifier = child
    self.socket = socket
    self.channel = FileDescriptorChannel(input: socket, output: socket)
  }

  deinit {
    if socket >= 0 { close(socket) }
  }

  /// Asks `server` to fork a child.
  ///
  /// - Parameters:
  ///   - server: A worker whose handshake offered to serve forks.
  ///   - deadline: When to give up waiting for the answer.
  /// - Returns: The child, or `nil` when the server refused (it may then decode itself).
  /// - Throws: `WorkerProtocolError` when the server ended or answered nonsense.
  static func fork(from server: WorkerProcess, deadline: MonotonicInstant)
    throws(WorkerProtocolError) -> ForkedWorker?
  {
    let (reply, descriptor) = try request(.fork, to: server, deadline: deadline)
    guard let child = reply.child else {
      if let descriptor { close(descriptor) }
      return nil
    }
    guard let descriptor else {
      throw WorkerProtocolError("the fork server sent no socket for its child \(child)")
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    return ForkedWorker(server: server, child: child, socket: descriptor)
  }

  /// Whether the child may still answer: its server runs and its socket has not hung up.
  ///
  /// Between requests nothing is due from the child, so a readable socket means it closed.
  var isRunning: Bool {
    guard ending == nil, reapFailure == nil, socket >= 0, server.isRunning else { return false }
    var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 0
  }

  var exitStatus: Int32? { ending?.exitStatus }

  func stderrLength() -> UInt64 { server.stderrLength() }

  /// Has the server kill the child and reap it.
  func forceKill() {
    guard ending == nil, reapFailure == nil else { return }
    reap(kill: true)
  }

  func waitForDeath(stderrFrom offset: UInt64) throws(WorkerProtocolError) -> CrashReport {
    closeSocket()
    if ending == nil, reapFailure == nil { reap(kill: false) }
    if let reapFailure { throw reapFailure }
    return CrashReport(signal: ending?.signal ?? 0, detail: server.stderrTail(from: offset))
  }

  /// Closes the child's socket and has the server kill and reap it; it is discarded anyway.
  func stop() {
    closeSocket()
    if ending == nil, reapFailure == nil { reap(kill: true) }
  }

  private func closeSocket() {
    guard socket >= 0 else { return }
    close(socket)
    socket = -1
  }

  /// Asks the server how the child ended, killing it first when asked.
  private func reap(kill: Bool) {
    let child = processIdentifier
    // The server waits up to its grace period before it kills a child that does not end.
    let deadline = MonotonicInstant.now.advanced(by: .seconds(15))
    do throws(WorkerProtocolError) {
      let (reply, descriptor) = try Self.request(
        .reap(child, kill: kill), to: server, deadline: deadline)
      if let descriptor { close(descriptor) }
      if let refusal = reply.refusal {
        reapFailure = WorkerProtocolError(
          "the fork server could not say how its worker \(child) ended: \(refusal)")
      } else {
        ending = reply
      }
    } catch {
      reapFailure = WorkerProtocolError(
        "the fork server (process \(server.processIdentifier)) failed while its worker \(child) "
          + "ended, so how it ended is unknown: \(error.message)")
    }
  }

  /// Sends one request to the server and reads its answer and any descriptor attached.
  private static func request(
    _ request: ForkServerRequest, to server: WorkerProcess, deadline: MonotonicInstant
  ) throws(WorkerProtocolError) -> (ForkServerReply, Int32?) {
    let payload = try request.encoded()
    let alive = { server.isRunning }
    let answer: (frame: [UInt8], descriptor: Int32?)?
    do throws(FileDescriptorChannel.Failure) {
      try server.channel.writeFrame(payload, deadline: deadline, isPeerAlive: alive)
      answer = try server.channel.readFrameWithDescriptor(deadline: deadline, isPeerAlive: alive)
    } catch {
      throw WorkerProtocolError(
        "the fork server did not answer \(request.action.rawValue): \(error)")
    }
    guard let answer else {
      throw WorkerProtocolError(
        "the fork server ended before it answered \(request.action.rawValue)")
    }
    do {
      return (
        try JSONDecoder().decode(ForkServerReply.self, from: Data(answer.frame)), answer.descriptor
      )
    } catch {
      if let descriptor = answer.descriptor { close(descriptor) }
      throw WorkerProtocolError(
        "cannot parse the fork server's answer to \(request.action.rawValue): \(error)")
    }
  }
}
