import ArchiveCoder
import CHarnessWorkerProcess
import Foundation
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The decode worker's fork-server role on Linux: past its handshake it forks children that
/// decode, each on a socket of its own, and reaps them when the supervisor asks.
///
/// A fork server never decodes: untrusted input reaches only its children, so the server
/// stays single-threaded, small and alive. It forks only while it has exactly one thread
/// (`/proc/self/status`); otherwise, or when `fork` fails, it refuses, and the supervisor
/// has it decode itself, as a worker without a fork server does. Each child asks the kernel
/// for `SIGKILL` when the server ends (`PR_SET_PDEATHSIG`), and the server ends when the
/// supervisor closes its socket, so no child outlives the supervisor.
struct ForkServer {
  /// What a frame left this process as.
  enum Role {
    /// Still the server (or a worker that refused to fork): read the next frame.
    case server
    /// A freshly forked child: serve decode requests on this channel, then exit.
    case child(FileDescriptorChannel)
  }

  /// The longest a reap waits for a child to end by itself before killing it.
  static let reapGrace: TimeSpan = .seconds(5)

  /// The server's own channel to the supervisor.
  let channel: FileDescriptorChannel
  /// Children forked and not yet reaped.
  private(set) var children: Set<Int32> = []
  /// Whether this process has forked a child: from then on it decodes nothing.
  private(set) var hasForked = false

  /// A server answering on `channel`.
  init(channel: FileDescriptorChannel) {
    self.channel = channel
  }

  /// Whether a worker answering on `descriptor` can serve forks: it must be a Unix socket,
  /// over which the children's sockets are passed.
  static func canServe(answeringOn descriptor: Int32) -> Bool {
    #if os(Linux)
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { return false }
      return status.st_mode & S_IFMT == S_IFSOCK
    #else
      return false
    #endif
  }

  /// Handles one fork-server frame and answers it.
  ///
  /// - Parameters:
  ///   - frame: The frame, starting with `ForkServerRequest.marker`.
  ///   - hasDecoded: Whether this process has decoded anything; such a process forks no more.
  /// - Returns: `Role.child(_:)` in a freshly forked child, `Role.server` otherwise.
  /// - Throws: `WorkerProtocolError` when the frame is malformed or the answer cannot be
  ///   written; the server then ends.
  mutating func handle(_ frame: [UInt8], hasDecoded: Bool) throws(WorkerProtocolError) -> Role {
    let request = try ForkServerRequest(decoding: frame)
    #if !os(Linux)
      throw WorkerProtocolError("fork servers run on Linux only, not for \(request.action)")
    #else
      switch request.action {
      case .fork:
        if hasDecoded {
          try answer(ForkServerReply(refusal: "the worker has decoded archives itself"))
          return .server
        }
        return try forkChild()
      case .reap:
        guard let child = request.child, children.contains(child) else {
          throw WorkerProtocolError(
            "asked to reap \(request.child.map(String.init) ?? "no process"), not a child of this "
              + "fork server")
        }
        try answer(reap(child, kill: request.kill == true))
        return .server
      }
    #endif
  }

  /// Writes an answer without a descriptor.
  private func answer(_ reply: ForkServerReply) throws(WorkerProtocolError) {
    do {
      try channel.writeFrame([UInt8](try JSONEncoder().encode(reply)))
    } catch {
      throw WorkerProtocolError("cannot answer a fork-server request: \(error)")
    }
  }

  #if os(Linux)
    /// Forks a child with a fresh socket pair, or answers why not.
    private mutating func forkChild() throws(WorkerProtocolError) -> Role {
      let threads = Self.threadCount()
      guard threads == 1 else {
        let count = threads.map { "\($0) threads" } ?? "an unknown number of threads"
        try answer(ForkServerReply(refusal: "the worker runs \(count); fork is unsafe"))
        return .server
      }
      var pair: [Int32] = [-1, -1]
      guard harness_socket_pair(&pair) == 0 else {
        try answer(ForkServerReply(refusal: "socketpair failed: errno \(errno)"))
        return .server
      }
      let server = getpid()
      // Nothing buffered may be written twice, once by each process.
      fflush(nil)
      let child = harness_fork()
      if child < 0 {
        let code = errno
        close(pair[0])
        close(pair[1])
        try answer(ForkServerReply(refusal: "fork failed: errno \(code)"))
        return .server
      }
      if child == 0 {
        close(pair[0])
        becomeChild(of: server)
        return .child(FileDescriptorChannel(input: pair[1], output: pair[1]))
      }
      close(pair[1])
      children.insert(child)
      hasForked = true
      defer { close(pair[0]) }
      let payload: Data
      do {
        payload = try JSONEncoder().encode(ForkServerReply(child: child))
      } catch {
        throw WorkerProtocolError("cannot encode the fork answer: \(error)")
      }
      do throws(FileDescriptorChannel.Failure) {
        try channel.writeFrame([UInt8](payload), passing: pair[0])
      } catch {
        throw WorkerProtocolError("cannot pass child \(child) its socket: \(error)")
      }
      return .server
    }

    /// Cuts a fresh child from the server's channel and ties its life to the server's.
    private func becomeChild(of server: pid_t) {
      // The server's channel is the server's: standard input becomes /dev/null, and the
      // answers descriptor (a duplicate of the socket) is closed.
      let null = open("/dev/null", O_RDONLY)
      if null >= 0 {
        dup2(null, STDIN_FILENO)
        close(null)
      }
      if channel.output != STDIN_FILENO { close(channel.output) }
      _ = harness_set_parent_death_signal(SIGKILL)
      // The server may have ended before the request above took effect.
      if getppid() != server { _exit(0) }
    }

    /// Waits for a child to end, killing it first when asked or after ``reapGrace``.
    private mutating func reap(_ child: Int32, kill shouldKill: Bool) -> ForkServerReply {
      if shouldKill { _ = kill(child, SIGKILL) }
      var status: Int32 = 0
      let deadline = MonotonicInstant.now.advanced(by: Self.reapGrace)
      var ended = waitpid(child, &status, WNOHANG)
      var pause: UInt32 = 100
      while ended == 0 || (ended < 0 && errno == EINTR) {
        if MonotonicInstant.now >= deadline {
          _ = kill(child, SIGKILL)
          repeat { ended = waitpid(child, &status, 0) } while ended < 0 && errno == EINTR
          break
        }
        usleep(pause)
        pause = min(pause * 2, 2000)
        ended = waitpid(child, &status, WNOHANG)
      }
      children.remove(child)
      guard ended == child else {
        return ForkServerReply(refusal: "waitpid for child \(child) failed: errno \(errno)")
      }
      if harness_wait_status_exited(status) != 0 {
        return ForkServerReply(signal: 0, exitStatus: harness_wait_status_exit_code(status))
      }
      return ForkServerReply(signal: harness_wait_status_signal(status))
    }

    /// The number of threads this process runs, from `/proc/self/status`; nil when unknown.
    static func threadCount() -> Int? {
      let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while bytes.count < 1 << 16 {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += buffer[..<count]
      }
      for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
      where line.hasPrefix("Threads:") {
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
      }
      return nil
    }
  #endif
}
