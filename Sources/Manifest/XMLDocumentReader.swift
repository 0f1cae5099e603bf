internal import CLibXML2

/// Parses untrusted XML with libxml2, validates it against the manifest XSD and copies it out.
///
/// Safety: the parser never uses the network, never loads a DTD and never
/// substitutes entities, and any `<!DOCTYPE` stops it at once, so external
/// entities and entity-expansion bombs are refused before they cost anything.
/// libxml2 also caps element nesting at 256 levels.
enum XMLDocumentReader {
  /// The largest manifest or mapping file read, in bytes.
  static let maximumSize = 16 << 20
  /// The most well-formedness errors reported before the parser stops.
  static let maximumErrors = 100

  /// The outcome of reading one document.
  struct Result {
    var tree: XMLTree?
    var sourceMap: XMLSourceMap?
    var diagnostics: [ManifestDiagnostic]
  }

  /// Parses and validates `bytes`, naming `file` in diagnostics.
  ///
  /// - Parameters:
  ///   - bytes: The document, UTF-8.
  ///   - file: The name diagnostics give the document.
  ///   - schemaPath: The XSD to validate against.
  ///   - rootName: The local name the root element must have.
  /// - Returns: The tree when the document is usable, its source map, and every diagnostic.
  static func read(bytes: [UInt8], file: String, schemaPath: String, rootName: String) -> Result {
    libxml2Initialized()
    let start = ManifestLocation(file: file, line: 1, column: 1)
    if bytes.count > maximumSize {
      return Result(diagnostics: [
        ManifestDiagnostic(
          .error, .xml, at: start,
          "the document is \(bytes.count) bytes, more than the \(maximumSize)-byte limit")
      ])
    }
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.contains(0) {
      return Result(diagnostics: [
        ManifestDiagnostic(.error, .xml, at: start, "the document must be encoded as UTF-8")
      ])
    }

    let collector = XMLErrorCollector()
    let context = Unmanaged.passUnretained(collector).toOpaque()
    var state = harness_xml_parse_state(
      handler: collectXMLError, context: context, refusedDoctype: 0, refusedLine: 0,
      refusedColumn: 0, errorCount: 0, maximumErrors: Int32(maximumErrors))
    let parsed = withExtendedLifetime(collector) {
      bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { characters in
          harness_xml_parse_untrusted(characters.baseAddress, Int32(characters.count), &state)
        }
      }
    }
    if state.refusedDoctype != 0 {
      let location = ManifestLocation(
        file: file, line: Int(state.refusedLine), column: Int(state.refusedColumn))
      return Result(diagnostics: [
        ManifestDiagnostic(
          .error, .xml, at: location,
          "document type declarations are not allowed; manifests may not declare entities or "
            + "load DTDs")
      ])
    }
    guard let document = parsed else {
      var diagnostics = collector.errors.map { $0.diagnostic(file: file, nodes: [:]) }
      if state.errorCount >= maximumErrors, let last = diagnostics.last {
        diagnostics.append(
          ManifestDiagnostic(
            .note, .xml, at: last.location,
            "stopped after \(maximumErrors) errors; fix these and run again"))
      }
      if diagnostics.isEmpty {
        diagnostics.append(ManifestDiagnostic(.error, .xml, at: start, "the document is not XML"))
      }
      return Result(diagnostics: diagnostics)
    }
    defer { xmlFreeDoc(document) }

    let sourceMap = XMLSourceMap(bytes: bytes)
    var nodes: [UnsafeMutableRawPointer: NodePlace] = [:]
    var elementIndex = 0
    if let root = xmlDocGetRootElement(document) {
      indexElements(root, sourceMap: sourceMap, file: file, next: &elementIndex, into: &nodes)
    }

