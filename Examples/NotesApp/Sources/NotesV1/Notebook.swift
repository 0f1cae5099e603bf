import Foundation

/// A named list of notes, version 1.0, archived as the root of the app's notebook file.
///
/// ```swift
/// let notebook = Notebook(title: "Home", notes: [Note(title: "Groceries", body: "Milk")])
/// ```
public final class Notebook: NSObject, NSCoding {
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

  /// Decodes a notebook the version 1 way.
  public init?(coder: NSCoder) {
    guard let title = coder.decodeObject(forKey: "title") as? String,
      let notes = coder.decodeObject(forKey: "notes") as? [Note]
    else { return nil }
    self.title = title
    self.notes = notes
    super.init()
  }

  /// Encodes the title and the notes as an array.
  public func encode(with coder: NSCoder) {
    coder.encode(title as NSString, forKey: "title")
    coder.encode(notes as NSArray, forKey: "notes")
  }
}
