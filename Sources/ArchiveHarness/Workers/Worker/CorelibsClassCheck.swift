import ArchiveCoder
import ArchiveFormat
import Foundation

/// The first object a secure read by swift-corelibs-foundation would trap on for its class,
/// found with the harness's own reader before Foundation runs.
///
/// corelibs checks an object's class against the read's allowed classes before it calls
/// `init(coder:)`, and where the class is not among them it calls `fatalError` ("Value was of
/// unexpected class …"), whatever the decoding failure policy; Apple's `NSKeyedUnarchiver`
/// fails the read with an error instead. So the worker asks this check first, and a class
/// it finds is the path's `class-not-allowed` rejection, as Apple gives it, rather than a
/// `crashed` worker.
///
/// The walk follows the objects a read checks against its own list: each `$top` key read
/// with the allowed classes, and the elements of Foundation's collections (arrays, sets,
/// ordered sets, dictionaries, keys first), which corelibs decodes with the list of the read
/// that holds them. Every object met has its class checked; an object of any other class,
/// such as an app class, is not entered, since its `init(coder:)` decodes its fields with
/// lists of its own. Each class name resolves as corelibs resolves it (the unarchiver's class
/// map, then the global one, then `NSClassFromString`); the walk ends at a name no class
/// answers to (corelibs fails that read with an error) and at a key read unkeyed (`$0`).
///
/// corelibs checks a class once per archive, so a class an app's `init(coder:)` let in under
/// its own list passes there unchecked later; Apple's checks each object, and so does this.
///
/// ```swift
/// let check = CorelibsClassCheck(archive: archive, allowed: [NSArray.self]) {
///   unarchiver.class(forClassName: $0) ?? NSClassFromString($0)
/// }
/// check.firstDisallowed(keys: ["root"])  // root: NSDictionary, where the root is a dictionary
/// ```
struct CorelibsClassCheck {
  /// An object whose class the read does not allow.
  struct Finding: Equatable {
    /// Where the object is: `root` or `$top.KEY`, then `[N]` per array or set element,
    /// `["key"]` per dictionary value (`[value N]` under a key that is no string), and
    /// `[key N]` per dictionary key.
    let keyPath: String
    /// The archived class name.
    let archivedName: String
    /// The class corelibs would construct for it.
    let resolvedName: String
  }

  let archive: KeyedArchive
  /// The classes the read allows.
  let allowed: [AnyClass]
  /// The class corelibs constructs for an archived name, or nil when none answers to it.
  let resolve: (String) -> AnyClass?

  /// The Foundation collections whose `init(coder:)` decodes the elements with the list of the
  /// read that holds them.
  static let collections: [AnyClass] = [
    NSArray.self, NSMutableArray.self, NSSet.self, NSMutableSet.self, NSOrderedSet.self,
    NSMutableOrderedSet.self, NSDictionary.self, NSMutableDictionary.self,
  ]

  /// The first object under `keys`, read in order, whose class corelibs would trap on.
  ///
  /// - Parameter keys: The `$top` keys the read decodes, in order.
  /// - Returns: The object, or nil when none is found before the walk ends.
  func firstDisallowed(keys: [String]) -> Finding? {
    var checkedClasses: Set<Int> = []
    var decoded: Set<Int> = []
    for key in keys {
      if FoundationReferenceDecoder.unkeyedPosition(of: key) != nil { return nil }
      guard case .uid(let uid)? = archive.top[key] else { continue }
      // Depth first, in decode order: the stack holds what is still to be checked, the next
      // object last.
      var pending: [(index: Int, keyPath: String)] = [
        (Int(clamping: uid), HarnessDecoder.keyPath(ofTopKey: key))
      ]
      while let next = pending.popLast() {
        guard decoded.insert(next.index).inserted,
          case .instance(let instance)? = archive.object(at: next.index)
        else { continue }
        guard let resolved = resolve(instance.className) else { return nil }
        if checkedClasses.insert(instance.classIndex).inserted, !isAllowed(resolved) {
          return Finding(
            keyPath: next.keyPath, archivedName: instance.className,
            resolvedName: NSStringFromClass(resolved))
        }
        guard Self.collections.contains(where: { $0 == resolved }) else { continue }
        pending.append(contentsOf: elements(of: instance, at: next.keyPath).reversed())
      }
    }
    return nil
  }

  /// Whether corelibs allows the class: it is, or descends from, an allowed class.
  func isAllowed(_ resolved: AnyClass) -> Bool {
    allowed.contains { allowedClass in
      resolved == allowedClass
        || (resolved as? NSObject.Type)?.isSubclass(of: allowedClass) == true
    }
  }

  /// The objects a collection's `init(coder:)` decodes, in order, with their key paths.
  private func elements(of instance: ArchiveInstance, at keyPath: String) -> [(
    index: Int, keyPath: String
  )] {
    func references(_ values: [PropertyListValue], _ name: (Int) -> String) -> [(Int, String)] {
      values.enumerated().compactMap { position, value in
        guard case .uid(let uid) = value else { return nil }
        return (Int(clamping: uid), keyPath + name(position))
      }
    }
    switch archive.foundationForm(of: instance) {
    case .array(let values)?, .set(let values)?, .orderedSet(let values)?:
      return references(values) { "[\($0)]" }
    case .dictionary(let keys, let values)?:
      // A value is named by its key where the key is a string, as the harness coder names it.
      let names = keys.map { archive.stringValue(of: $0).map { "[\"\($0)\"]" } }
      return references(keys) { "[key \($0)]" }
        + references(values) { position in
          position < names.count ? names[position] ?? "[value \(position)]" : "[value \(position)]"
        }
    default:
      return []
    }
  }
}
