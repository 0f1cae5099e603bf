import ArchiveFormat

/// Where an inline value sits: a field of an instance (an element of it, for a collection), or a `$top` entry.
struct ValueLocation: Hashable, Sendable {
  /// The instance's index in `$objects`, or -1 for `$top`.
  var object: Int
  /// The field's key (or the `$top` key).
  var field: String
  /// The element's position, for a value inside a Foundation collection's `NS.objects`.
  var element: Int?
}

/// A breadth-first walk of an archive's graph: each object's first key path, and the values that key-path patterns select.
///
/// An object belongs under its first (shortest) path. It is selected by a
/// pattern when that path lies under the pattern, or when a later path
/// matches the pattern exactly; a later path that is a proper prefix of a
/// pattern walks the object's fields again (at most
/// ``maximumRevisits`` times an object), so `items[*].count` reaches an item
/// first met as `featured`. A back-reference (`address.owner` pointing at the
/// root) never selects what lies under its target, so keeping `address` does
/// not keep the whole graph. Each object is expanded a bounded number of
/// times, and a step keeps its parent and only the first components a
/// pattern can look at, so shared, cyclic and deep graphs (a linked list of
/// 100,000 objects) cost linear time and memory.
struct ArchiveLeafWalk {
  /// How many times a later path may walk an object's fields again.
  static let maximumRevisits = 16

  let archive: KeyedArchive
  /// Groups of patterns, such as the kept paths and the scrubbed paths.
  let patternGroups: [[ArchiveKeyPath]]
  /// Per group, the objects selected.
  private(set) var selectedObjects: [Set<Int>]
  /// Per group, the inline values selected.
  private(set) var selectedValues: [Set<ValueLocation>]
  /// Per pattern group, the key objects of the dictionaries the group selects.
  private(set) var selectedDictionaryKeys: [Set<Int>]
  /// String objects used as dictionary keys; their first path is their dictionary's.
  private(set) var dictionaryKeys: Set<Int> = []
  /// Instances that are Foundation leaves (strings, data, dates, URLs, UUIDs, null), and the objects they refer to.
  private(set) var leafInstances: Set<Int> = []

  /// The deepest path written out; an object deeper than this is named `$objects[N]`.
  private let maximumDepth: Int
  /// The most components any pattern has: the part of a path a step keeps.
  private let prefixLength: Int
  /// Every step taken, in order; a step names its parent by index.
  private var steps: [Step] = []
  /// The step that first reached each object.
  private var firstStep: [Int: Int] = [:]
  private var reached: [Int: [Bool]] = [:]
  private var revisits: [Int: Int] = [:]

  private struct Step {
    var value: PropertyListValue
    /// The step this one extends, or -1 for a `$top` entry.
    var parent: Int
    /// The component this step adds; nil for a `$top` entry.
    var component: ArchiveKeyPath.Component?
    var topKey: String
    var depth: Int
    /// The path's first components, at most `ArchiveLeafWalk.prefixLength` of them.
    var prefix: [ArchiveKeyPath.Component]
    var holder: ValueLocation?
  }

  /// Walks an archive, selecting what each group of patterns names.
  ///
  /// - Parameters:
  ///   - archive: The archive.
  ///   - patternGroups: Groups of key-path patterns, such as the kept and the scrubbed paths.
  ///   - limits: ``KeyedArchive/ArchiveLimits/maximumWalkDepth`` bounds the paths written out.
  init(
    archive: KeyedArchive, patternGroups: [[ArchiveKeyPath]] = [], limits: ArchiveLimits = .default
  ) {
    self.archive = archive
    self.patternGroups = patternGroups
    selectedObjects = patternGroups.map { _ in [] }
    selectedValues = patternGroups.map { _ in [] }
    selectedDictionaryKeys = patternGroups.map { _ in [] }
    maximumDepth = limits.maximumWalkDepth
    prefixLength = patternGroups.joined().map(\.components.count).max() ?? 0
    run()
  }

