import ArchiveFormat
import ArchiveManifest
import Foundation

/// The Markdown reference of the manifest format, generated from the XSD's annotations.
///
/// Every element and attribute the XSD declares is listed with its meaning (its
/// `xs:annotation/xs:documentation`), the elements it may appear in, whether it
/// is required, its allowed values (enumerations with each value's own
/// documentation, patterns, lengths and bounds), its default and an example.
/// An example is the text of an `<example>` element in a declaration's
/// `xs:appinfo` (or, for an element without one, in its type's), written in a
/// CDATA section so that it needs no escaping:
///
/// ```xml
/// <xs:element name="foundation" type="m:Outcome" minOccurs="0">
///   <xs:annotation>
///     <xs:documentation>The expected outcome of Foundation's secure path.</xs:documentation>
///     <xs:appinfo><example><![CDATA[<foundation outcome="decodes"/>]]></example></xs:appinfo>
///   </xs:annotation>
/// </xs:element>
/// ```
///
/// The output depends on the XSD alone: sections follow document order from the
/// global elements down, and nothing is dated. A declaration without
/// documentation (a named `xs:element`, `xs:attribute`, `xs:complexType` or
/// `xs:simpleType`) is reported in ``undocumented``, naming it and its line.
/// `scripts/manifest-reference` writes `docs/ManifestFormat.md` with it, through
/// `archive-harness manifest reference`.
///
/// ```swift
/// let reference = ManifestFormatReference.builtIn
/// for problem in reference.undocumented { print(problem) }
/// try reference.markdown.write(toFile: "docs/ManifestFormat.md", atomically: true, encoding: .utf8)
/// ```
package struct ManifestFormatReference: Sendable {
  /// The namespace of the XML Schema vocabulary.
  package static let xsdNamespace = "http://www.w3.org/2001/XMLSchema"
  /// Where the generated reference lives in this repository.
  package static let relativePath = "docs/ManifestFormat.md"

  /// The reference, as Markdown; empty when the XSD could not be read.
  package var markdown: String
  /// One warning per declaration without documentation, in document order, at its line.
  ///
  /// The message names what lacks it, such as
  /// `element 'producer' in complexType 'Manifest' has no xs:documentation`.
  package var undocumented: [ManifestDiagnostic]
  /// Why the XSD could not be read, if it could not; then ``markdown`` is empty.
  package var problems: [ManifestDiagnostic]

  /// Whether the XSD was read and every declaration in it is documented.
  package var isComplete: Bool { problems.isEmpty && undocumented.isEmpty }

  /// The reference of the built-in schema (`manifests/schema/archive-manifest.xsd`).
  ///
  /// ```swift
  /// print(ManifestFormatReference.builtIn.markdown)
  /// ```
  package static var builtIn: ManifestFormatReference {
    ManifestFormatReference(xsd: Array(ManifestSchema.builtInXSD.utf8), file: "<built-in schema>")
  }

  /// Reads the XSD at `path` and builds its reference.
  ///
  /// ```swift
  /// let reference = ManifestFormatReference(path: "manifests/schema/archive-manifest.xsd")
  /// ```
  ///
  /// - Parameter path: The XSD file; diagnostics name it as given.
  package init(path: String) {
    guard let data = FileManager.default.contents(atPath: path) else {
      self.init(
        problems: [
          ManifestDiagnostic(
            .error, .io, at: Place(file: path, line: 0, column: 0),
            "cannot read the XSD")
        ])
      return
    }
    self.init(xsd: [UInt8](data), file: path)
  }

  /// Builds the reference of an XSD held in memory.
  ///
  /// ```swift
  /// let reference = ManifestFormatReference(xsd: Array(text.utf8), file: "draft.xsd")
  /// if !reference.isComplete { print(reference.undocumented) }
  /// ```
  ///
  /// - Parameters:
  ///   - xsd: The schema document, UTF-8.
  ///   - file: The name diagnostics give the schema.
  package init(xsd: [UInt8], file: String) {
    let read = XMLDocumentReader.parse(bytes: xsd, file: file)
    guard let tree = read.tree, !read.diagnostics.containsErrors else {
      self.init(problems: read.diagnostics)
      return
    }
    guard tree.name == "schema", tree.namespace == Self.xsdNamespace else {
      self.init(
        problems: [
          ManifestDiagnostic(
            .error, .schemaFile, at: tree.location,
            "expected an XML Schema ('schema' in '\(Self.xsdNamespace)'), found '\(tree.name)'")
        ])
      return
    }
    var builder = ReferenceBuilder(schema: SchemaIndex(tree))
    builder.build()
    self.init(
      markdown: MarkdownWriter(builder: builder).document(),
      undocumented: UndocumentedScan.run(tree), problems: [])
  }

  private init(
    markdown: String = "", undocumented: [ManifestDiagnostic] = [],
    problems: [ManifestDiagnostic]
  ) {
    self.markdown = markdown
    self.undocumented = undocumented
    self.problems = problems
  }
}

