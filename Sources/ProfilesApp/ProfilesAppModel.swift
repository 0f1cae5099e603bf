import Foundation

/// The model classes of the sample app's version 1.
public enum ProfilesAppModel {
  /// Every model class of the module, for a decode registry.
  public static let classes: [NSObject.Type] = [UserProfile.self, Address.self, Memo.self]
}
