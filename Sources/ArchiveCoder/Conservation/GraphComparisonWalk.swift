import ArchiveFormat
import Foundation

/// The rules of one graph comparison: the conservation check's (the old archive is the
/// reference, additions are no finding) or the diff's (both sides alike, everything reported).
struct GraphComparisonRules {
  /// Which comparison this is.
  enum Mode {
    /// `ConservationCheck`: what the old archive holds must reach the new one. Additions are
    /// not reported, only the app's model classes are compared field by field, an object is
    /// compared once whatever it meets, a class that differs ends the comparison there, and
    /// a collection that comes back shorter is reported as a whole.
    case conservation
    /// `ArchiveComparison`: every value either side holds alone is reported, every object
    /// field by field, a reference whose sharing differs is reported, and collections
    /// element by element.
    case difference
  }

  var mode: Mode
  /// The name an old archive's class has in the new archive's terms.
  var currentName: (ArchiveClass) -> String
  /// The name a new archive's class is compared by.
  var newName: (ArchiveClass) -> String = { $0.name }
  /// The name a class map gives an old class, shown beside its archived name in a diff.
  var mappedName: (ArchiveClass) -> String? = { _ in nil }
  /// Whether the old instance of a class (by its current name) is compared field by field.
  var comparesFields: (String) -> Bool
  /// What the current class changes on purpose in a field (class name, key).
  var declaredChange: (String, String) -> DeclaredChange.Change?
  /// How many values one comparison may visit.
  var maximumVisits: Int
  /// How deep one comparison may descend.
  var maximumDepth: Int
}

/// Why a graph comparison stopped before its end.
enum GraphComparisonLimit: Error {
  /// More values than the rules allow.
  case visits(Int)
  /// Deeper than the rules allow (only a difference comparison stops there).
  case depth(Int)
}

/// One comparison of two archives' graphs, by `GraphComparisonRules`: the objects already
/// paired, the differences found, the budget.
///
/// The walk follows references from `$top`, so objects pair by where they are reached, never
/// by their UIDs. Each pair of objects is compared once, which ends cycles and compares a
/// shared object once.
struct GraphComparisonWalk {
  /// How a value reads for the comparison, from either archive.
  enum Shape {
    case absent
    case null
    case leaf(ArchiveLeaf)
    case ordered([PropertyListValue])
    case unordered([PropertyListValue])
    case dictionary(keys: [PropertyListValue], values: [PropertyListValue])
    case instance(index: Int, ArchiveInstance)
  }

  /// Which of the two archives a value is in.
  enum Side {
    case old, new
  }

  /// Two objects compared with each other, by their indexes in their archives.
  struct Pair: Hashable {
    var old: Int
    var new: Int
  }

  let rules: GraphComparisonRules
  let old: KeyedArchive
  let new: KeyedArchive
  private(set) var differences: [ArchiveDifference] = []
  /// The new object each old instance was first compared with.
  private var forward: [Int: Int] = [:]
  /// The old object each new instance was first compared with (difference mode).
  private var backward: [Int: Int] = [:]
  /// Where each old and new instance was first reached (difference mode).
  private var firstOld: [Int: ArchiveKeyPath] = [:]
  private var firstNew: [Int: ArchiveKeyPath] = [:]
  /// The pairs of collection objects already compared.
  private var comparedCollections: Set<Pair> = []
  /// The current name of each class of the old archive, by its class index, resolved once.
  private var currentNames: [Int: String] = [:]
  private var visits = 0

  init(rules: GraphComparisonRules, old: KeyedArchive, new: KeyedArchive) {
    self.rules = rules
    self.old = old
    self.new = new
  }

  private var isDifference: Bool {
    if case .difference = rules.mode { return true }
    return false
  }

  /// Compares every `$top` entry of both archives; entries only the new one has are additions.
  mutating func compareTops() throws(GraphComparisonLimit) {
    for entry in old.top.entries {
      try compare(
        entry.value, new.top[entry.key], at: ArchiveKeyPath(topKey: entry.key, components: []))
    }
    for entry in new.top.entries where old.top[entry.key] == nil {
      reportAdded(entry.value, at: ArchiveKeyPath(topKey: entry.key, components: []))
    }
  }

