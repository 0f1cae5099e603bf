import KeyedArchive
import PropertyList

/// Turns a real archive into one fit to commit: string and data leaves become same-length placeholders.
///
/// The structure stays: every object keeps its place in `$objects`, its class,
/// its field keys and its references, and numbers, bools and dates stay as
/// they are. Dictionary keys are structure too and are kept. Strings become
/// `x` repeated to the same UTF-16 length (so `maxLength` expectations still
/// hold) and data becomes zero bytes of the same length. Values under a
/// `keep` key path stay as they are. The walk visits each object at most
/// twice, so shared and cyclic graphs cost nothing extra.
///
/// ```swift
/// let output = try Anonymizer(keep: [ArchiveKeyPath("settings.locale")]).anonymize(bytes)
/// for value in output.report.scrubbed { print(value.keyPath, value.length) }
/// ```
public struct Anonymizer: Sendable {
  /// One value the anonymizer replaced.
  public struct ScrubbedValue: Sendable, Hashable, CustomStringConvertible {
    /// What kind of leaf it was.
    public enum Kind: String, Sendable, Hashable {
      /// A string.
      case string
      /// Bytes.
      case data
    }

    /// The first key path that reaches the value, or `$objects[N]` when none does.
    public var keyPath: String
    /// What kind of leaf it was.
    public var kind: Kind
    /// Its length: UTF-16 units for a string, bytes for data.
    public var length: Int

    /// The value as `keyPath: string of 12 UTF-16 units`.
    public var description: String {
      "\(keyPath): \(kind.rawValue) of \(length) \(kind == .string ? "UTF-16 units" : "bytes")"
    }
  }

  /// What the anonymizer did.
  public struct Report: Sendable, Hashable {
    /// The values replaced, in `$objects` order.
    public var scrubbed: [ScrubbedValue] = []
    /// The key paths of values kept because a `keep` path named them.
    public var kept: [String] = []
    /// How many dictionary keys were kept as structure.
    public var dictionaryKeysKept = 0
  }

  /// An anonymized archive and its report.
  public struct Output: Sendable {
    /// The archive, as a binary property list.
    public var bytes: [UInt8]
    /// What was replaced and kept.
    public var report: Report
  }

  /// The key paths whose values (and everything under them) are kept.
  public var keep: [ArchiveKeyPath]
  /// The bounds used to read the input.
  public var limits: ArchiveLimits

  /// Creates an anonymizer that keeps the values under `keep`.
  public init(keep: [ArchiveKeyPath] = [], limits: ArchiveLimits = .default) {
    self.keep = keep
    self.limits = limits
  }

  /// Reads an archive, anonymizes it, and writes it as a binary property list.
  ///
  /// - Throws: ``KeyedArchiveError`` when the input is not a valid keyed archive.
  public func anonymize(_ bytes: [UInt8]) throws(KeyedArchiveError) -> Output {
    let archive = try KeyedArchive(bytes: bytes, limits: limits)
    let (anonymized, report) = anonymize(archive)
    return Output(bytes: BinaryPropertyListWriter().write(anonymized.propertyList), report: report)
  }

