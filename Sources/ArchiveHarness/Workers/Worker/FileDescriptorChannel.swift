import ArchiveCoder
import CHarnessWorkerProcess
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Length-prefixed frames over a pair of file descriptors, with optional deadlines.
///
/// A frame is a 4-byte big-endian length followed by that many bytes.
struct FileDescriptorChannel {
  /// Why a read or write stopped.
  enum Failure: Error, Equatable {
    /// The other end closed before a whole frame arrived (or could be written).
    case closed
    /// The deadline passed.
    case timedOut
    /// The other end is gone, as a callback observed.
    case peerExited
    /// A frame announced more than `FileDescriptorChannel.maximumFrameLength` bytes.
    case frameTooLarge(Int)
    /// A system call failed with `errno`.
    case system(Int32)
  }

  /// The largest frame accepted, 256 MiB.
  static let maximumFrameLength = 256 << 20

  let input: Int32
  let output: Int32

  /// Reads one frame, or returns `nil` at a clean end of input before any byte of a frame.
  ///
  /// A frame longer than `maximumLength` is `Failure.frameTooLarge(_:)`.
  func readFrame(
    deadline: MonotonicInstant? = nil, maximumLength: Int = maximumFrameLength,
    isPeerAlive: () -> Bool = { true }
  ) throws(Failure) -> [UInt8]? {
    var header = [UInt8](repeating: 0, count: 4)
    let headerCount = try readExactly(into: &header, deadline: deadline, isPeerAlive: isPeerAlive)
    if headerCount == 0 { return nil }
    guard headerCount == 4 else { throw .closed }
    let length = header.reduce(0) { ($0 << 8) | Int($1) }
    guard length <= min(maximumLength, FileDescriptorChannel.maximumFrameLength) else {
      throw .frameTooLarge(length)
    }
    var payload = [UInt8](repeating: 0, count: length)
    guard try readExactly(into: &payload, deadline: deadline, isPeerAlive: isPeerAlive) == length
    else { throw .closed }
    return payload
  }

