import ArchiveFormat

/// Builds the manifest model from a schema-valid tree and checks the rules that need only the text.
///
/// Rules checked here: key paths parse, regular expressions compile, a
/// rejected outcome names a category and a decoding one does not, ranges and
/// counts have bounds in order, added-field defaults parse as their type, and an
/// accepted refusal gives a reason.
package struct ManifestModelBuilder {
  package private(set) var diagnostics: [ManifestDiagnostic] = []

  /// Creates a builder with no diagnostics yet.
  package init() {}

  /// Returns the manifest model of a validated `manifest` element.
  package mutating func manifest(from root: XMLTree, file: String) -> Manifest {
    let producerElement = root.child(named: "producer")
    let producer = Manifest.Producer(
      app: producerElement?[attribute: "app"] ?? "",
      version: producerElement?[attribute: "version"] ?? "",
      platform: producerElement?[attribute: "platform"] ?? "",
      produced: producerElement?[attribute: "produced"]?.trimmingXMLWhitespace() ?? "",
      store: producerElement?[attribute: "store"],
      provenance: producerElement?.child(named: "provenance")?.text,
      anonymization: producerElement?.child(named: "anonymization")?.text,
      location: producerElement?.location ?? root.location)

    var mappings: [Manifest.ClassMapping] = []
    for map in root.children(named: "classMap") { mappings += classMappings(in: map) }

    var migration = Manifest.MigrationAllowance()
    if let element = root.child(named: "migration") {
      for child in element.children {
        switch child.name {
        case "renamedClass":
          migration.renamedClasses.append(classMapping(child))
        case "addedField":
          migration.addedFields.append(addedField(child))
        case "renamedField", "droppedField", "convertedField", "defaultedField":
          if let change = fieldChange(child) { migration.fieldChanges.append(change) }
        default: break
        }
      }
    }

    var manifest = Manifest(
      file: file, producer: producer, classMappings: mappings,
      allowedClasses: root.child(named: "allowedClasses").map(classReferences),
      rootClass: root.child(named: "rootClass").map(classReference),
      migration: migration,
      store: root.child(named: "store").flatMap { storeShape($0) },
      acceptedRefusals: root.children(named: "accepted").compactMap { acceptedRefusal($0) },
      archives: root.children(named: "archive").map { archive($0) },
      location: root.location)
    manifest.coreDataAttributes = root.children(named: "coreDataAttribute").compactMap {
      coreDataAttribute($0)
    }
    manifest.keychainQueries = root.children(named: "keychainQuery").compactMap {
      keychainQuery($0)
    }
    manifest.keychainSnapshots = root.children(named: "keychainSnapshot").map(keychainSnapshot)
    // The schema admits only the Strictness enumeration's values.
    if let text = root[attribute: "strictness"],
      let strictness = Strictness(rawValue: text.trimmingXMLWhitespace())
    {
      manifest.strictness = strictness
    }
    return manifest
  }

  /// Returns the mappings of a `classMap` element.
  func classMappings(in element: XMLTree) -> [Manifest.ClassMapping] {
    element.children(named: "map").map(classMapping)
  }

  private func classMapping(_ element: XMLTree) -> Manifest.ClassMapping {
    Manifest.ClassMapping(
      archivedName: element[attribute: "from"] ?? "", currentName: element[attribute: "to"] ?? "",
      location: element.location)
  }

  private func classReference(_ element: XMLTree) -> Manifest.ClassReference {
    Manifest.ClassReference(name: element[attribute: "name"] ?? "", location: element.location)
  }

  private func classReferences(_ element: XMLTree) -> [Manifest.ClassReference] {
    element.children(named: "class").map(classReference)
  }

  /// A `store` element; each kind must have the attributes it needs, and no other kind's.
  private mutating func storeShape(_ element: XMLTree) -> Manifest.StoreShape? {
    guard
      let kind = element[attribute: "kind"].flatMap({
        Manifest.StoreShape.Kind(rawValue: $0.trimmingXMLWhitespace())
      })
    else { return nil }
    let shape = Manifest.StoreShape(
      kind: kind, table: element[attribute: "table"], keyColumn: element[attribute: "keyColumn"],
      valueColumn: element[attribute: "valueColumn"], entity: element[attribute: "entity"],
      attribute: element[attribute: "attribute"],
      keyPaths: element.children(named: "keyPath").map { $0.text.trimmingXMLWhitespace() },
      location: element.location)
    let needed: [String]
    let allowed: Set<String>
    switch kind {
    case .folder:
      (needed, allowed) = ([], ["kind"])
    case .sqlite:
      (needed, allowed) = (["table"], ["kind", "table", "keyColumn", "valueColumn"])
    case .coreData:
      (needed, allowed) = (["entity", "attribute"], ["kind", "entity", "attribute"])
    case .propertyList:
      (needed, allowed) = ([], ["kind"])
    }
    for name in needed where element[attribute: name] == nil {
      error(at: element.location, "a \(kind.rawValue) store needs the \(name) attribute")
    }
    for name in ["table", "keyColumn", "valueColumn", "entity", "attribute"]
    where !allowed.contains(name) && element[attribute: name] != nil {
      error(
        at: element.location(ofAttribute: name),
        "\(name) does not apply to a \(kind.rawValue) store")
    }
    if kind != .propertyList, !shape.keyPaths.isEmpty {
      error(at: element.location, "keyPath applies to a property-list store only")
    }
    return shape
  }

  /// An `accepted` element; its reason must say something, not only white space.
  private mutating func acceptedRefusal(_ element: XMLTree) -> Manifest.AcceptedRefusal? {
    let reason = element[attribute: "reason"] ?? ""
    if reason.trimmingXMLWhitespace().isEmpty {
      error(
        at: element.location(ofAttribute: "reason"),
        "an accepted refusal needs a reason, not white space")
    }
    guard
      let category = element[attribute: "category"].flatMap({
        RejectionCategory(rawValue: $0.trimmingXMLWhitespace())
      })
    else { return nil }
    return Manifest.AcceptedRefusal(
      key: element[attribute: "key"] ?? "", category: category, reason: reason,
      location: element.location, keyLocation: element.location(ofAttribute: "key"),
      reasonLocation: element.location(ofAttribute: "reason"))
  }

  /// A declared field change; nil, with an error at the element, when an attribute its kind
  /// needs is missing (the schema cannot say that `to` goes with renamedField alone).
  private mutating func fieldChange(_ element: XMLTree) -> DeclaredChange? {
    let className = element[attribute: "class"]?.trimmingXMLWhitespace() ?? ""
    let key = element[attribute: "key"] ?? ""
    let reason = element[attribute: "reason"]
    let change: DeclaredChange.Change
    switch element.name {
    case "renamedField":
      guard let to = element[attribute: "to"] else {
        error(
          at: element.location, "renamedField needs the key the field is written under now (to)")
        return nil
      }
      change = .renamed(to: to)
    case "droppedField":
      guard let reason else {
        error(at: element.location, "droppedField needs the reason the field is dropped (reason)")
        return nil
      }
      change = .dropped(reason: reason)
    case "convertedField": change = .converted
    default: change = .defaulted
    }
    return DeclaredChange(className: className, key: key, change)
  }

  private mutating func addedField(_ element: XMLTree) -> Manifest.AddedField {
    let type = Manifest.ValueType(rawValue: element[attribute: "type"] ?? "") ?? .string
    let defaultValue = element[attribute: "default"]
    if let defaultValue {
      let parses: Bool
      switch type {
      case .string: parses = true
      case .integer: parses = XSDValue.canonicalInteger(defaultValue) != nil
      case .real: parses = XSDValue.double(defaultValue) != nil
      case .bool: parses = XSDValue.bool(defaultValue) != nil
      case .date: parses = XSDValue.dateTime(defaultValue) != nil
      case .data: parses = Base64.decode(defaultValue) != nil
      case .null: parses = defaultValue.isEmpty
      }
      if !parses {
        error(
          at: element.location(ofAttribute: "default"),
          "default '\(defaultValue)' is not a valid \(type.rawValue)")
      }
    }
    return Manifest.AddedField(
      className: element[attribute: "class"] ?? "", key: element[attribute: "key"] ?? "",
      type: type, defaultValue: defaultValue, location: element.location)
  }

  private mutating func archive(_ element: XMLTree) -> ArchiveEntry {
    let decodeKeys =
      element[attribute: "decodeKeys"].map { $0.xmlListItems() } ?? ["root"]
    let topKey = element[attribute: "topKey"] ?? decodeKeys.first ?? "root"
    var outcomes: [OutcomeExpectation] = []
    var expectations: [FieldExpectation] = []
    var reviewed: [ReviewedValue] = []
    var allowed: [Manifest.ClassReference]?
    var root: Manifest.ClassReference?
    for child in element.children {
      if let path = DecodePath(manifestElementName: child.name) {
        if let outcome = outcome(child, path: path) { outcomes.append(outcome) }
        continue
      }
      switch child.name {
      case "allowedClasses": allowed = classReferences(child)
      case "rootClass": root = classReference(child)
      case "reviewed":
        reviewed.append(review(child, topKey: topKey))
      default:
        if let expectation = expectation(child, topKey: topKey) {
          expectations.append(expectation)
        }
      }
    }
    let maxSize = element[attribute: "maxSize"].flatMap { XSDValue.count($0) }
    if element[attribute: "maxSize"] != nil, maxSize == nil {
      error(at: element.location(ofAttribute: "maxSize"), "maxSize is too large")
    }
    return ArchiveEntry(
      path: element[attribute: "path"] ?? "",
      sha256: (element[attribute: "sha256"] ?? "").lowercased(),
      maxSize: maxSize, topKey: topKey, decodeKeys: decodeKeys.isEmpty ? ["root"] : decodeKeys,
      allowedClasses: allowed, rootClass: root, outcomes: outcomes, expectations: expectations,
      reviewed: reviewed, location: element.location,
      pathLocation: element.location(ofAttribute: "path"),
      sha256Location: element.location(ofAttribute: "sha256"),
      registry: element[attribute: "registry"], keychainItem: element[attribute: "keychainItem"],
      keychainItemLocation: element.location(ofAttribute: "keychainItem"))
  }

  private mutating func outcome(_ element: XMLTree, path: DecodePath) -> OutcomeExpectation? {
    let category = element[attribute: "category"].flatMap {
      RejectionCategory(rawValue: $0.trimmingXMLWhitespace())
    }
    let name = element.name
    switch element[attribute: "outcome"].flatMap({
      OutcomeExpectation.Kind(rawValue: $0.trimmingXMLWhitespace())
    }) {
    case .decodes:
      if category != nil {
        error(
          at: element.location(ofAttribute: "category"),
          "a '\(name)' outcome of 'decodes' takes no category")
      }
      return OutcomeExpectation(path: path, outcome: .decodes, location: element.location)
    case .rejected:
      guard let category else {
        error(
          at: element.location,
          "a '\(name)' outcome of 'rejected' needs a category, such as "
            + "category=\"\(RejectionCategory.classNotAllowed)\"")
        return nil
      }
      return OutcomeExpectation(
        path: path, outcome: .rejected(category), location: element.location)
    case nil:
      return nil
    }
  }

  private mutating func expectation(_ element: XMLTree, topKey: String) -> FieldExpectation? {
    let keyText = element[attribute: "key"] ?? ""
    let keyPath = keyPath(keyText, topKey: topKey, at: element.location(ofAttribute: "key"))
    guard let kind = kind(of: element) else { return nil }
    return FieldExpectation(
      keyPathText: keyText, keyPath: keyPath, kind: kind, elementName: element.name,
      location: element.location)
  }

  /// Parses an attribute's key path from the entry's top key; empty text is the top object itself.
  private mutating func keyPath(_ text: String, topKey: String, at location: Place)
    -> ArchiveKeyPath?
  {
    guard !text.isEmpty else { return ArchiveKeyPath(topKey: topKey, components: []) }
    do {
      var parsed = try ArchiveKeyPath(text)
      if !text.hasPrefix("$top") { parsed.topKey = topKey }
      return parsed
    } catch {
      self.error(
        at: location,
        "malformed key path '\(text)': at character \(error.offset + 1): \(error.message)")
      return nil
    }
  }

  private mutating func review(_ element: XMLTree, topKey: String) -> ReviewedValue {
    let keyText = element[attribute: "keyPath"] ?? ""
    let reason = element[attribute: "reason"] ?? ""
    if reason.trimmingXMLWhitespace().isEmpty {
      error(at: element.location(ofAttribute: "reason"), "a review needs a reason, not white space")
    }
    return ReviewedValue(
      keyPathText: keyText,
      keyPath: keyPath(keyText, topKey: topKey, at: element.location(ofAttribute: "keyPath")),
      detector: element[attribute: "detector"]?.trimmingXMLWhitespace(), reason: reason,
      location: element.location)
  }

  private mutating func kind(of element: XMLTree) -> FieldExpectation.Kind? {
    switch element.name {
    case "string":
      return .string(element.text)
    case "integer":
      return XSDValue.canonicalInteger(element.text).map { .integer($0) }
    case "real":
      guard let value = XSDValue.double(element.text) else { return nil }
      let tolerance = element[attribute: "tolerance"].flatMap(XSDValue.double) ?? 0
      return .real(value, tolerance: tolerance)
    case "bool":
      return XSDValue.bool(element.text).map { .bool($0) }
    case "date":
      guard let value = XSDValue.dateTime(element.text) else {
        error(at: element.location, "'\(element.text)' is not a date this harness can read")
        return nil
      }
      let tolerance = element[attribute: "tolerance"].flatMap(XSDValue.double) ?? 0.001
      return .date(value, tolerance: tolerance)
    case "data":
      guard let bytes = Base64.decode(element.text) else {
        error(at: element.location, "the content is not base64")
        return nil
      }
      return .data(bytes)
    case "dataDigest":
      return .dataDigest(
        sha256: (element[attribute: "sha256"] ?? "").lowercased(),
        length: element[attribute: "length"].flatMap(XSDValue.count))
    case "null": return .null
    case "class": return .className(element[attribute: "name"] ?? "")
    case "present": return .present
    case "absent": return .absent
    case "maxLength":
      guard let limit = element[attribute: "utf16"].flatMap(XSDValue.count) else {
        error(at: element.location(ofAttribute: "utf16"), "utf16 is too large")
        return nil
      }
      return .maxLength(limit)
    case "range":
      let minimum = element[attribute: "min"].flatMap(XSDValue.double)
      let maximum = element[attribute: "max"].flatMap(XSDValue.double)
      if minimum == nil, maximum == nil {
        error(at: element.location, "a range needs min, max or both")
        return nil
      }
      if let minimum, let maximum, minimum > maximum {
        error(
          at: element.location(ofAttribute: "min"), "min \(minimum) is greater than max \(maximum)")
        return nil
      }
      return .range(min: minimum, max: maximum)
    case "count":
      let equals = element[attribute: "equals"].flatMap(XSDValue.count)
      let minimum = element[attribute: "min"].flatMap(XSDValue.count)
      let maximum = element[attribute: "max"].flatMap(XSDValue.count)
      if equals == nil, minimum == nil, maximum == nil {
        error(at: element.location, "a count needs equals, or min, max or both")
        return nil
      }
      if equals != nil, minimum != nil || maximum != nil {
        error(
          at: element.location(ofAttribute: "equals"), "a count takes equals or min/max, not both")
        return nil
      }
      if let minimum, let maximum, minimum > maximum {
        error(
          at: element.location(ofAttribute: "min"), "min \(minimum) is greater than max \(maximum)")
        return nil
      }
      return .count(equals: equals, min: minimum, max: maximum)
    case "oneOf":
      return .oneOf(element.children(named: "value").map(\.text))
    case "matches":
      let pattern = element[attribute: "pattern"] ?? ""
      do {
        _ = try ValuePattern(pattern)
      } catch {
        self.error(
          at: element.location(ofAttribute: "pattern"),
          "the regular expression '\(pattern)' does not compile: \(error)")
        return nil
      }
      return .matches(pattern)
    default:
      return nil
    }
  }

  mutating func error(at location: Place, _ message: String) {
    diagnostics.append(ManifestDiagnostic(.error, .semantic, at: location, message))
  }
}