    var diagnostics = collector.errors.map { $0.diagnostic(file: file, nodes: nodes) }
    collector.errors.removeAll()
    if !diagnostics.containsErrors {
      diagnostics += validate(document, schemaPath: schemaPath, file: file, nodes: nodes)
    }
    guard !diagnostics.containsErrors, let root = xmlDocGetRootElement(document) else {
      return Result(sourceMap: sourceMap, diagnostics: diagnostics)
    }
    let tree = copyTree(root, nodes: nodes, file: file)
    if tree.name != rootName || tree.namespace != ManifestSchema.namespace {
      diagnostics.append(
        ManifestDiagnostic(
          .error, .schema, at: tree.location,
          "expected a '\(rootName)' element in namespace '\(ManifestSchema.namespace)' as the "
            + "document root, found '\(tree.name)'"))
      return Result(sourceMap: sourceMap, diagnostics: diagnostics)
    }
    return Result(tree: tree, sourceMap: sourceMap, diagnostics: diagnostics)
  }

  /// Validates a parsed document against the XSD at `schemaPath`.
  private static func validate(
    _ document: xmlDocPtr, schemaPath: String, file: String,
    nodes: [UnsafeMutableRawPointer: NodePlace]
  ) -> [ManifestDiagnostic] {
    let collector = XMLErrorCollector()
    let context = Unmanaged.passUnretained(collector).toOpaque()
    return withExtendedLifetime(collector) {
      harness_xml_set_thread_errors(collectXMLError, context)
      defer { harness_xml_set_thread_errors(nil, nil) }
      let schemaLocation = ManifestLocation(file: schemaPath, line: 0, column: 0)
      guard let parserContext = xmlSchemaNewParserCtxt(schemaPath) else {
        return [ManifestDiagnostic(.error, .schemaFile, at: schemaLocation, "cannot read the XSD")]
      }
      defer { xmlSchemaFreeParserCtxt(parserContext) }
      harness_xml_schema_parser_set_errors(parserContext, collectXMLError, context)
      guard let schema = xmlSchemaParse(parserContext) else {
        var diagnostics = collector.errors.map {
          var diagnostic = $0.diagnostic(file: schemaPath, nodes: [:])
          diagnostic.category = .schemaFile
          return diagnostic
        }
        if diagnostics.isEmpty {
          diagnostics.append(
            ManifestDiagnostic(.error, .schemaFile, at: schemaLocation, "cannot load the XSD"))
        }
        return diagnostics
      }
      defer { xmlSchemaFree(schema) }
      collector.errors.removeAll()
      guard let validContext = xmlSchemaNewValidCtxt(schema) else {
        return [
          ManifestDiagnostic(.error, .schemaFile, at: schemaLocation, "cannot use the XSD")
        ]
      }
      defer { xmlSchemaFreeValidCtxt(validContext) }
      harness_xml_schema_valid_set_errors(validContext, collectXMLError, context)
      let result = xmlSchemaValidateDoc(validContext, document)
      var diagnostics = collector.errors.map {
        var diagnostic = $0.diagnostic(file: file, nodes: nodes)
        diagnostic.category = .schema
        return diagnostic
      }
      if collector.dropped > 0, let last = diagnostics.last {
        diagnostics.append(
          ManifestDiagnostic(
            .note, .schema, at: last.location,
            "\(collector.dropped) more schema errors are not shown"))
      }
      if result != 0, !diagnostics.containsErrors {
        diagnostics.append(
          ManifestDiagnostic(
            .error, .schema, at: ManifestLocation(file: file, line: 1, column: 1),
            "the document does not follow the manifest schema"))
      }
      return diagnostics
    }
  }

  /// Records, for each element and attribute node, where it was written.
  private static func indexElements(
    _ node: xmlNodePtr, sourceMap: XMLSourceMap, file: String, next: inout Int,
    into nodes: inout [UnsafeMutableRawPointer: NodePlace]
  ) {
    let index = next
    next += 1
    if index < sourceMap.elements.count {
      let element = sourceMap.elements[index]
      var attributeLocations: [String: ManifestLocation] = [:]
      for written in element.attributes {
        attributeLocations[localName(written.qualifiedName)] = ManifestLocation(
          file: file, line: written.position.line, column: written.position.column)
      }
      nodes[UnsafeMutableRawPointer(node)] = NodePlace(
        index: index,
        location: ManifestLocation(
          file: file, line: element.start.line, column: element.start.column),
        attributes: attributeLocations)
      var attribute = node.pointee.properties
      while let current = attribute {
        let name = String(cString: current.pointee.name)
        if let written = element.attributes.first(where: { localName($0.qualifiedName) == name }) {
          nodes[UnsafeMutableRawPointer(current)] = NodePlace(
            index: index,
            location: ManifestLocation(
              file: file, line: written.position.line, column: written.position.column))
        }
        attribute = current.pointee.next
      }
    }
    var child = node.pointee.children
    while let current = child {
      if current.pointee.type == XML_ELEMENT_NODE {
        indexElements(current, sourceMap: sourceMap, file: file, next: &next, into: &nodes)
      }
      child = current.pointee.next
    }
  }

  /// Copies an element and its descendants out of libxml2.
  private static func copyTree(
    _ node: xmlNodePtr, nodes: [UnsafeMutableRawPointer: NodePlace], file: String
  ) -> XMLTree {
    let place =
      nodes[UnsafeMutableRawPointer(node)]
      ?? NodePlace(
        index: -1,
        location: ManifestLocation(file: file, line: Int(xmlGetLineNo(node)), column: 0))
    var attributes: [String: XMLTree.Attribute] = [:]
    var attribute = node.pointee.properties
    while let current = attribute {
      let name = String(cString: current.pointee.name)
      var value = ""
      if let text = xmlNodeGetContent(
        UnsafeMutableRawPointer(current).assumingMemoryBound(
          to: xmlNode.self))
      {
        value = String(cString: text)
        harness_xml_free(text)
      }
      let location = nodes[UnsafeMutableRawPointer(current)]?.location ?? place.location
      attributes[name] = XMLTree.Attribute(value: value, location: location)
      attribute = current.pointee.next
    }
    var children: [XMLTree] = []
    var child = node.pointee.children
    while let current = child {
      if current.pointee.type == XML_ELEMENT_NODE {
        children.append(copyTree(current, nodes: nodes, file: file))
      }
      child = current.pointee.next
    }
    var text = ""
    // Only leaf elements carry values; an element with children would copy the text of its whole
    // subtree, which for the root is the whole document.
    if children.isEmpty, let content = xmlNodeGetContent(node) {
      text = String(cString: content)
      harness_xml_free(content)
    }
    let namespace = node.pointee.ns.flatMap { $0.pointee.href }.map { String(cString: $0) }
    return XMLTree(
      name: String(cString: node.pointee.name), namespace: namespace, attributes: attributes,
      children: children, text: text, location: place.location, sourceIndex: place.index)
  }

  private static func localName(_ qualifiedName: String) -> String {
    guard let colon = qualifiedName.lastIndex(of: ":") else { return qualifiedName }
    return String(qualifiedName[qualifiedName.index(after: colon)...])
  }
}

