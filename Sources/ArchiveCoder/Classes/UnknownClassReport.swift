import ArchiveFormat

/// The archived classes that neither the registry nor the class map can read, each with the
/// fields its objects hold, so that a user can see what to register or map.
///
/// ```swift
/// let report = UnknownClassReport(archive: archive, registry: registry, classMap: .empty)
/// for unknown in report.classes { print(unknown.name, unknown.fieldKeys) }
/// print(UnknownClassReport.hint(for: "Note"))
/// ```
package struct UnknownClassReport: Sendable {
  /// One class the harness cannot read.
  package struct UnknownClass: Sendable, Hashable {
    /// The archived class name.
    package let name: String
    /// The archived superclass names, nearest first.
    package let superclassNames: [String]
    /// The keys its objects hold, in first-seen order, `$class` left out.
    package let fieldKeys: [String]
    /// How many objects of the class the archive holds.
    package let objectCount: Int
  }

  /// The most field keys listed per class.
  package static let maximumFieldKeys = 40

  /// The unknown classes, in the order their first object appears.
  package let classes: [UnknownClass]

  /// Finds the archived classes that no registered class or class map entry reads, either by
  /// name or through an archived superclass.
  ///
  /// - Parameters:
  ///   - archive: The archive.
  ///   - registry: The classes the harness may instantiate.
  ///   - classMap: The archived-name map.
  package init(archive: KeyedArchive, registry: ClassRegistry, classMap: ClassNameMap) {
    var order: [String] = []
    var found: [String: (chain: [String], keys: [String], count: Int)] = [:]
    for index in archive.objects.indices {
      guard case .instance(let instance)? = archive.object(at: index) else { continue }
      let name = instance.className
      // Foundation's holder of a C array's elements is read by the NSValue that refers to it.
      if name == HarnessUnarchiver.oldStyleArrayClassName { continue }
      if var entry = found[name] {
        entry.count += 1
        for key in instance.fields.keys where key != "$class" && !entry.keys.contains(key) {
          if entry.keys.count < Self.maximumFieldKeys { entry.keys.append(key) }
        }
        found[name] = entry
        continue
      }
      let chain = instance.archiveClass.chain
      let superclasses = chain.first == name ? Array(chain.dropFirst()) : chain
      guard classMap.resolve(className: name, superclassNames: superclasses, in: registry) == nil
      else { continue }
      order.append(name)
      let keys = instance.fields.keys.filter { $0 != "$class" }
      found[name] = (superclasses, Array(keys.prefix(Self.maximumFieldKeys)), 1)
    }
    classes = order.compactMap { name in
      found[name].map {
        UnknownClass(
          name: name, superclassNames: $0.chain, fieldKeys: $0.keys, objectCount: $0.count)
      }
    }
  }

  /// The two ways to let the harness read a class: register it, or map its name.
  ///
  /// - Parameter className: The archived class name.
  /// - Returns: A sentence naming both fixes.
  package static func hint(for className: String) -> String {
    "register '\(className)' in your harness executable "
      + "(HarnessConfiguration(modelClasses:), or platformClasses: for an Apple-platform class), "
      + "or map its name to a registered class (--class-map '\(className)=Module.Class', "
      + "or <map from=\"\(className)\" to=\"…\"/> in the manifest's classMap)"
  }
}
