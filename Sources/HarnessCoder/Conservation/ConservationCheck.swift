import Foundation
import HarnessKeyedArchive
import HarnessPropertyList

/// Compares what a historical archive holds with what the current code writes back for it.
///
/// The archive is the oracle. Both archives are read as graphs, with no app code: every value
/// the original holds must reach the rewritten archive at the same key path (class names taken
/// through the class map, fields through ``DeclaredChange``s), or it is a
/// ``ConservationFinding``. Fields the new code adds are not findings.
///
/// - Numbers compare as `NSNumber` does: `true` equals `1`, and `1` equals `1.0`; a kept value
///   whose stored type changed is a ``ConservationFinding/Kind/typeChanged`` warning.
/// - Strings compare by content, data by bytes, dates by time.
/// - Arrays and ordered sets compare in order; sets and dictionaries without order.
/// - An object reached twice (shared, or a cycle) is compared once.
///
/// Only the app's own classes (registered model classes) are compared field by field. The
/// fields of Foundation and platform classes outside Foundation's value forms (`NSValue`,
/// `NSAttributedString`, a `UIColor` stand-in, `NSCountedSet`…) are written by each archiver
/// in its own way, so such an object conserves when the new archive holds a value in its place.
/// URLs compare as Foundation resolves them against their base.
///
/// ```swift
/// let check = ConservationCheck(registry: registry, classMap: map)
/// let findings = try check.findings(try KeyedArchive(bytes: old), try KeyedArchive(bytes: new))
/// ```
public struct ConservationCheck: Sendable {
  /// The graph is larger than one comparison may walk.
  public struct TooLarge: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many values the comparison may visit.
    public var limit: Int
    /// The limit, in a sentence.
    public var description: String {
      "the archives hold more than \(limit) values to compare; too large to check for losses"
    }
  }

  /// The app's current classes, which tell app objects from Foundation's.
  public var registry: ClassRegistry
  /// The map from archived class names to current ones.
  public var classMap: ClassNameMap
  /// What the current code changes on purpose, beside the class map's own field changes.
  public var declaredChanges: [DeclaredChange]
  /// How many values one comparison may visit.
  public var maximumVisits: Int
  /// How deep one comparison may descend.
  public var maximumDepth: Int

  /// Creates a check.
  public init(
    registry: ClassRegistry, classMap: ClassNameMap = .empty,
    declaredChanges: [DeclaredChange] = [], maximumVisits: Int = 2_000_000,
    maximumDepth: Int = 256
  ) {
    self.registry = registry
    self.classMap = classMap
    self.declaredChanges = declaredChanges
    self.maximumVisits = maximumVisits
    self.maximumDepth = maximumDepth
  }

  /// The values of `original` that do not reach `rewritten`, under the given `$top` keys.
  ///
  /// - Parameters:
  ///   - original: The historical archive.
  ///   - rewritten: The archive the current code wrote for the object it decoded.
  ///   - topKeys: The `$top` keys the app reads; `root` unless given.
  /// - Returns: The findings, in the order found; empty when everything is kept.
  /// - Throws: ``TooLarge`` when the graphs hold more than ``maximumVisits`` values.
  public func findings(
    _ original: KeyedArchive, _ rewritten: KeyedArchive, topKeys: [String] = ["root"]
  ) throws(TooLarge) -> [ConservationFinding] {
    var walk = ConservationWalk(check: self, original: original, rewritten: rewritten)
    for key in topKeys {
      guard let value = original.top[key] else { continue }
      try walk.compare(value, rewritten.top[key], at: ArchiveKeyPath(topKey: key, components: []))
    }
    return walk.findings
  }

  /// The values one `$top` key of `original` holds that do not reach another key of
  /// `rewritten`: an object an app read from `$top.NAME` is written back under `root`.
  ///
  /// - Throws: ``TooLarge`` when the graphs hold more than ``maximumVisits`` values.
  public func findings(
    _ original: KeyedArchive, at originalKey: String, _ rewritten: KeyedArchive,
    at rewrittenKey: String
  ) throws(TooLarge) -> [ConservationFinding] {
    guard let value = original.top[originalKey] else { return [] }
    var walk = ConservationWalk(check: self, original: original, rewritten: rewritten)
    try walk.compare(
      value, rewritten.top[rewrittenKey], at: ArchiveKeyPath(topKey: originalKey, components: []))
    return walk.findings
  }

  /// The name a class of the historical archive has now: its registered match through the
  /// class map, or its own name when no registered class matches.
  func currentName(of archiveClass: ArchiveClass) -> String {
    classMap.resolve(
      className: archiveClass.name, superclassNames: Array(archiveClass.chain.dropFirst()),
      in: registry)?.registeredName ?? archiveClass.name
  }

  /// Whether a current class name is one of the app's own model classes.
  func isModelClass(_ name: String) -> Bool {
    guard let registered = registry.registeredClass(named: name) else { return false }
    return registered.foundationKind == nil && !registered.isStandIn
  }

  /// The declared change of a class's field, if any: from ``declaredChanges``, then the class
  /// map's ``ClassNameMap/fieldChanges``.
  func declaredChange(className: String, key: String) -> DeclaredChange.Change? {
    for declared in declaredChanges where declared.className == className && declared.key == key {
      return declared.change
    }
    for declared in classMap.fieldChanges
    where declared.className == className && declared.key == key {
      return declared.change
    }
    return nil
  }
}