  /// Compares an old value with what the new archive holds at the same place (`nil`: nothing).
  mutating func compare(
    _ oldValue: PropertyListValue, _ newValue: PropertyListValue?, at path: ArchiveKeyPath
  ) throws(GraphComparisonLimit) {
    visits += 1
    guard visits <= rules.maximumVisits else { throw .visits(rules.maximumVisits) }
    guard path.components.count <= rules.maximumDepth else {
      if isDifference { throw .depth(rules.maximumDepth) }
      return
    }
    let before = shape(of: oldValue, on: .old)
    let after = newValue.map { shape(of: $0, on: .new) } ?? .absent
    if !isDifference, case .instance(_, let instance) = before,
      !rules.comparesFields(currentName(of: instance))
    {
      // A Foundation or platform class outside the value forms: each archiver writes it its
      // own way (an NSDecimalNumber may come back as a plain number), so only its presence counts.
      if case .absent = after { differences.append(.removed(path, value(before, on: .old))) }
      return
    }
    if let left = Self.objectIndex(oldValue, in: old),
      let right = newValue.flatMap({
        Self.objectIndex($0, in: new)
      }),
      !shouldCompare(left, right, at: path, before, after)
    {
      return
    }
    switch (before, after) {
    case (.absent, _), (.null, .null), (.null, .absent):
      return
    case (_, .absent):
      differences.append(.removed(path, value(before, on: .old)))
    case (.leaf(let a), .leaf(let b)):
      compareLeaves(a, b, at: path)
    case (.ordered(let a), .ordered(let b)):
      try compareOrdered(a, b, at: path, before, after)
    case (.unordered(let a), .unordered(let b)):
      try compareUnordered(a, b, at: path, before, after)
    case (.dictionary(let keysA, let valuesA), .dictionary(let keysB, let valuesB)):
      try compareDictionaries(keys: (keysA, keysB), values: (valuesA, valuesB), at: path)
    case (.instance(_, let a), .instance(_, let b)):
      try compareInstances(a, b, at: path, before, after)
    case (.null, _), (_, .null):
      differences.append(
        .changed(path, old: value(before, on: .old), new: value(after, on: .new)))
    default:
      differences.append(
        .typeChanged(path, old: value(before, on: .old), new: value(after, on: .new)))
    }
  }

  /// Reports a value only the new archive holds, unless it is nil (nothing is held there).
  private mutating func reportAdded(_ newValue: PropertyListValue, at path: ArchiveKeyPath) {
    guard isDifference else { return }
    let after = shape(of: newValue, on: .new)
    if case .null = after { return }
    differences.append(.added(path, value(after, on: .new)))
  }

  /// The index of the object a value refers to, when it is an instance (a collection or an
  /// object): the identity that sharing and cycles are about.
  private static func objectIndex(_ value: PropertyListValue, in archive: KeyedArchive) -> Int? {
    guard case .uid(let uid) = value, case .instance? = archive.object(at: Int(uid)) else {
      return nil
    }
    return Int(uid)
  }

  /// Whether a pair of objects is still to compare: not when it was compared already (a
  /// shared object, a cycle), nor, in difference mode, when either object was met before with
  /// another one (the sharing differs, which is reported here).
  private mutating func shouldCompare(
    _ left: Int, _ right: Int, at path: ArchiveKeyPath, _ before: Shape, _ after: Shape
  ) -> Bool {
    guard case .instance = before, case .instance = after else {
      switch (before, after) {
      case (.ordered, _), (.unordered, _), (.dictionary, _):
        return comparedCollections.insert(Pair(old: left, new: right)).inserted
      default:
        return true
      }
    }
    guard isDifference else {
      if forward[left] != nil { return false }
      forward[left] = right
      return true
    }
    let metOld = forward[left]
    let metNew = backward[right]
    if metOld == right { return false }
    if metOld == nil { (forward[left], firstOld[left]) = (right, path) }
    if metNew == nil { (backward[right], firstNew[right]) = (left, path) }
    guard metOld != nil || metNew != nil else { return true }
    // Reached before with another object on the other side: shared on one side and not on
    // the other. The objects are compared where they were first reached.
    var oldValue = value(before, on: .old)
    var newValue = value(after, on: .new)
    if metOld != nil, let first = firstOld[left], let name = oldValue.className {
      oldValue = .sharedInstance(className: name, firstReachedAt: first)
    }
    if metNew != nil, let first = firstNew[right], let name = newValue.className {
      newValue = .sharedInstance(className: name, firstReachedAt: first)
    }
    differences.append(.changed(path, old: oldValue, new: newValue))
    return false
  }

