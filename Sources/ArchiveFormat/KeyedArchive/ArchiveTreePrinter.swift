/// Prints an archive as an indented tree of key paths, class names and values, for people writing manifests.
///
/// Each object is expanded once; a later reference prints `→ #N (shared)`, and
/// a reference back into the object being printed prints `→ #N (cycle)`. The
/// output is linear in the archive's size whatever its sharing. Text output
/// may change between versions; `--format json` is the stable form.
package struct ArchiveTreePrinter: Sendable {
  /// The bounds on the walk.
  package var limits: ArchiveLimits
  /// The longest string or data shown before it is cut with `…`.
  package var maximumValueLength = 200

  /// How many levels of archives inside `Data` values are expanded (see `NestedArchive`).
  package var nestedDepth = NestedArchive.maximumDepth

  /// Creates a printer.
  package init(limits: ArchiveLimits = .default) {
    self.limits = limits
  }

  /// Returns the tree for every `$top` entry, `root` first.
  package func render(_ archive: KeyedArchive) -> String {
    var state = State()
    var output = "\(archive.archiver) \(archive.version), \(archive.objects.count) objects\n"
    let entries = archive.top.entries.sorted {
      ($0.key != "root" ? 1 : 0) < ($1.key != "root" ? 1 : 0)
    }
    for entry in entries {
      let path =
        entry.key == "root"
        ? ArchiveKeyPath(components: []) : ArchiveKeyPath(topKey: entry.key, components: [])
      let label = entry.key == "root" ? "root" : "$top." + entry.key
      append(
        archive, value: entry.value, label: label, path: path, depth: 0, state: &state, to: &output)
    }
    return output
  }

  private struct State {
    var printed: Set<Int> = []
    var onStack: Set<Int> = []
  }

  private func append(
    _ archive: KeyedArchive, value: PropertyListValue, label: String, path: ArchiveKeyPath,
    depth: Int,
    state: inout State, to output: inout String
  ) {
    let indent = String(repeating: "  ", count: depth)
    let node = archive.node(for: value)
    // Instances, and arrays stored directly in `$objects`, are printed once by
    // index: a UID to a stored array is a reference like any other.
    let identity: Int?
    switch (node, value) {
    case (.object(let index), _): identity = index
    case (.value(.array), .uid(let uid)), (.value(.dictionary), .uid(let uid)): identity = Int(uid)
    default: identity = nil
    }
    if let index = identity {
      if state.onStack.contains(index) {
        output += "\(indent)\(label) → #\(index) (cycle)\n"
        return
      }
      if state.printed.contains(index) {
        output += "\(indent)\(label) → #\(index) (shared, shown above)\n"
        return
      }
    }
    let leaf = archive.leaf(of: node)
    let children = archive.children(of: node)
    switch leaf {
    case .object(let className, _, let count):
      var heading = "\(indent)\(label) = \(className)"
      if let index = identity { heading += " #\(index)" }
      if let count { heading += " (\(count) \(count == 1 ? "element" : "elements"))" }
      output += heading + "\n"
      guard depth < limits.maximumWalkDepth else {
        output += "\(indent)  … deeper objects elided at depth \(limits.maximumWalkDepth)\n"
        return
      }
      if let index = identity {
        state.printed.insert(index)
        state.onStack.insert(index)
      }
      for child in children {
        let childPath = path.appending(child.component)
        append(
          archive, value: child.value, label: childPath.description, path: childPath,
          depth: depth + 1,
          state: &state, to: &output)
      }
      if let index = identity { state.onStack.remove(index) }
    default:
      var suffix = ""
      if case .object(let index) = node {
        state.printed.insert(index)
        if let instance = archive.instance(at: index) {
          suffix = "  (\(instance.className) #\(index))"
        }
      }
      output += "\(indent)\(label) = \(describe(leaf))\(suffix)\n"
      if case .data(let bytes) = leaf, nestedDepth > 0,
        let nested = NestedArchive(bytes, limits: limits)
      {
        // A Data value that is itself an archive: its own tree, one level in.
        var inner = self
        inner.nestedDepth -= 1
        for line in inner.render(nested.archive).split(separator: "\n") {
          output += "\(indent)  | \(line)\n"
        }
      }
    }
  }

  /// A leaf as the tree shows it: strings quoted, data as a byte count and hex prefix.
  package func describe(_ leaf: ArchiveLeaf) -> String {
    switch leaf {
    case .null: return "null"
    case .string(let string): return quote(string)
    case .integer(let number): return String(number)
    case .unsignedInteger(let number): return String(number)
    case .real(let number): return "\(number)"
    case .bool(let flag): return flag ? "true" : "false"
    case .date(let seconds):
      return "date " + (ISO8601.formatExpanded(seconds, fractionalDigits: 3) ?? "\(seconds)")
    case .data(let bytes):
      if nestedDepth > 0, let nested = NestedArchive(bytes, limits: limits) {
        return "<\(bytes.count) bytes: \(nested.summary)>"
      }
      let shown = Hex.encode(bytes.prefix(maximumValueLength / 2))
      return
        "<\(bytes.count) bytes\(bytes.isEmpty ? "" : ": " + shown)\(bytes.count > maximumValueLength / 2 ? "…" : "")>"
    case .uuid(let bytes): return "uuid " + uuidText(bytes)
    case .url(let text): return "url " + quote(text)
    case .object(let className, let index, _): return "\(className) #\(index)"
    }
  }

  private func quote(_ string: String) -> String {
    SwiftLiteral.quoted(string, maximumScalars: maximumValueLength)
  }
}

/// A UUID's 16 bytes in the canonical 8-4-4-4-12 form, upper case as `NSUUID` prints it.
package func uuidText(_ bytes: [UInt8]) -> String {
  var text = ""
  for (position, byte) in bytes.enumerated() {
    if [4, 6, 8, 10].contains(position) { text += "-" }
    text += Hex.digits(byte, uppercase: true)
  }
  return text
}