  /// Writes several frames at once: one `write` where the pipe takes them all.
  func writeFrames(
    _ payloads: [[UInt8]], deadline: MonotonicInstant? = nil,
    isPeerAlive: () -> Bool = { true }
  ) throws(Failure) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(payloads.reduce(0) { $0 + $1.count + 4 })
    for payload in payloads {
      guard payload.count <= FileDescriptorChannel.maximumFrameLength else {
        throw .frameTooLarge(payload.count)
      }
      let length = UInt32(payload.count)
      bytes += [
        UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
        UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
      ]
      bytes += payload
    }
    try writeAll(bytes, deadline: deadline, isPeerAlive: isPeerAlive)
  }

  /// Writes one frame.
  func writeFrame(
    _ payload: [UInt8], deadline: MonotonicInstant? = nil,
    isPeerAlive: () -> Bool = { true }
  ) throws(Failure) {
    try writeFrames([payload], deadline: deadline, isPeerAlive: isPeerAlive)
  }

  /// Writes one frame with a file descriptor attached to its first byte (`SCM_RIGHTS`); the
  /// output must be a Unix socket, and the caller keeps (and closes) its own descriptor.
  func writeFrame(_ payload: [UInt8], passing descriptor: Int32) throws(Failure) {
    guard payload.count <= FileDescriptorChannel.maximumFrameLength else {
      throw .frameTooLarge(payload.count)
    }
    let length = UInt32(payload.count)
    let bytes =
      [
        UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
        UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
      ] + payload
    var sent = -1
    while sent < 0 {
      sent = bytes.withUnsafeBytes { buffer in
        harness_send_with_descriptor(output, buffer.baseAddress, buffer.count, descriptor)
      }
      if sent < 0 {
        let code = errno
        if code == EAGAIN {
          try waitUntilReady(output, events: Int16(POLLOUT), deadline: nil) { true }
          continue
        }
        throw code == EPIPE ? .closed : .system(code)
      }
    }
    // The descriptor went with the first byte; the rest, if any, follows as plain bytes.
    if sent < bytes.count {
      try writeAll(Array(bytes[sent...]), deadline: nil) { true }
    }
  }

  /// Reads one small frame and the file descriptor attached to it, if any.
  ///
  /// The descriptor comes as `SCM_RIGHTS`, so the input must be a Unix socket. Returns `nil`
  /// at a clean end of input.
  ///
  /// The caller owns the descriptor, which is close-on-exec; it is closed here when the frame
  /// cannot be read whole.
  func readFrameWithDescriptor(
    deadline: MonotonicInstant, maximumLength: Int = 4096,
    isPeerAlive: () -> Bool = { true }
  ) throws(Failure) -> (frame: [UInt8], descriptor: Int32?)? {
    var buffer = [UInt8](repeating: 0, count: 4 + maximumLength)
    var descriptor: Int32 = -1
    var received = -1
    while received < 0 {
      if MonotonicInstant.now >= deadline { throw .timedOut }
      received = buffer.withUnsafeMutableBytes { raw in
        harness_receive_with_descriptor(input, raw.baseAddress, raw.count, &descriptor)
      }
      if received < 0 {
        let code = errno
        guard code == EAGAIN else { throw .system(code) }
        try waitUntilReady(input, events: Int16(POLLIN), deadline: deadline, isPeerAlive)
      }
    }
    if received == 0 { return nil }
    do throws(Failure) {
      var bytes = Array(buffer[..<received])
      if bytes.count < 4 {
        var rest = [UInt8](repeating: 0, count: 4 - bytes.count)
        guard
          try readExactly(into: &rest, deadline: deadline, isPeerAlive: isPeerAlive) == rest.count
        else { throw .closed }
        bytes += rest
      }
      let length = bytes.prefix(4).reduce(0) { ($0 << 8) | Int($1) }
      guard length <= maximumLength, bytes.count <= 4 + length else {
        throw .frameTooLarge(length)
      }
      if bytes.count < 4 + length {
        var rest = [UInt8](repeating: 0, count: 4 + length - bytes.count)
        guard
          try readExactly(into: &rest, deadline: deadline, isPeerAlive: isPeerAlive) == rest.count
        else { throw .closed }
        bytes += rest
      }
      return (Array(bytes.dropFirst(4)), descriptor >= 0 ? descriptor : nil)
    } catch {
      if descriptor >= 0 { close(descriptor) }
      throw error
    }
  }

  private func writeAll(
    _ bytes: [UInt8], deadline: MonotonicInstant?, isPeerAlive: () -> Bool
  ) throws(Failure) {
    _ = try transfer(
      bytes.count, through: output, events: Int16(POLLOUT), deadline: deadline,
      isPeerAlive: isPeerAlive
    ) { done in
      bytes.withUnsafeBytes { buffer in
        write(output, buffer.baseAddress.map { $0 + done }, buffer.count - done)
      }
    }
  }

  private func readExactly(
    into buffer: inout [UInt8], deadline: MonotonicInstant?, isPeerAlive: () -> Bool
  ) throws(Failure) -> Int {
    try transfer(
      buffer.count, through: input, events: Int16(POLLIN), deadline: deadline,
      isPeerAlive: isPeerAlive, endsAtZero: true
    ) { done in
      buffer.withUnsafeMutableBytes { raw in
        read(input, raw.baseAddress.map { $0 + done }, raw.count - done)
      }
    }
  }

  /// Moves `count` bytes through `descriptor` with `step` (one `read` or `write` from an
  /// offset), trying first and waiting only when the call would block; returns the bytes moved.
  ///
  /// The deadline is checked before each try that does not follow a wait, and while waiting:
  /// a poll per call would double the system calls. `endsAtZero` makes a call that moves
  /// nothing the end of input.
  private func transfer(
    _ count: Int, through descriptor: Int32, events: Int16, deadline: MonotonicInstant?,
    isPeerAlive: () -> Bool, endsAtZero: Bool = false, step: (_ done: Int) -> Int
  ) throws(Failure) -> Int {
    var done = 0
    var mustWait = false
    while done < count {
      if let deadline, !mustWait, MonotonicInstant.now >= deadline { throw .timedOut }
      if mustWait {
        try waitUntilReady(descriptor, events: events, deadline: deadline, isPeerAlive)
      }
      let result = step(done)
      if result < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN {
          mustWait = true
          continue
        }
        // A socket whose peer died with bytes unread reports ECONNRESET: the peer is gone.
        if code == EPIPE || code == ECONNRESET { throw .closed }
        throw .system(code)
      }
      if result == 0 && endsAtZero { return done }
      mustWait = false
      done += result
    }
    return done
  }

  private func waitUntilReady(
    _ descriptor: Int32, events: Int16, deadline: MonotonicInstant?,
    _ isPeerAlive: () -> Bool
  ) throws(Failure) {
    guard let deadline else { return }
    while true {
      let remaining = MonotonicInstant.now.duration(to: deadline)
      if remaining <= .zero { throw .timedOut }
      let slice = min(remaining, .milliseconds(50))
      let milliseconds = Int32(slice.nanoseconds / 1_000_000)
      var descriptors = pollfd(fd: descriptor, events: events, revents: 0)
      let result = poll(&descriptors, 1, max(milliseconds, 1))
      if result > 0 { return }
      if result < 0, errno != EINTR { throw .system(errno) }
      if !isPeerAlive() {
        // One last non-blocking look: the peer may have answered and then exited.
        var last = pollfd(fd: descriptor, events: events, revents: 0)
        if poll(&last, 1, 0) > 0 { return }
        throw .peerExited
      }
    }
  }
}