  /// An old instance's current class name, through the rules' map, resolved once a class.
  private mutating func currentName(of instance: ArchiveInstance) -> String {
    if let known = currentNames[instance.classIndex] { return known }
    let name = rules.currentName(instance.archiveClass)
    currentNames[instance.classIndex] = name
    return name
  }

  /// Leaves: numbers as `NSNumber` compares them (a type change is reported with its values,
  /// equal or not), other values by content and type.
  private mutating func compareLeaves(_ a: ArchiveLeaf, _ b: ArchiveLeaf, at path: ArchiveKeyPath) {
    if let x = ComparedNumber(a), let y = ComparedNumber(b) {
      if x.type != y.type {
        differences.append(.typeChanged(path, old: .leaf(a), new: .leaf(b)))
      } else if !x.equals(y) {
        differences.append(.changed(path, old: .leaf(a), new: .leaf(b)))
      }
      return
    }
    guard a != b else { return }
    if ComparedValue.typeName(of: a) == ComparedValue.typeName(of: b) {
      differences.append(.changed(path, old: .leaf(a), new: .leaf(b)))
    } else {
      differences.append(.typeChanged(path, old: .leaf(a), new: .leaf(b)))
    }
  }

  private mutating func compareOrdered(
    _ a: [PropertyListValue], _ b: [PropertyListValue], at path: ArchiveKeyPath,
    _ before: Shape, _ after: Shape
  ) throws(GraphComparisonLimit) {
    if !isDifference, a.count != b.count {
      // Conservation reports the collection as a whole: shorter is a loss, longer a change.
      differences.append(.changed(path, old: value(before, on: .old), new: value(after, on: .new)))
    }
    for position in 0..<min(a.count, b.count) {
      try compare(a[position], b[position], at: path.appending(.index(position)))
    }
    guard isDifference else { return }
    for position in b.count..<max(a.count, b.count) {
      differences.append(
        .removed(
          path.appending(.index(position)), value(shape(of: a[position], on: .old), on: .old)))
    }
    for position in a.count..<max(a.count, b.count) {
      reportAdded(b[position], at: path.appending(.index(position)))
    }
  }

  private mutating func compareUnordered(
    _ a: [PropertyListValue], _ b: [PropertyListValue], at path: ArchiveKeyPath,
    _ before: Shape, _ after: Shape
  ) throws(GraphComparisonLimit) {
    var unmatched: [String: [Int]] = [:]
    for (position, element) in b.enumerated().reversed() {
      unmatched[fingerprint(element, on: .new, depth: 0), default: []].append(position)
    }
    let elementPath = path.appending(.wildcard)
    var lost = 0
    for element in a {
      let print = fingerprint(element, on: .old, depth: 0)
      guard var positions = unmatched[print], let position = positions.popLast() else {
        lost += 1
        // Conservation names the first loss; a difference names every one.
        if lost == 1 || isDifference {
          differences.append(.removed(elementPath, value(shape(of: element, on: .old), on: .old)))
        }
        continue
      }
      unmatched[print] = positions
      try compare(element, b[position], at: elementPath)
    }
    if isDifference {
      for position in unmatched.values.joined().sorted() {
        reportAdded(b[position], at: elementPath)
      }
    } else if lost == 0, b.count != a.count {
      differences.append(.changed(path, old: value(before, on: .old), new: value(after, on: .new)))
    }
  }

