/// When a Keychain item's data can be read (`kSecAttrAccessible`), as a type: the constants'
/// names without their `kSecAttrAccessible` prefix, with a first letter in lower case.
///
/// Availability orders them from strictest to loosest (``availabilityRank``); a
/// `ThisDeviceOnly` value also keeps the item out of backups and off other devices
/// (``isThisDeviceOnly``).
///
/// ```swift
/// let required = KeychainAccessibility.afterFirstUnlockThisDeviceOnly
/// KeychainAccessibility.always.isLooser(than: required)  // true
/// ```
package enum KeychainAccessibility: String, Sendable, Hashable, CaseIterable,
  CustomStringConvertible
{
  /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`.
  case whenPasscodeSetThisDeviceOnly
  /// `kSecAttrAccessibleWhenUnlocked` (the default).
  case whenUnlocked
  /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.
  case whenUnlockedThisDeviceOnly
  /// `kSecAttrAccessibleAfterFirstUnlock`.
  case afterFirstUnlock
  /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`.
  case afterFirstUnlockThisDeviceOnly
  /// `kSecAttrAccessibleAlways`, deprecated since iOS 12.
  case always
  /// `kSecAttrAccessibleAlwaysThisDeviceOnly`, deprecated since iOS 12.
  case alwaysThisDeviceOnly

  /// The name, such as `afterFirstUnlockThisDeviceOnly`.
  package var description: String { rawValue }

  /// The Security constant's name, such as `kSecAttrAccessibleAfterFirstUnlock`, for messages.
  package var constantName: String {
    "kSecAttrAccessible" + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
  }

  /// Whether the item stays on this device: never in a backup restored elsewhere, never synced.
  package var isThisDeviceOnly: Bool { rawValue.hasSuffix("ThisDeviceOnly") }

  /// When the data can be read, from 0 (only while a passcode is set and the device is
  /// unlocked) to 3 (always); a higher rank is looser.
  package var availabilityRank: Int {
    switch self {
    case .whenPasscodeSetThisDeviceOnly: 0
    case .whenUnlocked, .whenUnlockedThisDeviceOnly: 1
    case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: 2
    case .always, .alwaysThisDeviceOnly: 3
    }
  }

  /// Whether an item with this accessibility is readable more often than `required` allows,
  /// or leaves the device where `required` is a `ThisDeviceOnly` value.
  ///
  /// ```swift
  /// KeychainAccessibility.afterFirstUnlock.isLooser(than: .afterFirstUnlockThisDeviceOnly)  // true
  /// ```
  package func isLooser(than required: KeychainAccessibility) -> Bool {
    availabilityRank > required.availabilityRank
      || (required.isThisDeviceOnly && !isThisDeviceOnly)
  }
}
