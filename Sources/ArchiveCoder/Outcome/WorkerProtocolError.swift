import Foundation

/// A failure of the decode-worker machinery itself, not of an archive.
///
/// An archive never causes one: the paths it stopped did not run, and reports
/// say so with the message instead of an outcome.
///
/// ```swift
/// do {
///   _ = try supervisor.decode(bytes, path: .secure)
/// } catch let error where error.kind == .unavailable {
///   print(error)  // worker unavailable: '/tmp/x.xctest' exited with status 0 before the handshake …
/// }
/// ```
package struct WorkerProtocolError: Error, Sendable, Hashable, CustomStringConvertible,
  LocalizedError
{
  /// Whether a worker could not be had at all, or one that was running misbehaved.
  package enum Kind: Sendable, Hashable {
    /// No worker could be started: the executable is missing, cannot run, or is not a harness
    /// (it did not answer the worker handshake).
    case unavailable
    /// A worker that had answered the handshake broke the request protocol.
    case protocolViolation
  }

  /// What went wrong, such as `cannot launch '/path/archive-harness': …`.
  package let message: String
  /// Whether a worker could not be had, or a running one misbehaved.
  package let kind: Kind

  /// Creates an error with a message.
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - kind: Whether no worker could be had, or a running one misbehaved.
  package init(_ message: String, kind: Kind = .protocolViolation) {
    self.message = message
    self.kind = kind
  }

  /// `worker unavailable: …` or `decode worker: …`.
  package var description: String {
    switch kind {
    case .unavailable: "worker unavailable: \(message)"
    case .protocolViolation: "decode worker: \(message)"
    }
  }

  /// The description, so that `localizedDescription` reads well on Linux.
  package var errorDescription: String? { description }
}