  private mutating func compareDictionaries(
    keys: ([PropertyListValue], [PropertyListValue]),
    values: ([PropertyListValue], [PropertyListValue]), at path: ArchiveKeyPath
  ) throws(GraphComparisonLimit) {
    var positions: [String: Int] = [:]
    for (position, key) in keys.1.enumerated() {
      positions[fingerprint(key, on: .new, depth: 0)] = position
    }
    var matched: Set<Int> = []
    for (position, key) in keys.0.enumerated() where position < values.0.count {
      let component: ArchiveKeyPath.Component =
        old.stringValue(of: key).map { .key($0) } ?? .wildcard
      let counterpart = positions[fingerprint(key, on: .old, depth: 0)]
      if let counterpart { matched.insert(counterpart) }
      let value = counterpart.flatMap { $0 < values.1.count ? values.1[$0] : nil }
      try compare(values.0[position], value, at: path.appending(component))
    }
    guard isDifference else { return }
    for (position, key) in keys.1.enumerated()
    where position < values.1.count && !matched.contains(position) {
      let component: ArchiveKeyPath.Component =
        new.stringValue(of: key).map { .key($0) } ?? .wildcard
      reportAdded(values.1[position], at: path.appending(component))
    }
  }

  private mutating func compareInstances(
    _ a: ArchiveInstance, _ b: ArchiveInstance, at path: ArchiveKeyPath, _ before: Shape,
    _ after: Shape
  ) throws(GraphComparisonLimit) {
    let expected = currentName(of: a)
    if expected != rules.newName(b.archiveClass) {
      differences.append(
        .typeChanged(path, old: value(before, on: .old), new: value(after, on: .new)))
      // Conservation stops at a class the current code does not write; a diff goes on to
      // compare the fields the two classes hold.
      guard isDifference else { return }
    }
    for entry in a.fields.entries {
      var key = entry.key
      switch rules.declaredChange(expected, entry.key) {
      case .dropped?, .converted?, .defaulted?:
        continue
      case .renamed(let newKey)?:
        key = newKey
      case nil:
        break
      }
      try compare(entry.value, b.fields[key], at: path.appending(.key(entry.key)))
    }
    guard isDifference else { return }
    for entry in b.fields.entries where a.fields[entry.key] == nil {
      reportAdded(entry.value, at: path.appending(.key(entry.key)))
    }
  }

  /// How a value reads: its leaf, its Foundation collection, or an instance.
  private func shape(of value: PropertyListValue, on side: Side) -> Shape {
    let archive = archive(side)
    let node = archive.node(for: value)
    switch node {
    case .null:
      return .null
    case .value(.array(let elements)):
      return .ordered(elements)
    case .value(.dictionary(let dictionary)):
      return .dictionary(
        keys: dictionary.keys.map { .string($0) }, values: dictionary.entries.map(\.value))
    case .value:
      return .leaf(archive.leaf(of: node))
    case .object(let index):
      guard let instance = archive.instance(at: index) else { return .null }
      // NSCountedSet keeps each element's count in a layout of its own; compared as an object.
      if instance.archiveClass.chain.contains("NSCountedSet") {
        return .instance(index: index, instance)
      }
      switch archive.foundationForm(of: instance) {
      case .url(let base, let relative)?:
        return .leaf(.url(Self.absoluteURL(base: base, relative: relative, in: archive)))
      case .array(let values)?, .orderedSet(let values)?: return .ordered(values)
      case .set(let values)?: return .unordered(values)
      case .dictionary(let keys, let values)?: return .dictionary(keys: keys, values: values)
      case .null?: return .null
      case .some: return .leaf(archive.leaf(of: node))
      case nil: return .instance(index: index, instance)
      }
    }
  }

  /// A URL as Foundation resolves it: its relative string against its base, if any.
  private static func absoluteURL(
    base: PropertyListValue?, relative: PropertyListValue, in archive: KeyedArchive
  ) -> String {
    let relativeText = archive.stringValue(of: relative) ?? ""
    guard let base, case .uid(let uid) = base, let baseInstance = archive.instance(at: Int(uid)),
      case .url(_, let baseRelative)? = archive.foundationForm(of: baseInstance),
      let baseURL = URL(string: archive.stringValue(of: baseRelative) ?? "")
    else { return URL(string: relativeText)?.absoluteString ?? relativeText }
    return URL(string: relativeText, relativeTo: baseURL)?.absoluteString ?? relativeText
  }

