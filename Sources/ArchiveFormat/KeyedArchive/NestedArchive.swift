/// A keyed archive kept as a `Data` value inside another archive (a Terminal profile's `NSColor` archives) or inside a store's record.
///
/// A value is taken for an archive only when it starts as a property list
/// does (`bplist00`, or `<?xml`/`<plist` after optional whitespace) and then
/// reads as a keyed archive within the same ``ArchiveLimits`` as any other;
/// anything else is plain data.
///
/// ```swift
/// if let nested = NestedArchive(bytes) {
///   print(nested.classNames)  // ["NSColor"]
/// }
/// ```
package struct NestedArchive: Sendable {
  /// How deep archives inside archives are followed: an archive inside an archive inside an archive.
  package static let maximumDepth = 3

  /// The archive the bytes hold.
  package var archive: KeyedArchive

  /// Reads `bytes` as a nested archive, or returns `nil` when they are plain data.
  package init?(_ bytes: [UInt8], limits: ArchiveLimits = .default) {
    guard Self.looksLikePropertyList(bytes),
      let archive = try? KeyedArchive(bytes: bytes, limits: limits)
    else { return nil }
    self.archive = archive
  }

  /// Whether bytes start as a binary (`bplist`, any version) or XML property list does, after
  /// an optional byte-order mark and white space; a cheap test before a full read.
  package static func looksLikePropertyList(_ bytes: [UInt8]) -> Bool {
    if bytes.starts(with: Array("bplist".utf8)) { return true }
    var index = bytes.startIndex
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
    while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
      index += 1
    }
    let rest = bytes[index...]
    return rest.starts(with: Array("<?xml".utf8)) || rest.starts(with: Array("<plist".utf8))
      || rest.starts(with: Array("<!DOCTYPE".utf8))
  }

  /// The archived class names of the instances, sorted.
  package var classNames: [String] {
    var names: Set<String> = []
    for object in archive.objects {
      if case .instance(let instance) = object { names.insert(instance.className) }
    }
    return names.sorted()
  }

  /// The archived class name of the root object, when the root is an instance.
  package var rootClassName: String? {
    guard let root = archive.top["root"] else { return nil }
    if case .object(let index) = archive.node(for: root) {
      return archive.instance(at: index)?.className
    }
    return nil
  }

  /// `nested archive (UserProfile, Address; root UserProfile)`, as the tree printer shows it.
  package var summary: String {
    var text =
      "nested archive (\(classNames.isEmpty ? "no instances" : classNames.joined(separator: ", "))"
    if let rootClassName { text += "; root \(rootClassName)" }
    return text + ")"
  }
}
