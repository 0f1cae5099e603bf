import ArchiveFormat

extension ManifestModelBuilder {
  /// The XML attributes of a `coreDataAttribute` element, whose places the pin keeps.
  static let coreDataAttributeNames = [
    "store", "storeSHA256", "model", "entity", "attribute", "transformer", "customClassName",
    "rows",
  ]

  /// A `coreDataAttribute` element; each `Z_PK` is listed once, and no more rows are lost
  /// than the attribute has.
  mutating func coreDataAttribute(_ element: XMLTree) -> CoreDataAttributePin? {
    guard let rows = element[attribute: "rows"].flatMap({ XSDValue.count($0) }) else {
      error(at: element.location(ofAttribute: "rows"), "rows is too large")
      return nil
    }
    var lostRows: [CoreDataAttributePin.LostRow] = []
    var seen: [Int64: Place] = [:]
    for child in element.children(named: "lostRow") {
      guard
        let primaryKey = XSDValue.canonicalInteger(child[attribute: "pk"] ?? "").flatMap({
          Int64($0)
        })
      else {
        error(at: child.location(ofAttribute: "pk"), "pk is too large for a Z_PK")
        continue
      }
      if let first = seen[primaryKey] {
        error(
          at: child.location(ofAttribute: "pk"),
          "lost row Z_PK=\(primaryKey) is already listed at \(first)")
        continue
      }
      seen[primaryKey] = child.location
      lostRows.append(
        CoreDataAttributePin.LostRow(
          primaryKey: primaryKey,
          className: child[attribute: "class"]?.trimmingXMLWhitespace(),
          location: child.location))
    }
    if lostRows.count > rows {
      error(
        at: element.location(ofAttribute: "rows"),
        "\(lostRows.count) lost rows are listed, but the attribute has \(rows) rows")
    }
    let allowed = element.children(named: "allowedClass").map {
      Manifest.ClassReference(
        name: ($0[attribute: "name"] ?? "").trimmingXMLWhitespace(), location: $0.location)
    }
    var places: [String: Place] = [:]
    for name in Self.coreDataAttributeNames where element[attribute: name] != nil {
      places[name] = element.location(ofAttribute: name)
    }
    return CoreDataAttributePin(
      store: element[attribute: "store"] ?? "",
      storeSHA256: (element[attribute: "storeSHA256"] ?? "").lowercased(),
      model: element[attribute: "model"] ?? "", entity: element[attribute: "entity"] ?? "",
      attribute: element[attribute: "attribute"] ?? "",
      transformer: element[attribute: "transformer"] ?? "",
      customClassName: element[attribute: "customClassName"],
      allowedClasses: allowed.isEmpty ? nil : allowed, rows: rows, lostRows: lostRows,
      location: element.location, attributeLocations: places)
  }
}
