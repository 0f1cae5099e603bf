import Foundation

/// The classes a decode may instantiate: the app's current model types plus Foundation's values.
///
/// An app team builds one from its own classes; anything not registered is never instantiated.
///
/// ```swift
/// let registry = ClassRegistry(modelClasses: [UserProfile.self, Address.self])
/// registry.registeredClass(named: "ProfileKit.UserProfile")?.supportsSecureCoding  // true
/// ```
public struct ClassRegistry: Sendable {
  /// The name of the registry of an executable's current classes, which entries decode with
  /// unless they name another registry (`registry="NAME"`).
  ///
  /// ```swift
  /// let runner = configuration.runner(registryName: ClassRegistry.defaultName)
  /// ```
  public static let defaultName = "default"

  private let classesByName: [String: RegisteredClass]
  private let classesByIdentifier: [ObjectIdentifier: RegisteredClass]

  /// The app's model classes, in registration order.
  package let modelClasses: [RegisteredClass]

  /// Creates a registry of the Foundation value classes plus the given model classes.
  ///
  /// - Parameters:
  ///   - modelClasses: The app's current model classes; each must be an `NSObject`
  ///     subclass. Classes that do not conform to `NSCoding` are kept so that a decode can
  ///     report them as `not-secure-coding` instead of unknown.
  ///   - platformClasses: The Apple-platform classes the app's archives hold, such as
  ///     ``PlatformClass/uiColor``: the real class where this process has it, its stand-in
  ///     otherwise.
  public init(modelClasses: [NSObject.Type] = [], platformClasses: [PlatformClass] = []) {
    var byName: [String: RegisteredClass] = [:]
    for kind in FoundationValueKind.allCases {
      byName[kind.className] = RegisteredClass(type: kind.type, foundationKind: kind)
    }
    for platformClass in platformClasses {
      byName[platformClass.className] = RegisteredClass(type: platformClass.registeredType)
    }
    var models: [RegisteredClass] = []
    for type in modelClasses {
      let registered = RegisteredClass(type: type)
      if byName[registered.name] == nil {
        models.append(registered)
      }
      byName[registered.name] = registered
    }
    self.classesByName = byName
    var byIdentifier: [ObjectIdentifier: RegisteredClass] = [:]
    for registered in byName.values {
      byIdentifier[ObjectIdentifier(registered.type)] = registered
    }
    self.classesByIdentifier = byIdentifier
    self.modelClasses = models
  }

  /// A registry of the Foundation value classes only.
  public static let foundation = ClassRegistry()

  /// Looks up a registered class by its runtime name.
  ///
  /// - Parameter name: A runtime name such as `ProfileKit.UserProfile` or `NSArray`.
  /// - Returns: The class, or `nil` when it is not registered.
  package func registeredClass(named name: String) -> RegisteredClass? {
    classesByName[name]
  }

  /// Looks up a registered class by the class object, as user code passes it to a decode call.
  ///
  /// - Parameter type: A class, such as `NSString.self`.
  /// - Returns: The registered class, or `nil` when it is not registered.
  package func registeredClass(for type: AnyClass) -> RegisteredClass? {
    classesByIdentifier[ObjectIdentifier(type)]
  }

  /// Every registered class name, sorted.
  public var classNames: [String] { classesByName.keys.sorted() }

  /// The runtime name of a class, as `NSStringFromClass` prints it.
  ///
  /// - Parameter type: A class.
  /// - Returns: Its name, such as `NSString` or `ProfileKit.Address`.
  public static func runtimeName(of type: AnyClass) -> String {
    RuntimeClassNames.name(of: type)
  }

  /// Whether a class, given by its runtime class object, is the named class or a subclass of it.
  ///
  /// - Parameters:
  ///   - type: A class known to the runtime.
  ///   - className: The ancestor's runtime name.
  /// - Returns: `true` when the real hierarchy of `type` contains `className`.
  public static func isKind(_ type: AnyClass, of className: String) -> Bool {
    var current: AnyClass? = type
    while let candidate = current {
      if RuntimeClassNames.name(of: candidate) == className { return true }
      current = _getSuperclass(candidate)
    }
    return false
  }
}
