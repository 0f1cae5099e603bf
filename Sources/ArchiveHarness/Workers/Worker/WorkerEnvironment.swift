import Foundation
import _ArchiveHarnessSystem

/// The environment decode workers start with: this process's, less every variable withheld.
///
/// Workers run app code. A store's key read from an environment variable (`--key-env`) is
/// withheld from them, so it is neither in their environment nor in `/proc/PID/environ`.
///
/// ```swift
/// let key = try StoreKey(environmentVariable: "NOTES_KEY")
/// WorkerEnvironment.withhold("NOTES_KEY")
/// ```
package enum WorkerEnvironment {
  private static let withheld = Locked<Set<String>>([])

  /// Withholds a variable from every worker started from now on.
  package static func withhold(_ name: String) {
    withheld.withLock { _ = $0.insert(name) }
  }

  /// The environment a worker starts with.
  static func current() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in withheld.withLock({ $0 }) { environment[name] = nil }
    // A crash is an expected outcome here: skip the runtime's slow symbolicated backtrace.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    return environment
  }
}
