import Decoding
import Foundation
import HarnessVocabulary

/// Runs one archive through one decode path and returns what the app would see.
///
/// ``WorkerPathRunner`` runs every path in a child process, so that a trap in
/// Foundation or in an app's `init?(coder:)` becomes a `crashed` outcome
/// rather than the end of the harness. ``InProcessPathRunner`` runs only the
/// harness paths, in this process, for callers that trust the model code.
public protocol DecodePathRunner: Sendable {
  /// The outcome of one path over the objects under the given `$top` keys.
  ///
  /// One key decodes to its object; several to a ``DecodedValue/topLevel(_:)`` value.
  func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> DecodeOutcome
}

extension DecodePathRunner {
  /// The outcome of one path over the object under `$top.root`.
  public func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap
  ) -> DecodeOutcome {
    outcome(
      bytes, path: path, allowedClasses: allowedClasses, classMap: classMap, topKeys: ["root"])
  }
}

/// Runs every path in a supervised worker process: the `archive-harness` binary re-executed.
public struct WorkerPathRunner: DecodePathRunner {
  /// The supervisor that owns the worker processes.
  public let supervisor: FoundationReferenceSupervisor

  /// Creates a runner over an executable that has the worker mode.
  ///
  /// - Parameters:
  ///   - executable: The `archive-harness` binary (or a team's own harness executable).
  ///   - registryName: The worker registry to decode with; the app's current classes by default.
  ///   - timeout: The longest one archive may take before its worker is killed.
  public init(
    executable: URL, registryName: String = FoundationReferenceWorker.defaultRegistryName,
    timeout: Duration = .seconds(20)
  ) {
    supervisor = FoundationReferenceSupervisor(
      executableURL: executable, registryName: registryName, timeout: timeout)
  }

  public func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> DecodeOutcome {
    do {
      return try supervisor.decode(
        bytes, path: path, allowedClasses: allowedClasses, classMap: classMap, topKeys: topKeys)
    } catch {
      return .crashed(CrashReport(signal: 0, detail: "the decode worker failed: \(error)"))
    }
  }
}

/// Runs the harness paths in this process; Foundation paths are reported as not run.
public struct InProcessPathRunner: DecodePathRunner {
  /// The app's registered classes.
  public let registry: ClassRegistry

  /// Creates a runner over a registry.
  public init(registry: ClassRegistry) {
    self.registry = registry
  }

  public func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> DecodeOutcome {
    HarnessDecoder(registry: registry, classMap: classMap)
      .outcome(bytes, path: path, allowedClasses: allowedClasses, topKeys: topKeys)
  }
}
