import ArchiveFormat
internal import CHarnessXMLBridge

/// Parses untrusted XML with libxml2, validates it against the manifest XSD and copies it out.
///
/// Safety: the parser never uses the network, never loads a DTD and never
/// substitutes entities, and any `<!DOCTYPE` stops it at once, so external
/// entities and entity-expansion bombs are refused before they cost anything.
/// libxml2 also caps element nesting at 256 levels. Only UTF-8 text is read:
/// a byte-order mark other than UTF-8's, a NUL byte, or an XML declaration
/// that names another encoding is refused at line 1.
///
/// libxml2 is reached only through the `CHarnessXMLBridge` C target, whose header
/// includes no libxml2 (and so no ICU) header.
package enum XMLDocumentReader {
  /// The largest manifest or mapping file read, in bytes.
  static let maximumSize = 16 << 20
  /// The most well-formedness errors reported before the parser stops.
  static let maximumErrors = 100

  /// The outcome of reading one document.
  package struct Result {
    package var tree: XMLTree?
    package var sourceMap: XMLSourceMap?
    package var diagnostics: [ManifestDiagnostic]
  }

  /// Parses and validates `bytes`, naming `file` in diagnostics.
  ///
  /// - Parameters:
  ///   - bytes: The document, UTF-8.
  ///   - file: The name diagnostics give the document.
  ///   - schema: The XSD to validate against.
  ///   - rootName: The local name the root element must have.
  /// - Returns: The tree when the document is usable, its source map, and every diagnostic.
  package static func read(
    bytes: [UInt8], file: String, schema: ManifestSchema.Source, rootName: String
  )
    -> Result
  {
    read(bytes: bytes, file: file, validatingWith: schema, rootName: rootName)
  }

  /// Parses `bytes` with the same safety rules, but validates against no schema.
  ///
  /// For documents that are not manifests, such as the XSD itself, which
  /// `ManifestFormatReference` reads.
  ///
  /// - Parameters:
  ///   - bytes: The document, UTF-8.
  ///   - file: The name diagnostics give the document.
  /// - Returns: The tree when the document is well formed, its source map, and every diagnostic.
  package static func parse(bytes: [UInt8], file: String) -> Result {
    read(bytes: bytes, file: file, validatingWith: nil, rootName: nil)
  }

  /// Parses `bytes`; validates them against `schema` and checks the root's name when given.
  private static func read(
    bytes: [UInt8], file: String, validatingWith schema: ManifestSchema.Source?,
    rootName: String?
  ) -> Result {
    let start = Place(file: file, line: 1, column: 1)
    if bytes.count > maximumSize {
      return Result(diagnostics: [
        ManifestDiagnostic(
          .error, .xml, at: start,
          "the document is \(bytes.count) bytes, more than the \(maximumSize)-byte limit")
      ])
    }
    if let problem = XMLEncodingCheck.problem(in: bytes) {
      return Result(diagnostics: [ManifestDiagnostic(.error, .xml, at: start, problem)])
    }

    let collector = XMLErrorCollector()
    var report = ahx_parse_report()
    let parsed = withExtendedLifetime(collector) {
      bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { characters in
          ahx_parse_untrusted(
            characters.baseAddress, Int32(characters.count), Int32(maximumErrors),
            collectXMLError, Unmanaged.passUnretained(collector).toOpaque(), &report)
        }
      }
    }
    if report.refused_doctype != 0 {
      let location = Place(
        file: file, line: Int(report.refused_line), column: Int(report.refused_column))
      return Result(diagnostics: [
        ManifestDiagnostic(
          .error, .xml, at: location,
          "document type declarations are not allowed; manifests may not declare entities or "
            + "load DTDs")
      ])
    }
    guard let document = parsed else {
      var diagnostics = collector.errors.map { $0.diagnostic(file: file, nodes: [:]) }
      if report.error_count >= maximumErrors, let last = diagnostics.last {
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
    defer { ahx_document_free(document) }

    let sourceMap = XMLSourceMap(bytes: bytes)
    var nodes: [UnsafeRawPointer: NodePlace] = [:]
    var elementIndex = 0
    if let root = ahx_document_root(document) {
      indexElements(root, sourceMap: sourceMap, file: file, next: &elementIndex, into: &nodes)
    }

    var diagnostics = collector.errors.map { $0.diagnostic(file: file, nodes: nodes) }
    collector.errors.removeAll()
    if !diagnostics.containsErrors, let schema {
      diagnostics += validate(document, schema: schema, file: file, nodes: nodes)
    }
    guard !diagnostics.containsErrors, let root = ahx_document_root(document) else {
      return Result(sourceMap: sourceMap, diagnostics: diagnostics)
    }
    let tree = copyTree(root, nodes: nodes, file: file)
    guard let rootName else {
      return Result(tree: tree, sourceMap: sourceMap, diagnostics: diagnostics)
    }
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

  /// Validates a parsed document against `schema`.
  private static func validate(
    _ document: OpaquePointer, schema: ManifestSchema.Source, file: String,
    nodes: [UnsafeRawPointer: NodePlace]
  ) -> [ManifestDiagnostic] {
    let compiled: CompiledSchema
    switch CompiledSchema.load(schema) {
    case .success(let loaded): compiled = loaded
    case .failure(let failure): return failure.diagnostics
    }
    let collector = XMLErrorCollector()
    let result = withExtendedLifetime((collector, compiled)) {
      ahx_schema_validate(
        compiled.handle, document, collectXMLError,
        Unmanaged.passUnretained(collector).toOpaque())
    }
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
          .error, .schema, at: Place(file: file, line: 1, column: 1),
          result < 0
            ? "the document could not be validated against the manifest schema"
            : "the document does not follow the manifest schema"))
    }
    return diagnostics
  }

  /// Records, for each element and attribute node, where it was written.
  private static func indexElements(
    _ element: OpaquePointer, sourceMap: XMLSourceMap, file: String, next: inout Int,
    into nodes: inout [UnsafeRawPointer: NodePlace]
  ) {
    let index = next
    next += 1
    if index < sourceMap.elements.count {
      let written = sourceMap.elements[index]
      var attributeLocations: [String: Place] = [:]
      for attribute in written.attributes {
        attributeLocations[localName(attribute.qualifiedName)] = Place(
          file: file, line: attribute.position.line, column: attribute.position.column)
      }
      nodes[UnsafeRawPointer(element)] = NodePlace(
        index: index,
        location: Place(
          file: file, line: written.start.line, column: written.start.column),
        attributes: attributeLocations)
      var attribute = ahx_element_first_attribute(element)
      while let current = attribute {
        let name = String(cString: ahx_attribute_name(current))
        if let location = attributeLocations[name] {
          nodes[UnsafeRawPointer(current)] = NodePlace(index: index, location: location)
        }
        attribute = ahx_attribute_next(current)
      }
    }
    var child = ahx_element_first_child(element)
    while let current = child {
      indexElements(current, sourceMap: sourceMap, file: file, next: &next, into: &nodes)
      child = ahx_element_next_sibling(current)
    }
  }

  /// Copies an element and its descendants out of libxml2.
  private static func copyTree(
    _ element: OpaquePointer, nodes: [UnsafeRawPointer: NodePlace], file: String
  ) -> XMLTree {
    let place =
      nodes[UnsafeRawPointer(element)]
      ?? NodePlace(
        index: -1,
        location: Place(file: file, line: Int(ahx_element_line(element)), column: 0))
    var attributes: [String: XMLTree.Attribute] = [:]
    var attribute = ahx_element_first_attribute(element)
    while let current = attribute {
      let name = String(cString: ahx_attribute_name(current))
      let value = takeText(ahx_attribute_value(current))
      let location = nodes[UnsafeRawPointer(current)]?.location ?? place.location
      attributes[name] = XMLTree.Attribute(value: value, location: location)
      attribute = ahx_attribute_next(current)
    }
    var children: [XMLTree] = []
    var child = ahx_element_first_child(element)
    while let current = child {
      children.append(copyTree(current, nodes: nodes, file: file))
      child = ahx_element_next_sibling(current)
    }
    // Only leaf elements carry values; an element with children would copy the text of its whole
    // subtree, which for the root is the whole document.
    let text = children.isEmpty ? takeText(ahx_element_text(element)) : ""
    let namespace = ahx_element_namespace(element).map { String(cString: $0) }
    return XMLTree(
      name: String(cString: ahx_element_name(element)), namespace: namespace,
      attributes: attributes, children: children, text: text, location: place.location,
      sourceIndex: place.index)
  }

  /// Copies and frees text the bridge allocated.
  private static func takeText(_ text: UnsafeMutablePointer<CChar>?) -> String {
    guard let text else { return "" }
    defer { ahx_free(text) }
    return String(cString: text)
  }

  private static func localName(_ qualifiedName: String) -> String {
    guard let colon = qualifiedName.lastIndex(of: ":") else { return qualifiedName }
    return String(qualifiedName[qualifiedName.index(after: colon)...])
  }
}

/// Where a libxml2 node was written.
struct NodePlace {
  var index: Int
  var location: Place
  /// Where each attribute of an element was written, by local name.
  var attributes: [String: Place] = [:]
}
