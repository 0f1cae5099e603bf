import ArchiveFormat

/// What the bounded reader makes of a value that starts like a property list.
enum SurveyExamination: Sendable {
  /// What a keyed archive holds, as a survey counts it.
  struct Archive: Sendable {
    /// The format it is written in.
    var format: PropertyListFormat
    /// Its class set, bounded for a report (`SurveyExamination.bounded(_:)`).
    var classes: [String]
    /// Its `$top` keys, bounded for a report.
    var topKeys: [String]
    /// Every archived class name of its instances, whole, for a manifest's class map.
    var classNames: Set<String>
    /// The keyed archives held in its `Data` values, to `NestedArchive.maximumDepth`.
    var nestedArchives = 0
    /// The archived class names of the nested archives' instances.
    var nestedClassNames: Set<String> = []
  }

  /// A keyed archive: its format, its class set and its `$top` keys.
  case archive(Archive)
  /// A property list that is not a keyed archive.
  case propertyList
  /// A property list that does not read, or one that claims to be a keyed archive and is not
  /// a valid one; the reader's reason.
  case damaged(String)

  /// The most names a class set or a `$top` key set keeps; the rest are counted in one entry,
  /// `… N more`, so that a hostile archive cannot make one set unbounded.
  static let maximumNames = 32
  /// The longest name kept whole; longer ones are cut with `…`.
  static let maximumNameLength = 200

  /// Reads a value with the project's bounded readers.
  ///
  /// - Parameters:
  ///   - bytes: The value.
  ///   - limits: The limits of the property-list reader and the archive's validation.
  /// - Returns: The archive's facts, or what else the value is.
  static func examine(_ bytes: [UInt8], limits: ArchiveLimits) -> SurveyExamination {
    let read: (value: PropertyListValue, format: PropertyListFormat)
    do throws(PropertyListError) {
      read = try PropertyListReader(limits: limits.propertyList).readWithFormat(bytes)
    } catch {
      return .damaged("not a readable property list: \(error.description)")
    }
    guard case .dictionary(let root) = read.value,
      root["$archiver"] != nil || root["$objects"] != nil || root["$top"] != nil
    else { return .propertyList }
    let archive: KeyedArchive
    do throws(KeyedArchiveError) {
      archive = try KeyedArchive(propertyList: read.value, limits: limits)
    } catch {
      return .damaged("not a valid keyed archive: \(error.description)")
    }
    var facts = Archive(
      format: read.format, classes: [], topKeys: bounded(Set(archive.top.entries.map(\.key))),
      classNames: classNames(of: archive))
    facts.classes = bounded(facts.classNames)
    countNested(in: archive, depth: 1, limits: limits, into: &facts)
    return .archive(facts)
  }

  /// The archived class names of an archive's instances.
  private static func classNames(of archive: KeyedArchive) -> Set<String> {
    var names: Set<String> = []
    for object in archive.objects {
      if case .instance(let instance) = object { names.insert(instance.archiveClass.name) }
    }
    return names
  }

  /// Counts the keyed archives held in an archive's `Data` values, and theirs, to
  /// `NestedArchive.maximumDepth`, as `inspect` shows them.
  private static func countNested(
    in archive: KeyedArchive, depth: Int, limits: ArchiveLimits, into facts: inout Archive
  ) {
    guard depth <= NestedArchive.maximumDepth else { return }
    for object in archive.objects {
      guard case .value(.data(let bytes)) = object,
        let nested = NestedArchive(bytes, limits: limits)
      else { continue }
      facts.nestedArchives += 1
      facts.nestedClassNames.formUnion(classNames(of: nested.archive))
      countNested(in: nested.archive, depth: depth + 1, limits: limits, into: &facts)
    }
  }

  /// The names sorted by their UTF-8 bytes, at most ``maximumNames`` of them, each cut to
  /// ``maximumNameLength`` characters.
  static func bounded(_ names: Set<String>) -> [String] {
    var sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var more = 0
    if sorted.count > maximumNames {
      more = sorted.count - maximumNames
      sorted.removeLast(more)
    }
    var result = sorted.map { name in
      name.count > maximumNameLength ? String(name.prefix(maximumNameLength)) + "…" : name
    }
    if more > 0 { result.append("… \(more) more") }
    return result
  }
}