  /// What an inline field of an instance holds, from the instance's Foundation form.
  enum FieldRole: Equatable {
    /// The value of a Foundation leaf (an `NSString`'s text, an `NSDate`'s time), reached by the leaf's path.
    case leaf(ValueRole)
    /// An `NSDictionary`'s `NS.keys`.
    case dictionaryKeys
    /// A collection's `NS.objects`: each element at the collection's path and its index or key.
    case elements
    /// An ordered set's `NS.object.N`.
    case element(Int)
    /// A field of any other instance, at the instance's path and the field's key.
    case field
  }

  /// What a value stands for, beyond its property-list type.
  enum ValueRole: Equatable {
    case plain, date, uuid, stringBytes
  }

  /// The role of an instance's field, from its Foundation form and key.
  static func role(ofField key: String, in form: FoundationForm?) -> FieldRole {
    switch (form, key) {
    case (.date?, "NS.time"): return .leaf(.date)
    case (.uuid?, "NS.uuidbytes"): return .leaf(.uuid)
    case (.string?, "NS.bytes"): return .leaf(.stringBytes)
    case (.string?, _), (.data?, _), (.url?, _), (.null?, _), (.date?, _), (.uuid?, _):
      return .leaf(.plain)
    case (.dictionary?, "NS.keys"): return .dictionaryKeys
    case (.dictionary?, "NS.objects"), (.array?, "NS.objects"), (.set?, "NS.objects"),
      (.orderedSet?, "NS.objects"):
      return .elements
    case (.orderedSet?, let key) where key.hasPrefix("NS.object."):
      return Int(key.dropFirst("NS.object.".count)).map(FieldRole.element) ?? .field
    default: return .field
    }
  }

  /// The path step to a collection's element: its key for a dictionary, its index otherwise.
  func elementComponent(_ position: Int, dictionaryKeys: [PropertyListValue])
    -> ArchiveKeyPath.Component
  {
    guard position < dictionaryKeys.count else { return .index(position) }
    return .key(archive.stringValue(of: dictionaryKeys[position]) ?? "[\(position)]")
  }

  /// An object's first path; `$objects[N]` for an object no path reaches or one deeper than the walk limit.
  func keyPath(of index: Int) -> ArchiveKeyPath {
    guard let stepIndex = firstStep[index], steps[stepIndex].depth <= maximumDepth else {
      return ArchiveKeyPath(components: [.key("$objects"), .index(index)])
    }
    var components: [ArchiveKeyPath.Component] = []
    components.reserveCapacity(steps[stepIndex].depth)
    var current = stepIndex
    while current >= 0 {
      if let component = steps[current].component { components.append(component) }
      current = steps[current].parent
    }
    return ArchiveKeyPath(topKey: steps[stepIndex].topKey, components: components.reversed())
  }

  /// A path as text, `(root)` for the root itself.
  static func text(_ path: ArchiveKeyPath) -> String {
    let text = path.description
    return text.isEmpty ? "(root)" : text
  }