/// One comparison's state: the objects already compared, the findings, the budget.
private struct ConservationWalk {
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
    case original, rewritten
  }

  let check: ConservationCheck
  let original: KeyedArchive
  let rewritten: KeyedArchive
  var findings: [ConservationFinding] = []
  /// The rewritten object each original object was first compared with.
  var compared: [Int: Int] = [:]
  /// The current name of each class of the original, by its class index, resolved once.
  var currentNames: [Int: String] = [:]
  var visits = 0

  init(check: ConservationCheck, original: KeyedArchive, rewritten: KeyedArchive) {
    self.check = check
    self.original = original
    self.rewritten = rewritten
  }

  mutating func compare(
    _ old: PropertyListValue, _ new: PropertyListValue?, at path: ArchiveKeyPath
  ) throws(ConservationCheck.TooLarge) {
    visits += 1
    guard visits <= check.maximumVisits else {
      throw ConservationCheck.TooLarge(limit: check.maximumVisits)
    }
    guard path.components.count <= check.maximumDepth else { return }
    let before = shape(of: old, on: .original)
    let after = new.map { shape(of: $0, on: .rewritten) } ?? .absent
    if case .instance(_, let instance) = before,
      !check.isModelClass(currentName(of: instance))
    {
      // A Foundation or platform class outside the value forms: each archiver writes it its
      // own way (an NSDecimalNumber may come back as a plain number), so only its presence counts.
      if case .absent = after { report(.lost, path, before, after) }
      return
    }
    switch (before, after) {
    case (.absent, _), (.null, .null), (.null, .absent):
      return
    case (_, .absent):
      report(.lost, path, before, after)
    case (.leaf(let a), .leaf(let b)):
      compareLeaves(a, b, at: path, before, after)
    case (.ordered(let a), .ordered(let b)):
      if b.count < a.count {
        report(.lost, path, before, after)
      } else if b.count > a.count {
        report(.changed, path, before, after)
      }
      for position in 0..<min(a.count, b.count) {
        try compare(a[position], b[position], at: path.appending(.index(position)))
      }
    case (.unordered(let a), .unordered(let b)):
      try compareUnordered(a, b, at: path, before, after)
    case (.dictionary(let keysA, let valuesA), .dictionary(let keysB, let valuesB)):
      try compareDictionaries(
        keys: (keysA, keysB), values: (valuesA, valuesB), at: path, before, after)
    case (.instance(let left, let a), .instance(let right, let b)):
      try compareInstances(a, at: left, b, at: right, path: path, before, after)
    default:
      report(.changed, path, before, after)
    }
  }

  /// An original instance's current class name, through the class map, resolved once a class.
  private mutating func currentName(of instance: ArchiveInstance) -> String {
    if let known = currentNames[instance.classIndex] { return known }
    let name = check.currentName(of: instance.archiveClass)
    currentNames[instance.classIndex] = name
    return name
  }

  private mutating func compareLeaves(
    _ a: ArchiveLeaf, _ b: ArchiveLeaf, at path: ArchiveKeyPath, _ before: Shape, _ after: Shape
  ) {
    if let x = Number(a), let y = Number(b) {
      if !x.equals(y) {
        report(.changed, path, before, after)
      } else if x.type != y.type {
        report(.typeChanged, path, before, after)
      }
      return
    }
    if a != b { report(.changed, path, before, after) }
  }

  private mutating func compareInstances(
    _ a: ArchiveInstance, at left: Int, _ b: ArchiveInstance, at right: Int,
    path: ArchiveKeyPath, _ before: Shape, _ after: Shape
  ) throws(ConservationCheck.TooLarge) {
    if compared[left] != nil { return }
    compared[left] = right
    let expected = currentName(of: a)
    guard expected == b.className else {
      report(.changed, path, before, after)
      return
    }
    for entry in a.fields.entries {
      var key = entry.key
      switch check.declaredChange(className: expected, key: entry.key) {
      case .dropped?, .converted?, .defaulted?:
        continue
      case .renamed(let newKey)?:
        key = newKey
      case nil:
        break
      }
      try compare(entry.value, b.fields[key], at: path.appending(.key(entry.key)))
    }
  }

  private mutating func compareUnordered(
    _ a: [PropertyListValue], _ b: [PropertyListValue], at path: ArchiveKeyPath,
    _ before: Shape, _ after: Shape
  ) throws(ConservationCheck.TooLarge) {
    var unmatched: [String: [Int]] = [:]
    for (position, element) in b.enumerated() {
      unmatched[fingerprint(element, on: .rewritten, depth: 0), default: []].append(position)
    }
    let elementPath = path.appending(.wildcard)
    var lost = 0
    for element in a {
      let print = fingerprint(element, on: .original, depth: 0)
      guard var positions = unmatched[print], let position = positions.popLast() else {
        lost += 1
        if lost == 1 {
          report(
            .lost, elementPath, shape(of: element, on: .original), .absent,
            current: "no equal element among its \(b.count)")
        }
        continue
      }
      unmatched[print] = positions
      try compare(element, b[position], at: elementPath)
    }
    if lost == 0, b.count != a.count { report(.changed, path, before, after) }
  }

  private mutating func compareDictionaries(
    keys: ([PropertyListValue], [PropertyListValue]),
    values: ([PropertyListValue], [PropertyListValue]), at path: ArchiveKeyPath,
    _ before: Shape, _ after: Shape
  ) throws(ConservationCheck.TooLarge) {
    var positions: [String: Int] = [:]
    for (position, key) in keys.1.enumerated() {
      positions[fingerprint(key, on: .rewritten, depth: 0)] = position
    }
    for (position, key) in keys.0.enumerated() where position < values.0.count {
      let component: ArchiveKeyPath.Component =
        original.stringValue(of: key).map { .key($0) } ?? .wildcard
      let counterpart = positions[fingerprint(key, on: .original, depth: 0)]
      let value = counterpart.flatMap { $0 < values.1.count ? values.1[$0] : nil }
      try compare(values.0[position], value, at: path.appending(component))
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
      // NSCountedSet keeps each element's count in a layout of its own; compared by presence.
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
      if let number = Number(leaf) { return "n:\(number.canonical)" }
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
      let name = currentName(of: instance, on: side)
      let fields = instance.fields.entries.prefix(16).sorted { $0.key < $1.key }.map {
        "\($0.key)=\(fingerprint($0.value, on: side, depth: depth + 1))"
      }
      return "\(name)(\(fields.joined(separator: ",")))"
    }
  }

  /// An instance's class as the current code names it: the original's through the class map,
  /// the rewritten archive's as written.
  private func currentName(of instance: ArchiveInstance, on side: Side) -> String {
    side == .original ? check.currentName(of: instance.archiveClass) : instance.className
  }

  private func archive(_ side: Side) -> KeyedArchive {
    side == .original ? original : rewritten
  }

  private mutating func report(
    _ kind: ConservationFinding.Kind, _ path: ArchiveKeyPath, _ before: Shape, _ after: Shape,
    current: String? = nil
  ) {
    findings.append(
      ConservationFinding(
        kind, keyPath: path.description.isEmpty ? "root" : path.description,
        archived: describe(before, on: .original),
        current: current ?? describe(after, on: .rewritten)))
  }

  private func describe(_ shape: Shape, on side: Side) -> String {
    switch shape {
    case .absent: return "nothing"
    case .null: return "nil"
    case .leaf(let leaf): return Self.describe(leaf)
    case .ordered(let elements): return "\(elements.count) elements (array)"
    case .unordered(let elements): return "\(elements.count) elements (set)"
    case .dictionary(let keys, _): return "\(keys.count) entries (dictionary)"
    case .instance(_, let instance):
      return "an instance of \(currentName(of: instance, on: side))"
    }
  }

  static func describe(_ leaf: ArchiveLeaf) -> String {
    switch leaf {
    case .null: return "nil"
    case .string(let text):
      let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
      return "\"\(shown)\" (string)"
    case .integer(let number): return "\(number) (integer)"
    case .unsignedInteger(let number): return "\(number) (integer)"
    case .real(let number): return "\(number) (real)"
    case .bool(let flag): return "\(flag) (bool)"
    case .date(let seconds): return "\(Date(timeIntervalSinceReferenceDate: seconds)) (date)"
    case .data(let bytes): return "\(bytes.count) bytes (data)"
    case .uuid(let bytes): return "\(bytes.count)-byte UUID"
    case .url(let text): return "\"\(text)\" (URL)"
    case .object(let className, _, _): return "an instance of \(className)"
    }
  }
}

/// A number as `NSNumber` compares it: booleans are 0 and 1, integers and reals compare by value.
private struct Number {
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

  func equals(_ other: Number) -> Bool {
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
