import Dispatch
import Foundation
import _ArchiveHarnessSystem

/// Turns SIGINT (Ctrl-C) and SIGTERM (a `kill`, a CI runner's timeout, a system shutdown) into
/// a request to stop after the current batch, for the duration of a run: the journal gets its
/// end line and the report its "interrupted" line either way.
final class MigrateInterrupt: @unchecked Sendable {
  /// The signals a run stops for.
  static let signals = [SIGINT, SIGTERM]

  private let raised = Locked(false)
  private var sources: [any DispatchSourceSignal] = []

  /// Starts catching the signals; returns once they are caught.
  ///
  /// A signal source is registered asynchronously, and until it is, a signal that the
  /// default action no longer ends would be lost: installing waits for each registration.
  func install() {
    for number in Self.signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      let registered = DispatchSemaphore(value: 0)
      source.setRegistrationHandler { registered.signal() }
      source.setEventHandler { [weak self] in self?.raise() }
      source.resume()
      registered.wait()
      sources.append(source)
    }
  }

  /// Restores the signals' default actions.
  func remove() {
    for source in sources { source.cancel() }
    sources = []
    for number in Self.signals { signal(number, SIG_DFL) }
  }

  /// Marks the flag.
  func raise() {
    raised.withLock { $0 = true }
  }

  /// Whether a signal arrived.
  var isRaised: Bool { raised.withLock { $0 } }
}
