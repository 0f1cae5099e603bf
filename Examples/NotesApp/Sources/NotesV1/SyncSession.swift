import Foundation

/// The sync service's session, version 1.0, archived into a Keychain item
/// (`com.example.notes.sync`), as apps keep their sign-in.
///
/// ```swift
/// let session = SyncSession(account: "sync-user-0001", token: "…", expires: Date())
/// ```
public final class SyncSession: NSObject, NSCoding {
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

  /// Decodes a session the version 1 way.
  public init?(coder: NSCoder) {
    guard let account = coder.decodeObject(forKey: "account") as? String,
      let token = coder.decodeObject(forKey: "token") as? String,
      let expires = coder.decodeObject(forKey: "expires") as? Date
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
