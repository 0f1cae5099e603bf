/// The result of checking one field expectation against one archive: passed, or failed and why.
public struct ExpectationFinding: Sendable, Hashable, CustomStringConvertible {
  /// Whether the expectation held.
  public enum Status: String, Sendable, Hashable {
    /// The expectation held.
    case passed
    /// The expectation did not hold.
    case failed
  }

  /// Whether the expectation held.
  public var status: Status
  /// The archive entry's path, as the manifest wrote it.
  public var archivePath: String
  /// The key path the finding is about: for a wildcard, the first element that failed.
  public var keyPath: String
  /// What the manifest expects, such as `string "Berlin"` or `at most 40 UTF-16 units`.
  public var expected: String
  /// What the archive holds, such as `string "Bern"` or `absent`.
  public var actual: String
  /// Where the expectation was written.
  public var location: ManifestLocation

  /// Whether the expectation held.
  public var passed: Bool { status == .passed }

  /// The finding as `manifest.xml:LINE:COL: failed: archive key: expected …, found …`.
  public var description: String {
    let key = keyPath.isEmpty ? "(root)" : keyPath
    return
      "\(location): \(status.rawValue): \(archivePath) \(key): expected \(expected), found \(actual)"
  }
}
