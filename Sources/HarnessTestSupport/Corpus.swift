import Foundation
@_exported import KeyedArchive

/// The shared corpus of real archives at `../shared/corpus`, read at run time and never copied into the project.
public enum Corpus {
  /// The package's root folder, found from this file's path.
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The corpus folder (`../shared/corpus` beside the package), or `HARNESS_CORPUS` when set.
  public static let directory: URL = {
    if let override = ProcessInfo.processInfo.environment["HARNESS_CORPUS"], !override.isEmpty {
      return URL(fileURLWithPath: override)
    }
    return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
  }()

  /// Whether the corpus is present; tests that need it are skipped, saying so, when it is not.
  public static let isPresent: Bool = FileManager.default.fileExists(atPath: directory.path)

  /// The message a skipped corpus test shows.
  public static let absentMessage: Comment =
    "../shared/corpus is absent (a fresh clone outside CI): the corpus tests are skipped"

  /// Every archive in the corpus, as paths relative to it, sorted.
  public static let allFiles: [String] = {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var files: [String] = []
    let prefix = directory.standardizedFileURL.path + "/"
    for case let url as URL in enumerator {
      let path = url.standardizedFileURL.path
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
        !path.hasSuffix(".tsv"), path.hasPrefix(prefix)
      else { continue }
      files.append(String(path.dropFirst(prefix.count)))
    }
    return files.sorted()
  }()

  /// The archives outside `broken/` folders.
  public static var validFiles: [String] { allFiles.filter { !$0.contains("/broken/") } }

  /// The archives inside `broken/` folders.
  public static var brokenFiles: [String] { allFiles.filter { $0.contains("/broken/") } }

  /// The bytes of a corpus file.
  public static func bytes(_ relativePath: String) throws -> [UInt8] {
    try Data(contentsOf: directory.appendingPathComponent(relativePath)).withUnsafeBytes {
      Array($0)
    }
  }
}

/// A stand-in for Swift Testing's `Comment`, so this support target need not import Testing.
public typealias Comment = String

/// The archive builder tests use; it lives in KeyedArchive so that generators can use it too.
public typealias ArchiveBuilder = KeyedArchiveBuilder
