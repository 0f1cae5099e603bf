import ArchiveFormat
internal import CHarnessXMLBridge
import Foundation

/// One error libxml2 reported, copied out of its callback.
struct XMLRawError {
  var message: String
  var line: Int
  var column: Int
  var node: UnsafeRawPointer?
  var isWarning: Bool

  func diagnostic(file: String, nodes: [UnsafeRawPointer: NodePlace]) -> ManifestDiagnostic {
    var location = Place(file: file, line: line, column: column)
    if let node, let place = nodes[node] {
      location = place.location
      // Schema errors about an attribute name the element's node; point at the attribute.
      if let name = XMLRawError.attributeName(in: message), let written = place.attributes[name] {
        location = written
      }
    }
    return ManifestDiagnostic(
      isWarning ? .warning : .error, .xml, at: location, XMLRawError.clean(message))
  }

  /// Returns the attribute an "Element 'x', attribute 'y': …" message is about.
  static func attributeName(in message: String) -> String? {
    guard message.hasPrefix("Element '"), let marker = message.range(of: "', attribute '")
    else { return nil }
    let rest = message[marker.upperBound...]
    guard let end = rest.firstIndex(of: "'") else { return nil }
    let qualified = rest[..<end]
    if let brace = qualified.lastIndex(of: "}") {
      return String(qualified[qualified.index(after: brace)...])
    }
    return String(qualified)
  }

  /// Trims libxml2's trailing newline and period and drops the manifest namespace from names.
  static func clean(_ message: String) -> String {
    var text = message.replacingOccurrences(of: "{\(ManifestSchema.namespace)}", with: "")
    while let last = text.last, last.isWhitespace || last == "." { text.removeLast() }
    // libxml2 suggests an option no user of the harness can set; say what the limit is instead.
    if text.hasPrefix("Excessive depth in document:"), text.hasSuffix("use XML_PARSE_HUGE option") {
      let limit =
        text.dropFirst("Excessive depth in document:".count)
        .prefix { $0 == " " || $0.isNumber }.trimmingCharacters(in: .whitespaces)
      return "elements nest deeper than \(limit) levels, more than a manifest may; "
        + "a manifest nests a few levels at most"
    }
    return text
  }
}

/// Collects the errors libxml2 reports during one operation, keeping at most ``limit``.
final class XMLErrorCollector {
  var errors: [XMLRawError] = []
  /// The most errors kept; later ones are only counted.
  let limit = 1_000
  /// The errors reported beyond the limit.
  var dropped = 0
}

/// Receives a libxml2 error and hands it to the collector passed as context.
func collectXMLError(_ context: UnsafeMutableRawPointer?, _ error: UnsafePointer<ahx_error>?) {
  guard let context, let error else { return }
  let collector = Unmanaged<XMLErrorCollector>.fromOpaque(context).takeUnretainedValue()
  guard collector.errors.count < collector.limit else {
    collector.dropped += 1
    return
  }
  let value = error.pointee
  let message = value.message.map { String(cString: $0) } ?? "unknown XML error"
  collector.errors.append(
    XMLRawError(
      message: message, line: Int(value.line), column: Int(value.column), node: value.node,
      isWarning: value.is_warning != 0))
}