// MARK: - Reading the XSD

extension XMLTree {
  /// Whether the element is the XML Schema element `name`.
  fileprivate func isXSD(_ name: String) -> Bool {
    self.name == name && namespace == ManifestFormatReference.xsdNamespace
  }

  /// The XML Schema children, in document order.
  fileprivate var xsdChildren: [XMLTree] {
    children.filter { $0.namespace == ManifestFormatReference.xsdNamespace }
  }

  /// The paragraphs of the element's `xs:annotation/xs:documentation`, whitespace collapsed.
  fileprivate var documentation: [String] {
    var paragraphs: [String] = []
    for annotation in xsdChildren where annotation.isXSD("annotation") {
      for documentation in annotation.xsdChildren where documentation.isXSD("documentation") {
        paragraphs += Text.paragraphs(documentation.text)
      }
    }
    return paragraphs
  }

  /// The examples in the element's `xs:annotation/xs:appinfo`, dedented.
  fileprivate var examples: [String] {
    var examples: [String] = []
    for annotation in xsdChildren where annotation.isXSD("annotation") {
      for appinfo in annotation.xsdChildren where appinfo.isXSD("appinfo") {
        for example in appinfo.children where example.name == "example" {
          let text = Text.dedented(example.text)
          if !text.isEmpty { examples.append(text) }
        }
      }
    }
    return examples
  }
}

/// The XSD's global declarations by name.
private struct SchemaIndex {
  var root: XMLTree
  var elements: [String: XMLTree] = [:]
  var globalElements: [XMLTree] = []
  var attributes: [String: XMLTree] = [:]
  var complexTypes: [String: XMLTree] = [:]
  var simpleTypes: [String: XMLTree] = [:]
  var simpleTypeOrder: [String] = []
  var groups: [String: XMLTree] = [:]
  var attributeGroups: [String: XMLTree] = [:]

  init(_ root: XMLTree) {
    self.root = root
    for child in root.xsdChildren {
      guard let name = child[attribute: "name"] else { continue }
      switch child.name {
      case "element":
        if elements[name] == nil { globalElements.append(child) }
        elements[name] = child
      case "attribute": attributes[name] = child
      case "complexType": complexTypes[name] = child
      case "simpleType":
        if simpleTypes[name] == nil { simpleTypeOrder.append(name) }
        simpleTypes[name] = child
      case "group": groups[name] = child
      case "attributeGroup": attributeGroups[name] = child
      default: break
      }
    }
  }

  /// The local part of a qualified name: `m:Producer` is `Producer`.
  static func localName(_ qualifiedName: String) -> String {
    guard let colon = qualifiedName.lastIndex(of: ":") else { return qualifiedName }
    return String(qualifiedName[qualifiedName.index(after: colon)...])
  }

  /// The schema's own simple type a reference names, if it names one.
  func simpleType(_ reference: String) -> XMLTree? { simpleTypes[Self.localName(reference)] }

  /// The schema's own complex type a reference names, if it names one.
  func complexType(_ reference: String) -> XMLTree? { complexTypes[Self.localName(reference)] }
}

/// How often an element may appear in its parent.
private struct Occurrence: Hashable {
  var minimum: Int
  /// The most, or nil for any number.
  var maximum: Int?

  static let once = Occurrence(minimum: 1, maximum: 1)

  init(minimum: Int, maximum: Int?) {
    self.minimum = minimum
    self.maximum = maximum
  }

