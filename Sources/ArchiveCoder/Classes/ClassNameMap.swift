import ArchiveFormat

/// A class-name mapping table: archived class names to the registered classes that read them.
///
/// It covers explicit entries (`OLD=NEW`, for Objective-C names or any rename), module renames
/// (`ProfilesApp.*=ProfileKit.*`), Swift mangled names (`_TtC11ProfilesApp7Address`), and names
/// that occur only in an archive's superclass chain. A name it cannot match stays unmapped: the
/// harness never loads a class because an archive names it.
///
/// ```swift
/// let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*,PAMemo=ProfileKit.Memo")
/// map.resolve(className: "_TtC11ProfilesApp7Address", in: registry)?.registeredName
/// // "ProfileKit.Address"
/// ```
public struct ClassNameMap: Sendable, Hashable {
  /// Exact entries: archived name to registered name.
  public var entries: [String: String]
  /// Module renames: archived module name to registered module name.
  public var moduleRenames: [String: String]
  /// The changes the current classes make on purpose to archived fields (renamed, dropped,
  /// converted, defaulted), which conservation accepts; a manifest's `<migration>` declares them.
  public var fieldChanges: [DeclaredChange] = []

  /// Creates a map from explicit entries and module renames.
  ///
  /// - Parameters:
  ///   - entries: Archived class names to registered class names.
  ///   - moduleRenames: Archived module names to registered module names.
  ///   - fieldChanges: The field changes the current classes make on purpose.
  public init(
    entries: [String: String] = [:], moduleRenames: [String: String] = [:],
    fieldChanges: [DeclaredChange] = []
  ) {
    self.entries = entries
    self.moduleRenames = moduleRenames
    self.fieldChanges = fieldChanges
  }

  /// An empty map: only registered names match themselves.
  public static let empty = ClassNameMap()

  /// Parses the command-line form `OLD=NEW,OLD=NEW`, where `Module.*=Other.*` renames a module.
  ///
  /// - Parameter text: The comma-separated entries.
  /// - Throws: `ClassNameMapError` naming the offending entry and its position.
  package init(parsing text: String) throws(ClassNameMapError) {
    self.init()
    var position = 0
    for rawEntry in text.split(separator: ",", omittingEmptySubsequences: false) {
      position += 1
      let entry = rawEntry.trimmingWhitespace()
      if entry.isEmpty { continue }
      let parts = entry.split(separator: "=", omittingEmptySubsequences: false)
      guard parts.count == 2 else {
        throw ClassNameMapError(
          entry: String(entry), position: position, reason: "expected OLD=NEW")
      }
      let old = parts[0].trimmingWhitespace()
      let new = parts[1].trimmingWhitespace()
      guard !old.isEmpty, !new.isEmpty else {
        throw ClassNameMapError(
          entry: String(entry), position: position, reason: "a class name is empty")
      }
      let oldIsModule = old.hasSuffix(".*")
      let newIsModule = new.hasSuffix(".*")
      guard oldIsModule == newIsModule else {
        throw ClassNameMapError(
          entry: String(entry), position: position,
          reason: "a module rename needs '.*' on both sides")
      }
      if oldIsModule {
        let oldModule = String(old.dropLast(2))
        let newModule = String(new.dropLast(2))
        guard !oldModule.isEmpty, !newModule.isEmpty else {
          throw ClassNameMapError(
            entry: String(entry), position: position, reason: "a module name is empty")
        }
        moduleRenames[oldModule] = newModule
      } else {
        entries[String(old)] = String(new)
      }
    }
  }

  /// Merges another map into this one; its entries win.
  ///
  /// - Parameter other: The map whose entries take precedence.
  /// - Returns: The merged map.
  public func merging(_ other: ClassNameMap) -> ClassNameMap {
    ClassNameMap(
      entries: entries.merging(other.entries) { _, new in new },
      moduleRenames: moduleRenames.merging(other.moduleRenames) { _, new in new },
      fieldChanges: fieldChanges + other.fieldChanges)
  }

  /// The entries and module renames whose targets the registry cannot instantiate, as
  /// messages; an empty result means every target is registered.
  ///
  /// - Parameter registry: The classes that may be instantiated.
  /// - Returns: One message per entry whose target is not registered.
  public func unregisteredTargets(in registry: ClassRegistry) -> [String] {
    var problems: [String] = []
    for (old, new) in entries.sorted(by: { $0.key < $1.key })
    where registry.registeredClass(named: new) == nil {
      problems.append("class map entry '\(old)=\(new)': '\(new)' is not a registered class")
    }
    let modules = Set(registry.modelClasses.compactMap { $0.name.split(separator: ".").first })
    for (old, new) in moduleRenames.sorted(by: { $0.key < $1.key })
    where !modules.contains(Substring(new)) {
      problems.append("class map entry '\(old).*=\(new).*': no registered class is in '\(new)'")
    }
    return problems
  }