  /// A value's identity for matching set elements and dictionary keys: equal values (numbers as
  /// `NSNumber` compares them) print alike, within a small budget of depth.
  private func fingerprint(_ value: PropertyListValue, on side: Side, depth: Int) -> String {
    guard depth < 4 else { return "…" }
    switch shape(of: value, on: side) {
    case .absent, .null: return "null"
    case .leaf(let leaf):
      if let number = ComparedNumber(leaf) { return "n:\(number.canonical)" }
      return "\(leaf)"
    case .ordered(let elements):
      return "["
        + elements.prefix(16).map { fingerprint($0, on: side, depth: depth + 1) }
        .joined(separator: ",") + "]#\(elements.count)"
    case .unordered(let elements):
      return "{"
        + elements.prefix(16).map { fingerprint($0, on: side, depth: depth + 1) }.sorted()
        .joined(separator: ",") + "}#\(elements.count)"
    case .dictionary(let keys, _):
      return "<"
        + keys.prefix(16).map { fingerprint($0, on: side, depth: depth + 1) }.sorted()
        .joined(separator: ",") + ">#\(keys.count)"
    case .instance(_, let instance):
      let name =
        side == .old
        ? rules.currentName(instance.archiveClass) : rules.newName(instance.archiveClass)
      let fields = instance.fields.entries.prefix(16).sorted { $0.key < $1.key }.map {
        "\($0.key)=\(fingerprint($0.value, on: side, depth: depth + 1))"
      }
      return "\(name)(\(fields.joined(separator: ",")))"
    }
  }

  private func archive(_ side: Side) -> KeyedArchive {
    side == .old ? old : new
  }

  /// A value for a difference.
  ///
  /// An old instance is named as the current code names it in a conservation check, and as
  /// its archive names it (with the class map's name beside it) in a diff.
  private func value(_ shape: Shape, on side: Side) -> ComparedValue {
    switch shape {
    case .absent, .null: return .null
    case .leaf(let leaf): return .leaf(leaf)
    case .ordered(let elements): return .array(count: elements.count)
    case .unordered(let elements): return .set(count: elements.count)
    case .dictionary(let keys, _): return .dictionary(count: keys.count)
    case .instance(_, let instance):
      guard side == .old else { return .instance(className: instance.className) }
      guard isDifference else {
        return .instance(className: rules.currentName(instance.archiveClass))
      }
      return .instance(
        className: instance.className, mappedTo: rules.mappedName(instance.archiveClass))
    }
  }
}

/// A number as `NSNumber` compares it: booleans are 0 and 1, integers and reals compare by value.
struct ComparedNumber {
  enum StoredType: Equatable {
    case bool, integer, real
  }

  let type: StoredType
  let integer: Int64?
  let unsigned: UInt64?
  let real: Double

  init?(_ leaf: ArchiveLeaf) {
    switch leaf {
    case .bool(let flag):
      type = .bool
      integer = flag ? 1 : 0
      unsigned = nil
      real = flag ? 1 : 0
    case .integer(let number):
      type = .integer
      integer = number
      unsigned = nil
      real = Double(number)
    case .unsignedInteger(let number):
      type = .integer
      integer = Int64(exactly: number)
      unsigned = number
      real = Double(number)
    case .real(let number):
      type = .real
      integer = nil
      unsigned = nil
      real = number
    default:
      return nil
    }
  }

  func equals(_ other: ComparedNumber) -> Bool {
    if let a = integer, let b = other.integer { return a == b }
    if let a = unsigned, let b = other.unsigned { return a == b }
    if real.isNaN && other.real.isNaN { return true }
    return real == other.real
  }

  /// The text equal numbers share.
  var canonical: String {
    if let integer { return String(integer) }
    if let unsigned { return String(unsigned) }
    if let exact = Int64(exactly: real) { return String(exact) }
    return String(real)
  }
}