  /// The occurrence a particle's `minOccurs` and `maxOccurs` give.
  init(_ particle: XMLTree) {
    minimum = particle[attribute: "minOccurs"].flatMap { Int($0) } ?? 1
    switch particle[attribute: "maxOccurs"] {
    case "unbounded": maximum = nil
    case let value?: maximum = Int(value) ?? 1
    case nil: maximum = 1
    }
  }

  /// This occurrence within a particle that itself occurs `outer` times.
  func within(_ outer: Occurrence) -> Occurrence {
    var maximum: Int? = nil
    if let inner = self.maximum, let outerMaximum = outer.maximum { maximum = inner * outerMaximum }
    return Occurrence(minimum: minimum * outer.minimum, maximum: maximum)
  }

  var description: String {
    switch (minimum, maximum) {
    case (0, 1?): return "optional, at most once"
    case (0, nil): return "optional, any number of times"
    case (1, 1?): return "required, once"
    case (1, nil): return "required, one or more times"
    case (let low, nil): return "required, \(low) or more times"
    case (let low, let high?):
      return low == 0 ? "optional, up to \(high) times" : "\(low) to \(high) times"
    }
  }
}

// MARK: - The model of the reference

/// One element section of the reference: an element name with one declaration's meaning.
private struct ElementSection {
  struct Parent {
    /// The parent's section index.
    var section: Int
    var occurrence: Occurrence
  }

  var name: String
  var documentation: [String]
  var typeName: String?
  var typeDocumentation: [String]
  var isGlobal: Bool
  var parents: [Parent] = []
  /// The child element sections, in document order.
  var children: [Int] = []
  var content: Content = .empty
  var attributes: [AttributeEntry] = []
  var examples: [String]
  /// The heading, unique in the document; set once every section is known.
  var heading = ""

  enum Content {
    case empty
    case elements
    case text(typeReference: String)
    case mixed
  }
}

/// One attribute of an element section.
private struct AttributeEntry {
  var name: String
  var documentation: [String]
  var isRequired: Bool
  var defaultValue: String?
  var fixedValue: String?
  var typeReference: String?
  /// An inline `xs:simpleType`, when the attribute declares its type in place.
  var inlineType: XMLTree?
}

/// Walks the XSD from its global elements and collects the sections, in document order.
private struct ReferenceBuilder {
  let schema: SchemaIndex
  var sections: [ElementSection] = []
  /// Section indexes by name, type and meaning.
  private var sectionKeys: [String: Int] = [:]
  /// Where each named simple type is used, as `<element attribute>` or `<element>` labels.
  var typeUses: [String: [String]] = [:]

  init(schema: SchemaIndex) { self.schema = schema }

  mutating func build() {
    for element in schema.globalElements {
      _ = visit(element, parent: nil, occurrence: .once)
    }
    assignHeadings()
  }

  /// Returns the section of an element declaration, creating and expanding it the first time.
  private mutating func visit(_ declaration: XMLTree, parent: Int?, occurrence: Occurrence) -> Int {
    let name = declaration[attribute: "name"] ?? "?"
    let typeName = declaration[attribute: "type"]
    let documentation = declaration.documentation
    let key =
      "\(name)\u{0}\(typeName ?? "inline@\(declaration.location.line)")\u{0}"
      + documentation.joined(separator: "\n")
    let index: Int
    if let known = sectionKeys[key] {
      index = known
    } else {
      index = sections.count
      sectionKeys[key] = index
      let inlineComplex = declaration.xsdChildren.first { $0.isXSD("complexType") }
      let complex = typeName.flatMap(schema.complexType) ?? inlineComplex
      let typeDocumentation = typeName.flatMap(schema.complexType)?.documentation ?? []
      var examples = declaration.examples
      if examples.isEmpty, let complex { examples = complex.examples }
      sections.append(
        ElementSection(
          name: name, documentation: documentation,
          typeName: typeName.map(SchemaIndex.localName),
          typeDocumentation: typeDocumentation == documentation ? [] : typeDocumentation,
          isGlobal: parent == nil, examples: examples))
      expand(index, declaration: declaration, complex: complex)
    }
    if let parent, !sections[index].parents.contains(where: { $0.section == parent }) {
      sections[index].parents.append(.init(section: parent, occurrence: occurrence))
    }
    if parent == nil { sections[index].isGlobal = true }
    return index
  }

