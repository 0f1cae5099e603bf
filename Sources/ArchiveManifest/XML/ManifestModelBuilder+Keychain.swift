import ArchiveFormat

extension ManifestModelBuilder {
  /// A `keychainQuery` element; `account` and `accountPattern` exclude each other.
  mutating func keychainQuery(_ element: XMLTree) -> KeychainQuery? {
    func value(_ name: String) -> String? {
      element[attribute: name].map { $0.trimmingXMLWhitespace() }
    }
    // The schema admits only the enumerations' values.
    guard let itemClass = value("class").flatMap(KeychainItemClass.init(rawValue:)) else {
      return nil
    }
    if value("account") != nil, value("accountPattern") != nil {
      error(
        at: element.location(ofAttribute: "accountPattern"),
        "a Keychain query names an account or an accountPattern, not both")
    }
    let thisDeviceOnly = value("thisDeviceOnly").map { $0 == "true" || $0 == "1" } ?? false
    return KeychainQuery(
      itemClass: itemClass, service: element[attribute: "service"],
      account: element[attribute: "account"], accountPattern: element[attribute: "accountPattern"],
      accessGroup: element[attribute: "accessGroup"],
      accessible: value("accessible").flatMap(KeychainAccessibility.init(rawValue:)),
      thisDeviceOnly: thisDeviceOnly, place: element.location)
  }

  /// A `keychainSnapshot` element; the semantic check finds its file and compares its checksum.
  func keychainSnapshot(_ element: XMLTree) -> KeychainSnapshotReference {
    KeychainSnapshotReference(
      path: element[attribute: "path"] ?? "",
      sha256: (element[attribute: "sha256"] ?? "").lowercased(), location: element.location,
      pathLocation: element.location(ofAttribute: "path"),
      sha256Location: element.location(ofAttribute: "sha256"))
  }
}
