import Foundation
import _ArchiveHarnessSystem

/// The runtime names of classes, as `NSStringFromClass` prints them, worked out once per class.
///
/// swift-corelibs-foundation rebuilds the name from the type's reflected name on every call,
/// splitting it into components; describing one decoded profile spent more time there than on
/// the rest of its description. A class's name cannot change while the process runs, and the
/// table holds one entry per class asked about, so it stays as small as the program's classes.
enum RuntimeClassNames {
  private static let names = Locked<[ObjectIdentifier: String]>([:])

  /// The class's runtime name, such as `NSString` or `ProfileKit.Address`.
  static func name(of type: AnyClass) -> String {
    let key = ObjectIdentifier(type)
    if let known = names.withLock({ $0[key] }) { return known }
    let name = NSStringFromClass(type)
    names.withLock { $0[key] = name }
    return name
  }
}
