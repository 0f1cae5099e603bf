import ArchiveFormat

/// A rename of a binary archive's classes at the byte level: the class-name strings and the
/// offset table are written anew, every other object is copied byte for byte.
///
/// Each string object that a class description names as its `$classname` or in its `$classes`
/// and that the mapping changes is written with its new name in its place, when class
/// descriptions are all that refer to it; a string that something else refers to too (a field
/// holding the same text) stays, and the new name is added as a new object that only the class
/// descriptions' references name. The new bytes are then checked as any list is
/// (`PropertyListReader.binaryView(_:)`), read as an archive, and compared with the original
/// object for object: every object not written anew is the same bytes, every object of the
/// archive is equal to the original's, class descriptions after the mapping.
///
/// Any case it does not handle (an object the top does not reach, a class description that may
/// repeat a key, one that something else refers to, too many objects for the reference width, a
/// new list that does not check or compare) gives `Outcome.notHandled(_:)`, and the caller
/// renames through the graph instead.
///
/// ```swift
/// let rename = ByteLevelRename(mapping: mapping, limits: .default)
/// if case .rewritten(let bytes, let reread) = rename.run(bytes, archive: archive, view: nil) { … }
/// ```
struct ByteLevelRename {
  /// The renames.
  var mapping: ClassNameMapping
  /// The limits for checking the lists and reading the new archive.
  var limits: ArchiveLimits

  /// What the byte-level rename did.
  enum Outcome {
    /// New bytes, checked and compared, with the archive read back from them.
    case rewritten([UInt8], reread: KeyedArchive)
    /// The rename is not done at the byte level, for this reason.
    case notHandled(String)
  }

  /// A class-name position whose string the mapping changes: the container holding the
  /// reference, where the reference is, and the string object it names.
  private struct NamePosition {
    var container: Int
    var offset: Int
    var string: Int
  }

  /// Renames `archive`, read from the binary list `bytes` (whose view is `view` when one was made).
  func run(_ bytes: [UInt8], archive: KeyedArchive, view: BinaryPropertyListView?) -> Outcome {
    let reader = PropertyListReader(limits: limits.propertyList)
    let original: BinaryPropertyListView
    // The view given is used only when it is a view of these very bytes (the same storage).
    if let view, view.bytes == bytes {
      original = view
    } else {
      guard let made = try? reader.binaryView(bytes) else {
        return .notHandled("the bytes are not a binary list within the limits")
      }
      original = made
    }
    let edit: BinaryPropertyListView.Edit
    switch plan(original, archive: archive) {
    case .success(let planned): edit = planned
    case .failure(let reason): return .notHandled(reason.message)
    }
    guard let renamed = original.rewritten(edit) else {
      return .notHandled("the list cannot be rewritten in place")
    }
    // Verification: the new bytes as any list and archive are checked, then object for object.
    let view: BinaryPropertyListView
    let reread: KeyedArchive
    do {
      guard let made = try reader.binaryView(renamed) else {
        return .notHandled("the new bytes are not a binary list")
      }
      view = made
      reread = try KeyedArchive(view: view, limits: limits)
    } catch {
      return .notHandled("the new bytes do not read back: \(error)")
    }
    if let difference = Self.unchangedBytesDiffer(original, view, edit: edit) {
      return .notHandled(difference)
    }
    if let difference = Self.difference(archive, reread, mapping: mapping) {
      return .notHandled("the re-read archive differs: \(difference)")
    }
    return .rewritten(renamed, reread: reread)
  }

  /// Why a plan could not be made.
  struct NotPlanned: Error {
    var message: String
  }