  /// Returns an anonymized copy of an archive and what was replaced.
  public func anonymize(_ archive: KeyedArchive) -> (KeyedArchive, Report) {
    var walk = Walk(archive: archive, keep: keep)
    walk.run()
    var report = Report()
    var objects = archive.objects
    for index in objects.indices {
      let path = walk.firstPath[index] ?? "$objects[\(index)]"
      switch objects[index] {
      case .value(let value):
        if walk.dictionaryKeys.contains(index) { continue }
        if walk.keptObjects.contains(index) {
          if Self.hasScrubbableLeaf(value) { report.kept.append(path) }
          continue
        }
        objects[index] = .value(Self.scrub(value, path: path, into: &report.scrubbed))
      case .instance(var instance):
        let isLeafForm = walk.leafInstances.contains(index)
        var isDictionary = false
        if case .dictionary? = archive.foundationForm(of: instance) { isDictionary = true }
        var fields = PropertyListDictionary()
        for field in instance.fields.entries {
          let fieldPath = isLeafForm ? path : Self.join(path, field.key)
          if isDictionary, field.key == "NS.keys" {
            // Keys are structure; inline keys stay, and UID keys are kept through `dictionaryKeys`.
            fields.appendUnchecked(key: field.key, value: field.value)
          } else if walk.keptObjects.contains(index)
            || walk.keptFields.contains(FieldLocation(index, field.key))
          {
            if Self.hasScrubbableLeaf(field.value) { report.kept.append(fieldPath) }
            fields.appendUnchecked(key: field.key, value: field.value)
          } else {
            fields.appendUnchecked(
              key: field.key,
              value: Self.scrub(field.value, path: fieldPath, into: &report.scrubbed))
          }
        }
        instance.fields = fields
        objects[index] = .instance(instance)
      case .null, .classDescription:
        continue
      }
    }
    var top = PropertyListDictionary()
    for entry in archive.top.entries {
      let path = entry.key == "root" ? "(root)" : "$top." + entry.key
      let value =
        walk.keptFields.contains(FieldLocation(-1, entry.key))
        ? entry.value : Self.scrub(entry.value, path: path, into: &report.scrubbed)
      top.appendUnchecked(key: entry.key, value: value)
    }
    report.dictionaryKeysKept = walk.dictionaryKeys.count
    return (
      KeyedArchive(
        archiver: archive.archiver, version: archive.version, top: top, objects: objects),
      report
    )
  }

  // MARK: - Scrubbing

  private static func scrub(
    _ value: PropertyListValue, path: String, into scrubbed: inout [ScrubbedValue]
  ) -> PropertyListValue {
    switch value {
    case .string(let string):
      let length = string.utf16.count
      guard length > 0 else { return value }
      scrubbed.append(ScrubbedValue(keyPath: path, kind: .string, length: length))
      let placeholder = String(repeating: "x", count: length)
      return .string(placeholder == string ? String(repeating: "y", count: length) : placeholder)
    case .data(let bytes):
      guard !bytes.isEmpty else { return value }
      scrubbed.append(ScrubbedValue(keyPath: path, kind: .data, length: bytes.count))
      let zeros = [UInt8](repeating: 0, count: bytes.count)
      return .data(zeros == bytes ? [UInt8](repeating: 0xFF, count: bytes.count) : zeros)
    case .array(let elements):
      return .array(
        elements.enumerated().map {
          scrub($0.element, path: "\(path)[\($0.offset)]", into: &scrubbed)
        })
    case .dictionary(let dictionary):
      var result = PropertyListDictionary()
      for entry in dictionary.entries {
        result.appendUnchecked(
          key: entry.key, value: scrub(entry.value, path: join(path, entry.key), into: &scrubbed))
      }
      return .dictionary(result)
    case .integer, .unsignedInteger, .real, .bool, .date, .uid:
      return value
    }
  }

  private static func hasScrubbableLeaf(_ value: PropertyListValue) -> Bool {
    switch value {
    case .string(let string): return !string.isEmpty
    case .data(let bytes): return !bytes.isEmpty
    case .array(let elements): return elements.contains(where: hasScrubbableLeaf)
    case .dictionary(let dictionary):
      return dictionary.entries.contains { hasScrubbableLeaf($0.value) }
    default: return false
    }
  }

  private static func join(_ path: String, _ key: String) -> String {
    let component = ArchiveKeyPath(components: [.key(key)]).description
    if path == "(root)" { return component }
    return component.hasPrefix("[") ? path + component : path + "." + component
  }
}

/// A field of an instance (or, with object -1, a `$top` entry).
struct FieldLocation: Hashable {
  var object: Int
  var key: String
  init(_ object: Int, _ key: String) {
    self.object = object
    self.key = key
  }
}

/// The walk over an archive's graph that decides what the anonymizer keeps.
private struct Walk {
  let archive: KeyedArchive
  let keep: [ArchiveKeyPath]
  /// Objects reached through a kept key path.
  var keptObjects: Set<Int> = []
  /// Inline fields reached through a kept key path.
  var keptFields: Set<FieldLocation> = []
  /// String objects used as dictionary keys.
  var dictionaryKeys: Set<Int> = []
  /// Instances that are Foundation leaves (strings, data, dates, URLs, UUIDs).
  var leafInstances: Set<Int> = []
  /// The first key path that reached each object.
  var firstPath: [Int: String] = [:]

