import ArchiveFormat
import Testing

@testable import ArchiveHarness

/// The new app's Keychain queries against a snapshot: typed findings for an item no query
/// finds, an accessibility looser than required, a missing ThisDeviceOnly, an idle query.
@Suite("Keychain queries against a snapshot")
struct KeychainQueryTests {
  private static let manifest = "new.xml"
  private static func place(_ line: Int) -> Place { Place(file: manifest, line: line, column: 3) }

  private func check(_ queries: [KeychainQuery]) -> [KeychainQueryFinding] {
    KeychainQueryFinding.check(
      KeychainSnapshot(items: KeychainFixtures.items()), file: "k.json", queries: queries)
  }

  /// Queries that find every fixture item and accept its accessibility.
  private static let finding: [KeychainQuery] = [
    KeychainQuery(itemClass: .genericPassword, service: "com.example.auth", place: place(1)),
    KeychainQuery(itemClass: .genericPassword, service: "com.example.legacy", place: place(2)),
    KeychainQuery(itemClass: .internetPassword, place: place(3)),
  ]

  @Test("Queries that find every item and require nothing give no finding")
  func allFound() {
    #expect(check(Self.finding).isEmpty)
  }

  @Test("An item a new query no longer finds is an error naming the item and the nearest query")
  func itemNotFound() throws {
    var queries = Self.finding
    queries[1].service = "com.example.session"
    let findings = check(queries)
    let lost = try #require(findings.first { $0.severity == .error })
    #expect(
      lost.place
        == RecordID.propertyListValue(
          file: "k.json",
          keyPath: PropertyListKeyPath([
            .key("genericPassword"), .key("com.example.legacy"), .key("bob"),
          ])
        ).place)
    guard case .itemNotFound(let nearest, let differing) = lost.kind else {
      Issue.record("\(lost)")
      return
    }
    #expect(differing == ["service"])
    #expect(nearest?.place == Self.place(2) || nearest?.place == Self.place(1))
    #expect(lost.message.contains("the app would lose it"))
    #expect(findings.contains { if case .queryFindsNothing = $0.kind { true } else { false } })
  }

  @Test("An account pattern and an access group decide what a query finds")
  func patternAndAccessGroup() {
    let query = KeychainQuery(
      itemClass: .genericPassword, service: "com.example.auth", accountPattern: "a*e",
      place: Self.place(1))
    #expect(
      query.finds(
        itemClass: .genericPassword, service: "com.example.auth", account: "alice",
        accessGroup: nil))
    #expect(
      !query.finds(
        itemClass: .genericPassword, service: "com.example.auth", account: "device-id",
        accessGroup: nil))
    let grouped = KeychainQuery(
      itemClass: .internetPassword, accessGroup: "OTHER.group", place: Self.place(3))
    #expect(
      grouped.mismatches(
        itemClass: .internetPassword, service: "api.example.com", account: "token",
        accessGroup: "ABCDE12345.com.example.shared") == ["accessGroup"])
    #expect(KeychainQuery.glob("*", matches: ""))
    #expect(KeychainQuery.glob("u?er-*-x", matches: "user-17-x"))
    #expect(!KeychainQuery.glob("user-*-x", matches: "user-17-y"))
    let stars = String(repeating: "*a", count: 2000) + "b"
    #expect(!KeychainQuery.glob(stars, matches: String(repeating: "a", count: 4000)))
  }

  @Test("kSecAttrAccessibleAlways where afterFirstUnlock is required is an error")
  func accessibilityLooser() throws {
    var queries = Self.finding
    queries[1].accessible = .afterFirstUnlock
    let findings = check(queries)
    #expect(findings.count == 1, "\(findings)")
    let looser = try #require(findings.first)
    guard case .accessibilityLooser(let query, let required) = looser.kind else {
      Issue.record("\(looser)")
      return
    }
    #expect(required == .afterFirstUnlock && query.place == Self.place(2))
    #expect(looser.severity == .error)
    #expect(looser.message.contains("kSecAttrAccessibleAlways"))
  }

  @Test("An item that can leave the device where ThisDeviceOnly is required is an error")
  func notThisDeviceOnly() throws {
    var queries = Self.finding
    queries[2].thisDeviceOnly = true
    let findings = check(queries)
    #expect(findings.count == 1, "\(findings)")
    guard case .notThisDeviceOnly(let query)? = findings.first?.kind else {
      Issue.record("\(findings)")
      return
    }
    #expect(query.place == Self.place(3))
    #expect(findings.first?.message.contains("kSecAttrAccessibleAfterFirstUnlock") == true)
  }

  @Test("A query that finds no item is a warning at the query's place")
  func queryFindsNothing() {
    let idle = KeychainQuery(
      itemClass: .genericPassword, service: "com.example.gone", place: Self.place(9))
    let findings = check(Self.finding + [idle])
    #expect(findings.count == 1)
    #expect(findings.first?.severity == .warning)
    #expect(findings.first?.place == Self.place(9))
  }

  @Test("Accessibility orders availability, and ThisDeviceOnly is separate")
  func accessibilityOrder() {
    #expect(KeychainAccessibility.always.isLooser(than: .afterFirstUnlock))
    #expect(KeychainAccessibility.afterFirstUnlock.isLooser(than: .afterFirstUnlockThisDeviceOnly))
    #expect(!KeychainAccessibility.whenUnlockedThisDeviceOnly.isLooser(than: .afterFirstUnlock))
    #expect(
      KeychainAccessibility.alwaysThisDeviceOnly.constantName
        == "kSecAttrAccessibleAlwaysThisDeviceOnly")
  }
}
