import ArchiveCoder
import ArchiveFormat
import Foundation
import _ArchiveHarnessSystem

/// Runs every path in a supervised worker process: the `archive-harness` binary re-executed.
///
/// With more than one worker, callers on different threads (Swift Testing's parallel test
/// cases) decode in different worker processes at once.
package struct WorkerPathRunner: DecodePathRunner {
  /// The supervisors that own the worker processes, one per caller at a time.
  package let pool: SupervisorPool

  /// Every path decodes in a worker process: a trap is the archive's `crashed` outcome.
  package var containment: Containment { .workerProcess }

  /// Creates a runner over an executable that has the worker mode.
  ///
  /// - Parameters:
  ///   - executable: The `archive-harness` binary (or a team's own harness executable).
  ///   - registryName: The worker registry to decode with; the app's current classes by default.
  ///   - timeout: The longest one archive may take before its worker is killed.
  ///   - workers: How many worker processes may decode at once.
  package init(
    executable: URL, registryName: String = HarnessWorker.defaultRegistryName,
    timeout: TimeSpan = .seconds(20), workers: Int = 1
  ) {
    pool = SupervisorPool(count: workers) {
      WorkerSupervisor(
        executableURL: executable, registryName: registryName, timeout: timeout)
    }
  }

  /// Runs one path in the worker; a Foundation path on an archive the harness's reader refuses
  /// (`FoundationScreen`) is rejected here, without a worker.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - path: The decode path to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads.
  /// - Returns: The outcome; `DecodeOutcome.crashed(_:)` when a signal ended the worker.
  /// - Throws: `WorkerProtocolError` when no worker could be had or one misbehaved.
  package func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    if path.isFoundation, let screen = FoundationScreen.check(bytes, topKeys: topKeys) {
      return .rejected(screen.rejection(for: path))
    }
    return try pool.withSupervisor { supervisor throws(WorkerProtocolError) in
      try supervisor.decode(
        bytes, path: path, allowedClasses: allowedClasses, classMap: classMap, topKeys: topKeys)
    }
  }

  /// Runs several paths of one archive in one request to the worker, each answered on its own.
  ///
  /// Each path's outcome is the one it gets alone. A crash ends the request: the paths after
  /// the one that crashed, and every path when the worker's server was lost before its first
  /// answer, run on their own in a fresh worker. The Foundation paths of an archive the
  /// harness's reader refuses (`FoundationScreen`) are rejected without a worker.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - paths: The decode paths to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads.
  /// - Returns: One result per path, in the order asked.
  package func outcomes(
    _ bytes: [UInt8], paths: [DecodePath], allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> [Result<DecodeOutcome, WorkerProtocolError>] {
    if paths.contains(where: \.isFoundation),
      let screen = FoundationScreen.check(bytes, topKeys: topKeys)
    {
      let others = paths.filter { !$0.isFoundation }
      var ran = outcomes(
        bytes, running: others, allowedClasses: allowedClasses, classMap: classMap,
        topKeys: topKeys
      ).makeIterator()
      return paths.map { path in
        path.isFoundation
          ? .success(.rejected(screen.rejection(for: path)))
          : ran.next()
            ?? .failure(WorkerProtocolError("no result for the \(path) path", kind: .unavailable))
      }
    }
    return outcomes(
      bytes, running: paths, allowedClasses: allowedClasses, classMap: classMap, topKeys: topKeys)
  }

  /// Runs the paths as ``outcomes(_:paths:allowedClasses:classMap:topKeys:)`` does, the
  /// secure path in a request of its own, whose answer carries its strictness findings.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - paths: The decode paths to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads.
  /// - Returns: One result per path, in the order asked.
  package func pathOutcomes(
    _ bytes: [UInt8], paths: [DecodePath], allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> [Result<PathOutcome, WorkerProtocolError>] {
    let others = paths.filter { $0 != .secure }
    var ran = outcomes(
      bytes, paths: others, allowedClasses: allowedClasses, classMap: classMap, topKeys: topKeys
    ).makeIterator()
    return paths.map { path in
      guard path == .secure else {
        return ran.next()?.map { PathOutcome($0) }
          ?? .failure(WorkerProtocolError("no result for the \(path) path", kind: .unavailable))
      }
      return Result { () throws(WorkerProtocolError) in
        let response = try pool.withSupervisor { supervisor throws(WorkerProtocolError) in
          try supervisor.decodeWithNotes(
            bytes, path: .secure, allowedClasses: allowedClasses, classMap: classMap,
            topKeys: topKeys)
        }
        return PathOutcome(response.outcome, strictnessFindings: response.strictnessFindings)
      }
    }
  }

  /// Runs the paths in the worker, several in one request.
  private func outcomes(
    _ bytes: [UInt8], running paths: [DecodePath], allowedClasses: [String],
    classMap: ClassNameMap, topKeys: [String]
  ) -> [Result<DecodeOutcome, WorkerProtocolError>] {
    var results =
      paths.count > 1
      ? pool.withSupervisor { supervisor in
        supervisor.decode(
          bytes, paths: paths, allowedClasses: allowedClasses, classMap: classMap,
          topKeys: topKeys)
      } : []
    for path in paths.dropFirst(results.count) {
      results.append(
        Result { () throws(WorkerProtocolError) in
          try outcome(
            bytes, path: path, allowedClasses: allowedClasses, classMap: classMap,
            topKeys: topKeys)
        })
    }
    return results
  }

  /// Works out the allowed-classes advice in the worker, where app code may trap.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: `DifferentialAdvice/message`, or why there is none.
  /// - Throws: `WorkerProtocolError` when no worker could be had or one misbehaved.
  package func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    throws(WorkerProtocolError) -> String
  {
    try pool.withSupervisor { supervisor throws(WorkerProtocolError) in
      try supervisor.advice(bytes, allowedClasses: allowedClasses, classMap: classMap)
    }
  }
}
