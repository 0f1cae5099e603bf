import Foundation

/// A note, as version 1.0 of the Notes app wrote it: plain `NSCoding`, read with `decodeObject(forKey:)`.
///
/// Archives of this version name the class `NotesV1.Note`; builds made with Swift 4 named it
/// `_TtC7NotesV14Note`. `priority` is a word (`low`, `normal`, `high`); version 2 stores a number.
///
/// ```swift
/// let note = Note(title: "Groceries", body: "Milk, eggs")
/// let data = try NSKeyedArchiver.archivedData(withRootObject: note, requiringSecureCoding: false)
/// ```
public final class Note: NSObject, NSCoding {
  /// The note's identifier.
  public let id: UUID
  /// The title.
  public let title: String
  /// The text.
  public let body: String
  /// When the note was created.
  public let created: Date
  /// A web page the note refers to, if any.
  public let link: URL?
  /// The note's tags, in the order the user added them.
  public let tags: [String]
  /// How often each word occurs in the body.
  public let wordCounts: [String: Int]
  /// A file attached to the note, if any.
  public let attachment: Attachment?
  /// `low`, `normal` or `high`.
  public let priority: String
  /// Whether the note is pinned to the top of the list.
  public let isPinned: Bool

  /// Creates a note from its fields.
  public init(
    id: UUID = UUID(), title: String, body: String, created: Date = Date(), link: URL? = nil,
    tags: [String] = [], attachment: Attachment? = nil, priority: String = "normal",
    isPinned: Bool = false
  ) {
    self.id = id
    self.title = title
    self.body = body
    self.created = created
    self.link = link
    self.tags = tags
    self.wordCounts = Note.wordCounts(of: body)
    self.attachment = attachment
    self.priority = priority
    self.isPinned = isPinned
    super.init()
  }

  /// Decodes a note the version 1 way: every object through `decodeObject(forKey:)` and a cast.
  public init?(coder: NSCoder) {
    guard let id = coder.decodeObject(forKey: "id") as? UUID,
      let title = coder.decodeObject(forKey: "title") as? String,
      let body = coder.decodeObject(forKey: "body") as? String,
      let created = coder.decodeObject(forKey: "created") as? Date
    else { return nil }
    self.id = id
    self.title = title
    self.body = body
    self.created = created
    self.link = coder.decodeObject(forKey: "link") as? URL
    self.tags = coder.decodeObject(forKey: "tags") as? [String] ?? []
    self.wordCounts = coder.decodeObject(forKey: "wordCounts") as? [String: Int] ?? [:]
    self.attachment = coder.decodeObject(forKey: "attachment") as? Attachment
    self.priority = coder.decodeObject(forKey: "priority") as? String ?? "normal"
    self.isPinned = coder.decodeBool(forKey: "isPinned")
    super.init()
  }

  /// Encodes every field under its property name; an absent optional is not written at all.
  public func encode(with coder: NSCoder) {
    coder.encode(id as NSUUID, forKey: "id")
    coder.encode(title as NSString, forKey: "title")
    coder.encode(body as NSString, forKey: "body")
    coder.encode(created as NSDate, forKey: "created")
    if let link { coder.encode(link as NSURL, forKey: "link") }
    coder.encode(NSArray(array: tags.map { $0 as NSString }), forKey: "tags")
    coder.encode(NSDictionary(dictionary: wordCounts), forKey: "wordCounts")
    if let attachment { coder.encode(attachment, forKey: "attachment") }
    coder.encode(priority as NSString, forKey: "priority")
    coder.encode(isPinned, forKey: "isPinned")
  }

  /// Counts the lowercased words of a text.
  static func wordCounts(of text: String) -> [String: Int] {
    var counts: [String: Int] = [:]
    for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
      counts[String(word), default: 0] += 1
    }
    return counts
  }
}
