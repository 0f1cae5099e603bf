import Foundation

/// A user profile, version 1 of the sample app's model, decoded with plain `NSCoding`.
///
/// Archives this version wrote name the class `ProfilesApp.UserProfile`. Its decoder force-casts
/// the address (`as! Address`), as the app did: an archive holding another class there traps.
/// The trap is deliberate; the harness must contain it.
public final class UserProfile: NSObject, NSCoding {
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

  /// Decodes a profile the version 1 way; traps when `address` holds another class.
  public init?(coder: NSCoder) {
    guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
    self.id = coder.decodeInteger(forKey: "id")
    self.name = name
    self.isActive = coder.decodeBool(forKey: "isActive")
    // swift-format-ignore: NeverForceUnwrap
    // The historical app's force cast, kept on purpose: the harness must survive it.
    self.address = coder.decodeObject(forKey: "address") as! Address
    super.init()
  }

  /// Encodes every field under its property name.
  public func encode(with coder: NSCoder) {
    coder.encode(id, forKey: "id")
    coder.encode(name as NSString, forKey: "name")
    coder.encode(isActive, forKey: "isActive")
    coder.encode(address, forKey: "address")
  }
}
