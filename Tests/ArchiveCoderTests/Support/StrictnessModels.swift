import Foundation

/// A secure class whose tags are read with an `NSArray`-only list: the strings in the array
/// are property-list leaves the list does not name.
final class TaggedNote: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let tags: [String]

  init(tags: [String]) {
    self.tags = tags
    super.init()
  }

  init?(coder: NSCoder) {
    guard let tags = coder.decodeObject(of: [NSArray.self], forKey: "tags") as? [String] else {
      return nil
    }
    self.tags = tags
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(tags as NSArray, forKey: "tags")
  }
}

/// A secure class that reads its body with `NSObject` as the allowed classes.
final class LooseHolder: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let body: Any?

  init?(coder: NSCoder) {
    body = coder.decodeObject(of: [NSObject.self], forKey: "body")
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(body, forKey: "body")
  }
}

/// The classes the strictness tests register beside ``TestModels/classes``.
enum StrictnessModels {
  static let classes: [NSObject.Type] = TestModels.classes + [TaggedNote.self, LooseHolder.self]
}
