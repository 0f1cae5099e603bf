import Foundation

/// A user profile, version 2 of the sample app's model, decoded with secure coding.
///
/// Its runtime class name, as `NSStringFromClass` prints it, is `ProfileKit.UserProfile`.
/// The nested address is read with its own `decodeObject(of:forKey:)` call.
public final class UserProfile: NSObject, NSSecureCoding {
  /// Whether the class decodes safely under secure coding; always `true`.
  public static let supportsSecureCoding = true

  /// The profile's identifier.
  public let id: Int
  /// The display name.
  public let name: String
  /// Whether the account is active.
  public let isActive: Bool
  /// The postal address.
  public let address: Address

  /// Creates a profile from its fields.
  public init(id: Int, name: String, isActive: Bool, address: Address) {
    self.id = id
    self.name = name
    self.isActive = isActive
    self.address = address
    super.init()
  }

  /// Decodes a profile; the name must be a string and the address an ``Address``.
  public init?(coder: NSCoder) {
    guard let name = coder.decodeObject(of: NSString.self, forKey: "name") as String?,
      let address = coder.decodeObject(of: Address.self, forKey: "address")
    else {
      return nil
    }
    self.id = coder.decodeInteger(forKey: "id")
    self.name = name
    self.isActive = coder.decodeBool(forKey: "isActive")
    self.address = address
    super.init()
  }

  /// Encodes every field under its property name.
  public func encode(with coder: NSCoder) {
    coder.encode(id, forKey: "id")
    coder.encode(name as NSString, forKey: "name")
    coder.encode(isActive, forKey: "isActive")
    coder.encode(address, forKey: "address")
  }

  /// Compares by value, including the address.
  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UserProfile else { return false }
    return id == other.id && name == other.name && isActive == other.isActive
      && address.isEqual(other.address)
  }

  /// Hashes by value.
  public override var hash: Int {
    var hasher = Hasher()
    hasher.combine(id)
    hasher.combine(name)
    hasher.combine(isActive)
    hasher.combine(address.hash)
    return hasher.finalize()
  }

  /// A short description of the profile's fields.
  public override var description: String {
    "UserProfile(id: \(id), name: \(name), isActive: \(isActive), address: \(address))"
  }
}
