import ArchiveHarness

/// Changes what Linux Foundation's `NSKeyedArchiver` wrote, with the harness's own archive tools.
///
/// swift-corelibs-foundation writes `NSStringFromClass` names whatever `setClassName(_:for:)`
/// says, so names an older build wrote (Swift 4's `_TtC7NotesV14Note`) are made by rewriting
/// the class descriptions, the way rename-only migration does, re-read and compared.
enum ArchiveRewriter {
  /// Rewrites class names; fails unless the re-read graph equals the original modulo the names.
  static func renamingClasses(_ bytes: [UInt8], _ names: [String: String]) throws -> [UInt8] {
    let archive = try KeyedArchive(bytes: bytes)
    let input = TransformInput(
      id: .file(path: "generated", relativePath: "generated"), bytes: bytes, archive: archive)
    switch RenameOnlyTransform(mapping: ClassNameMapping(names)).transform(input) {
    case .rewritten(let rewritten, _, _):
      return rewritten
    case .unchanged:
      throw GeneratorError("no class named \(names.keys.sorted()) in the archive")
    case .refused(let refusal):
      throw GeneratorError("the rename was refused: \(refusal)")
    }
  }

  /// Sets the archive's `$version`, as an archiver of another format version would write it.
  static func settingVersion(_ bytes: [UInt8], to version: Int64) throws -> [UInt8] {
    var archive = try KeyedArchive(bytes: bytes)
    archive.version = version
    return BinaryPropertyListWriter().write(archive.propertyList)
  }
}