/// Where a libxml2 node was written.
struct NodePlace {
  var index: Int
  var location: ManifestLocation
  /// Where each attribute of an element was written, by local name.
  var attributes: [String: ManifestLocation] = [:]
}

/// One error libxml2 reported, copied out of its callback.
struct XMLRawError {
  var message: String
  var line: Int
  var column: Int
  var node: UnsafeMutableRawPointer?
  var isWarning: Bool

  func diagnostic(file: String, nodes: [UnsafeMutableRawPointer: NodePlace]) -> ManifestDiagnostic {
    var location = ManifestLocation(file: file, line: line, column: column)
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
    guard message.hasPrefix("Element '"), let marker = message.firstRange(of: "', attribute '")
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
    var text = message.replacing("{\(ManifestSchema.namespace)}", with: "")
    while let last = text.last, last.isWhitespace || last == "." { text.removeLast() }
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
private func collectXMLError(_ context: UnsafeMutableRawPointer?, _ error: UnsafePointer<xmlError>?)
{
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
      message: message, line: Int(value.line), column: Int(value.int2), node: value.node,
      isWarning: value.level == XML_ERR_WARNING))
}

/// Initializes libxml2 once per process.
private let libxml2Initialization: Void = { xmlInitParser() }()

private func libxml2Initialized() { _ = libxml2Initialization }
