import Foundation

/// A named list of notes, version 2, decoded with secure coding.
///
/// ```swift
/// let notebook = Notebook(title: "Home", notes: [Note(title: "Groceries", body: "Milk")])
/// ```
public final class Notebook: NSObject, NSSecureCoding {
  /// Whether the class decodes safely under secure coding; always `true`.
  public static let supportsSecureCoding = true

  /// The notebook's name.
  public let title: String
  /// The notes, in display order.
  public let notes: [Note]

  /// Creates a notebook.
  public init(title: String, notes: [Note]) {
    self.title = title
    self.notes = notes
    super.init()
  }

  /// Decodes a notebook; the notes must be an array of ``Note``.
  public init?(coder: NSCoder) {
    guard let title = coder.decodeObject(of: NSString.self, forKey: "title") as String?,
      let notes = coder.decodeObject(of: [NSArray.self, Note.self], forKey: "notes") as? [Note]
    else { return nil }
    self.title = title
    self.notes = notes
    super.init()
  }

  /// Encodes the title and the notes as an array.
  public func encode(with coder: NSCoder) {
    coder.encode(title as NSString, forKey: "title")
    coder.encode(NSArray(array: notes), forKey: "notes")
  }
}
