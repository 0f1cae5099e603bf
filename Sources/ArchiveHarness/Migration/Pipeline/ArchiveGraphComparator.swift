import ArchiveFormat

/// Compares two keyed archives as object graphs, equal modulo a class-name mapping.
///
/// The walk starts at `$top` and pairs objects through the UIDs that reach
/// them: the first time original object `a` meets new object `b`, the pair is
/// recorded in both directions; meeting `a` with any other object later, or
/// `b` with any other original, is a difference. So shared references must
/// stay shared and distinct objects distinct, cycles end when they reach a
/// recorded pair, and every object and field is visited once: the time is
/// linear in the archives' size.
///
/// Instances compare by class (the original's name mapped, and its
/// `$classes` chain mapped element by element), by field names regardless of
/// order, and by field values; inline values compare as property lists, reals
/// by bit pattern. Object indices and field order may differ.
///
/// ```swift
/// let comparator = ArchiveGraphComparator(mapping: ClassNameMapping(["Old.A": "New.A"]))
/// if let difference = comparator.difference(original, rewritten) { print(difference) }
/// ```
package struct ArchiveGraphComparator: Sendable {
  /// The renames the new graph is allowed to have.
  package var mapping: ClassNameMapping
  /// Whether `$classes` chains must match too (after mapping).
  package var comparesClassChains: Bool
  /// How many levels of archives inside `Data` values compare as graphs (`NestedArchive`);
  /// 0 compares every `Data` value byte for byte.
  package var nestedDepth: Int

  /// Creates a comparator.
  package init(mapping: ClassNameMapping, comparesClassChains: Bool = true, nestedDepth: Int = 0) {
    self.mapping = mapping
    self.comparesClassChains = comparesClassChains
    self.nestedDepth = nestedDepth
  }

  /// The first difference between the graphs, or `nil` when they are equal modulo the mapping.
  package func difference(_ original: KeyedArchive, _ rewritten: KeyedArchive) -> GraphDifference? {
    var walk = Walk(
      original: original, rewritten: rewritten, mapping: mapping,
      comparesClassChains: comparesClassChains, nestedDepth: nestedDepth)
    return walk.run()
  }
}

/// One comparison's state: the index correspondence, the origin of each object for messages, the work list.
private struct Walk {
  /// How an original object was first reached: from which object (-1 for `$top`), by which key and index.
  struct Origin {
    var parent: Int
    var key: String
    var index: Int?
  }

  let original: KeyedArchive
  let rewritten: KeyedArchive
  let mapping: ClassNameMapping
  let comparesClassChains: Bool
  let nestedDepth: Int
  var forward: [Int]
  var backward: [Int]
  var origins: [Origin?]
  var work: [Int] = []
  /// Class pairs found to match, with the original's class index; few archives hold more than a handful.
  var matchedClasses: [(classIndex: Int, original: ArchiveClass, rewritten: ArchiveClass)] = []
  static let maximumMatchedClasses = 16

  init(
    original: KeyedArchive, rewritten: KeyedArchive, mapping: ClassNameMapping,
    comparesClassChains: Bool, nestedDepth: Int
  ) {
    self.nestedDepth = nestedDepth
    self.original = original
    self.rewritten = rewritten
    self.mapping = mapping
    self.comparesClassChains = comparesClassChains
    forward = Array(repeating: -1, count: original.objects.count)
    backward = Array(repeating: -1, count: rewritten.objects.count)
    origins = Array(repeating: nil, count: original.objects.count)
  }

  mutating func run() -> GraphDifference? {
    if let difference = compareDictionaries(original.top, rewritten.top, from: -1, key: "$top") {
      return difference
    }
    while let index = work.popLast() {
      if let difference = compareObjects(index, forward[index]) { return difference }
    }
    return nil
  }

