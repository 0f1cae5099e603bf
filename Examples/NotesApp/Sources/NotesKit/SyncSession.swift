import Foundation

/// The sync service's session, version 2, read from its Keychain item with secure coding.
///
/// ```swift
/// let session = SyncSession(account: "sync-user-0001", token: "…", expires: Date())
/// ```
public final class SyncSession: NSObject, NSSecureCoding {
  /// Whether the class decodes safely under secure coding; always `true`.
  public static let supportsSecureCoding = true

  /// The account the app signed in with.
  public let account: String
  /// The service's bearer token.
  public let token: String
  /// When the token expires.
  public let expires: Date

  /// Creates a session.
  public init(account: String, token: String, expires: Date) {
    self.account = account
    self.token = token
    self.expires = expires
    super.init()
  }

  /// Decodes a session; every field must be there, or the user is signed out.
  public init?(coder: NSCoder) {
    guard let account = coder.decodeObject(of: NSString.self, forKey: "account") as String?,
      let token = coder.decodeObject(of: NSString.self, forKey: "token") as String?,
      let expires = coder.decodeObject(of: NSDate.self, forKey: "expires") as Date?
    else { return nil }
    self.account = account
    self.token = token
    self.expires = expires
    super.init()
  }

  /// Encodes the account, the token and the expiry.
  public func encode(with coder: NSCoder) {
    coder.encode(account as NSString, forKey: "account")
    coder.encode(token as NSString, forKey: "token")
    coder.encode(expires as NSDate, forKey: "expires")
  }
}
