import ArchiveCoder
import ArchiveFormat
import Foundation

/// Runs the harness paths in this process; Foundation paths are reported as not run.
///
/// App code runs in the caller's process: an `init?(coder:)` that traps ends it.
///
/// ```swift
/// let runner = InProcessPathRunner(registry: ClassRegistry(modelClasses: [Note.self]))
/// let outcome = try runner.outcome(bytes, path: .legacy, allowedClasses: [], classMap: .empty)
/// ```
package struct InProcessPathRunner: DecodePathRunner {
  /// The app's registered classes.
  package let registry: ClassRegistry

  /// Off: the harness paths decode in this process, and a trap ends it.
  package var containment: Containment { .inProcess }

  /// Creates a runner over a registry.
  ///
  /// - Parameter registry: The app's registered classes.
  package init(registry: ClassRegistry) {
    self.registry = registry
  }

  /// Runs a harness path in this process.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - path: The decode path to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads.
  /// - Returns: What the app would see on that path.
  /// - Throws: `WorkerProtocolError` of kind `WorkerProtocolError.Kind.unavailable` for a
  ///   Foundation path, which runs only in a worker process.
  package func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    guard !path.isFoundation else { throw Self.notRun(path) }
    return HarnessDecoder(registry: registry, classMap: classMap)
      .outcome(bytes, path: path, allowedClasses: allowedClasses, topKeys: topKeys)
  }

  /// Runs the harness paths in this process, each with the strictness findings its decode
  /// recorded; a Foundation path is not run.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - paths: The decode paths to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads.
  /// - Returns: One result per path.
  package func pathOutcomes(
    _ bytes: [UInt8], paths: [DecodePath], allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> [Result<PathOutcome, WorkerProtocolError>] {
    let decoder = HarnessDecoder(registry: registry, classMap: classMap)
    return paths.map { path in
      Result { () throws(WorkerProtocolError) in
        guard !path.isFoundation else { throw Self.notRun(path) }
        let result = decoder.decode(
          bytes, secure: path.isSecure, allowedClasses: allowedClasses, topKeys: topKeys)
        return PathOutcome(result.outcome, strictnessFindings: result.strictnessFindings)
      }
    }
  }

  /// Why a Foundation path does not run here.
  private static func notRun(_ path: DecodePath) -> WorkerProtocolError {
    WorkerProtocolError(
      "\(path.rawValue) runs only in a worker process, and this verification runs in process",
      kind: .unavailable)
  }

  /// Works out the allowed-classes advice in this process.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: `DifferentialAdvice/message`.
  package func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    -> String
  {
    HarnessDecoder(registry: registry, classMap: classMap)
      .differentialAdvice(bytes, allowedClasses: allowedClasses).message
  }
}
