import ArchiveCoder

/// The first frame a decode worker writes, before it reads any request: the worker handshake.
///
/// A supervisor accepts a worker only after this frame arrives, so an executable
/// that is not a harness (a test runner re-executed, a program that ignores the
/// worker argument) is reported as unavailable instead of dying mid-request.
struct WorkerHello: Sendable, Hashable, Codable {
  /// The value of ``worker`` every decode worker sends.
  static let workerName = "archive-harness-decode-worker"
  /// The request and answer format this build speaks: 4 since an answer carries the secure
  /// path's strictness findings; 3 since an answer may carry a decode to nil
  /// (`DecodedValue.noObject`); 2 made requests and answers binary frames (1 was JSON).
  static let currentProtocolVersion = 4

  /// Always ``workerName``.
  var worker: String
  /// The format of the requests and answers that follow.
  var protocolVersion: Int
  /// The names of the registries the worker serves, sorted.
  var registries: [String]
  /// Whether the worker can serve forks (`ForkServerRequest`): `true` on Linux when its
  /// channel is a Unix socket; absent (`nil`) otherwise, and from workers built before it.
  var forkServer: Bool?

  /// The hello of a worker serving these registries.
  init(registries: [String], forkServer: Bool = false) {
    worker = Self.workerName
    protocolVersion = Self.currentProtocolVersion
    self.registries = registries.sorted()
    self.forkServer = forkServer ? true : nil
  }
}
