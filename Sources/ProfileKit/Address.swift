import Foundation

/// A postal address, version 2 of the sample app's model, decoded with secure coding.
///
/// Its runtime class name, as `NSStringFromClass` prints it, is `ProfileKit.Address`.
public final class Address: NSObject, NSSecureCoding {
  /// Whether the class decodes safely under secure coding; always `true`.
  public static let supportsSecureCoding = true

  /// The street line.
  public let street: String
  /// The city.
  public let city: String

  /// Creates an address from its parts.
  public init(street: String, city: String) {
    self.street = street
    self.city = city
    super.init()
  }

  /// Decodes an address; both fields must be strings.
  public init?(coder: NSCoder) {
    guard let street = coder.decodeObject(of: NSString.self, forKey: "street") as String?,
      let city = coder.decodeObject(of: NSString.self, forKey: "city") as String?
    else {
      return nil
    }
    self.street = street
    self.city = city
    super.init()
  }

  /// Encodes the street and the city as strings.
  public func encode(with coder: NSCoder) {
    coder.encode(street as NSString, forKey: "street")
    coder.encode(city as NSString, forKey: "city")
  }

  /// Compares by value.
  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? Address else { return false }
    return street == other.street && city == other.city
  }

  /// Hashes by value.
  public override var hash: Int {
    var hasher = Hasher()
    hasher.combine(street)
    hasher.combine(city)
    return hasher.finalize()
  }

  /// A short description of the address's fields.
  public override var description: String {
    "Address(street: \(street), city: \(city))"
  }
}