  /// Fills in a new section's content, attributes and children.
  private mutating func expand(_ index: Int, declaration: XMLTree, complex: XMLTree?) {
    let name = sections[index].name
    guard let complex else {
      if let type = declaration[attribute: "type"] {
        sections[index].content = .text(typeReference: type)
        noteUse(of: type, by: "<\(name)>")
      } else if declaration.xsdChildren.contains(where: { $0.isXSD("simpleType") }) {
        sections[index].content = .text(typeReference: "xs:anySimpleType")
      } else {
        sections[index].content = .mixed
      }
      return
    }
    var particles: [(XMLTree, Occurrence)] = []
    var attributes: [XMLTree] = []
    collectContent(of: complex, particles: &particles, attributes: &attributes, depth: 0)
    sections[index].attributes = attributes.map { attributeEntry($0, element: name) }
    if let base = simpleContentBase(of: complex) {
      sections[index].content = .text(typeReference: base)
      noteUse(of: base, by: "<\(name)>")
    } else if complex[attribute: "mixed"] == "true" {
      sections[index].content = .mixed
    } else if !particles.isEmpty {
      sections[index].content = .elements
    }
    var children: [Int] = []
    for (child, occurrence) in particles {
      let childIndex = visit(child, parent: index, occurrence: occurrence)
      if !children.contains(childIndex) { children.append(childIndex) }
    }
    sections[index].children = children
  }

  /// The base type of a complex type with simple content, if it has simple content.
  private func simpleContentBase(of complex: XMLTree) -> String? {
    guard let content = complex.xsdChildren.first(where: { $0.isXSD("simpleContent") }),
      let derivation = content.xsdChildren.first(where: {
        $0.isXSD("extension") || $0.isXSD("restriction")
      }),
      let base = derivation[attribute: "base"]
    else { return nil }
    if let baseComplex = schema.complexType(base) { return simpleContentBase(of: baseComplex) }
    return base
  }

  /// Collects a complex type's element particles (resolved to declarations) and attributes.
  private func collectContent(
    of complex: XMLTree, particles: inout [(XMLTree, Occurrence)], attributes: inout [XMLTree],
    depth: Int
  ) {
    guard depth < 32 else { return }
    for child in complex.xsdChildren {
      switch child.name {
      case "sequence", "choice", "all", "group", "element":
        collectParticles(child, within: .once, into: &particles, depth: depth)
      case "attribute", "attributeGroup":
        collectAttributes(child, into: &attributes, depth: depth)
      case "simpleContent", "complexContent":
        for derivation in child.xsdChildren
        where derivation.isXSD("extension") || derivation.isXSD("restriction") {
          if derivation.isXSD("extension"), let base = derivation[attribute: "base"],
            let baseComplex = schema.complexType(base)
          {
            collectContent(
              of: baseComplex, particles: &particles, attributes: &attributes, depth: depth + 1)
          }
          collectContent(
            of: derivation, particles: &particles, attributes: &attributes, depth: depth + 1)
        }
      default: break
      }
    }
  }

  /// Collects the element declarations of a particle, each with how often it may appear.
  private func collectParticles(
    _ particle: XMLTree, within outer: Occurrence, into particles: inout [(XMLTree, Occurrence)],
    depth: Int
  ) {
    guard depth < 32 else { return }
    var occurrence = Occurrence(particle).within(outer)
    switch particle.name {
    case "element":
      if let reference = particle[attribute: "ref"] {
        if let global = schema.elements[SchemaIndex.localName(reference)] {
          particles.append((global, occurrence))
        }
      } else {
        particles.append((particle, occurrence))
      }
    case "group":
      if let reference = particle[attribute: "ref"],
        let group = schema.groups[SchemaIndex.localName(reference)]
      {
        for child in group.xsdChildren {
          collectParticles(child, within: occurrence, into: &particles, depth: depth + 1)
        }
      } else {
        for child in particle.xsdChildren {
          collectParticles(child, within: occurrence, into: &particles, depth: depth + 1)
        }
      }
    case "sequence", "choice", "all":
      let alternatives = particle.xsdChildren.filter {
        ["element", "group", "sequence", "choice", "any"].contains($0.name)
      }
      // In a choice of several, each alternative may be left out for another.
      if particle.name == "choice", alternatives.count > 1 { occurrence.minimum = 0 }
      for child in alternatives {
        collectParticles(child, within: occurrence, into: &particles, depth: depth + 1)
      }
    default: break
    }
  }

