/// A Keychain query the new version of an app makes, as its manifest declares it
/// (`<keychainQuery>`): which items it finds, and the accessibility it requires of them.
///
/// A query finds an item of its ``itemClass`` whose service, account and access group equal
/// those it names; a query that names none of them finds every item of the class. An
/// ``accountPattern`` matches accounts as a shell glob does (`*` any text, `?` one character).
///
/// ```swift
/// let query = KeychainQuery(
///   itemClass: .genericPassword, service: "com.example.auth", accountPattern: "user-*",
///   accessible: .afterFirstUnlock, thisDeviceOnly: true, place: Place(file: "m.xml", line: 9, column: 3))
/// query.finds(itemClass: .genericPassword, service: "com.example.auth", account: "user-7", accessGroup: nil)  // true
/// ```
package struct KeychainQuery: Sendable, Hashable {
  /// `kSecClass`.
  package var itemClass: KeychainItemClass
  /// `kSecAttrService` (`kSecAttrServer` for an internet password); `nil` matches any.
  package var service: String?
  /// `kSecAttrAccount`; `nil` matches any (or what ``accountPattern`` matches).
  package var account: String?
  /// A glob the account must match, instead of ``account``.
  package var accountPattern: String?
  /// `kSecAttrAccessGroup`; `nil` matches any.
  package var accessGroup: String?
  /// The accessibility the app requires of what it finds; `nil` requires nothing.
  package var accessible: KeychainAccessibility?
  /// Whether the app requires a `ThisDeviceOnly` accessibility.
  package var thisDeviceOnly: Bool
  /// Where the query was declared.
  package var place: Place

  /// Creates a query.
  package init(
    itemClass: KeychainItemClass, service: String? = nil, account: String? = nil,
    accountPattern: String? = nil, accessGroup: String? = nil,
    accessible: KeychainAccessibility? = nil, thisDeviceOnly: Bool = false, place: Place
  ) {
    self.itemClass = itemClass
    self.service = service
    self.account = account
    self.accountPattern = accountPattern
    self.accessGroup = accessGroup
    self.accessible = accessible
    self.thisDeviceOnly = thisDeviceOnly
    self.place = place
  }

  /// The attributes of an item this query would not find it by, in the order `class`,
  /// `service`, `account`, `accessGroup`; empty when it finds the item.
  package func mismatches(
    itemClass: KeychainItemClass, service: String, account: String, accessGroup: String?
  ) -> [String] {
    var differing: [String] = []
    if itemClass != self.itemClass { differing.append("class") }
    if let wanted = self.service, wanted != service { differing.append("service") }
    if let wanted = self.account, wanted != account {
      differing.append("account")
    } else if let pattern = accountPattern, !Self.glob(pattern, matches: account) {
      differing.append("account")
    }
    if let wanted = self.accessGroup, wanted != accessGroup { differing.append("accessGroup") }
    return differing
  }

  /// Whether the query finds an item with these attributes.
  package func finds(
    itemClass: KeychainItemClass, service: String, account: String, accessGroup: String?
  ) -> Bool {
    mismatches(itemClass: itemClass, service: service, account: account, accessGroup: accessGroup)
      .isEmpty
  }

  /// The query's words, for messages: `genericPassword service=com.example.auth account=user-*`.
  package var summary: String {
    var words = [itemClass.rawValue]
    if let service { words.append("service=\(service)") }
    if let account { words.append("account=\(account)") }
    if let accountPattern { words.append("account=\(accountPattern)") }
    if let accessGroup { words.append("accessGroup=\(accessGroup)") }
    return words.joined(separator: " ")
  }

  /// A shell-style glob over Unicode scalars: `*` any run, `?` one scalar; no other syntax.
  ///
  /// Iterative, with one point to go back to, so a pattern of many stars takes linear time.
  package static func glob(_ pattern: String, matches text: String) -> Bool {
    let pattern = Array(pattern.unicodeScalars)
    let text = Array(text.unicodeScalars)
    var p = 0
    var t = 0
    var star: Int?
    var resume = 0
    while t < text.count {
      if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t]) {
        p += 1
        t += 1
      } else if p < pattern.count, pattern[p] == "*" {
        star = p
        resume = t
        p += 1
      } else if let star {
        p = star + 1
        resume += 1
        t = resume
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