  /// The edit that renames the class-name strings of `archive`, read from `view`.
  private func plan(_ view: BinaryPropertyListView, archive: KeyedArchive)
    -> Result<BinaryPropertyListView.Edit, NotPlanned>
  {
    guard let objectsArray = view.member(view.top, named: "$objects"),
      let (entryCount, entries) = view.storedElements(objectsArray),
      entryCount == archive.objects.count
    else { return .failure(NotPlanned(message: "$objects is not where the archive has it")) }
    let width = view.referenceWidth
    var positions: [NamePosition] = []
    // Per object, the references no class-description place accounts for: what is left of
    // each description, chain and renamed string once their places are taken off.
    var unaccounted = view.referenceCounts()
    // $objects is referred to only from the root.
    guard unaccounted[objectsArray] == 1 else {
      return .failure(NotPlanned(message: "$objects is referred to from elsewhere too"))
    }
    var visited = [Bool](repeating: false, count: view.objectCount)
    var containers: [Int] = []
    for (index, object) in archive.objects.enumerated() {
      guard case .classDescription(let description) = object else { continue }
      let name = mapping.map(description.name)
      var chainChanges = false
      for old in description.chain where mapping.map(old) != old {
        chainChanges = true
        break
      }
      guard name != description.name || chainChanges else { continue }
      guard let entry = view.reference(at: entries + index * width) else {
        return .failure(NotPlanned(message: "$objects[\(index)] is not in the list"))
      }
      unaccounted[entry] -= 1
      // A description that $objects holds twice is renamed once.
      guard !visited[entry] else { continue }
      visited[entry] = true
      containers.append(entry)
      guard !view.mayRepeatKeys(entry), let (count, keys, values) = view.storedMembers(entry) else {
        return .failure(
          NotPlanned(message: "class description $objects[\(index)] may repeat a key"))
      }
      var foundName = false
      var foundChain = description.chain.isEmpty
      for position in 0..<count {
        guard let key = view.reference(at: keys + position * width) else { break }
        let valueOffset = values + position * width
        guard let value = view.reference(at: valueOffset) else { break }
        if view.string(key, equals: "$classname") {
          guard view.kind(of: value) == .string, view.string(value, equals: description.name)
          else { break }
          foundName = true
          if name != description.name {
            positions.append(NamePosition(container: entry, offset: valueOffset, string: value))
            unaccounted[value] -= 1
          }
        } else if view.string(key, equals: "$classes") {
          guard let (elementCount, elements) = view.storedElements(value),
            elementCount == description.chain.count
          else { break }
          unaccounted[value] -= 1
          guard !visited[value] else {
            foundChain = true
            continue
          }
          visited[value] = true
          containers.append(value)
          var matches = true
          for (position, old) in description.chain.enumerated() {
            let elementOffset = elements + position * width
            guard let element = view.reference(at: elementOffset),
              view.kind(of: element) == .string, view.string(element, equals: old)
            else {
              matches = false
              break
            }
            if mapping.map(old) != old {
              positions.append(
                NamePosition(container: value, offset: elementOffset, string: element))
              unaccounted[element] -= 1
            }
          }
          foundChain = matches
        }
      }
      guard foundName, foundChain else {
        return .failure(
          NotPlanned(
            message: "class description $objects[\(index)] is not stored as the archive reads it"))
      }
    }
    guard !positions.isEmpty else {
      return .failure(NotPlanned(message: "no class-name string changes"))
    }
    // Each renamed description and chain is referred to only from its place.
    for container in containers where unaccounted[container] != 0 {
      return .failure(
        NotPlanned(message: "a class description or chain is referred to from elsewhere too"))
    }
    var edit = BinaryPropertyListView.Edit()
    // Per string object whose new name was added, the new object's index.
    var added: [Int: Int] = [:]
    for position in positions {
      let string = position.string
      if unaccounted[string] == 0 {
        // Only class names refer to it: written with its new name in its place, once.
        guard !visited[string] else { continue }
        visited[string] = true
        guard let old = view.string(string) else {
          return .failure(NotPlanned(message: "a class name does not read"))
        }
        edit.strings.append((string, mapping.map(old)))
        continue
      }
      // Shared with a place that is no class name: the new name is a new object.
      let index: Int
      if let existing = added[string] {
        index = existing
      } else {
        guard let old = view.string(string) else {
          return .failure(NotPlanned(message: "a class name does not read"))
        }
        index = view.objectCount + edit.appended.count
        edit.appended.append(mapping.map(old))
        added[string] = index
      }
      edit.references.append((position.container, position.offset, index))
    }
    return .success(edit)
  }

  /// A message when an object the edit did not name differs between the lists, byte for byte.
  static func unchangedBytesDiffer(
    _ original: BinaryPropertyListView, _ renamed: BinaryPropertyListView,
    edit: BinaryPropertyListView.Edit
  ) -> String? {
    guard renamed.objectCount == original.objectCount + edit.appended.count,
      renamed.top == original.top
    else { return "the new list has other objects or another top" }
    var changed = [Bool](repeating: false, count: original.objectCount)
    for (object, _) in edit.strings where object >= 0 && object < changed.count {
      changed[object] = true
    }
    for patch in edit.references where patch.container >= 0 && patch.container < changed.count {
      changed[patch.container] = true
    }
    if let object = original.firstDifferentObject(in: renamed, skipping: changed) {
      return "object \(object) of the list changed"
    }
    return nil
  }

  /// Where the re-read archive first differs from the original, object for object: equal
  /// objects at equal indices, class descriptions (and instances' classes) after the mapping.
  static func difference(
    _ original: KeyedArchive, _ reread: KeyedArchive, mapping: ClassNameMapping
  ) -> String? {
    guard original.archiver == reread.archiver, original.version == reread.version else {
      return "$archiver or $version changed"
    }
    guard original.top == reread.top else { return "$top changed" }
    guard original.objects.count == reread.objects.count else {
      return "\(original.objects.count) objects became \(reread.objects.count)"
    }
    // The last class compared, and what it maps to, so instances of one class map it once.
    var lastClass: (original: ArchiveClass, mapped: ArchiveClass)?
    func mapped(_ archiveClass: ArchiveClass) -> ArchiveClass {
      if let lastClass, lastClass.original == archiveClass { return lastClass.mapped }
      var result = archiveClass
      result.name = mapping.map(archiveClass.name)
      result.chain = archiveClass.chain.map(mapping.map)
      lastClass = (archiveClass, result)
      return result
    }
    for index in original.objects.indices {
      switch (original.objects[index], reread.objects[index]) {
      case (.null, .null):
        continue
      case (.value(let a), .value(let b)):
        guard a == b else { return "$objects[\(index)]: the value changed" }
      case (.classDescription(let a), .classDescription(let b)):
        guard mapped(a) == b else {
          return "$objects[\(index)]: class description '\(a.name)' became '\(b.name)'"
        }
      case (.instance(let a), .instance(let b)):
        guard a.classIndex == b.classIndex, mapped(a.archiveClass) == b.archiveClass else {
          return "$objects[\(index)]: class '\(a.className)' became '\(b.className)'"
        }
        guard a.fields == b.fields else { return "$objects[\(index)]: the fields changed" }
      default:
        return "$objects[\(index)]: the kind of object changed"
      }
    }
    return nil
  }
}
