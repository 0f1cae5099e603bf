import Dispatch
import Foundation

/// Turns SIGINT into a request to stop after the current batch, for the duration of a run.
final class MigrateInterrupt: @unchecked Sendable {
  private let lock = NSLock()
  private var raised = false
  private var source: (any DispatchSourceSignal)?

  /// Starts catching SIGINT.
  func install() {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { [weak self] in self?.raise() }
    source.resume()
    self.source = source
  }

  /// Restores SIGINT's default action.
  func remove() {
    source?.cancel()
    source = nil
    signal(SIGINT, SIG_DFL)
  }

  /// Marks the flag.
  func raise() {
    lock.lock()
    raised = true
    lock.unlock()
  }

  /// Whether SIGINT arrived.
  var isRaised: Bool {
    lock.lock()
    defer { lock.unlock() }
    return raised
  }
}
