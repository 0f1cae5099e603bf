import Testing

@testable import ArchiveHarness

@Suite("Pseudonyms")
struct PseudonymTests {
  static func pseudonymizer(_ byte: UInt8 = 9) throws -> Pseudonymizer {
    Pseudonymizer(key: try AnonymizationKey(salt: [UInt8](repeating: byte, count: 32)))
  }

  /// The class a character must keep: its general category for letters and digits, itself otherwise.
  static func characterClass(_ scalar: Unicode.Scalar) -> String {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .titlecaseLetter: return "upper"
    case .lowercaseLetter: return "lower"
    case .otherLetter: return "letter"
    case .decimalNumber: return "digit"
    default: return "kept \(scalar)"
    }
  }

  /// Scripts by range, to check a letter stays in its script.
  static let scripts: [(name: String, range: ClosedRange<UInt32>)] = [
    ("Greek", 0x370...0x3FF), ("Cyrillic", 0x400...0x52F), ("Hebrew", 0x590...0x5FF),
    ("Arabic", 0x600...0x6FF), ("Hiragana", 0x3040...0x309F), ("Katakana", 0x30A0...0x30FF),
    ("Hangul", 0xAC00...0xD7A3), ("CJK", 0x4E00...0x9FFF), ("CJK B", 0x20000...0x2A6DF),
    ("Javanese", 0xA980...0xA9DF), ("Latin", 0x41...0x24F),
  ]

  static func script(of scalar: Unicode.Scalar) -> String? {
    scripts.first { $0.range.contains(scalar.value) }?.name
  }

  @Test(
    "A letter keeps its case and script, a digit stays a digit, the rest and the UTF-16 length stay",
    arguments: [
      "Avery Example", "Zürich 🇨🇭!", "Ελένη Παπαδοπούλου", "Дмитрий Иванов", "山田 太郎",
      "やまだ カタカナ", "김철수", "שלום עולם", "مرحبا بكم", "٣١٤١٥ ٩٢", "ｆｕｌｌ Ｗｉｄｔｈ", "𠀀𠀁𠀂",
      "ꦧꦱꦗꦮ", "It's 9:30, isn't it?",
    ])
  func keepsCharacterClasses(text: String) throws {
    var pseudonymizer = try Self.pseudonymizer()
    let pseudonym = pseudonymizer.string(text)
    #expect(pseudonym != text)
    #expect(pseudonym.utf16.count == text.utf16.count)
    let original = Array(text.unicodeScalars)
    let replaced = Array(pseudonym.unicodeScalars)
    #expect(original.count == replaced.count)
    for (before, after) in zip(original, replaced) {
      #expect(Self.characterClass(before) == Self.characterClass(after), "\(before) → \(after)")
      #expect(Self.script(of: before) == Self.script(of: after), "\(before) → \(after)")
    }
  }

  @Test("Equal inputs give equal pseudonyms, and the same salt gives the same pseudonym")
  func isConsistent() throws {
    var first = try Self.pseudonymizer()
    var second = try Self.pseudonymizer()
    var other = try Self.pseudonymizer(10)
    let name = "Avery Example"
    #expect(first.string(name) == first.string(name))
    #expect(first.string(name) == second.string(name))
    #expect(first.string(name) != other.string(name))
  }

  @Test("A string without letters or digits stays as it is")
  func keepsPunctuationOnly() throws {
    var pseudonymizer = try Self.pseudonymizer()
    #expect(pseudonymizer.string(" - / ") == " - / ")
  }

  @Test("One-letter strings that outnumber their class are counted as collisions")
  func countsCollisions() throws {
    var pseudonymizer = try Self.pseudonymizer()
    let letters = (0x61...0x7A).compactMap { Unicode.Scalar($0).map { String($0) } } + ["ä"]
    pseudonymizer.reserve(strings: Set(letters), data: [])
    let pseudonyms = letters.map { pseudonymizer.string($0) }
    #expect(pseudonyms.allSatisfy { $0.unicodeScalars.count == 1 })
    #expect(pseudonymizer.unresolved.collisions > 0)
  }

  @Test("An email keeps its local part's shape and gets a reserved domain of the same length")
  func keepsEmailShape() throws {
    var pseudonymizer = try Self.pseudonymizer()
    for email in [
      "alice.smith@corp-mail.de", "bo@gmail.com", "a.b@firm.co", "x@sub.domain-name.org",
    ] {
      let pseudonym = pseudonymizer.string(email)
      let parts = pseudonym.split(separator: "@", omittingEmptySubsequences: false)
      #expect(parts.count == 2, "\(pseudonym)")
      #expect(pseudonym.utf16.count == email.utf16.count, "\(email) → \(pseudonym)")
      let domain = String(parts.last ?? "")
      #expect(
        domain == "example.com" || domain.hasSuffix(".example.com") || domain.hasSuffix(".example")
          || domain.hasSuffix(".test"), "\(pseudonym)")
      #expect(parts.first?.contains(".") == email.split(separator: "@").first?.contains("."))
    }
  }

  @Test(
    "A URL keeps its scheme, port, path structure and file extension; its host becomes reserved")
  func keepsURLShape() throws {
    var pseudonymizer = try Self.pseudonymizer()
    let url = "https://intranet.corp-mail.de:8443/users/alice/profile.png?size=large#top"
    let pseudonym = pseudonymizer.string(url)
    #expect(pseudonym.hasPrefix("https://"))
    #expect(pseudonym.contains(".example.com:8443/"))
    #expect(pseudonym.split(separator: "/").count == url.split(separator: "/").count)
    #expect(pseudonym.contains(".png?"))
    #expect(!pseudonym.contains("alice") && !pseudonym.contains("corp-mail"))
    #expect(pseudonymizer.string("mailto:alice@corp-mail.de").hasPrefix("mailto:"))
    #expect(pseudonymizer.string("mailto:alice@corp-mail.de").hasSuffix(".example"))
  }

  @Test("An IPv4 address stays an address of the same shape, in a reserved range")
  func keepsIPv4Shape() throws {
    var pseudonymizer = try Self.pseudonymizer()
    for address in ["81.2.69.160", "8.8.8.8", "192.168.100.254"] {
      let pseudonym = pseudonymizer.string(address)
      let octets = pseudonym.split(separator: ".").compactMap { Int($0) }
      #expect(octets.count == 4 && octets.allSatisfy { $0 <= 255 }, "\(pseudonym)")
      #expect(pseudonym.utf16.count == address.utf16.count)
      #expect(!TextDetector.isPublic(ipv4: octets), "\(pseudonym)")
    }
  }

  @Test("An IPv6 address stays an address, in a reserved range")
  func keepsIPv6Shape() throws {
    var pseudonymizer = try Self.pseudonymizer()
    for address in [
      "2a02:8070:a1b2::1", "2001:4860:4860:0000:0000:0000:0000:8888", "2A00:1450::68",
    ] {
      let pseudonym = pseudonymizer.string(address)
      let groups = try #require(TextDetector.ipv6Groups(ArraySlice(pseudonym.unicodeScalars)))
      #expect(!TextDetector.isGlobal(ipv6: groups), "\(pseudonym)")
      #expect(pseudonym.utf16.count == address.utf16.count)
    }
  }

  @Test(
    "A phone number keeps its separators and digit count, and becomes a number no country assigns")
  func keepsPhoneShape() throws {
    var pseudonymizer = try Self.pseudonymizer()
    for phone in ["+49 30 1234567", "(212) 555-0147", "030 1234567", "1-212-555-0147"] {
      let pseudonym = pseudonymizer.string(phone)
      #expect(pseudonym.map { $0.isNumber ? "9" : $0 } == phone.map { $0.isNumber ? "9" : $0 })
      #expect(pseudonym.filter(\.isNumber).hasPrefix("000"), "\(pseudonym)")
    }
  }

  @Test("A token keeps its length and character classes, with too little entropy to be one")
  func lowersTokenEntropy() throws {
    var pseudonymizer = try Self.pseudonymizer()
    let token = "sk8Jd93hFq2LmZ7xWv4Rt1NbQe6YsPa0CzU"
    let pseudonym = pseudonymizer.string(token)
    #expect(pseudonym.count == token.count)
    #expect(Set(pseudonym).isSubset(of: Set("abAB01_")))
    #expect(pseudonym.map(\.isUppercase) == token.map(\.isUppercase))
  }

  @Test("A UUID string stays a UUID string of the same case")
  func keepsUUIDStrings() throws {
    var pseudonymizer = try Self.pseudonymizer()
    let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    let pseudonym = pseudonymizer.string(uuid)
    #expect(pseudonym != uuid)
    #expect(TextDetector.isUUID(ArraySlice(pseudonym.unicodeScalars)))
    #expect(pseudonym == pseudonym.uppercased())
  }

  @Test(
    "Every detector's true positive gets a pseudonym the privacy scan does not report",
    arguments: [
      "alice.smith@corp-mail.de", "+49 30 1234567", "(212) 555-0147", "030 1234567",
      "DE89 3704 0044 0532 0130 00", "4111 1111 1111 1111", "login from 81.2.69.160",
      "2a02:8070:a1b2::1", PrivacyDetectorTests.jwt,
      "Authorization: Bearer k8Jd93hFq2LmZ7xWv4Rt1NbQe6YsPa0C",
      "api_key=sk8Jd93hFq2LmZ7xWv4Rt1NbQe6YsPa0CzU", "3f786850e387550fdab836ed7e6dc881de23001b",
      "ProfilesApp20230308Backup",
    ])
  func pseudonymsPassTheScan(text: String) throws {
    var pseudonymizer = try Self.pseudonymizer()
    let pseudonym = pseudonymizer.string(text)
    #expect(PrivacyScanner.matches(in: pseudonym).isEmpty, "\(text) → \(pseudonym)")
    #expect(pseudonymizer.unresolved == Pseudonymizer.Unresolved())
  }

  @Test("Data keeps its length and only a known signature; a UUID becomes a version-4 UUID")
  func replacesBytes() throws {
    var pseudonymizer = try Self.pseudonymizer()
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
    let kept = pseudonymizer.data(jpeg, keepingSignature: true)
    #expect(kept.count == jpeg.count && kept.prefix(3) == jpeg.prefix(3) && kept != jpeg)
    let unknown: [UInt8] = [1, 2, 3, 4]
    #expect(pseudonymizer.data(unknown, keepingSignature: true).count == 4)
    let uuid = pseudonymizer.uuid([UInt8](repeating: 0x11, count: 16))
    #expect(uuid.count == 16 && uuid[6] >> 4 == 4)
  }

  @Test("Numbers keep their sign and width: the extremes included")
  func keepsNumberWidth() throws {
    var pseudonymizer = try Self.pseudonymizer()
    for value: Int64 in [0, 7, -7, 4711, -4711, .max, .min] {
      let replaced = pseudonymizer.integer(value)
      #expect(
        String(replaced.magnitude).count == String(value.magnitude).count, "\(value) → \(replaced)")
      #expect((replaced < 0) == (value < 0), "\(value) → \(replaced)")
    }
    let big = pseudonymizer.unsignedInteger(UInt64.max)
    #expect(big > UInt64(Int64.max) && String(big).count == 20)
    for value in [4.25, -0.5, 1e300, 3e-9, 123_456.789] {
      let replaced = pseudonymizer.real(value)
      #expect(replaced.sign == value.sign && replaced != value, "\(value) → \(replaced)")
    }
    #expect(pseudonymizer.real(.nan).isNaN)
    #expect(pseudonymizer.real(.infinity) == .infinity)
  }
}
