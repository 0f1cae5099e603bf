import ArchiveCoder
import Foundation

/// A fork server's answer to a `ForkServerRequest`.
///
/// The answer to a fork that succeeded carries the child's socket as an `SCM_RIGHTS`
/// attachment; a refused fork names why, and the server may then decode itself.
struct ForkServerReply: Sendable, Hashable, Codable {
  /// The forked child's process ID; its socket comes with the frame.
  var child: Int32?
  /// Why no child was forked, such as `the worker runs 3 threads`.
  var refusal: String?
  /// For a reap: the signal that ended the child, 0 when it exited.
  var signal: Int32?
  /// For a reap: the status the child exited with, when it exited rather than died.
  var exitStatus: Int32?
}
