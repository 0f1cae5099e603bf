import ArchiveFormat

/// Why Foundation's paths do not run on an archive: the harness's own reader refused it first.
///
/// Foundation's unarchiver reads what the harness's reader refuses in ways no worker survives:
/// a property list whose containers are shared inline, or an object graph whose shared
/// references expand past `HarnessDecoder.maximumExpandedSize` values, grows a worker by
/// gigabytes until it is killed (20 s each, where the harness paths refuse in a fraction of a
/// second). So, as `verify` reads an archive's structure before any path, a runner screens
/// the bytes before it hands them to Foundation, and a screened path is rejected with the
/// reader's category, saying that Foundation was not run.
///
/// ```swift
/// if let screen = FoundationScreen.check(bytes, topKeys: ["root"]) {
///   print(screen.rejection(for: .foundationLegacy).message)
///   // foundation-legacy: root: shared references expand to more than 1000000 values; …
/// }
/// ```
package struct FoundationScreen: Sendable, Hashable {
  /// The reader's category: `limit-exceeded`, `malformed`, `truncated` or `unknown-schema-version`.
  package let category: RejectionCategory
  /// Where the reader refused the archive.
  package let keyPath: String
  /// What the reader found, starting with where: `$archiver: [missing-archiver] …`.
  package let detail: String

  /// The screen of an archive, or nil when Foundation may read it.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - topKeys: The `$top` keys the read decodes.
  ///   - limits: The bounds on reading the archive.
  /// - Returns: Why Foundation is not run, or nil.
  package static func check(
    _ bytes: [UInt8], topKeys: [String], limits: ArchiveLimits = .default
  ) -> FoundationScreen? {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes, limits: limits)
    } catch {
      return FoundationScreen(
        category: RejectionCategory(structural: error),
        keyPath: error.keyPath.isEmpty ? "$archive" : error.keyPath, detail: error.description)
    }
    let keys = topKeys.isEmpty ? ["root"] : topKeys
    let keyPath = keys.count == 1 ? HarnessDecoder.keyPath(ofTopKey: keys[0]) : "$top"
    var size = 0
    for key in keys where archive.top[key] != nil {
      size += archive.expandedSize(from: key, limit: HarnessDecoder.maximumExpandedSize)
      if size > HarnessDecoder.maximumExpandedSize { break }
    }
    guard size > HarnessDecoder.maximumExpandedSize else { return nil }
    return FoundationScreen(
      category: .limitExceeded, keyPath: keyPath,
      detail:
        "\(keyPath): shared references expand to more than \(HarnessDecoder.maximumExpandedSize) values, "
        + "which Foundation's objects would copy without bound")
  }

  /// The rejection a screened path reports.
  ///
  /// - Parameter path: A Foundation path.
  /// - Returns: The reader's category and place, with a message that says Foundation was not run.
  package func rejection(for path: DecodePath) -> DecodeRejection {
    DecodeRejection(
      category: category, keyPath: keyPath,
      message:
        "\(path): \(detail); not run on Foundation: the harness's reader refused "
        + "the archive first")
  }
}