  private mutating func compareObjects(_ left: Int, _ right: Int) -> GraphDifference? {
    switch (original.objects[left], rewritten.objects[right]) {
    case (.null, .null):
      return nil
    case (.value(let a), .value(let b)):
      return compareValues(a, b, from: left, key: "", index: nil)
    case (.instance(let a), .instance(let b)):
      if classesMatched(a, b) {
        return compareFields(a, b, at: left)
      }
      let expected = mapping.map(a.className)
      guard expected == b.className else {
        let mapped = expected == a.className ? "" : " (mapped to '\(expected)')"
        return difference(
          at: left, "class '\(a.className)'\(mapped) became '\(b.className)'")
      }
      if comparesClassChains {
        let chain = a.archiveClass.chain.map(mapping.map)
        guard chain == b.archiveClass.chain else {
          return difference(
            at: left,
            "class chain [\(chain.joined(separator: ", "))] became [\(b.archiveClass.chain.joined(separator: ", "))]"
          )
        }
      }
      rememberMatch(a, b)
      return compareFields(a, b, at: left)
    case (.classDescription(let a), .classDescription(let b)):
      guard mapping.map(a.name) == b.name else {
        return difference(at: left, "class description '\(a.name)' became '\(b.name)'")
      }
      return nil
    case (let a, let b):
      return difference(at: left, "\(kindName(a)) became \(kindName(b))")
    }
  }

  /// Whether this pair of classes was already found to match: the same descriptions as a pair
  /// checked before (equal values; in a read archive, the very same storage, so this costs no hashing).
  private func classesMatched(_ a: ArchiveInstance, _ b: ArchiveInstance) -> Bool {
    for match in matchedClasses where match.classIndex == a.classIndex {
      return match.original == a.archiveClass && match.rewritten == b.archiveClass
    }
    return false
  }

  /// Remembers a matching pair of classes by the original's class index: the first pair for
  /// an index, and at most ``maximumMatchedClasses`` pairs, so the linear search stays short.
  private mutating func rememberMatch(_ a: ArchiveInstance, _ b: ArchiveInstance) {
    guard matchedClasses.count < Self.maximumMatchedClasses,
      !matchedClasses.contains(where: { $0.classIndex == a.classIndex })
    else { return }
    matchedClasses.append((a.classIndex, a.archiveClass, b.archiveClass))
  }

  /// Compares two instances' fields, whose classes match.
  private mutating func compareFields(_ a: ArchiveInstance, _ b: ArchiveInstance, at left: Int)
    -> GraphDifference?
  {
    guard a.fields.count == b.fields.count else {
      let missing = a.fields.keys.filter { b.fields[$0] == nil }
      let added = b.fields.keys.filter { a.fields[$0] == nil }
      return difference(
        at: left,
        "fields differ (missing: \(missing.joined(separator: ", ")); added: \(added.joined(separator: ", ")))"
      )
    }
    return compareDictionaries(a.fields, b.fields, from: left, key: nil)
  }

  private mutating func compareDictionaries(
    _ a: PropertyListDictionary, _ b: PropertyListDictionary, from parent: Int, key: String?
  ) -> GraphDifference? {
    guard a.count == b.count else {
      return difference(
        at: parent, key: key,
        "\(a.count) entries became \(b.count) (\(a.keys.joined(separator: ", ")) → \(b.keys.joined(separator: ", ")))"
      )
    }
    for (position, entry) in a.entries.enumerated() {
      // Same order is the common case and costs nothing extra.
      let counterpart: PropertyListValue?
      if position < b.entries.count, b.entries[position].key == entry.key {
        counterpart = b.entries[position].value
      } else {
        counterpart = b[entry.key]
      }
      guard let counterpart else {
        return difference(at: parent, key: key, "entry '\(entry.key)' is missing")
      }
      let entryKey = key.map { $0 + "." + entry.key } ?? entry.key
      if let difference = compareValues(
        entry.value, counterpart, from: parent, key: entryKey, index: nil)
      {
        return difference
      }
    }
    return nil
  }