  private mutating func run() {
    steps = archive.top.entries.map {
      Step(
        value: $0.value, parent: -1, component: nil, topKey: $0.key, depth: 0, prefix: [],
        holder: ValueLocation(object: -1, field: $0.key))
    }
    var head = 0
    while head < steps.count {
      let step = steps[head]
      let stepIndex = head
      head += 1
      let under = patternGroups.map { matches($0, step, exactly: false) }
      guard case .uid(let uid) = step.value else {
        if let holder = step.holder {
          for group in under.indices where under[group] { selectedValues[group].insert(holder) }
        }
        continue
      }
      let index = Int(uid)
      if let flags = reached[index] {
        var updated = flags
        for group in patternGroups.indices where !flags[group] {
          if matches(patternGroups[group], step, exactly: true) { updated[group] = true }
        }
        if updated != flags {
          reached[index] = updated
        } else if isProperPrefixOfPattern(step),
          revisits[index, default: 0] < Self.maximumRevisits
        {
          revisits[index, default: 0] += 1
        } else {
          continue
        }
      } else {
        reached[index] = under
        firstStep[index] = stepIndex
      }
      let flags = reached[index] ?? under
      for group in flags.indices where flags[group] { selectedObjects[group].insert(index) }
      guard let instance = archive.instance(at: index) else { continue }
      let form = archive.foundationForm(of: instance)
      if case .dictionary(let keys, _)? = form {
        for key in keys {
          guard case .uid(let keyIndex) = key else { continue }
          dictionaryKeys.insert(Int(keyIndex))
          for group in flags.indices where flags[group] {
            selectedDictionaryKeys[group].insert(Int(keyIndex))
          }
          // A key is reported at its dictionary's path, never at a path that spells it out.
          if firstStep[Int(keyIndex)] == nil { firstStep[Int(keyIndex)] = stepIndex }
        }
      }
      switch form {
      case .string?, .data?, .date?, .uuid?, .url?, .null?:
        leafInstances.insert(index)
        markReferences(of: instance, flags: flags, step: stepIndex)
        continue
      default:
        break
      }
      let isCollection = form?.isCollection ?? false
      let hasObjectsArray = instance.fields["NS.objects"] != nil
      for (position, child) in archive.children(of: .object(index)).enumerated() {
        let holder: ValueLocation?
        if isCollection {
          holder =
            hasObjectsArray
            ? ValueLocation(object: index, field: "NS.objects", element: position)
            : ValueLocation(object: index, field: "NS.object.\(position)")
        } else if case .key(let key) = child.component {
          holder = ValueLocation(object: index, field: key)
        } else {
          holder = nil
        }
        let prefix =
          step.prefix.count < prefixLength ? step.prefix + [child.component] : step.prefix
        steps.append(
          Step(
            value: child.value, parent: stepIndex, component: child.component,
            topKey: step.topKey, depth: step.depth + 1, prefix: prefix, holder: holder))
      }
    }
  }

  /// Marks what a Foundation leaf refers to (an `NSString`'s string object, an `NSURL`'s base) as part of the leaf.
  private mutating func markReferences(of instance: ArchiveInstance, flags: [Bool], step: Int) {
    var pending = instance.fields.entries.map(\.value)
    var seen: Set<Int> = []
    while let value = pending.popLast() {
      guard case .uid(let uid) = value else { continue }
      let index = Int(uid)
      guard index != 0, !seen.contains(index) else { continue }
      seen.insert(index)
      if firstStep[index] == nil { firstStep[index] = step }
      for group in flags.indices where flags[group] { selectedObjects[group].insert(index) }
      if let referenced = archive.instance(at: index) {
        leafInstances.insert(index)
        pending += referenced.fields.entries.map(\.value)
      }
    }
  }

  /// Whether a pattern names a step's path, or (unless `exactly`) one of its ancestors.
  private func matches(_ patterns: [ArchiveKeyPath], _ step: Step, exactly: Bool) -> Bool {
    patterns.contains { pattern in
      pattern.topKey == step.topKey && pattern.components.count <= step.depth
        && (!exactly || pattern.components.count == step.depth)
        && Self.componentsMatch(pattern.components, step.prefix, count: pattern.components.count)
    }
  }

  /// Whether a step's path is a proper prefix of some pattern, so a later path through it may still match one.
  private func isProperPrefixOfPattern(_ step: Step) -> Bool {
    patternGroups.contains { patterns in
      patterns.contains { pattern in
        pattern.topKey == step.topKey && pattern.components.count > step.depth
          && Self.componentsMatch(pattern.components, step.prefix, count: step.depth)
      }
    }
  }

  /// Whether the first `count` components of a pattern match those of a path, `[*]` matching any index (as ``KeyedArchive/evaluate(_:limits:)`` does).
  static func componentsMatch(_ pattern: ArchiveKeyPath, _ path: ArchiveKeyPath, count: Int) -> Bool
  {
    pattern.topKey == path.topKey
      && componentsMatch(pattern.components, path.components, count: count)
  }

  private static func componentsMatch(
    _ pattern: [ArchiveKeyPath.Component], _ path: [ArchiveKeyPath.Component], count: Int
  ) -> Bool {
    guard count <= pattern.count, count <= path.count else { return false }
    for (expected, actual) in zip(pattern.prefix(count), path.prefix(count)) {
      switch (expected, actual) {
      case (.wildcard, .index): continue
      default: if expected != actual { return false }
      }
    }
    return true
  }
}
