import Foundation

/// The model classes of the sample app's version 2 and the class sets its reads declare.
public enum ProfileModel {
  /// Every model class of the module, for a decode registry.
  public static let classes: [NSObject.Type] = [UserProfile.self, Address.self, Memo.self]

  /// The classes a read of a single profile declares, as SAP's migration guide lists them.
  public static let profileAllowedClasses: [AnyClass] = [UserProfile.self, Address.self]

  /// The classes a read of a cached `[UserProfile]` declares: the container and its elements.
  public static let profileListAllowedClasses: [AnyClass] = [
    NSArray.self, UserProfile.self, Address.self,
  ]

  /// The classes a read of a memo declares.
  public static let memoAllowedClasses: [AnyClass] = [Memo.self]

  /// Decodes a `[UserProfile]` stored as an `NSArray` under `key`, checking the elements.
  ///
  /// - Parameters:
  ///   - coder: The coder to read from.
  ///   - key: The key the array was encoded under.
  /// - Returns: The profiles, or `nil` when the value is missing or has another type.
  public static func decodeProfileList(from coder: NSCoder, forKey key: String) -> [UserProfile]? {
    let value = coder.decodeObject(of: [NSArray.self, UserProfile.self], forKey: key)
    guard let array = value as? NSArray else { return nil }
    var profiles: [UserProfile] = []
    profiles.reserveCapacity(array.count)
    for element in array {
      guard let profile = element as? UserProfile else { return nil }
      profiles.append(profile)
    }
    return profiles
  }
}
