import ArchiveFormat

/// Rewrites one archive's leaves with pseudonyms, keeping every object, class, field key and reference.
struct ArchiveRewriter {
  private typealias ValueRole = ArchiveLeafWalk.ValueRole

  /// Where a value is and what applies to it.
  private struct Context {
    var path: ArchiveKeyPath
    var role: ValueRole = .plain
    var isKept: Bool
    var isScrubbed: Bool
  }

  let archive: KeyedArchive
  let options: Anonymizer.Options
  let dateShift: Double
  /// The batch's pseudonyms, handed back after the run.
  private(set) var pseudonymizer: Pseudonymizer
  /// What was replaced and kept.
  private(set) var report = Anonymizer.Report()
  private let walk: ArchiveLeafWalk

  init(
    archive: KeyedArchive, options: Anonymizer.Options, dateShift: Double,
    pseudonymizer: Pseudonymizer
  ) {
    self.archive = archive
    self.options = options
    self.dateShift = dateShift
    self.pseudonymizer = pseudonymizer
    walk = ArchiveLeafWalk(
      archive: archive,
      patternGroups: [options.kept, options.scrubbedNumbers, options.pseudonymizedKeys],
      limits: options.limits)
  }

  /// Returns the rewritten archive; ``report`` says what changed.
  mutating func run() -> KeyedArchive {
    let before = pseudonymizer.unresolved
    var objects = archive.objects
    for index in objects.indices {
      switch objects[index] {
      case .value(let value):
        let path = walk.keyPath(of: index)
        if walk.dictionaryKeys.contains(index) {
          objects[index] = .value(
            dictionaryKey(
              value, path: path, isKept: isKept(index),
              isPseudonymized: walk.selectedDictionaryKeys[2].contains(index)))
        } else {
          let context = Context(
            path: path, isKept: isKept(index), isScrubbed: isScrubbed(index))
          objects[index] = .value(rewrite(value, context))
        }
      case .instance(var instance):
        instance.fields = rewriteFields(of: instance, at: index)
        objects[index] = .instance(instance)
      case .null, .classDescription:
        continue
      }
    }
    var top = PropertyListDictionary()
    for entry in archive.top.entries {
      let location = ValueLocation(object: -1, field: entry.key)
      let context = Context(
        path: ArchiveKeyPath(topKey: entry.key, components: []),
        isKept: walk.selectedValues[0].contains(location),
        isScrubbed: walk.selectedValues[1].contains(location))
      top.appendUnchecked(key: entry.key, value: rewrite(entry.value, context))
    }
    let after = pseudonymizer.unresolved
    report.collisions = after.collisions - before.collisions
    report.flagged = after.flagged - before.flagged
    return KeyedArchive(
      archiver: archive.archiver, version: archive.version, top: top, objects: objects)
  }

  private func isKept(_ index: Int) -> Bool { walk.selectedObjects[0].contains(index) }
  private func isScrubbed(_ index: Int) -> Bool { walk.selectedObjects[1].contains(index) }
  private func hasPseudonymizedKeys(_ index: Int) -> Bool {
    walk.selectedObjects[2].contains(index)
  }

  private func context(_ path: ArchiveKeyPath, at location: ValueLocation, role: ValueRole = .plain)
    -> Context
  {
    Context(
      path: path, role: role,
      isKept: isKept(location.object) || walk.selectedValues[0].contains(location),
      isScrubbed: isScrubbed(location.object) || walk.selectedValues[1].contains(location))
  }

  /// The fields of an instance with their inline values rewritten; references stay.
  private mutating func rewriteFields(of instance: ArchiveInstance, at index: Int)
    -> PropertyListDictionary
  {
    let base = walk.keyPath(of: index)
    let form = archive.foundationForm(of: instance)
    var dictionaryKeys: [PropertyListValue] = []
    if case .dictionary(let keys, _)? = form { dictionaryKeys = keys }
    var fields = PropertyListDictionary()
    fields.reserveCapacity(instance.fields.count)
    for field in instance.fields.entries {
      let location = ValueLocation(object: index, field: field.key)
      var rewritten = field.value
      switch ArchiveLeafWalk.role(ofField: field.key, in: form) {
      case .leaf(let role):
        rewritten = rewrite(field.value, context(base, at: location, role: role))
      case .dictionaryKeys:
        if case .array(let keys) = field.value {
          let kept = isKept(index)
          let pseudonymized = hasPseudonymizedKeys(index)
          rewritten = .array(
            keys.map {
              dictionaryKey($0, path: base, isKept: kept, isPseudonymized: pseudonymized)
            })
        }
      case .elements:
        if case .array(let elements) = field.value {
          rewritten = .array(
            elements.enumerated().map { position, element in
              let component = walk.elementComponent(position, dictionaryKeys: dictionaryKeys)
              let elementLocation = ValueLocation(
                object: index, field: field.key, element: position)
              return rewrite(element, context(base.appending(component), at: elementLocation))
            })
        }
      case .element(let position):
        rewritten = rewrite(field.value, context(base.appending(.index(position)), at: location))
      case .field:
        rewritten = rewrite(field.value, context(base.appending(.key(field.key)), at: location))
      }
      fields.appendUnchecked(key: field.key, value: rewritten)
    }
    return fields
  }

