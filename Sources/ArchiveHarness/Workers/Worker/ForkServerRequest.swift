import ArchiveCoder
import Foundation

/// A request to a decode worker that serves forks: fork a fresh child, or reap one that ended.
///
/// The frame is the byte `F` (a JSON request starts with `{`, a migration batch with `M`),
/// then the request as JSON. A supervisor sends one only to a worker whose handshake offered
/// to serve forks (`WorkerHello.forkServer`).
struct ForkServerRequest: Sendable, Hashable, Codable {
  /// The first byte of a fork-server frame.
  static let marker = UInt8(ascii: "F")

  /// What the server is asked to do.
  enum Action: String, Sendable, Hashable, Codable {
    /// Fork a child that serves decode requests on a socket of its own, sent with the answer.
    case fork
    /// Wait for a child to end (killing it first when asked) and say how it ended.
    case reap
  }

  /// What the server is asked to do.
  var action: Action
  /// The child to reap.
  var child: Int32?
  /// Whether to kill the child with `SIGKILL` before reaping it.
  var kill: Bool?

  /// A request to fork a child.
  static let fork = ForkServerRequest(action: .fork)

  /// A request to reap a child, killing it first when `kill` is set.
  static func reap(_ child: Int32, kill: Bool) -> ForkServerRequest {
    ForkServerRequest(action: .reap, child: child, kill: kill)
  }

  /// The frame's bytes.
  func encoded() throws(WorkerProtocolError) -> [UInt8] {
    do {
      return [Self.marker] + [UInt8](try JSONEncoder().encode(self))
    } catch {
      throw WorkerProtocolError("cannot encode a fork-server request: \(error)")
    }
  }

  /// Reads a fork-server frame.
  init(decoding frame: [UInt8]) throws(WorkerProtocolError) {
    guard frame.first == Self.marker else {
      throw WorkerProtocolError("not a fork-server request")
    }
    do {
      self = try JSONDecoder().decode(Self.self, from: Data(frame.dropFirst()))
    } catch {
      throw WorkerProtocolError("cannot parse a fork-server request: \(error)")
    }
  }

  private init(action: Action, child: Int32? = nil, kill: Bool? = nil) {
    self.action = action
    self.child = child
    self.kill = kill
  }
}
