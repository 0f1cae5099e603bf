import ArchiveManifest

extension ManifestAuthor {
  /// What a checksum update changed in a manifest.
  public struct ChecksumUpdate: Sendable {
    /// The edited text; empty when the manifest could not be read.
    public var text: String
    /// Problems reading the manifest.
    public var diagnostics: [ManifestDiagnostic]
    /// The entry paths whose `sha256` was rewritten.
    public var updated: [String] = []
    /// The entry paths whose `sha256` already had the new value.
    public var unchanged: [String] = []
    /// The paths given that no entry lists.
    public var unlisted: [String] = []
  }

  /// Rewrites the `sha256` of the entries for archives that changed, keeping every other byte of the manifest.
  ///
  /// `archive-harness anonymize --update-manifest` calls this after writing
  /// new archives over old ones, so the manifest pins the new bytes.
  ///
  /// ```swift
  /// let update = ManifestAuthor().updateChecksums(
  ///   existingText: text, file: "manifests/MyApp-3.2.xml",
  ///   checksums: ["MyApp-3.2/cache.archive": SHA256Checksum.hash(bytes).hexadecimal])
  /// ```
  ///
  /// - Parameters:
  ///   - existingText: The manifest as it is now.
  ///   - file: The manifest's path, for diagnostics.
  ///   - checksums: New lowercase SHA-256 digests by archive path, relative to the archives folder.
  /// - Returns: The edited text and which entries changed.
  public func updateChecksums(
    existingText: String, file: String, checksums: [String: String]
  ) -> ChecksumUpdate {
    updateChecksums(existingText: existingText, file: file, checksums: checksums, schema: .builtIn)
  }

  /// Rewrites the `sha256` of changed entries, reading the manifest against `schema`.
  package func updateChecksums(
    existingText: String, file: String, checksums: [String: String],
    schema: ManifestSchema.Source
  ) -> ChecksumUpdate {
    let bytes = Array(existingText.utf8)
    let read = XMLDocumentReader.read(
      bytes: bytes, file: file, schema: schema, rootName: "manifest")
    guard let tree = read.tree, let sourceMap = read.sourceMap else {
      return ChecksumUpdate(text: "", diagnostics: read.diagnostics)
    }
    var wanted: [String: (path: String, digest: String)] = [:]
    for (path, digest) in checksums { wanted[Self.normalized(path)] = (path, digest.lowercased()) }
    var update = ChecksumUpdate(text: "", diagnostics: read.diagnostics)
    var listed: Set<String> = []
    var edits: [(range: Range<Int>, text: String)] = []
    // An entry of a Keychain item pins the item's data, not the snapshot file's bytes.
    for entry in tree.children(named: "archive") where entry[attribute: "keychainItem"] == nil {
      let path = Self.normalized(entry[attribute: "path"] ?? "")
      guard let (givenPath, digest) = wanted[path], !listed.contains(path) else { continue }
      listed.insert(path)
      guard entry.sourceIndex >= 0, entry.sourceIndex < sourceMap.elements.count,
        let attribute = sourceMap.elements[entry.sourceIndex].attributes.first(where: {
          $0.qualifiedName == "sha256"
        }),
        let range = Self.valueRange(ofAttributeAt: attribute.position.offset, in: bytes)
      else { continue }
      let current = String(decoding: bytes[range], as: UTF8.self).lowercased()
      if current == digest {
        update.unchanged.append(givenPath)
      } else {
        edits.append((range, digest))
        update.updated.append(givenPath)
      }
    }
    update.unlisted = wanted.filter { !listed.contains($0.key) }.map(\.value.path).sorted()
    var output = bytes
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      output.replaceSubrange(edit.range, with: Array(edit.text.utf8))
    }
    update.text = String(decoding: output, as: UTF8.self)
    return update
  }

  /// The bytes of an attribute's value, from the offset where its name starts: past `=` and the opening quote, up to the closing one.
  private static func valueRange(ofAttributeAt offset: Int, in bytes: [UInt8]) -> Range<Int>? {
    var position = offset
    while position < bytes.count, bytes[position] != UInt8(ascii: "=") { position += 1 }
    while position < bytes.count, bytes[position] != UInt8(ascii: "\""),
      bytes[position] != UInt8(ascii: "'")
    {
      position += 1
    }
    guard position < bytes.count else { return nil }
    let quote = bytes[position]
    let start = position + 1
    var end = start
    while end < bytes.count, bytes[end] != quote { end += 1 }
    return end < bytes.count ? start..<end : nil
  }
}
