import ArchiveFormat
import ArchiveHarness

/// The keyed archives a property list holds as data values when it is not an archive itself,
/// such as a preferences file (UserDefaults) with `NSKeyedArchiver` blobs under some keys.
///
/// `decode` and `inspect` read one archive; given such a file they say what it is and point
/// to `survey`, which reads every archive in it.
///
/// ```swift
/// if let found = ArchivesInPropertyList.find(in: bytes) {
///   print(found.hint(file: "Preferences.plist", toolName: "archive-harness"))
///   // this is a property list, not a keyed archive: it holds 2 keyed archives as data
///   // values, at profile, recent[0]; run `archive-harness survey Preferences.plist` …
/// }
/// ```
struct ArchivesInPropertyList: Equatable {
  /// The key paths of the archives found, in document order; at most ``maximumKeyPaths``.
  let keyPaths: [String]
  /// How many data values are keyed archives.
  let count: Int

  /// The most key paths kept.
  static let maximumKeyPaths = 10
  /// The most key paths a hint names.
  static let namedInHint = 3

  /// The archives a property list holds, or nil when the bytes are an archive (however
  /// damaged), are no property list, or hold no archive.
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - limits: The bounds on reading the list and each archive.
  /// - Returns: The archives found, or nil.
  static func find(in bytes: [UInt8], limits: ArchiveLimits = .default) -> ArchivesInPropertyList? {
    guard let root = try? PropertyListReader(limits: limits.propertyList).read(bytes) else {
      return nil
    }
    if case .dictionary(let dictionary) = root,
      dictionary["$archiver"] != nil || dictionary["$objects"] != nil || dictionary["$top"] != nil
    {
      return nil
    }
    var keyPaths: [String] = []
    var count = 0
    // Depth first, in document order, without recursion: the next value last.
    var pending: [(PropertyListValue, PropertyListKeyPath)] = [(root, PropertyListKeyPath())]
    while let (value, keyPath) = pending.popLast() {
      switch value {
      case .data(let data):
        guard (try? KeyedArchive(bytes: data, limits: limits)) != nil else { continue }
        count += 1
        if keyPaths.count < maximumKeyPaths {
          keyPaths.append(keyPath.components.isEmpty ? "(the root)" : keyPath.description)
        }
      case .dictionary(let dictionary):
        pending += dictionary.entries.reversed().map { ($0.value, keyPath.appending(.key($0.key))) }
      case .array(let elements):
        pending += elements.enumerated().reversed().map {
          ($0.element, keyPath.appending(.index($0.offset)))
        }
      default:
        continue
      }
    }
    return count == 0 ? nil : ArchivesInPropertyList(keyPaths: keyPaths, count: count)
  }

  /// The command that surveys the file.
  func surveyCommand(file: String, toolName: String) -> String {
    [toolName, "survey", file].map(SurveyReportWriter.shellWord).joined(separator: " ")
  }

  /// One sentence: what the file is, where a few of its archives are, and the `survey` to run.
  func hint(file: String, toolName: String) -> String {
    let named = keyPaths.prefix(Self.namedInHint).joined(separator: ", ")
    let more = count > Self.namedInHint ? " and \(count - Self.namedInHint) more" : ""
    let archives = count == 1 ? "1 keyed archive" : "\(count) keyed archives"
    return
      "this is a property list, not a keyed archive: it holds \(archives) as data values, at "
      + "\(named)\(more); run `\(surveyCommand(file: file, toolName: toolName))` to see every "
      + "place and what each holds"
  }

  /// The JSON member `decode` adds: the count, the key paths and the command.
  func jsonValue(file: String, toolName: String) -> JSONValue {
    .object([
      ("count", .integer(Int64(count))), ("keyPaths", .array(keyPaths.map(JSONValue.string))),
      ("next", .string(surveyCommand(file: file, toolName: toolName))),
    ])
  }
}
