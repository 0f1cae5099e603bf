import ArchiveFormat
import Testing

@testable import ArchiveHarness

/// One true-positive and one false-positive test per detector of the privacy scan.
@Suite("Privacy detectors")
struct PrivacyDetectorTests {
  /// The kinds the scan reports in a text.
  static func kinds(in text: String) -> [PersonalDataKind] {
    PrivacyScanner.matches(in: text).map(\.kind)
  }

  /// The texts the scan reports.
  static func matches(in text: String) -> [String] {
    PrivacyScanner.matches(in: text).map(\.match)
  }

  @Test(
    "An email address is reported",
    arguments: ["alice.smith@corp-mail.de", "write to Bob_O'Neil+notes@mail.example.co.uk today"])
  func reportsEmail(text: String) {
    #expect(Self.kinds(in: text) == [.email])
  }

  @Test(
    "Not an email: a reserved domain, no top-level domain, an attribute, a version",
    arguments: [
      "alice@example.com", "qwert@mail.example", "x@y.test", "user@localhost", "@objc func",
      "name@domain", "release v1.2@3.4",
    ])
  func ignoresNonEmail(text: String) {
    #expect(Self.kinds(in: text).isEmpty)
  }

  @Test(
    "A phone number is reported",
    arguments: [
      "+49 30 1234567", "call (212) 555-0147 now", "1-212-555-0147", "030 1234567",
      "0049 30 1234567", "(0171) 123 4567", "+1 (212) 555-0147",
    ])
  func reportsPhone(text: String) {
    #expect(Self.kinds(in: text) == [.phone])
  }

  @Test(
    "Not a phone number: dates, versions, decimals, digit lists, times, fictional numbers",
    arguments: [
      "2023-03-08", "08.03.2023", "08.03.2023 09:30", "01.12.2023 00:00:00", "version 1.2.3",
      "3.14159265358", "0 1 2 3 4 5 6 7 8 9",
      "12:30:45", "+00 30 1234567", "000 1234567", "(012) 555-0147", "order 12345678",
      "192.168.100.200",
    ])
  func ignoresNonPhone(text: String) {
    #expect(!Self.kinds(in: text).contains(.phone))
  }

  @Test("An IBAN with valid check digits is reported, grouped or not")
  func reportsIBAN() {
    #expect(Self.kinds(in: "IBAN DE89 3704 0044 0532 0130 00, thanks") == [.iban])
    #expect(Self.kinds(in: "GB82WEST12345698765432") == [.iban])
    #expect(
      Self.matches(in: "to DE89 3704 0044 0532 0130 00 AND MORE") == [
        "DE89 3704 0044 0532 0130 00"
      ])
  }

  @Test("Not an IBAN: wrong check digits, or capitals and digits that only start like one")
  func ignoresNonIBAN() {
    #expect(Self.kinds(in: "DE89 3704 0044 0532 0130 01").isEmpty)
    #expect(Self.kinds(in: "AB12 order reference 3456").isEmpty)
  }

  @Test(
    "A card number that passes the Luhn check is reported",
    arguments: ["4111 1111 1111 1111", "5500-0000-0000-0004", "card 378282246310005 ok"])
  func reportsCard(text: String) {
    #expect(Self.kinds(in: text) == [.card])
  }

  @Test(
    "Not a card number: the Luhn check fails, an unknown network, one repeated digit, inside a longer number",
    arguments: [
      "4111 1111 1111 1112", "1234567890123452", "0000000000000000", "4444444444444444",
      "3.4111111111111111",
    ])
  func ignoresNonCard(text: String) {
    #expect(!Self.kinds(in: text).contains(.card))
  }

  @Test("A card number stored as an integer is reported")
  func reportsCardInteger() throws {
    var builder = KeyedArchiveBuilder()
    builder.setRoot(builder.object("Payment", [("number", .integer(4_111_111_111_111_111))]))
    let findings = PrivacyScanner().scan(builder.bytes(), file: "payment.archive")
    #expect(findings.map(\.kind) == [.card])
    #expect(findings.first?.place == "number")
  }

  @Test("A public IPv4 address is reported")
  func reportsIPv4() {
    #expect(Self.kinds(in: "login from 81.2.69.160 at noon") == [.ipv4])
  }

  @Test(
    "Not an IPv4 address: versions, private and documentation ranges, octets over 255",
    arguments: [
      "version 10.15.7", "1.2.3.4.5", "v1.2.3.4", "1.2.3.4-beta", "Build 5.0.1.2",
      "192.168.1.20", "10.0.0.1", "203.0.113.7", "256.1.1.1", "01.02.03.04",
    ])
  func ignoresNonIPv4(text: String) {
    #expect(Self.kinds(in: text).isEmpty)
  }

  @Test(
    "A global IPv6 address is reported",
    arguments: [
      "2a02:8070:a1b2::1", "2001:4860:4860:0000:0000:0000:0000:8888", "[2a00:1450::68]:443",
    ])
  func reportsIPv6(text: String) {
    #expect(Self.kinds(in: text) == [.ipv6])
  }

  @Test(
    "Not an IPv6 address: times, MAC addresses, C++ scopes, link-local and documentation ranges",
    arguments: [
      "12:30:45", "00:1A:2B:3C:4D:5E", "std::vector", "fe80::1", "2001:db8::1", "::1",
      "fd12:3456::1",
    ])
  func ignoresNonIPv6(text: String) {
    #expect(Self.kinds(in: text).isEmpty)
  }

  static let jwt =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"

  @Test("A JSON Web Token is reported as one finding")
  func reportsJWT() {
    #expect(Self.kinds(in: "token=\(Self.jwt)") == [.jwt])
  }

  @Test("Not a JSON Web Token: a word that starts eyJ, a header without alg")
  func ignoresNonJWT() {
    #expect(Self.kinds(in: "eyJustAName.foo.bar").isEmpty)
    // {"typ":"JWT"} has no alg.
    #expect(Self.kinds(in: "eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiIxIn0.c2ln") != [.jwt])
  }

  @Test("A bearer token is reported")
  func reportsBearer() {
    #expect(Self.kinds(in: "Authorization: Bearer k8Jd93hFq2LmZ7xWv4Rt1NbQe6YsPa0C") == [.bearer])
  }

  @Test("Not a bearer token: the word bearer in a sentence, a low-entropy stand-in")
  func ignoresNonBearer() {
    #expect(Self.kinds(in: "the bearer of bad news").isEmpty)
    #expect(Self.kinds(in: "Bearer abBAbaab01ab10BAabbaABab").isEmpty)
  }

  @Test(
    "A long random token is reported",
    arguments: [
      "api_key=sk8Jd93hFq2LmZ7xWv4Rt1NbQe6YsPa0CzU", "3f786850e387550fdab836ed7e6dc881de23001b",
      "k3j5h6g7f8d9s0a1p2o3i4u5y6t7",
    ])
  func reportsToken(text: String) {
    #expect(Self.kinds(in: text) == [.token])
  }

  @Test(
    "Not a token: identifiers of words and numbers, mangled class names, UUIDs, short hex",
    arguments: [
      "ProfilesApp20230308Backup", "_TtC11ProfilesApp7Address", "Photo_20230308_184512",
      "NSKeyedArchiverRootObjectKey2", "kCFBundleVersion20230101", "user_1234567890_profile_v2",
      "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "deadbeef0123", "internationalization",
    ])
  func ignoresNonToken(text: String) {
    #expect(Self.kinds(in: text).isEmpty)
  }
}
