import ArchiveFormat

/// Rewrites class names in an archive's class descriptions (`$classname` and `$classes`), needing no user types.
///
/// For teams that only renamed a module. A binary archive is renamed at the byte
/// level (`ByteLevelRename`): the class-name strings and the offset table are
/// written anew and every other object is copied byte for byte; the new bytes are
/// checked, read back and compared with the original object for object modulo the
/// renames. Any other archive, and any case the byte level does not handle, is
/// renamed through the graph: the new archive is written with the deterministic
/// `BinaryPropertyListWriter`, read back, and compared with the original graph
/// by the graph comparator modulo the renames. Either way only an archive that
/// matches is returned for writing. With `nested`, archives kept as `Data`
/// values inside the record (`NestedArchive`) are renamed too, each written in
/// its own format, and the comparison reads them back and compares their graphs
/// (always through the graph).
///
/// ```swift
/// let transform = RenameOnlyTransform(mapping: ClassNameMapping(["ProfilesApp.Memo": "ProfileKit.Memo"]))
/// ```
package struct RenameOnlyTransform: RecordTransform {
  /// The renames.
  package var mapping: ClassNameMapping
  /// The limits for re-reading the new bytes.
  package var limits: ArchiveLimits
  /// Whether archives inside `Data` values are renamed too.
  package var nested: Bool

  /// Creates the transform.
  package init(mapping: ClassNameMapping, limits: ArchiveLimits = .default, nested: Bool = false) {
    self.mapping = mapping
    self.limits = limits
    self.nested = nested
  }

  /// The transform's name in reports: `rename-only`.
  package var name: String { "rename-only" }

  /// Renames the record's classes, then re-reads and compares the new archive, or refuses.
  package func transform(_ input: TransformInput) -> TransformResult {
    if !nested, input.bytes.starts(with: Self.binaryMagic) {
      let renamed = renamedNames(input.archive)
      guard !renamed.isEmpty else { return .unchanged }
      let rename = ByteLevelRename(mapping: mapping, limits: limits)
      if case .rewritten(let bytes, let reread) = rename.run(
        input.bytes, archive: input.archive, view: input.view)
      {
        return .rewritten(bytes, summary: Self.summary(renamed), reread: reread)
      }
      // Not handled at the byte level: renamed through the graph below.
    }
    var renamed: [(String, String)] = []
    let depth = nested ? NestedArchive.maximumDepth : 0
    guard let archive = rename(input.archive, depth: depth, renamed: &renamed) else {
      return .unchanged
    }
    let bytes = BinaryPropertyListWriter().write(archive.propertyList)
    let reread: KeyedArchive
    do {
      reread = try KeyedArchive(bytes: bytes, limits: limits)
    } catch {
      return .refused(
        RecordRefusal(
          .reRead, "the rewritten archive does not read back: \(error.description)",
          category: RecordRefusal.structuralCategory(error)))
    }
    let comparator = ArchiveGraphComparator(mapping: mapping, nestedDepth: depth)
    if let difference = comparator.difference(input.archive, reread) {
      return .refused(
        RecordRefusal(.compare, "the re-read graph differs from the original at \(difference)"))
    }
    return .rewritten(bytes, summary: Self.summary(renamed), reread: reread)
  }

  /// The magic of a binary property list, `bplist00`.
  private static let binaryMagic = Array("bplist00".utf8)

  /// The summary of renames, as plans print it: `A → B, C → D`.
  private static func summary(_ renamed: [(String, String)]) -> String {
    renamed.map { "\($0.0) → \($0.1)" }.joined(separator: ", ")
  }

  /// The names the archive's class descriptions change, each once, in the order
  /// ``rename(_:depth:renamed:)`` meets them; empty when no class needs a new name.
  private func renamedNames(_ archive: KeyedArchive) -> [(String, String)] {
    var renamed: [(String, String)] = []
    func note(_ old: String) {
      let new = mapping.map(old)
      if old != new && !renamed.contains(where: { $0.0 == old }) {
        renamed.append((old, new))
      }
    }
    for case .classDescription(let description) in archive.objects {
      note(description.name)
      for old in description.chain {
        note(old)
      }
    }
    return renamed
  }

  /// The archive with its classes renamed (and, `depth` levels down, its nested archives'), or
  /// `nil` when nothing needs a new name.
  private func rename(
    _ original: KeyedArchive, depth: Int, renamed: inout [(String, String)]
  ) -> KeyedArchive? {
    var archive = original
    var changed = false
    // Per object index, the position in `changedClasses` of its renamed description, or -1.
    var changedSlots: [Int] = []
    var changedClasses: [ArchiveClass] = []
    for index in archive.objects.indices {
      guard case .classDescription(var description) = archive.objects[index] else { continue }
      let name = mapping.map(description.name)
      let chain = description.chain.map(mapping.map)
      guard name != description.name || chain != description.chain else { continue }
      for (old, new) in zip([description.name] + description.chain, [name] + chain)
      where old != new && !renamed.contains(where: { $0.0 == old }) {
        renamed.append((old, new))
      }
      description.name = name
      description.chain = chain
      archive.objects[index] = .classDescription(description)
      if changedSlots.isEmpty {
        changedSlots = [Int](repeating: -1, count: archive.objects.count)
      }
      changedSlots[index] = changedClasses.count
      changedClasses.append(description)
    }
    changed = !changedClasses.isEmpty
    for index in archive.objects.indices {
      switch archive.objects[index] {
      case .instance(var instance):
        var touched = false
        if changedSlots.indices.contains(instance.classIndex),
          changedSlots[instance.classIndex] >= 0
        {
          instance.archiveClass = changedClasses[changedSlots[instance.classIndex]]
          touched = true
        }
        if depth > 0 {
          // Data kept inline in the fields (encodeBytes(_:length:forKey:)).
          for entry in instance.fields.entries {
            guard case .data(let bytes) = entry.value,
              let new = renameNested(bytes, depth: depth, renamed: &renamed)
            else { continue }
            instance.fields[entry.key] = .data(new)
            touched = true
          }
        }
        if touched {
          archive.objects[index] = .instance(instance)
          changed = true
        }
      case .value(.data(let bytes)) where depth > 0:
        if let new = renameNested(bytes, depth: depth, renamed: &renamed) {
          archive.objects[index] = .value(.data(new))
          changed = true
        }
      default:
        continue
      }
    }
    return changed ? archive : nil
  }

  /// A nested archive's bytes with its classes renamed, in the format it had; `nil` when the
  /// bytes are no archive or need no new name.
  private func renameNested(_ bytes: [UInt8], depth: Int, renamed: inout [(String, String)])
    -> [UInt8]?
  {
    guard let nested = NestedArchive(bytes, limits: limits),
      let archive = rename(nested.archive, depth: depth - 1, renamed: &renamed)
    else { return nil }
    if bytes.starts(with: Array("bplist".utf8)) {
      return BinaryPropertyListWriter().write(archive.propertyList)
    }
    return Array(XMLPropertyListWriter().write(archive.propertyList).utf8)
  }
}
