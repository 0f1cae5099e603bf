import Foundation

/// The classes one secure decode call accepts, in the order the caller gave.
///
/// Classes given as class objects are compared by identity with a registered class's real
/// hierarchy; names are resolved through the registry, and names it lacks are compared as
/// names. Rendering names happens only for messages.
struct AllowedClassList {
  /// Whose list this is, for strictness findings: the read's own, or an app's decode call.
  enum Owner: Hashable {
    /// The read's top-level allowed classes.
    case read
    /// A decode call an app's `init?(coder:)` made: the class decoding, and the key.
    case call(decoder: String, key: String)
  }

  private let identifiers: [ObjectIdentifier]
  private let unresolvedNames: [String]
  private let types: [AnyClass]
  private let givenNames: [String]?
  /// Whose list this is; `nil` for the lists Foundation's own forms decode with, which no
  /// app wrote and no strictness finding is about.
  private(set) var owner: Owner?

  /// A list from runtime names, as a read's top-level `allowedClasses` gives them.
  init(names: [String], registry: ClassRegistry) {
    var identifiers: [ObjectIdentifier] = []
    var unresolved: [String] = []
    for name in names {
      if let registered = registry.registeredClass(named: name) {
        identifiers.append(ObjectIdentifier(registered.type))
      } else {
        unresolved.append(name)
      }
    }
    self.identifiers = identifiers
    self.unresolvedNames = unresolved
    self.types = []
    self.givenNames = names
  }

  /// A list from class objects, as `decodeObject(of:forKey:)` receives them.
  init(types: [AnyClass]) {
    self.identifiers = types.map { ObjectIdentifier($0) }
    self.unresolvedNames = []
    self.types = types
    self.givenNames = nil
  }

  private init(base: AllowedClassList, extra: [AnyClass]) {
    self.identifiers = base.identifiers + extra.map { ObjectIdentifier($0) }
    self.unresolvedNames = base.unresolvedNames
    self.types = base.types + extra
    self.givenNames = base.givenNames.map { $0 + extra.map { RuntimeClassNames.name(of: $0) } }
  }

  private init(base: AllowedClassList, droppingNSObject: Void) {
    let root = ObjectIdentifier(NSObject.self)
    self.identifiers = base.identifiers.filter { $0 != root }
    self.unresolvedNames = base.unresolvedNames.filter { $0 != Self.rootClassName }
    self.types = base.types.filter { ObjectIdentifier($0) != root }
    self.givenNames = base.givenNames?.filter { $0 != Self.rootClassName }
    self.owner = base.owner
  }

  /// `NSObject`'s runtime name.
  private static let rootClassName = "NSObject"

  /// Whether a registered class passes: it is a listed class or a subclass of one, by its
  /// real hierarchy.
  func admits(_ registered: RegisteredClass) -> Bool {
    for identifier in identifiers where registered.hierarchyIdentifiers.contains(identifier) {
      return true
    }
    return unresolvedNames.contains { registered.isKind(of: $0) }
  }

  /// Whether a class object passes, walking its real superclasses.
  func admits(type: AnyClass) -> Bool {
    var current: AnyClass? = type
    while let candidate = current {
      if identifiers.contains(ObjectIdentifier(candidate)) { return true }
      current = _getSuperclass(candidate)
    }
    return unresolvedNames.contains { ClassRegistry.isKind(type, of: $0) }
  }

  /// The runtime names, in the caller's order.
  var names: [String] { givenNames ?? types.map { RuntimeClassNames.name(of: $0) } }

  /// The list as messages print it: `[ProfileKit.UserProfile, NSString]`.
  var rendered: String { "[" + names.joined(separator: ", ") + "]" }

  /// Whether the list names `NSObject`, which admits every class.
  var listsNSObject: Bool {
    identifiers.contains(ObjectIdentifier(NSObject.self))
      || unresolvedNames.contains(Self.rootClassName)
  }

  /// The list without `NSObject`: what it admits on its own merits.
  var withoutNSObject: AllowedClassList { AllowedClassList(base: self, droppingNSObject: ()) }

  /// The same list, owned by the read or an app's decode call.
  func owned(by owner: Owner) -> AllowedClassList {
    var list = self
    list.owner = owner
    return list
  }
}

extension AllowedClassList {
  /// The list with further classes that one form admits of itself, such as the property-list
  /// classes an attributed string's attribute dictionaries are made of.
  ///
  /// - Parameter extra: The classes to add.
  /// - Returns: A list that admits what this one admits and `types`.
  func adding(types extra: [AnyClass]) -> AllowedClassList {
    AllowedClassList(base: self, extra: extra)
  }
}