  /// A dictionary key: kept as structure unless it looks like personal data, or its
  /// dictionary is under `Anonymizer.Options.pseudonymizedKeys`.
  private mutating func dictionaryKey(
    _ value: PropertyListValue, path: ArchiveKeyPath, isKept: Bool, isPseudonymized: Bool
  )
    -> PropertyListValue
  {
    guard case .string(let key) = value else { return value }
    guard !isKept else {
      report.kept.append(
        Anonymizer.Value(keyPath: ArchiveLeafWalk.text(path), kind: .dictionaryKey))
      return value
    }
    let replaced = isPseudonymized ? pseudonymizer.string(key) : pseudonymizer.dictionaryKey(key)
    if replaced == key {
      report.dictionaryKeysKept += 1
    } else {
      report.replaced.append(
        Anonymizer.Value(
          keyPath: ArchiveLeafWalk.text(path), kind: .dictionaryKey, length: key.utf16.count))
    }
    return .string(replaced)
  }

  /// A value rewritten as its kind, role and place say.
  private mutating func rewrite(_ value: PropertyListValue, _ context: Context) -> PropertyListValue
  {
    if context.isKept {
      recordKept(value, path: context.path, role: context.role)
      return value
    }
    switch value {
    case .string(let text):
      guard !text.isEmpty else { return value }
      replaced(.string, context, length: text.utf16.count)
      return .string(pseudonymizer.string(text))
    case .data(let bytes):
      guard !bytes.isEmpty else { return value }
      if context.role == .uuid, bytes.count == 16 {
        replaced(.uuid, context)
        return .data(pseudonymizer.uuid(bytes))
      }
      if context.role == .stringBytes, let text = String(validUTF8: bytes) {
        replaced(.string, context, length: text.utf16.count)
        return .data(Array(pseudonymizer.string(text).utf8))
      }
      replaced(.data, context, length: bytes.count)
      return .data(pseudonymizer.data(bytes, keepingSignature: options.keepsFileSignatures))
    case .date(let seconds):
      return .date(date(seconds, context))
    case .real(let number):
      if context.role == .date { return .real(date(number, context)) }
      guard context.isScrubbed else { return value }
      replaced(.number, context)
      return .real(pseudonymizer.real(number))
    case .integer(let number):
      if context.role == .date {
        let shifted = date(Double(number), context)
        return Int64(exactly: shifted.rounded()).map(PropertyListValue.integer) ?? value
      }
      guard context.isScrubbed else { return value }
      replaced(.number, context)
      return .integer(pseudonymizer.integer(number))
    case .unsignedInteger(let number):
      guard context.isScrubbed else { return value }
      replaced(.number, context)
      return .unsignedInteger(pseudonymizer.unsignedInteger(number))
    case .bool, .uid:
      return value
    case .array(let elements):
      var nested = context
      return .array(
        elements.enumerated().map { position, element in
          nested.path = context.path.appending(.index(position))
          return rewrite(element, nested)
        })
    case .dictionary(let dictionary):
      var result = PropertyListDictionary()
      var nested = context
      for entry in dictionary.entries {
        nested.path = context.path.appending(.key(entry.key))
        result.appendUnchecked(key: entry.key, value: rewrite(entry.value, nested))
      }
      return .dictionary(result)
    }
  }

  private mutating func date(_ seconds: Double, _ context: Context) -> Double {
    let result = options.dates.apply(seconds, shift: dateShift)
    if result.bitPattern != seconds.bitPattern { replaced(.date, context) }
    return result
  }

  private mutating func replaced(
    _ kind: Anonymizer.Value.Kind, _ context: Context, length: Int? = nil
  ) {
    report.replaced.append(
      Anonymizer.Value(keyPath: ArchiveLeafWalk.text(context.path), kind: kind, length: length))
  }

  /// Records every leaf of a kept value.
  private mutating func recordKept(
    _ value: PropertyListValue, path: ArchiveKeyPath, role: ValueRole = .plain
  ) {
    let kind: Anonymizer.Value.Kind
    var length: Int?
    switch value {
    case .real where role == .date, .integer where role == .date: kind = .date
    case .data where role == .uuid: kind = .uuid
    case .string(let text):
      kind = .string
      length = text.utf16.count
    case .data(let bytes):
      kind = .data
      length = bytes.count
    case .date: kind = .date
    case .integer, .unsignedInteger, .real: kind = .number
    case .bool: kind = .bool
    case .uid: return
    case .array(let elements):
      for (position, element) in elements.enumerated() {
        recordKept(element, path: path.appending(.index(position)))
      }
      return
    case .dictionary(let dictionary):
      for entry in dictionary.entries {
        recordKept(entry.value, path: path.appending(.key(entry.key)))
      }
      return
    }
    report.kept.append(
      Anonymizer.Value(keyPath: ArchiveLeafWalk.text(path), kind: kind, length: length))
  }
}

/// The original strings and data values of an archive, which no pseudonym may equal.
enum OriginalValues {
  /// Adds every string and data value in the archive's objects and `$top`.
  static func collect(
    from archive: KeyedArchive, strings: inout Set<String>, data: inout Set<[UInt8]>
  ) {
    for object in archive.objects {
      switch object {
      case .value(let value): collect(value, strings: &strings, data: &data)
      case .instance(let instance):
        for entry in instance.fields.entries {
          collect(entry.value, strings: &strings, data: &data)
        }
      case .null, .classDescription: continue
      }
    }
    for entry in archive.top.entries { collect(entry.value, strings: &strings, data: &data) }
  }

  private static func collect(
    _ value: PropertyListValue, strings: inout Set<String>, data: inout Set<[UInt8]>
  ) {
    switch value {
    case .string(let text): strings.insert(text)
    case .data(let bytes): data.insert(bytes)
    case .array(let elements):
      for element in elements { collect(element, strings: &strings, data: &data) }
    case .dictionary(let dictionary):
      for entry in dictionary.entries { collect(entry.value, strings: &strings, data: &data) }
    default: return
    }
  }
}
