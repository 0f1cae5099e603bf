/// A kind of personal data or secret the privacy scan looks for.
///
/// The raw values are the names diagnostics, JSON and a manifest's
/// `<reviewed detector="…"/>` use.
///
/// ```swift
/// let kind = PersonalDataKind(rawValue: "email")  // .email
/// print(kind?.summary ?? "")                      // looks like an email address
/// ```
package enum PersonalDataKind: String, Sendable, Hashable, CaseIterable, Comparable {
  /// An email address outside the reserved example domains.
  case email
  /// A phone number: international (`+49 30 …`), North American (`(212) 555-…`) or national (`030 …`).
  case phone
  /// An IBAN whose check digits are valid.
  case iban
  /// A payment card number that passes the Luhn check.
  case card
  /// A public IPv4 address (private, loopback and documentation ranges are not reported).
  case ipv4
  /// A global IPv6 address (unique-local, link-local and documentation ranges are not reported).
  case ipv6
  /// A JSON Web Token.
  case jwt
  /// An HTTP bearer token (`Bearer …`).
  case bearer
  /// A long token with high entropy, such as an API key.
  case token

  /// What a finding of this kind says, lowercase, without a period.
  package var summary: String {
    switch self {
    case .email: return "looks like an email address"
    case .phone: return "looks like a phone number"
    case .iban: return "looks like an IBAN (its check digits are valid)"
    case .card: return "looks like a payment card number (it passes the Luhn check)"
    case .ipv4: return "looks like a package IPv4 address"
    case .ipv6: return "looks like a global IPv6 address"
    case .jwt: return "looks like a JSON Web Token"
    case .bearer: return "looks like a bearer token"
    case .token: return "looks like a secret token (long, high entropy)"
    }
  }

  /// Orders kinds as they are declared.
  package static func < (lhs: PersonalDataKind, rhs: PersonalDataKind) -> Bool {
    let order = Self.allCases
    return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
  }
}
