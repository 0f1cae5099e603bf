import ArchiveCoder
import ArchiveFormat
import Foundation

/// The address space a decode worker may use, and how a worker that ran out of it is reported.
///
/// A decode can grow without bound: Foundation's unarchiver copying shared references, or an
/// app's `init?(coder:)` that allocates what an archive asks for. Each worker therefore runs
/// under an address-space limit (`RLIMIT_AS`, Linux), 1 GiB unless ``variable`` says
/// otherwise, as well as the time limit. An allocation past it fails, the runtime traps with its
/// out-of-memory message (`Fatal error: failed to allocate …`), and the path is reported as
/// `limit-exceeded`, naming the limit, rather than as a crash.
///
/// ```swift
/// // ARCHIVE_HARNESS_WORKER_MEMORY_MIB=2048 archive-harness decode big.archive
/// WorkerMemoryLimit.fromEnvironment.mebibytes  // 2048
/// ```
package struct WorkerMemoryLimit: Sendable, Hashable, CustomStringConvertible {
  /// The environment variable that sets the limit, in MiB (64 to 1,048,576); the supervisor
  /// passes its own limit to each worker it starts through it.
  package static let variable = "ARCHIVE_HARNESS_WORKER_MEMORY_MIB"
  /// The limit when ``variable`` is unset or out of range: 1 GiB.
  package static let defaultMebibytes = 1024
  /// The values ``variable`` may take.
  package static let range = 64...1_048_576

  /// The limit, in MiB.
  package let mebibytes: Int

  /// A limit of this many MiB, clamped to ``range``.
  package init(mebibytes: Int) {
    self.mebibytes = min(max(mebibytes, Self.range.lowerBound), Self.range.upperBound)
  }

  /// The limit in bytes.
  package var bytes: UInt64 { UInt64(mebibytes) << 20 }

  /// The limit ``variable`` gives in this process's environment, or the default.
  package static var fromEnvironment: WorkerMemoryLimit {
    parse(ProcessInfo.processInfo.environment[variable])
  }

  /// The limit a value of ``variable`` gives: its MiB when in ``range``, else the default.
  package static func parse(_ text: String?) -> WorkerMemoryLimit {
    guard let text, let value = Int(text), range.contains(value) else {
      return WorkerMemoryLimit(mebibytes: defaultMebibytes)
    }
    return WorkerMemoryLimit(mebibytes: value)
  }

  /// `1024 MiB`.
  package var description: String { "\(mebibytes) MiB" }

  /// What the runtimes print when an allocation fails: Swift's (`failed to allocate N bytes`,
  /// formerly `Could not allocate memory`), C++'s `std::bad_alloc`, CoreFoundation's and the C
  /// library's (`out of memory`, `Cannot allocate memory`).
  static let exhaustionMarkers = [
    "failed to allocate", "could not allocate memory", "bad_alloc", "out of memory",
    "cannot allocate memory",
  ]

  /// Whether a worker's death is this limit's doing: killed by a signal, not after a timeout,
  /// with a runtime's out-of-memory message as its last words; never where workers set no
  /// limit (other systems than Linux).
  func explains(_ crash: CrashReport) -> Bool {
    #if os(Linux)
      guard !crash.timedOut, crash.signal != 0 else { return false }
      let words = crash.detail.lowercased()
      return Self.exhaustionMarkers.contains { words.contains($0) }
    #else
      return false
    #endif
  }

  /// The message of a path whose worker ran out of the limit.
  func message(path: DecodePath?, crash: CrashReport) -> String {
    let subject = path.map { "\($0): " } ?? ""
    return
      "\(subject)the decode worker ran out of its memory limit of \(self) (address space; "
      + "\(Self.variable) sets it) and was stopped (\(crash.summary))"
  }

  /// The `limit-exceeded` outcome of a path whose worker ran out of the limit.
  func rejection(path: DecodePath?, crash: CrashReport) -> DecodeOutcome {
    .rejected(
      DecodeRejection(
        category: .limitExceeded, keyPath: "$archive", message: message(path: path, crash: crash)))
  }
}
