import ArchiveCoder
import Foundation
import _ArchiveHarnessSystem

/// The app-specific part of a harness: the model classes its archives decode into, and where decoding runs.
///
/// A team's own executable is a few lines:
///
/// ```swift
/// import HarnessCLI
/// import MyModel
///
/// let configuration = HarnessConfiguration(modelClasses: [UserProfile.self, Address.self])
/// ArchiveHarnessCommand.main(configuration: configuration)
/// ```
///
/// From a test, `HarnessProject` (ArchiveHarnessTesting) takes the worker as a required
/// choice, since the test runner itself cannot be one:
///
/// ```swift
/// static let project = HarnessProject(
///   worker: .buildProduct(named: "my-harness"),
///   configuration: HarnessConfiguration(modelClasses: [UserProfile.self, Address.self]))
/// ```
public struct HarnessConfiguration: Sendable {
  /// The app's current classes: what decodes instantiate and allowed-class names refer to.
  public var registry: ClassRegistry
  /// Further registries the decode worker serves by name, such as an earlier app version's classes.
  public var additionalRegistries: [String: ClassRegistry]
  /// Where decode paths run; the running executable, re-executed, by default.
  public var worker: DecodeWorker

  /// Creates a configuration from the app's current model classes.
  ///
  /// - Parameters:
  ///   - modelClasses: The classes archives decode into, as `NSStringFromClass` names them.
  ///   - platformClasses: The Apple-platform classes the archives hold, such as `UIColor`:
  ///     on Linux their stand-ins take their place.
  ///   - additionalRegistries: Other registries the worker may decode with, by name.
  ///   - worker: Where decode paths run.
  public init(
    modelClasses: [NSObject.Type], platformClasses: [PlatformClass] = [],
    additionalRegistries: [String: ClassRegistry] = [:],
    worker: DecodeWorker = .runningExecutable
  ) {
    self.registry = ClassRegistry(modelClasses: modelClasses, platformClasses: platformClasses)
    self.additionalRegistries = additionalRegistries
    self.worker = worker
  }

  /// Every registry the worker serves: ``additionalRegistries`` and the current one under
  /// ``ClassRegistry/defaultName``.
  public var workerRegistries: [String: ClassRegistry] {
    var registries = additionalRegistries
    registries[ClassRegistry.defaultName] = registry
    return registries
  }

  /// The runner for ``worker``, decoding with one of ``workerRegistries``.
  ///
  /// ```swift
  /// let verifier = Verifier(registry: configuration.registry, runner: configuration.runner())
  /// ```
  ///
  /// - Parameters:
  ///   - registryName: The registry to decode with; the current classes by default.
  ///   - timeout: The longest one archive may take in a worker.
  ///   - workers: How many worker processes may decode at once, for callers on several threads.
  /// - Returns: A runner; when no worker can be had, one whose every path reports why.
  package func runner(
    registryName: String = ClassRegistry.defaultName,
    timeout: TimeSpan = .seconds(20), workers: Int = 1
  ) -> any DecodePathRunner {
    worker.runner(
      registry: workerRegistries[registryName] ?? registry, registryName: registryName,
      timeout: timeout, workers: workers)
  }

  /// The runner a Core Data preflight (`coredata preflight`, a manifest's `coreDataAttribute`
  /// pin) decodes rows with: ``runner(registryName:timeout:workers:)`` when ``registry`` holds
  /// app classes, whose `init?(coder:)` may trap; this process when it holds none (the
  /// installed `archive-harness`), since then only the harness coder runs.
  ///
  /// ```swift
  /// let preflight = TransformerPreflight(
  ///   storePath: "Books.sqlite", runner: configuration.preflightRunner())
  /// ```
  ///
  /// - Returns: A runner; when a worker is needed and none can be had, one whose every path
  ///   reports why.
  package func preflightRunner() -> any DecodePathRunner {
    TransformerPreflight.runner(registry: registry, worker: runner())
  }

  /// The ``additionalRegistries`` as a verifier serves them to entries that name one
  /// (`registry="v1"`), each with a runner of its own.
  ///
  /// ```swift
  /// var verifier = Verifier(registry: configuration.registry, runner: configuration.runner())
  /// verifier.namedRegistries = configuration.namedRegistries()
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: The longest one archive may take in a worker.
  ///   - workers: How many worker processes each registry's runner may use at once.
  /// - Returns: The registries by name.
  package func namedRegistries(timeout: TimeSpan = .seconds(20), workers: Int = 1) -> [String:
    Verifier.NamedRegistry]
  {
    var named: [String: Verifier.NamedRegistry] = [:]
    for (name, registry) in additionalRegistries {
      named[name] = Verifier.NamedRegistry(
        registry: registry, runner: runner(registryName: name, timeout: timeout, workers: workers))
    }
    return named
  }

  /// The typed migration of records, its decoders run where ``worker`` says.
  ///
  /// ```swift
  /// let transform = try configuration.typedTransform(
  ///   classMap: ClassNameMap(entries: ["NotesV1.Attachment": "NotesKit.FileAttachment"]),
  ///   allowedClasses: ["NotesKit.Note", "NotesKit.FileAttachment"])
  /// let plan = RecordMigrator(transform: transform).plan(record)
  /// ```
  ///
  /// - Parameters:
  ///   - classMap: Archived name → current name, for the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  ///   - registryName: The registry to decode with; the current classes by default.
  ///   - workers: How many worker processes may verify records at once.
  ///   - timeout: The longest one record may take in a worker.
  /// - Returns: A transform over a pool of workers, or in process for ``DecodeWorker/inProcess``.
  /// - Throws: `WorkerProtocolError` of kind `WorkerProtocolError.Kind.unavailable` when the
  ///   worker executable cannot be had.
  package func typedTransform(
    classMap: ClassNameMap, allowedClasses: [String],
    registryName: String = ClassRegistry.defaultName,
    workers: Int = MigrationEngine.defaultWorkerCount, timeout: TimeSpan = .seconds(20)
  ) throws(WorkerProtocolError) -> TypedTransform {
    let registry = workerRegistries[registryName] ?? self.registry
    guard let executable = try worker.executableURL() else {
      return TypedTransform(registry: registry, classMap: classMap, allowedClasses: allowedClasses)
    }
    let pool = SupervisorPool(count: workers) {
      WorkerSupervisor(
        executableURL: executable, registryName: registryName, timeout: timeout)
    }
    return TypedTransform(pool: pool, classMap: classMap, allowedClasses: allowedClasses)
  }
}
