import Decoding
import Foundation
import HarnessVocabulary

/// Runs one archive through one decode path and returns what the app would see.
///
/// ``WorkerPathRunner`` runs every path in a child process, so that a trap in
/// Foundation or in an app's `init?(coder:)` becomes a `crashed` outcome
/// rather than the end of the harness. ``InProcessPathRunner`` runs only the
/// harness paths, in this process, for callers that trust the model code.
///
/// A runner that cannot run a path at all (no worker could be had) throws, and
/// the path is reported as not run, with the reason; it is never an outcome.
///
/// ```swift
/// let runner: any DecodePathRunner = WorkerPathRunner(executable: harness)
/// let outcome = try runner.outcome(bytes, path: .secure, allowedClasses: ["NSArray"], classMap: .empty)
/// ```
public protocol DecodePathRunner: Sendable {
  /// The outcome of one path.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - path: The decode path to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads; one decodes to its object, several to a
  ///     ``DecodedValue/topLevel(_:)`` value.
  /// - Returns: What the app would see on that path.
  /// - Throws: ``WorkerProtocolError`` when the path could not be run.
  func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) throws(WorkerProtocolError) -> DecodeOutcome

  /// The `allowedClasses` that would make the secure read succeed where legacy decodes.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: ``DifferentialAdvice/message``, or why there is none.
  /// - Throws: ``WorkerProtocolError`` when the advice could not be run.
  func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    throws(WorkerProtocolError) -> String
}

extension DecodePathRunner {
  /// No advice: a runner that does not implement it says so rather than running app code here.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: Nothing; it always throws.
  /// - Throws: ``WorkerProtocolError`` of kind ``WorkerProtocolError/Kind/unavailable``.
  public func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    throws(WorkerProtocolError) -> String
  {
    throw WorkerProtocolError("\(Self.self) gives no allowedClasses advice", kind: .unavailable)
  }
}

extension DecodePathRunner {
  /// The outcome of one path over the object under `$top.root`.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - path: The decode path to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  /// - Returns: What the app would see on that path.
  /// - Throws: ``WorkerProtocolError`` when the path could not be run.
  public func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    try outcome(
      bytes, path: path, allowedClasses: allowedClasses, classMap: classMap, topKeys: ["root"])
  }
}

/// Runs every path in a supervised worker process: the `archive-harness` binary re-executed.
///
/// With more than one worker, callers on different threads (Swift Testing's parallel test
/// cases) decode in different worker processes at once.
public struct WorkerPathRunner: DecodePathRunner {
  /// The supervisors that own the worker processes, one per caller at a time.
  public let pool: SupervisorPool

  /// Creates a runner over an executable that has the worker mode.
  ///
  /// - Parameters:
  ///   - executable: The `archive-harness` binary (or a team's own harness executable).
  ///   - registryName: The worker registry to decode with; the app's current classes by default.
  ///   - timeout: The longest one archive may take before its worker is killed.
  ///   - workers: How many worker processes may decode at once.
  public init(
    executable: URL, registryName: String = HarnessWorker.defaultRegistryName,
    timeout: Duration = .seconds(20), workers: Int = 1
  ) {
    pool = SupervisorPool(count: workers) {
      WorkerSupervisor(
        executableURL: executable, registryName: registryName, timeout: timeout)
    }
  }

  /// Runs one path in the worker.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - path: The decode path to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads.
  /// - Returns: The outcome; ``DecodeOutcome/crashed(_:)`` when a signal ended the worker.
  /// - Throws: ``WorkerProtocolError`` when no worker could be had or one misbehaved.
  public func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    try pool.withSupervisor { supervisor throws(WorkerProtocolError) in
      try supervisor.decode(
        bytes, path: path, allowedClasses: allowedClasses, classMap: classMap, topKeys: topKeys)
    }
  }

  /// Works out the allowed-classes advice in the worker, where app code may trap.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: ``DifferentialAdvice/message``, or why there is none.
  /// - Throws: ``WorkerProtocolError`` when no worker could be had or one misbehaved.
  public func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    throws(WorkerProtocolError) -> String
  {
    try pool.withSupervisor { supervisor throws(WorkerProtocolError) in
      try supervisor.advice(bytes, allowedClasses: allowedClasses, classMap: classMap)
    }
  }
}

/// Runs the harness paths in this process; Foundation paths are reported as not run.
///
/// App code runs in the caller's process: an `init?(coder:)` that traps ends it.
///
/// ```swift
/// let runner = InProcessPathRunner(registry: ClassRegistry(modelClasses: [Note.self]))
/// let outcome = try runner.outcome(bytes, path: .legacy, allowedClasses: [], classMap: .empty)
/// ```
public struct InProcessPathRunner: DecodePathRunner {
  /// The app's registered classes.
  public let registry: ClassRegistry

  /// Creates a runner over a registry.
  ///
  /// - Parameter registry: The app's registered classes.
  public init(registry: ClassRegistry) {
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
  /// - Throws: ``WorkerProtocolError`` of kind ``WorkerProtocolError/Kind/unavailable`` for a
  ///   Foundation path, which runs only in a worker process.
  public func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    guard !path.isFoundation else {
      throw WorkerProtocolError(
        "\(path.rawValue) runs only in a worker process, and this verification runs in process",
        kind: .unavailable)
    }
    return HarnessDecoder(registry: registry, classMap: classMap)
      .outcome(bytes, path: path, allowedClasses: allowedClasses, topKeys: topKeys)
  }

  /// Works out the allowed-classes advice in this process.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: ``DifferentialAdvice/message``.
  public func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    -> String
  {
    HarnessDecoder(registry: registry, classMap: classMap)
      .differentialAdvice(bytes, allowedClasses: allowedClasses).message
  }
}
