import Foundation

/// A secure class whose titles are read with the list `[NSArray, NSString]`: it names every
/// class it decodes.
final class Shelf: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let titles: [String]

  init(titles: [String]) {
    self.titles = titles
    super.init()
  }

  init?(coder: NSCoder) {
    guard
      let titles = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "titles")
        as? [String]
    else { return nil }
    self.titles = titles
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(titles as NSArray, forKey: "titles")
  }
}

/// A secure class whose titles are read with `[NSArray]` alone: the strings in the array are
/// property-list leaves its list does not name.
final class LooseShelf: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let titles: [String]

  init(titles: [String]) {
    self.titles = titles
    super.init()
  }

  init?(coder: NSCoder) {
    guard let titles = coder.decodeObject(of: [NSArray.self], forKey: "titles") as? [String]
    else { return nil }
    self.titles = titles
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(titles as NSArray, forKey: "titles")
  }
}

/// A class that claims secure coding but reads its text with a plain `decodeObject(forKey:)`.
final class SloppyLabel: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true
  let text: String

  init(text: String) {
    self.text = text
    super.init()
  }

  init?(coder: NSCoder) {
    guard let text = coder.decodeObject(forKey: "text") as? String else { return nil }
    self.text = text
    super.init()
  }

  func encode(with coder: NSCoder) {
    coder.encode(text as NSString, forKey: "text")
  }
}
