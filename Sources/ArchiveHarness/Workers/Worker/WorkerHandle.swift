import ArchiveCoder

/// A decode worker the supervisor sends requests to: a launched process (`WorkerProcess`) or
/// a child a fork server forked (`ForkedWorker`).
protocol WorkerHandle: AnyObject {
  /// The request and answer channel.
  var channel: FileDescriptorChannel { get }
  /// Whether the worker may still answer; false once it is known to have ended.
  var isRunning: Bool { get }
  /// The status of a worker that ended by exiting rather than by a signal, once known.
  var exitStatus: Int32? { get }
  /// The number of bytes the worker has written to standard error so far.
  func stderrLength() -> UInt64
  /// Kills the worker with `SIGKILL`.
  func forceKill()
  /// Waits for the worker to end and describes how it ended (signal 0 when it exited).
  func waitForDeath(stderrFrom offset: UInt64) throws(WorkerProtocolError) -> CrashReport
  /// Ends the worker: closes its input, waits briefly, then kills it.
  func stop()
}