  /// Collects attribute declarations, resolving attribute groups and references.
  private func collectAttributes(_ node: XMLTree, into attributes: inout [XMLTree], depth: Int) {
    guard depth < 32 else { return }
    switch node.name {
    case "attribute":
      if let reference = node[attribute: "ref"],
        let global = schema.attributes[SchemaIndex.localName(reference)]
      {
        var resolved = global
        if let use = node.attributes["use"] { resolved.attributes["use"] = use }
        attributes.append(resolved)
      } else if node[attribute: "use"] != "prohibited" {
        attributes.append(node)
      }
    case "attributeGroup":
      let group =
        node[attribute: "ref"].flatMap { schema.attributeGroups[SchemaIndex.localName($0)] }
        ?? node
      for child in group.xsdChildren where child.isXSD("attribute") || child.isXSD("attributeGroup")
      {
        collectAttributes(child, into: &attributes, depth: depth + 1)
      }
    default: break
    }
  }

  private mutating func attributeEntry(_ declaration: XMLTree, element: String) -> AttributeEntry {
    let name = declaration[attribute: "name"] ?? "?"
    let type = declaration[attribute: "type"]
    if let type { noteUse(of: type, by: "<\(element) \(name)>") }
    return AttributeEntry(
      name: name, documentation: declaration.documentation,
      isRequired: declaration[attribute: "use"] == "required",
      defaultValue: declaration[attribute: "default"], fixedValue: declaration[attribute: "fixed"],
      typeReference: type,
      inlineType: declaration.xsdChildren.first { $0.isXSD("simpleType") })
  }

  /// Records that a named simple type (and the types it is built from) is used by `label`.
  private mutating func noteUse(of type: String, by label: String) {
    var pending = [type]
    var seen: Set<String> = []
    while let next = pending.popLast() {
      let name = SchemaIndex.localName(next)
      guard let simple = schema.simpleType(next), seen.insert(name).inserted else { continue }
      if !(typeUses[name] ?? []).contains(label) { typeUses[name, default: []].append(label) }
      pending += SimpleTypeDescription.referencedTypes(of: simple)
    }
  }

  /// Gives each section a unique heading: the element, and its parents where names repeat.
  private mutating func assignHeadings() {
    var counts: [String: Int] = [:]
    for section in sections { counts[section.name, default: 0] += 1 }
    for index in sections.indices {
      let section = sections[index]
      var heading = "`<\(section.name)>`"
      if counts[section.name, default: 0] > 1 {
        let parents = Text.unique(section.parents.map { "`<\(sections[$0.section].name)>`" })
        heading += parents.isEmpty ? " (root)" : " in " + Text.list(parents)
      }
      sections[index].heading = heading
    }
    // Still equal (the same name and parents, different types): number them.
    var seen: [String: Int] = [:]
    for index in sections.indices {
      let heading = sections[index].heading
      seen[heading, default: 0] += 1
      if let count = seen[heading], count > 1 { sections[index].heading += " (\(count))" }
    }
  }
}

// MARK: - Simple types

/// Describes simple types: their facets, enumerations and the types they are built from.
private enum SimpleTypeDescription {
  /// The named types a simple type refers to: its restriction base, list item or union members.
  static func referencedTypes(of simpleType: XMLTree) -> [String] {
    var names: [String] = []
    for child in simpleType.xsdChildren {
      switch child.name {
      case "restriction":
        if let base = child[attribute: "base"] { names.append(base) }
        for inline in child.xsdChildren where inline.isXSD("simpleType") {
          names += referencedTypes(of: inline)
        }
      case "list":
        if let item = child[attribute: "itemType"] { names.append(item) }
        for inline in child.xsdChildren where inline.isXSD("simpleType") {
          names += referencedTypes(of: inline)
        }
      case "union":
        names += (child[attribute: "memberTypes"] ?? "").split(separator: " ").map(String.init)
      default: break
      }
    }
    return names
  }

