import Foundation
import HarnessCoder
import HarnessVocabulary

/// The outcomes a ``WorkerPathRunner`` fetched ahead: when a caller asks for one path of an
/// archive, the paths it asked for before (after that one, in ``DecodePath`` order) run in the
/// same request, and wait here until the caller asks for them.
///
/// The paths to fetch ahead are learned: a runner asked for one path at a time fetches
/// nothing ahead, and one whose caller runs every path of each entry (the verifier) sends one
/// request an entry from the second entry on. An outcome is used once; the oldest archives'
/// outcomes are dropped when more than ``capacity`` archives, or more than ``byteBudget``
/// bytes of archives, wait, and a dropped path simply runs again when asked for.
final class PathBatches: @unchecked Sendable {
  /// One archive read one way: every input of a request but the path.
  struct Key: Hashable {
    var archive: [UInt8]
    var allowedClasses: [String]
    var classMap: ClassNameMap
    var topKeys: [String]
  }

  /// How many archives' outcomes may wait at once.
  let capacity: Int
  /// How many bytes of archives (kept as keys) may wait at once.
  let byteBudget: Int

  private let lock = NSLock()
  /// The paths callers have asked for, in any order.
  private var asked: Set<DecodePath> = []
  /// The waiting outcomes: several for one path when equal archives are read at once.
  private var waiting: [Key: [DecodePath: [Result<DecodeOutcome, WorkerProtocolError>]]] = [:]
  /// The keys in ``waiting``, oldest first.
  private var order: [Key] = []
  /// The bytes of the archives in ``order``.
  private var bytesWaiting = 0

  /// A store for up to `capacity` archives' outcomes, and `byteBudget` bytes of archives.
  init(capacity: Int, byteBudget: Int = 32 << 20) {
    self.capacity = max(1, capacity)
    self.byteBudget = byteBudget
  }

  /// Takes the outcome fetched ahead for `path` of `key`, if one waits.
  func take(_ path: DecodePath, of key: Key) -> Result<DecodeOutcome, WorkerProtocolError>? {
    lock.lock()
    defer { lock.unlock() }
    guard var paths = waiting[key], var results = paths[path], !results.isEmpty else {
      return nil
    }
    let result = results.removeFirst()
    paths[path] = results.isEmpty ? nil : results
    if paths.isEmpty {
      waiting[key] = nil
      order.removeAll { $0 == key }
      bytesWaiting -= key.archive.count
    } else {
      waiting[key] = paths
    }
    return result
  }

  /// Records that a caller asked for `path` and returns the paths to run with it: `path`,
  /// then the paths asked for before that follow it in ``DecodePath`` order.
  func paths(startingWith path: DecodePath) -> [DecodePath] {
    lock.lock()
    defer { lock.unlock() }
    asked.insert(path)
    let cases = DecodePath.allCases
    guard let start = cases.firstIndex(of: path) else { return [path] }
    return [path] + cases[(start + 1)...].filter { asked.contains($0) }
  }

  /// Keeps the outcomes of the paths after the first of a batch, for the caller to take.
  func keep(
    _ results: some Sequence<(DecodePath, Result<DecodeOutcome, WorkerProtocolError>)>, of key: Key
  ) {
    lock.lock()
    defer { lock.unlock() }
    var paths = waiting[key] ?? [:]
    for (path, result) in results { paths[path, default: []].append(result) }
    guard !paths.isEmpty else { return }
    if waiting[key] == nil {
      order.append(key)
      bytesWaiting += key.archive.count
    }
    waiting[key] = paths
    while order.count > capacity || (bytesWaiting > byteBudget && order.count > 1) {
      let oldest = order.removeFirst()
      waiting[oldest] = nil
      bytesWaiting -= oldest.archive.count
    }
  }
}
