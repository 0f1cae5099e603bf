import ArchiveFormat

/// Evaluates a manifest's field expectations against keyed-archive graphs and decoded objects.
///
/// Every result is an `ExpectationFinding` value; nothing throws. Key paths
/// are walked with ``KeyedArchive/evaluate(_:limits:)`` (or through an
/// `ExpectationTree`), which follows a fixed number of steps and caps
/// wildcard fan-out, so shared and cyclic graphs cannot make it loop or blow up.
///
/// ```swift
/// let engine = ExpectationEngine(manifest: manifest)
/// let archive = try KeyedArchive(bytes: bytes)
/// for finding in engine.evaluate(entry, in: archive) where !finding.passed {
///   print(finding)
/// }
/// ```
package struct ExpectationEngine: Sendable {
  /// The class-name mappings that `class` expectations may match through.
  package var classMappings: [String: String]
  /// The bounds on key path evaluation.
  package var limits: ArchiveLimits

  /// Creates an engine that matches class names through a manifest's mappings.
  package init(manifest: Manifest, limits: ArchiveLimits = .default) {
    var mappings: [String: String] = [:]
    for mapping in manifest.classMappings where mappings[mapping.archivedName] == nil {
      mappings[mapping.archivedName] = mapping.currentName
    }
    self.classMappings = mappings
    self.limits = limits
  }

  /// Creates an engine with explicit class-name mappings (archived name → current name).
  package init(classMappings: [String: String] = [:], limits: ArchiveLimits = .default) {
    self.classMappings = classMappings
    self.limits = limits
  }

  /// Reads an entry's archive file and evaluates its expectations.
  ///
  /// An unreadable, oversized or malformed archive fails every expectation,
  /// with the reason as the actual value.
  ///
  /// - Parameters:
  ///   - entry: The archive entry.
  ///   - archivesDirectory: The folder its path is relative to.
  /// - Returns: One finding per expectation, in manifest order.
  package func evaluate(_ entry: ArchiveEntry, archivesDirectory: String) -> [ExpectationFinding] {
    let components = entry.path.split(separator: "/")
    if entry.path.hasPrefix("/") || components.contains("..") {
      return failAll(entry, actual: .archiveOutsideFolder)
    }
    let path = "\(archivesDirectory)/\(entry.path)"
    guard let bytes = ArchiveFile.read(path) else {
      return failAll(entry, actual: .unreadableArchive)
    }
    return evaluate(entry, bytes: bytes)
  }

  /// Evaluates an entry's expectations against its archive's bytes, such as a Keychain item's
  /// data or an archive being authored: an oversized or malformed archive fails every
  /// expectation, with the reason as the actual value.
  ///
  /// - Parameters:
  ///   - entry: The archive entry.
  ///   - bytes: The archive's bytes.
  /// - Returns: One finding per expectation, in manifest order.
  package func evaluate(_ entry: ArchiveEntry, bytes: [UInt8]) -> [ExpectationFinding] {
    if let maxSize = entry.maxSize, bytes.count > maxSize {
      return failAll(entry, actual: .oversizedArchive(size: bytes.count, maxSize: maxSize))
    }
    do {
      let archive = try KeyedArchive(bytes: bytes, limits: limits)
      return evaluate(entry, in: archive)
    } catch {
      return failAll(entry, actual: .malformedArchive(reason: "\(error)"))
    }
  }

  /// Evaluates every expectation of an entry against an archive's graph or a decoded object.
  ///
  /// - Parameters:
  ///   - entry: The archive entry.
  ///   - subject: A ``KeyedArchive``, or an `ExpectationTree` built from a decoded object.
  /// - Returns: One finding per expectation, in manifest order.
  package func evaluate(_ entry: ArchiveEntry, in subject: some ExpectationSubject)
    -> [ExpectationFinding]
  {
    entry.expectations.map { evaluate($0, in: subject, archivePath: entry.path) }
  }

  /// Evaluates one expectation against an archive's graph or a decoded object.
  ///
  /// A wildcard path must hold for every element it reaches; the finding
  /// names the first element that fails.
  package func evaluate(
    _ expectation: FieldExpectation, in subject: some ExpectationSubject, archivePath: String = ""
  ) -> ExpectationFinding {
    var finding = ExpectationFinding(
      status: .failed, archivePath: archivePath, keyPath: expectation.keyPathText,
      expected: expectation.kind, actual: .absent, location: expectation.location)
    guard let keyPath = expectation.keyPath else {
      finding.actual = .malformedKeyPath
      return finding
    }
    let matches: [ExpectationValue]
    do {
      matches = try subject.expectationValues(at: keyPath, limits: limits)
    } catch {
      finding.actual = .unresolvable(reason: error.message)
      return finding
    }

    switch expectation.kind {
    case .present:
      finding.actual = matches.isEmpty ? .absent : .present
      finding.status = matches.isEmpty ? .failed : .passed
      return finding
    case .absent:
      finding.actual = matches.first.map { .init($0.leaf) } ?? .absent
      finding.status = matches.isEmpty ? .passed : .failed
      if let first = matches.first { finding.keyPath = text(of: first.path) }
      return finding
    default:
      break
    }

    if matches.isEmpty {
      if keyPath.components.contains(.wildcard), wildcardCollectionIsEmpty(keyPath, in: subject) {
        finding.status = .passed
        finding.actual = .noElements
      } else {
        finding.actual = .absent
      }
      return finding
    }
    let pattern = compiledPattern(for: expectation.kind)
    for match in matches {
      let (holds, actual) = check(expectation.kind, match.leaf, pattern: pattern)
      if !holds {
        finding.keyPath = text(of: match.path)
        finding.actual = actual
        if matches.count > 1 {
          let failing = matches.count { !check(expectation.kind, $0.leaf, pattern: pattern).0 }
          finding.actual = .someElementsFail(first: actual, failing: failing, of: matches.count)
        }
        return finding
      }
      finding.actual = actual
    }
    finding.status = .passed
    if matches.count > 1 { finding.actual = .allMatch(count: matches.count) }
    return finding
  }

  private func failAll(_ entry: ArchiveEntry, actual: ExpectationFinding.Observation)
    -> [ExpectationFinding]
  {
    entry.expectations.map {
      ExpectationFinding(
        status: .failed, archivePath: entry.path, keyPath: $0.keyPathText,
        expected: $0.kind, actual: actual, location: $0.location)
    }
  }

  /// Whether the collection a path's first wildcard expands is empty, so the path holds vacuously.
  private func wildcardCollectionIsEmpty(
    _ keyPath: ArchiveKeyPath, in subject: some ExpectationSubject
  )
    -> Bool
  {
    guard let index = keyPath.components.firstIndex(of: .wildcard) else { return false }
    let prefix = ArchiveKeyPath(
      topKey: keyPath.topKey, components: Array(keyPath.components[..<index]))
    guard let matches = try? subject.expectationValues(at: prefix, limits: limits),
      matches.count == 1
    else {
      return false
    }
    return Self.count(of: matches[0].leaf) == 0
  }

  /// The element count of a collection, the UTF-16 length of a string or the size of data.
  private static func count(of leaf: ArchiveLeaf) -> Int? {
    switch leaf {
    case .object(_, _, let count): return count
    case .string(let value): return value.utf16.count
    case .data(let bytes): return bytes.count
    default: return nil
    }
  }

  private func text(of path: ArchiveKeyPath) -> String { path.description }

  private func compiledPattern(for kind: FieldExpectation.Kind) -> ValuePattern? {
    guard case .matches(let pattern) = kind else { return nil }
    return try? ValuePattern(pattern)
  }

  /// Checks one value; returns whether it holds and what was observed.
  private func check(
    _ kind: FieldExpectation.Kind, _ leaf: ArchiveLeaf, pattern: ValuePattern?
  ) -> (Bool, ExpectationFinding.Observation) {
    let actual = ExpectationFinding.Observation(leaf)
    switch kind {
    case .string(let expected):
      switch leaf {
      case .string(let value), .url(let value): return (value == expected, actual)
      default: return (false, actual)
      }
    case .integer(let expected):
      switch leaf {
      case .integer(let value): return (String(value) == expected, actual)
      case .unsignedInteger(let value): return (String(value) == expected, actual)
      default: return (false, actual)
      }
    case .real(let expected, let tolerance):
      guard let value = Self.number(leaf) else { return (false, actual) }
      if value.isNaN || expected.isNaN { return (value.isNaN && expected.isNaN, actual) }
      if value.isInfinite || expected.isInfinite { return (value == expected, actual) }
      return (abs(value - expected) <= tolerance, actual)
    case .bool(let expected):
      guard case .bool(let value) = leaf else { return (false, actual) }
      return (value == expected, actual)
    case .date(let expected, let tolerance):
      guard case .date(let value) = leaf else { return (false, actual) }
      return (abs(value - expected) <= tolerance, actual)
    case .data(let expected):
      switch leaf {
      case .data(let bytes), .uuid(let bytes): return (bytes == expected, actual)
      default: return (false, actual)
      }
    case .dataDigest(let sha256, let length):
      switch leaf {
      case .data(let bytes), .uuid(let bytes):
        let digest = SHA256Checksum.hash(bytes).hexadecimal
        let holds = digest == sha256 && (length == nil || length == bytes.count)
        return (holds, .digest(length: bytes.count, sha256: digest))
      default: return (false, actual)
      }
    case .null:
      if case .null = leaf { return (true, actual) }
      return (false, actual)
    case .className(let expected):
      guard case .object(let className, let index, _) = leaf, index >= 0 else {
        return (false, actual)
      }
      let holds = className == expected || classMappings[className] == expected
      return (holds, .className(className))
    case .present:
      return (true, .present)
    case .absent:
      return (false, actual)
    case .maxLength(let limit):
      switch leaf {
      case .string(let value), .url(let value):
        let length = value.utf16.count
        return (length <= limit, .utf16Length(length))
      default: return (false, actual)
      }
    case .range(let minimum, let maximum):
      guard let value = Self.number(leaf), !value.isNaN else { return (false, actual) }
      let holds = (minimum.map { value >= $0 } ?? true) && (maximum.map { value <= $0 } ?? true)
      return (holds, actual)
    case .count(let equals, let minimum, let maximum):
      guard let count = Self.count(of: leaf) else {
        return (false, .uncountable(actual))
      }
      let holds =
        (equals.map { count == $0 } ?? true) && (minimum.map { count >= $0 } ?? true)
        && (maximum.map { count <= $0 } ?? true)
      return (holds, .count(count))
    case .oneOf(let values):
      guard let text = Self.text(leaf) else { return (false, actual) }
      if values.contains(text) { return (true, actual) }
      if let number = Self.number(leaf) {
        let holds = values.contains { XSDValue.double($0) == number }
        return (holds, actual)
      }
      return (false, actual)
    case .matches:
      guard let pattern else { return (false, actual) }
      switch leaf {
      case .string(let value), .url(let value):
        return (pattern.matches(value), actual)
      default: return (false, actual)
      }
    }
  }

  /// A number leaf as a `Double`.
  private static func number(_ leaf: ArchiveLeaf) -> Double? {
    switch leaf {
    case .integer(let value): return Double(value)
    case .unsignedInteger(let value): return Double(value)
    case .real(let value): return value
    default: return nil
    }
  }

  /// A leaf's text form, as `oneOf` compares it.
  private static func text(_ leaf: ArchiveLeaf) -> String? {
    switch leaf {
    case .string(let value), .url(let value): return value
    case .integer(let value): return String(value)
    case .unsignedInteger(let value): return String(value)
    case .real(let value): return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .date(let value): return XSDValue.formatDateTime(value)
    case .uuid(let bytes): return uuidText(bytes)
    case .null: return "null"
    case .data, .object: return nil
    }
  }
}