  /// The enumeration values of a simple type's restriction, with their documentation.
  static func enumeration(of simpleType: XMLTree) -> [(value: String, documentation: [String])] {
    guard let restriction = simpleType.xsdChildren.first(where: { $0.isXSD("restriction") }) else {
      return []
    }
    return restriction.xsdChildren.filter { $0.isXSD("enumeration") }.map {
      ($0[attribute: "value"] ?? "", $0.documentation)
    }
  }

  /// What a simple type allows, in words, such as ``one of `decodes`, `rejected` ``.
  static func constraints(of simpleType: XMLTree, schema: SchemaIndex) -> String {
    var parts: [String] = []
    for child in simpleType.xsdChildren {
      switch child.name {
      case "restriction":
        var isList = false
        if let base = child[attribute: "base"] {
          parts.append(typeName(base, schema: schema))
        } else if let inline = child.xsdChildren.first(where: { $0.isXSD("simpleType") }) {
          isList = inline.xsdChildren.contains { $0.isXSD("list") }
          parts.append(constraints(of: inline, schema: schema))
        }
        parts += facets(of: child, isList: isList)
      case "list":
        let item =
          child[attribute: "itemType"].map { typeName($0, schema: schema) }
          ?? child.xsdChildren.first(where: { $0.isXSD("simpleType") }).map {
            constraints(of: $0, schema: schema)
          } ?? "values"
        parts.append("a list of \(item), separated by spaces")
      case "union":
        let members = (child[attribute: "memberTypes"] ?? "").split(separator: " ").map {
          typeName(String($0), schema: schema)
        }
        parts.append("any of \(Text.list(members, conjunction: "or"))")
      default: break
      }
    }
    return parts.joined(separator: ", ")
  }

  /// The facets of a restriction, in words.
  private static func facets(of restriction: XMLTree, isList: Bool) -> [String] {
    var parts: [String] = []
    let values = restriction.xsdChildren.filter { $0.isXSD("enumeration") }.map {
      "`\($0[attribute: "value"] ?? "")`"
    }
    if !values.isEmpty { parts.append("one of \(values.joined(separator: ", "))") }
    let unit = isList ? "item" : "character"
    for facet in restriction.xsdChildren {
      guard let value = facet[attribute: "value"] else { continue }
      let plural = value == "1" ? unit : unit + "s"
      switch facet.name {
      case "pattern": parts.append("matching the pattern `\(value)` as a whole")
      case "minLength": parts.append("at least \(value) \(plural)")
      case "maxLength": parts.append("at most \(value) \(plural)")
      case "length": parts.append("exactly \(value) \(plural)")
      case "minInclusive": parts.append("at least \(value)")
      case "maxInclusive": parts.append("at most \(value)")
      case "minExclusive": parts.append("greater than \(value)")
      case "maxExclusive": parts.append("less than \(value)")
      case "totalDigits": parts.append("at most \(value) digits")
      case "fractionDigits": parts.append("at most \(value) fraction digits")
      case "whiteSpace": parts.append("white space \(value)")
      default: break
      }
    }
    return parts
  }

  /// A type's name as the reference writes it: a link for the schema's own simple types.
  static func typeName(_ reference: String, schema: SchemaIndex) -> String {
    let name = SchemaIndex.localName(reference)
    if schema.simpleTypes[name] != nil { return "[`\(name)`](#\(Text.anchor("Type \(name)")))" }
    if schema.complexTypes[name] != nil { return "`\(name)`" }
    return "`\(reference)`"
  }
}

// MARK: - Writing Markdown

/// Writes the reference from the collected sections.
private struct MarkdownWriter {
  let builder: ReferenceBuilder
  var schema: SchemaIndex { builder.schema }
  var sections: [ElementSection] { builder.sections }