  private mutating func compareValues(
    _ a: PropertyListValue, _ b: PropertyListValue, from parent: Int, key: String, index: Int?
  ) -> GraphDifference? {
    switch (a, b) {
    case (.uid(let x), .uid(let y)):
      return pair(Int(x), Int(y), from: parent, key: key, index: index)
    case (.array(let xs), .array(let ys)):
      guard xs.count == ys.count else {
        return difference(
          at: parent, key: label(key, index), "\(xs.count) elements became \(ys.count)")
      }
      for position in xs.indices {
        if let difference = compareValues(
          xs[position], ys[position], from: parent, key: key, index: index ?? position)
        {
          return difference
        }
      }
      return nil
    case (.dictionary(let x), .dictionary(let y)):
      return compareDictionaries(x, y, from: parent, key: label(key, index))
    case (.data(let x), .data(let y)) where x != y && nestedDepth > 0:
      // Archives inside Data values: equal when their graphs are, modulo the same mapping.
      guard let inner = NestedArchive(x), let rewrittenInner = NestedArchive(y) else {
        return difference(
          at: parent, key: label(key, index), "\(describe(a)) became \(describe(b))")
      }
      let comparator = ArchiveGraphComparator(
        mapping: mapping, comparesClassChains: comparesClassChains, nestedDepth: nestedDepth - 1)
      guard let found = comparator.difference(inner.archive, rewrittenInner.archive) else {
        return nil
      }
      return difference(
        at: parent, key: label(key, index), "in the nested archive: \(found)")
    default:
      guard a == b else {
        return difference(
          at: parent, key: label(key, index),
          "\(describe(a)) became \(describe(b))")
      }
      return nil
    }
  }

  private mutating func pair(_ x: Int, _ y: Int, from parent: Int, key: String, index: Int?)
    -> GraphDifference?
  {
    let left = forward[x]
    let right = backward[y]
    if left == -1 && right == -1 {
      forward[x] = y
      backward[y] = x
      origins[x] = Origin(parent: parent, key: key, index: index)
      work.append(x)
      return nil
    }
    if left == y { return nil }
    return difference(
      at: parent, key: label(key, index),
      "references differ: original object \(x) maps to \(left == -1 ? "nothing yet" : String(left)) but meets new object \(y), which maps to \(right == -1 ? "nothing yet" : String(right)); sharing or identity changed"
    )
  }

  private func label(_ key: String, _ index: Int?) -> String {
    guard let index else { return key }
    return "\(key)[\(index)]"
  }

  private func difference(at object: Int, key: String? = nil, _ message: String)
    -> GraphDifference
  {
    var components: [String] = []
    if let key, !key.isEmpty { components.append(key) }
    var current = object
    var steps = 0
    while current >= 0, let origin = origins[current], steps < 64 {
      components.append(label(origin.key, origin.index))
      current = origin.parent
      steps += 1
    }
    if current >= 0 && steps >= 64 { components.append("…") }
    let path = components.reversed().filter { !$0.isEmpty }.joined(separator: ".")
    let place = object >= 0 ? " ($objects[\(object)])" : ""
    return GraphDifference(keyPath: (path.isEmpty ? "$top" : path) + place, message: message)
  }

  private func kindName(_ object: ArchiveObject) -> String {
    switch object {
    case .null: return "$null"
    case .value(let value): return "\(value.typeNameWithArticle)"
    case .instance(let instance): return "an instance of '\(instance.className)'"
    case .classDescription(let description): return "the class description '\(description.name)'"
    }
  }

  private func describe(_ value: PropertyListValue) -> String {
    switch value {
    case .string(let text): return "'\(text.prefix(40))'"
    case .integer(let number): return String(number)
    case .unsignedInteger(let number): return String(number)
    case .real(let number): return String(number)
    case .bool(let flag): return String(flag)
    case .date(let seconds): return "date \(seconds)"
    case .data(let bytes): return "\(bytes.count) bytes of data"
    default: return value.typeNameWithArticle
    }
  }
}