  /// Matches an archived class to a registered class, trying its archived superclasses next.
  ///
  /// The archived superclass names are used only to *find* a registered class, as Apple's
  /// unarchiver falls back along `$classes`; the class's real hierarchy decides every check.
  /// `NSObject` is never a fallback.
  ///
  /// - Parameters:
  ///   - className: The archived class name (the first entry of `$classes`).
  ///   - superclassNames: The rest of the archive's `$classes`, nearest first.
  ///   - registry: The classes that may be instantiated.
  /// - Returns: The match, or `nil` when no name matches a registered class.
  package func resolve(
    className: String, superclassNames: [String] = [], in registry: ClassRegistry
  ) -> ClassResolution? {
    if let match = resolveSingle(className, in: registry) {
      return ClassResolution(
        archivedName: className, matchedName: className, registeredName: match.name,
        rule: match.rule)
    }
    for superclassName in superclassNames where superclassName != "NSObject" {
      if let match = resolveSingle(superclassName, in: registry) {
        return ClassResolution(
          archivedName: className, matchedName: superclassName, registeredName: match.name,
          rule: match.rule)
      }
    }
    return nil
  }

  /// The registered name an archived name maps to by itself, without superclass fallback.
  ///
  /// - Parameters:
  ///   - className: An archived class name.
  ///   - registry: The classes that may be instantiated.
  /// - Returns: The registered name, or `nil` when unmapped.
  public func registeredName(for className: String, in registry: ClassRegistry) -> String? {
    resolveSingle(className, in: registry)?.name
  }

  /// The name an entry or module rename of the map gives an archived class when that name is
  /// not registered: the map matched, and its target is what is missing.
  ///
  /// ```swift
  /// let map = try ClassNameMap(parsing: "Old.Note=New.Note")
  /// map.unregisteredTarget(for: "Old.Note", in: registry)  // "New.Note" when unregistered
  /// ```
  ///
  /// - Parameters:
  ///   - className: An archived class name.
  ///   - registry: The classes that may be instantiated.
  /// - Returns: The target, or `nil` when no entry matches or its target is registered.
  public func unregisteredTarget(for className: String, in registry: ClassRegistry) -> String? {
    for name in [className, SwiftMangledClassName.demangle(className)].compactMap({ $0 }) {
      if let target = entries[name] ?? moduleRenamed(name),
        registry.registeredClass(named: target) == nil
      {
        return target
      }
    }
    return nil
  }

  /// The name the map's own entries and module renames give an archived class name, whether
  /// or not a class of that name is registered: what a comparison of two archives, which
  /// instantiates nothing, maps an old name to.
  ///
  /// ```swift
  /// let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
  /// map.mappedName(for: "_TtC11ProfilesApp7Address")  // "ProfileKit.Address"
  /// map.mappedName(for: "NSArray")  // nil
  /// ```
  ///
  /// - Parameter className: An archived class name, readable or Swift-mangled.
  /// - Returns: The entry's target or the module-renamed name, or `nil` when the map names
  ///   neither for it.
  public func mappedName(for className: String) -> String? {
    for name in [className, SwiftMangledClassName.demangle(className)].compactMap({ $0 }) {
      if let target = entries[name] ?? moduleRenamed(name) { return target }
    }
    return nil
  }

  private func resolveSingle(
    _ name: String, in registry: ClassRegistry
  ) -> (name: String, rule: ClassResolution.Rule)? {
    if let match = resolveReadable(name, in: registry) { return match }
    if let demangled = SwiftMangledClassName.demangle(name),
      let match = resolveReadable(demangled, in: registry)
    {
      return (match.name, .mangledName)
    }
    return nil
  }

  private func resolveReadable(
    _ name: String, in registry: ClassRegistry
  ) -> (name: String, rule: ClassResolution.Rule)? {
    if let target = entries[name] {
      return registry.registeredClass(named: target) == nil ? nil : (target, .explicitEntry)
    }
    if registry.registeredClass(named: name) != nil { return (name, .identity) }
    if let renamed = moduleRenamed(name), registry.registeredClass(named: renamed) != nil {
      return (renamed, .moduleRename)
    }
    return nil
  }

  /// A `Module.Class` name with its module renamed by the map, or `nil` when no rename applies.
  private func moduleRenamed(_ name: String) -> String? {
    guard let dot = name.firstIndex(of: "."), let newModule = moduleRenames[String(name[..<dot])]
    else { return nil }
    return newModule + name[dot...]
  }
}

extension Substring {
  fileprivate func trimmingWhitespace() -> Substring {
    var result = self
    while let first = result.first, first.isWhitespace { result = result.dropFirst() }
    while let last = result.last, last.isWhitespace { result = result.dropLast() }
    return result
  }
}
