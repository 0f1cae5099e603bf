import Decoding
import Foundation

/// The app-specific part of a harness executable: the model classes its archives decode into.
///
/// A team's own executable is a few lines:
///
/// ```swift
/// import HarnessCLI
/// import MyModel
///
/// let configuration = HarnessConfiguration(modelClasses: [UserProfile.self, Address.self])
/// exit(ArchiveHarnessCommand.main(CommandLine.arguments, configuration: configuration))
/// ```
public struct HarnessConfiguration: Sendable {
  /// The app's current classes: what decodes instantiate and allowed-class names refer to.
  public var registry: ClassRegistry
  /// Further registries the decode worker serves by name, such as an earlier app version's classes.
  public var additionalRegistries: [String: ClassRegistry]

  /// Creates a configuration from the app's current model classes.
  ///
  /// - Parameters:
  ///   - modelClasses: The classes archives decode into, as `NSStringFromClass` names them.
  ///   - platformClasses: The Apple-platform classes the archives hold, such as `UIColor`:
  ///     on Linux their stand-ins take their place.
  ///   - additionalRegistries: Other registries the worker may decode with, by name.
  public init(
    modelClasses: [NSObject.Type], platformClasses: [PlatformClass] = [],
    additionalRegistries: [String: ClassRegistry] = [:]
  ) {
    self.registry = ClassRegistry(modelClasses: modelClasses, platformClasses: platformClasses)
    self.additionalRegistries = additionalRegistries
  }

  /// Every registry the worker serves, the current one under the default name.
  var workerRegistries: [String: ClassRegistry] {
    var registries = additionalRegistries
    registries[FoundationReferenceWorker.defaultRegistryName] = registry
    return registries
  }

  /// The running executable, which the decode worker re-executes.
  static var executableURL: URL {
    #if os(Linux)
      if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
      {
        return URL(fileURLWithPath: resolved)
      }
    #endif
    if let url = Bundle.main.executableURL { return url }
    return URL(
      fileURLWithPath: CommandLine.arguments.first ?? ArchiveHarnessCommand.defaultToolName)
  }
}
