import ArchiveFormat

/// The result of checking one field expectation against one archive: passed, or failed and why.
///
/// Both sides are data: the expectation as the manifest states it, and an
/// `Observation` of what the archive holds. Their descriptions are the text
/// reports print, such as `expected string "Berlin", found string "Bern"`.
///
/// ```swift
/// let finding = ExpectationEngine(manifest: manifest).evaluate(expectation, in: archive)
/// if case .value(.string(let city)) = finding.actual { print(city) }
/// print(finding)  // m.xml:6:5: failed: alice.archive address.city: expected string …
/// ```
package struct ExpectationFinding: Sendable, Hashable, CustomStringConvertible {
  /// Whether the expectation held.
  package enum Status: String, Sendable, Hashable {
    /// The expectation held.
    case passed
    /// The expectation did not hold.
    case failed
  }

  /// What the engine found at an expectation's key path, or why it found nothing.
  ///
  /// ```swift
  /// let found = ExpectationFinding.Observation(.string("Bern"))  // .value(.string("Bern"))
  /// print(found)                                              // string "Bern"
  /// ```
  package enum Observation: Sendable, Hashable, CustomStringConvertible {
    /// A value that is not an object: a string, number, bool, date, data, UUID, URL or null.
    case value(ArchiveLeaf)
    /// An object, by class name, with its element count when it is a collection.
    case object(className: String, count: Int?)
    /// The key path reaches a value (a `present` expectation).
    case present
    /// The key path reaches nothing.
    case absent
    /// A wildcard path whose collection is empty, so the expectation holds vacuously.
    case noElements
    /// A wildcard path whose values all hold, by how many there are.
    case allMatch(count: Int)
    /// An object's archived class name (a `class` expectation).
    case className(String)
    /// Bytes, by length and lowercase hexadecimal SHA-256 (a `dataDigest` expectation).
    case digest(length: Int, sha256: String)
    /// A string's length in UTF-16 code units (a `maxLength` expectation).
    case utf16Length(Int)
    /// A collection's element count (a `count` expectation).
    case count(Int)
    /// A value that a `count` expectation cannot count.
    indirect case uncountable(Observation)
    /// The first element of a wildcard path that fails, and how many of all fail.
    indirect case someElementsFail(first: Observation, failing: Int, of: Int)
    /// The expectation's key path did not parse.
    case malformedKeyPath
    /// The key path could not be followed, such as a wildcard that matches too many values.
    case unresolvable(reason: String)
    /// The entry's path leads outside the archives folder, so it was not read.
    case archiveOutsideFolder
    /// The archive file could not be read.
    case unreadableArchive
    /// The archive file is larger than the entry's `maxSize`.
    case oversizedArchive(size: Int, maxSize: Int)
    /// The archive file is not a readable keyed archive.
    case malformedArchive(reason: String)

    /// The observation of a leaf: objects by class name and count, other leaves as values.
    ///
    /// - Parameter leaf: A leaf of an archive graph or of a decoded object's tree.
    package init(_ leaf: ArchiveLeaf) {
      if case .object(let className, _, let count) = leaf {
        self = .object(className: className, count: count)
      } else {
        self = .value(leaf)
      }
    }

    /// How the observation reads in a finding, such as `string "Bern"` or `3 elements`.
    package var description: String {
      switch self {
      case .value(let leaf): Self.describe(leaf)
      case .object(let className, let count?): "\(className) of \(count) elements"
      case .object(let className, nil): "object of class '\(className)'"
      case .present: "present"
      case .absent: "absent"
      case .noElements: "no elements"
      case .allMatch(let count): "\(count) elements that all match"
      case .className(let name): "class '\(name)'"
      case .digest(let length, let sha256): "\(length) bytes with sha256 \(sha256)"
      case .utf16Length(let length): "\(length) UTF-16 units"
      case .count(let count): "\(count) elements"
      case .uncountable(let value): "\(value), which has no count"
      case .someElementsFail(let first, let failing, let total):
        "\(first) (\(failing) of \(total) elements fail)"
      case .malformedKeyPath: "a malformed key path"
      case .unresolvable(let reason): "no value: \(reason)"
      case .archiveOutsideFolder: "an archive path outside the archives folder"
      case .unreadableArchive: "an archive that cannot be read"
      case .oversizedArchive(let size, let maxSize):
        "an archive of \(size) bytes, over maxSize \(maxSize)"
      case .malformedArchive(let reason): "an archive that does not read (\(reason))"
      }
    }

    private static func describe(_ leaf: ArchiveLeaf) -> String {
      switch leaf {
      case .null: "null"
      case .string(let value): "string \(FieldExpectation.Kind.quoted(value))"
      case .integer(let value): "integer \(value)"
      case .unsignedInteger(let value): "integer \(value)"
      case .real(let value): "real \(value)"
      case .bool(let value): "bool \(value)"
      case .date(let value): "date \(XSDValue.formatDateTime(value))"
      case .data(let bytes): "data of \(bytes.count) bytes"
      case .uuid(let bytes): "uuid \(uuidText(bytes))"
      case .url(let value): "url \(FieldExpectation.Kind.quoted(value))"
      case .object(let className, _, let count):
        Observation.object(className: className, count: count).description
      }
    }
  }

  /// Whether the expectation held.
  package var status: Status
  /// The archive entry's path, as the manifest wrote it.
  package var archivePath: String
  /// The key path the finding is about: for a wildcard, the first element that failed.
  package var keyPath: String
  /// What the manifest expects, such as `string "Berlin"` or `at most 40 UTF-16 units`.
  package var expected: FieldExpectation.Kind
  /// What the archive holds, such as `string "Bern"` or `absent`.
  package var actual: Observation
  /// Where the expectation was written.
  package var location: Place

  /// Creates a finding.
  package init(
    status: Status, archivePath: String, keyPath: String, expected: FieldExpectation.Kind,
    actual: Observation, location: Place
  ) {
    self.status = status
    self.archivePath = archivePath
    self.keyPath = keyPath
    self.expected = expected
    self.actual = actual
    self.location = location
  }

  /// Whether the expectation held.
  package var passed: Bool { status == .passed }

  /// The finding as `manifest.xml:LINE:COL: failed: archive key: expected …, found …`.
  package var description: String {
    let key = keyPath.isEmpty ? "(root)" : keyPath
    return
      "\(location): \(status.rawValue): \(archivePath) \(key): expected \(expected), found \(actual)"
  }
}

extension ExpectationFinding.Observation {
  /// The observation with the text and bytes it quotes replaced by their length
  /// (`MaskedText`), for an archive whose values may be secrets, such as a Keychain item's.
  ///
  /// ```swift
  /// ExpectationFinding.Observation.value(.string("t0k3n")).maskingText
  /// // .value(.string("‹5 characters, masked›"))
  /// ```
  package var maskingText: ExpectationFinding.Observation {
    switch self {
    case .value(.string(let text)): .value(.string(MaskedText.characters(text)))
    case .value(.url(let text)): .value(.url(MaskedText.characters(text)))
    case .value(.data(let bytes)): .value(.string(MaskedText.bytes(bytes)))
    case .uncountable(let inner): .uncountable(inner.maskingText)
    case .someElementsFail(let first, let failing, let total):
      .someElementsFail(first: first.maskingText, failing: failing, of: total)
    default: self
    }
  }
}
