import ArchiveFormat
import Foundation

// What the secure path records for strictness findings (StrictnessLog): classes a list admits
// only through NSObject, and untyped decode calls with the classes their key holds. The
// implicit property-list leaves are recorded where the coder allows them (noteImplicitLeaf).
extension HarnessUnarchiver {
  /// The most archived objects ``archivedClassNames(of:)`` visits under one key.
  static let maximumClassWalk = 10_000

  /// Records a leaf a list admitted, when the list names `NSObject`.
  func noteAdmitted(_ className: String, type: AnyClass, by list: AllowedClassList) {
    guard list.listsNSObject else { return }
    strictness.admitted(
      className, by: list, onlyThroughNSObject: !list.withoutNSObject.admits(type: type),
      at: renderedPath)
  }

  /// Records a `decodeObject(forKey:)` call an `init?(coder:)` made on the secure coder, with
  /// the classes the archive holds under the key.
  func noteUntypedDecode(forKey key: String) {
    guard let context = contexts.last else { return }
    path.append(.key(key))
    defer { path.removeLast() }
    strictness.untypedDecode(
      decoder: context.className, key: key, at: renderedPath,
      classes: context.fields[key].map(archivedClassNames(of:)) ?? [])
  }

  /// The classes of the object graph an archived value stands for, as a secure decode call
  /// must list them.
  ///
  /// The object's registered class and, through Foundation collections, their elements'
  /// classes, each once in the order met; an app class's own fields are its own
  /// `init?(coder:)`'s business. An unregistered class is named as archived.
  func archivedClassNames(of value: PropertyListValue) -> [String] {
    var names: [String] = []
    var seen: Set<String> = []
    var visited: Set<Int> = []
    var pending = [value]
    var next = 0
    while next < pending.count, next < Self.maximumClassWalk {
      let current = pending[next]
      next += 1
      var name: String?
      if case .uid(let uid) = current {
        let index = Int(clamping: uid)
        guard visited.insert(index).inserted, let object = archive.object(at: index) else {
          continue
        }
        switch object {
        case .null, .classDescription:
          continue
        case .value(let inner):
          name = leafKind(of: inner)?.className
        case .instance(let instance):
          guard let (_, registered) = resolve(instance) else {
            name = instance.className
            break
          }
          name = registered.name
          if registered.isContainer {
            pending += elementValues(of: instance.fields)
          }
        }
      } else {
        name = leafKind(of: current)?.className
      }
      if let name, seen.insert(name).inserted { names.append(name) }
    }
    return names
  }

  /// The keys and elements a Foundation collection archives: `NS.keys` and `NS.objects`, or an
  /// ordered set's `NS.object.0`, `NS.object.1`, ….
  private func elementValues(of fields: PropertyListDictionary) -> [PropertyListValue] {
    var values: [PropertyListValue] = []
    for key in ["NS.keys", "NS.objects"] {
      if case .array(let elements)? = fields[key] { values += elements }
    }
    var index = 0
    while let element = fields["NS.object.\(index)"], index < Self.maximumClassWalk {
      values.append(element)
      index += 1
    }
    return values
  }
}
