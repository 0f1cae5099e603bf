import Foundation

/// A postal address, version 1 of the sample app's model, decoded with plain `NSCoding`.
///
/// Archives this version wrote name the class `ProfilesApp.Address`.
public final class Address: NSObject, NSCoding {
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

  /// Decodes an address the version 1 way: `decodeObject(forKey:) as? String`.
  public init?(coder: NSCoder) {
    guard let street = coder.decodeObject(forKey: "street") as? String,
      let city = coder.decodeObject(forKey: "city") as? String
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
}
