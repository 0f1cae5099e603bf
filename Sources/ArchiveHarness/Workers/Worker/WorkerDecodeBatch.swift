import ArchiveCoder
import ArchiveFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One archive on several decode paths in one frame: the worker runs the paths in order and
/// sends each answer as soon as it has it, so that a trap on one path costs that path alone.
///
/// Each answer is an `Answer` frame: the length the worker's standard error had when the
/// path was done, then the `WorkerResponse`. The supervisor reads a crashed path's last
/// words from the end of the path before it, as it does when each path is its own request.
struct WorkerDecodeBatch: Sendable, Hashable {
  /// The first byte of a batch frame.
  static let marker = UInt8(ascii: "P")

  /// The paths, in the order they run.
  var paths: [DecodePath]
  /// The archive and how to read it; its path is ignored for ``paths``.
  var request: WorkerRequest

  /// The request for one of the paths.
  func request(for path: DecodePath) -> WorkerRequest {
    var request = request
    request.path = path
    return request
  }

  /// The frame: ``marker``, the paths, then the request's own frame.
  var encoded: [UInt8] {
    let inner = request.encoded
    var writer = WorkerFrameWriter(capacity: inner.count + 64)
    writer.append(byte: Self.marker)
    writer.append(strings: paths.map(\.rawValue))
    writer.append(field: inner)
    return writer.bytes
  }

  /// A batch as it was sent.
  init(paths: [DecodePath], request: WorkerRequest) {
    self.paths = paths
    self.request = request
  }

  /// Reads a batch the supervisor sent.
  ///
  /// - Parameter frame: The frame, starting with ``marker``.
  /// - Throws: `WorkerProtocolError` for a malformed batch.
  init(decoding frame: [UInt8]) throws(WorkerProtocolError) {
    var reader = WorkerFrameReader(frame)
    guard try reader.byte() == Self.marker else {
      throw WorkerProtocolError("a batch frame does not start with its marker")
    }
    var paths: [DecodePath] = []
    for name in try reader.strings() {
      guard let path = DecodePath(rawValue: name) else {
        throw WorkerProtocolError("unknown decode path '\(name)' in a batch")
      }
      paths.append(path)
    }
    guard !paths.isEmpty else { throw WorkerProtocolError("a batch names no decode path") }
    let request = try WorkerRequest(decoding: try reader.field())
    try reader.expectEnd()
    self.init(paths: paths, request: request)
  }

  /// One path's answer in a batch.
  struct Answer: Sendable, Hashable {
    /// The length of the worker's standard error once the path was done, when it is a file.
    var stderrLength: UInt64?
    /// The path's response.
    var response: WorkerResponse

    /// The frame: an 8-byte length (-1 when unknown), then the response's frame.
    var encoded: [UInt8] {
      var writer = WorkerFrameWriter(capacity: 256)
      writer.append(integer: stderrLength.map { Int64(clamping: $0) } ?? -1)
      return writer.bytes + response.encoded
    }

    init(stderrLength: UInt64?, response: WorkerResponse) {
      self.stderrLength = stderrLength
      self.response = response
    }

    /// Reads an answer a worker sent.
    ///
    /// - Throws: `WorkerProtocolError` for a malformed answer.
    init(decoding frame: [UInt8]) throws(WorkerProtocolError) {
      var reader = WorkerFrameReader(frame)
      let length = try reader.integer()
      stderrLength = length >= 0 ? UInt64(length) : nil
      response = try WorkerResponse(decoding: Array(frame.dropFirst(8)))
    }
  }

  /// The size of this process's standard error when it is a regular file (the worker's log);
  /// `nil` otherwise.
  static func standardErrorLength() -> UInt64? {
    var status = stat()
    guard fstat(STDERR_FILENO, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      return nil
    }
    return UInt64(status.st_size)
  }
}
