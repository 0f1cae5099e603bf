import KeyedArchive
import PropertyList

/// Rewrites class names in an archive's class descriptions (`$classname` and `$classes`), needing no user types.
///
/// For teams that only renamed a module. The new archive is written with the
/// deterministic ``BinaryPropertyListWriter``, read back, and compared with the
/// original graph by ``ArchiveGraphComparator`` modulo the renames; only a graph
/// that matches is returned for writing.
///
/// ```swift
/// let transform = RenameOnlyTransform(mapping: ClassNameMapping(["ProfilesApp.Memo": "ProfileKit.Memo"]))
/// ```
public struct RenameOnlyTransform: RecordTransform {
  /// The renames.
  public var mapping: ClassNameMapping
  /// The limits for re-reading the new bytes.
  public var limits: ArchiveLimits

  /// Creates the transform.
  public init(mapping: ClassNameMapping, limits: ArchiveLimits = .default) {
    self.mapping = mapping
    self.limits = limits
  }

  /// The transform's name in reports: `rename-only`.
  public var name: String { "rename-only" }

  /// Renames the record's classes, then re-reads and compares the new archive, or refuses.
  public func transform(_ input: TransformInput) -> TransformResult {
    var archive = input.archive
    var renamed: [(String, String)] = []
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
    guard !changedClasses.isEmpty else { return .unchanged }
    for index in archive.objects.indices {
      guard case .instance(var instance) = archive.objects[index],
        changedSlots.indices.contains(instance.classIndex), changedSlots[instance.classIndex] >= 0
      else { continue }
      instance.archiveClass = changedClasses[changedSlots[instance.classIndex]]
      archive.objects[index] = .instance(instance)
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
    let comparator = ArchiveGraphComparator(mapping: mapping)
    if let difference = comparator.difference(input.archive, reread) {
      return .refused(
        RecordRefusal(.compare, "the re-read graph differs from the original at \(difference)"))
    }
    let summary = renamed.map { "\($0.0) → \($0.1)" }.joined(separator: ", ")
    return .rewritten(bytes, summary: summary, reread: reread)
  }
}