  func document() -> String {
    var lines: [String] = []
    lines.append(
      "<!-- Generated by scripts/manifest-reference from \(ManifestSchema.relativePath). Do not edit. -->"
    )
    lines.append("")
    lines.append("# Manifest format reference")
    lines.append("")
    lines.append(
      "Every element and attribute of the manifest vocabulary, generated from the annotations of "
        + "[`\(ManifestSchema.relativePath)`](../\(ManifestSchema.relativePath)), which stays the "
        + "authority: `archive-harness manifest validate` checks manifests against it. Run "
        + "`scripts/manifest-reference` after editing the XSD.")
    lines.append("")
    if let namespace = schema.root[attribute: "targetNamespace"] {
      lines.append("Every element is in the namespace `\(namespace)`; attributes are in none.")
      lines.append("")
    }
    let roots = sections.indices.filter { sections[$0].isGlobal }.map { link(to: $0) }
    if !roots.isEmpty {
      lines.append("A document's root element is \(Text.list(roots, conjunction: "or")).")
      lines.append("")
    }
    lines.append("## Elements")
    lines.append("")
    lines.append("| Element | Appears in | Meaning |")
    lines.append("|---|---|---|")
    for index in sections.indices {
      let section = sections[index]
      lines.append(
        "| \(link(to: index)) | \(Text.cell(parentsSummary(section))) | "
          + "\(Text.cell(Text.firstSentence(section.documentation + section.typeDocumentation))) |"
      )
    }
    lines.append("")
    for index in sections.indices { lines += elementSection(index) }
    lines += valueTypes()
    while lines.last == "" { lines.removeLast() }
    return lines.joined(separator: "\n") + "\n"
  }

  private func link(to index: Int) -> String {
    "[`<\(sections[index].name)>`](#\(Text.anchor(sections[index].heading)))"
  }

  private func parentsSummary(_ section: ElementSection) -> String {
    var places = Text.unique(section.parents.map { "`<\(sections[$0.section].name)>`" })
    if section.isGlobal { places.insert("document root", at: 0) }
    return places.joined(separator: ", ")
  }

  private func elementSection(_ index: Int) -> [String] {
    let section = sections[index]
    var lines = ["### \(section.heading)", ""]
    for paragraph in section.documentation + section.typeDocumentation {
      lines += [paragraph, ""]
    }
    var places: [String] = []
    if section.isGlobal { places.append("the document root") }
    for parent in section.parents {
      places.append("\(link(to: parent.section)) (\(parent.occurrence.description))")
    }
    lines.append("- **Appears in:** \(places.joined(separator: "; "))")
    if let typeName = section.typeName {
      lines.append("- **Type:** \(SimpleTypeDescription.typeName(typeName, schema: schema))")
    }
    switch section.content {
    case .empty:
      lines.append("- **Content:** empty")
    case .mixed:
      lines.append("- **Content:** any text")
    case .text(let type):
      lines.append("- **Content:** text: \(typeSummary(type))")
    case .elements:
      let children = section.children.map { link(to: $0) }
      lines.append("- **Content:** child elements: \(children.joined(separator: ", "))")
    }
    lines.append("")
    if section.attributes.isEmpty {
      lines += ["No attributes.", ""]
    } else {
      lines.append("| Attribute | Required | Allowed values | Default | Meaning |")
      lines.append("|---|---|---|---|---|")
      for attribute in section.attributes {
        let values =
          attribute.typeReference.map(typeSummary)
          ?? attribute.inlineType.map { SimpleTypeDescription.constraints(of: $0, schema: schema) }
          ?? "any text"
        let defaultValue =
          attribute.defaultValue.map { "`\($0)`" }
          ?? attribute.fixedValue.map { "`\($0)` (fixed)" } ?? "–"
        lines.append(
          "| `\(attribute.name)` | \(attribute.isRequired ? "required" : "optional") | "
            + "\(Text.cell(values)) | \(Text.cell(defaultValue)) | "
            + "\(Text.cell(attribute.documentation.joined(separator: " "))) |")
      }
      lines.append("")
    }
    for example in section.examples {
      lines +=
        ["Example:", "", "```xml"]
        + example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [
          "```", "",
        ]
    }
    return lines
  }

  /// A type reference with what it allows: the type's link, then its constraints.
  private func typeSummary(_ reference: String) -> String {
    let name = SimpleTypeDescription.typeName(reference, schema: schema)
    guard let simple = schema.simpleType(reference) else { return name }
    let constraints = SimpleTypeDescription.constraints(of: simple, schema: schema)
    return constraints.isEmpty ? name : "\(name): \(constraints)"
  }

