/// A stretch of text that a detector recognised, as positions in the text's Unicode scalars.
struct DetectedSpan: Hashable, Sendable {
  /// What the stretch is.
  enum Kind: Hashable, Sendable {
    case email, url, ipv4, ipv6, phone, iban, card, jwt, bearer, token, uuid, hexWord, date
  }

  /// What the stretch is.
  var kind: Kind
  /// Where it is, in Unicode scalars.
  var range: Range<Int>
  /// Whether the privacy scan reports it; false for reserved, private and documentation
  /// values, for fictional forms, and for shapes that are not personal data (URLs, UUIDs, dates).
  var isReportable: Bool

  /// The kind of personal data it is, when the scan reports this kind.
  var personalDataKind: PersonalDataKind? {
    switch kind {
    case .email: return .email
    case .phone: return .phone
    case .iban: return .iban
    case .card: return .card
    case .ipv4: return .ipv4
    case .ipv6: return .ipv6
    case .jwt: return .jwt
    case .bearer: return .bearer
    case .token: return .token
    case .url, .uuid, .hexWord, .date: return nil
    }
  }
}
