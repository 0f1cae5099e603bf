import Foundation

/// A class the harness may instantiate, with facts read from the runtime, never from an archive.
///
/// The superclass chain comes from walking the class's real superclasses, so a `$classes` list
/// in an archive cannot make a class pass an `isKindOfClass` check it would not pass in the app.
package struct RegisteredClass: Sendable, CustomStringConvertible {
  /// The runtime name, as `NSStringFromClass` prints it, such as `ProfileKit.UserProfile`.
  package let name: String
  /// The class itself.
  package let type: NSObject.Type
  /// The real superclass names, nearest first, ending in `NSObject`.
  package let superclassNames: [String]
  /// Whether the class conforms to `NSCoding`.
  package let conformsToCoding: Bool
  /// Whether the class conforms to `NSSecureCoding` and returns `true` from
  /// `supportsSecureCoding`.
  package let supportsSecureCoding: Bool
  /// The Foundation value class this is, or `nil` for an app model class.
  package let foundationKind: FoundationValueKind?
  /// The identities of the class and its real superclasses, nearest first.
  package let hierarchyIdentifiers: [ObjectIdentifier]
  /// Whether the class is a `PlatformStandIn` registered under the Apple-platform class's
  /// name, such as `UIColorStandIn` for `UIColor`.
  package let isStandIn: Bool

  /// Reads a class's facts from the runtime.
  ///
  /// - Parameters:
  ///   - type: The class.
  ///   - foundationKind: The Foundation value class it is, if any.
  package init(type: NSObject.Type, foundationKind: FoundationValueKind? = nil) {
    self.type = type
    let standIn = type as? any PlatformStandIn.Type
    self.isStandIn = standIn != nil
    self.name =
      foundationKind?.className ?? standIn?.platformClassName ?? RuntimeClassNames.name(of: type)
    var names: [String] = []
    var identifiers = [ObjectIdentifier(type)]
    var current: AnyClass? = _getSuperclass(type)
    while let superclass = current {
      names.append(RuntimeClassNames.name(of: superclass))
      identifiers.append(ObjectIdentifier(superclass))
      current = _getSuperclass(superclass)
    }
    self.superclassNames = names
    self.hierarchyIdentifiers = identifiers
    self.conformsToCoding = type is any NSCoding.Type
    if let secure = type as? any NSSecureCoding.Type {
      self.supportsSecureCoding = secure.supportsSecureCoding
    } else {
      self.supportsSecureCoding = false
    }
    self.foundationKind = foundationKind
  }

  /// The class's own name followed by its real superclass names.
  package var hierarchy: [String] { [name] + superclassNames }

  /// Whether the class is the named class or a subclass of it, by its real hierarchy.
  ///
  /// - Parameter className: A runtime class name, such as `NSString` or `ProfileKit.Address`.
  /// - Returns: `true` when `className` is this class or one of its real superclasses.
  package func isKind(of className: String) -> Bool {
    name == className || superclassNames.contains(className)
  }

  /// Whether the class holds other objects whose classes secure coding checks.
  package var isContainer: Bool { foundationKind?.isContainer ?? false }

  /// The class's name.
  package var description: String { name }
}
