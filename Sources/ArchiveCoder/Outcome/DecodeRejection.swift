import ArchiveFormat

/// A refusal by a decode path: its category, where it happened, and a message for people.
package struct DecodeRejection: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The kind of refusal.
  package let category: RejectionCategory
  /// The key path of the object or field, such as `root.address` or `root[2].name`.
  package let keyPath: String
  /// A message such as `secure: root.address: class 'ProfilesApp.Address' … is not in the
  /// allowed classes [ProfileKit.UserProfile, NSString]`.
  package let message: String

  /// Creates a rejection.
  package init(category: RejectionCategory, keyPath: String, message: String) {
    self.category = category
    self.keyPath = keyPath
    self.message = message
  }

  /// The category in brackets followed by the message.
  package var description: String { "[\(category)] \(message)" }
}