  /// Whether each object reached so far is kept.
  private var reached: [Int: Bool] = [:]

  init(archive: KeyedArchive, keep: [ArchiveKeyPath]) {
    self.archive = archive
    self.keep = keep
  }

  private struct Step {
    var value: PropertyListValue
    var path: ArchiveKeyPath
    /// The instance and field key holding the value inline, if any.
    var holder: FieldLocation?
  }

  /// Walks breadth first, so each object's first path is a shortest one.
  ///
  /// An object is kept when its first path lies under a `keep` path, or when a
  /// later path matches a `keep` path exactly. A kept object's subtree is kept
  /// through paths that extend it, but that never reaches back into objects
  /// already seen on a shorter path, so a back-reference (`address.owner`
  /// pointing at the root) does not keep the whole graph.
  mutating func run() {
    var queue: [Step] = archive.top.entries.map {
      Step(
        value: $0.value, path: ArchiveKeyPath(topKey: $0.key, components: []),
        holder: FieldLocation(-1, $0.key))
    }
    var head = 0
    while head < queue.count {
      let step = queue[head]
      head += 1
      let kept = matches(step.path, exactly: false)
      guard case .uid(let uid) = step.value else {
        if kept, let holder = step.holder { keptFields.insert(holder) }
        continue
      }
      let index = Int(uid)
      if let wasKept = reached[index] {
        guard !wasKept, matches(step.path, exactly: true) else { continue }
        reached[index] = true
        keptObjects.insert(index)
      } else {
        reached[index] = kept
        if kept { keptObjects.insert(index) }
        firstPath[index] = Self.text(step.path)
      }
      let isKept = reached[index] ?? false
      guard let instance = archive.instance(at: index) else { continue }
      let form = archive.foundationForm(of: instance)
      if case .dictionary(let keys, _)? = form {
        for key in keys {
          if case .uid(let keyIndex) = key { dictionaryKeys.insert(Int(keyIndex)) }
        }
      }
      switch form {
      case .string?, .data?, .date?, .uuid?, .url?, .null?:
        leafInstances.insert(index)
        markReferences(of: instance, kept: isKept, path: step.path)
        continue
      default:
        break
      }
      let isFoundationCollection = form?.isCollection ?? false
      for child in archive.children(of: .object(index)) {
        var holder: FieldLocation?
        if case .key(let key) = child.component, !isFoundationCollection {
          holder = FieldLocation(index, key)
        } else if isFoundationCollection {
          holder = FieldLocation(index, "NS.objects")
        }
        queue.append(
          Step(value: child.value, path: step.path.appending(child.component), holder: holder))
      }
    }
  }

  /// Marks the objects a Foundation leaf instance refers to (an `NSString`'s string object, an `NSURL`'s base).
  private mutating func markReferences(
    of instance: ArchiveInstance, kept: Bool, path: ArchiveKeyPath
  ) {
    var pending = instance.fields.entries.map(\.value)
    var seen: Set<Int> = []
    while let value = pending.popLast() {
      guard case .uid(let uid) = value else { continue }
      let index = Int(uid)
      guard index != 0, !seen.contains(index) else { continue }
      seen.insert(index)
      if firstPath[index] == nil { firstPath[index] = Self.text(path) }
      if kept { keptObjects.insert(index) }
      if let referenced = archive.instance(at: index) {
        leafInstances.insert(index)
        pending += referenced.fields.entries.map(\.value)
      }
    }
  }

  /// Whether a `keep` path names this path, or (unless `exactly`) one of its ancestors.
  private func matches(_ path: ArchiveKeyPath, exactly: Bool) -> Bool {
    keep.contains { pattern in
      guard pattern.topKey == path.topKey, pattern.components.count <= path.components.count,
        !exactly || pattern.components.count == path.components.count
      else {
        return false
      }
      for (expected, actual) in zip(pattern.components, path.components) {
        switch (expected, actual) {
        case (.wildcard, .index): continue
        case (.wildcard, .key): continue
        default: if expected != actual { return false }
        }
      }
      return true
    }
  }

  private static func text(_ path: ArchiveKeyPath) -> String {
    let text = path.description
    return text.isEmpty ? "(root)" : text
  }
}