  private func valueTypes() -> [String] {
    guard !schema.simpleTypeOrder.isEmpty else { return [] }
    var lines = [
      "## Value types", "",
      "The simple types attribute values and element text are written in. `xs:` types are XML "
        + "Schema's built-in types.", "",
    ]
    for name in schema.simpleTypeOrder {
      guard let simple = schema.simpleTypes[name] else { continue }
      lines += ["### Type `\(name)`", ""]
      for paragraph in simple.documentation { lines += [paragraph, ""] }
      lines.append("- **Allows:** \(SimpleTypeDescription.constraints(of: simple, schema: schema))")
      if let uses = builder.typeUses[name], !uses.isEmpty {
        lines.append("- **Used by:** \(uses.map { "`\($0)`" }.joined(separator: ", "))")
      }
      lines.append("")
      let values = SimpleTypeDescription.enumeration(of: simple)
      if !values.isEmpty {
        lines.append("| Value | Meaning |")
        lines.append("|---|---|")
        for value in values {
          lines.append(
            "| `\(value.value)` | \(Text.cell(value.documentation.joined(separator: " "))) |")
        }
        lines.append("")
      }
    }
    return lines
  }
}

// MARK: - The documentation check

/// Finds the named declarations that have no documentation.
private enum UndocumentedScan {
  static let checked: Set<String> = ["element", "attribute", "complexType", "simpleType"]
  static let contexts: Set<String> = [
    "element", "complexType", "simpleType", "group", "attributeGroup", "attribute",
  ]

  static func run(_ root: XMLTree) -> [ManifestDiagnostic] {
    var found: [ManifestDiagnostic] = []
    scan(root, context: nil, into: &found)
    return found
  }

  private static func scan(
    _ node: XMLTree, context: String?, into found: inout [ManifestDiagnostic]
  ) {
    for child in node.xsdChildren {
      var childContext = context
      if let name = child[attribute: "name"], contexts.contains(child.name) {
        let what = "\(child.name) '\(name)'"
        if checked.contains(child.name), child.documentation.isEmpty {
          let place = context.map { " in \($0)" } ?? ""
          found.append(
            ManifestDiagnostic(
              .warning, .schemaFile, at: child.location, "\(what)\(place) has no xs:documentation"
            ))
        }
        childContext = what
      }
      if child.isXSD("annotation") { continue }
      scan(child, context: childContext, into: &found)
    }
  }
}

// MARK: - Text

private enum Text {
  /// Documentation text as paragraphs: blank lines separate them, other white space collapses.
  static func paragraphs(_ text: String) -> [String] {
    var paragraphs: [String] = []
    var current: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      if words.isEmpty {
        if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
        current = []
      } else {
        current += words.map(String.init)
      }
    }
    if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
    return paragraphs
  }

  /// An example's text without its leading and trailing blank lines and common indentation.
  static func dedented(_ text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
    while lines.first?.isEmpty == true { lines.removeFirst() }
    while lines.last?.isEmpty == true { lines.removeLast() }
    let indent =
      lines.filter { !$0.isEmpty }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
    return lines.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }.joined(separator: "\n")
  }

  /// The first sentence of the first paragraph.
  static func firstSentence(_ paragraphs: [String]) -> String {
    guard let first = paragraphs.first else { return "" }
    if let end = first.range(of: ". ") { return String(first[..<end.lowerBound]) + "." }
    return first
  }

  /// Text fit for one Markdown table cell.
  static func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }

  /// The anchor GitHub gives a heading: lowercase, punctuation dropped, spaces as hyphens.
  static func anchor(_ heading: String) -> String {
    var anchor = ""
    for character in heading.lowercased() {
      if character.isLetter || character.isNumber || character == "-" || character == "_" {
        anchor.append(character)
      } else if character == " " {
        anchor.append("-")
      }
    }
    return anchor
  }

  /// The items without repeats, in their first order.
  static func unique(_ items: [String]) -> [String] {
    var seen: Set<String> = []
    return items.filter { seen.insert($0).inserted }
  }

  /// Items as prose: `a`, `a and b`, `a, b and c`.
  static func list(_ items: [String], conjunction: String = "and") -> String {
    guard items.count > 1, let last = items.last else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
  }
}
