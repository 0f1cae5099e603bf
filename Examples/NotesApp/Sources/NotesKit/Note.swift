import Foundation

/// A note, version 2 of the Notes app (module NotesKit), decoded with secure coding.
///
/// Every object is read with `decodeObject(of:forKey:)` naming its classes. `priority` changed
/// type: version 1 archived a word (`"high"`), version 2 archives a number, and the decoder
/// reads both. `attachment` and `link` are optional: a note without them has no such key.
///
/// ```swift
/// let note = Note(title: "Groceries", body: "Milk, eggs", priority: .high)
/// let data = try NSKeyedArchiver.archivedData(withRootObject: note, requiringSecureCoding: true)
/// ```
public final class Note: NSObject, NSSecureCoding {
  /// Whether the class decodes safely under secure coding; always `true`.
  public static let supportsSecureCoding = true

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
  public let attachment: FileAttachment?
  /// How urgent the note is.
  public let priority: Priority
  /// Whether the note is pinned to the top of the list.
  public let isPinned: Bool

  /// Creates a note from its fields.
  public init(
    id: UUID = UUID(), title: String, body: String, created: Date = Date(), link: URL? = nil,
    tags: [String] = [], wordCounts: [String: Int] = [:], attachment: FileAttachment? = nil,
    priority: Priority = .normal, isPinned: Bool = false
  ) {
    self.id = id
    self.title = title
    self.body = body
    self.created = created
    self.link = link
    self.tags = tags
    self.wordCounts = wordCounts
    self.attachment = attachment
    self.priority = priority
    self.isPinned = isPinned
    super.init()
  }

  /// Decodes a note with secure coding; reads `priority` as version 1's word or version 2's number.
  public init?(coder: NSCoder) {
    guard let id = coder.decodeObject(of: NSUUID.self, forKey: "id") as UUID?,
      let title = coder.decodeObject(of: NSString.self, forKey: "title") as String?,
      let body = coder.decodeObject(of: NSString.self, forKey: "body") as String?,
      let created = coder.decodeObject(of: NSDate.self, forKey: "created") as Date?,
      let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags")
        as? [String],
      let wordCounts = coder.decodeObject(
        of: [NSDictionary.self, NSString.self, NSNumber.self], forKey: "wordCounts")
        as? [String: Int]
    else { return nil }
    let priority: Priority?
    switch coder.decodeObject(of: [NSNumber.self, NSString.self], forKey: "priority") {
    case let number as NSNumber: priority = Priority(rawValue: number.intValue)
    case let word as NSString: priority = Priority(archivedWord: word as String)
    default: priority = nil
    }
    guard let priority else { return nil }
    self.id = id
    self.title = title
    self.body = body
    self.created = created
    self.link = coder.decodeObject(of: NSURL.self, forKey: "link") as URL?
    self.tags = tags
    self.wordCounts = wordCounts
    self.attachment = coder.decodeObject(of: FileAttachment.self, forKey: "attachment")
    self.priority = priority
    self.isPinned = coder.decodeBool(forKey: "isPinned")
    super.init()
  }

  /// Encodes every field under its property name; `priority` as a number.
  public func encode(with coder: NSCoder) {
    coder.encode(id as NSUUID, forKey: "id")
    coder.encode(title as NSString, forKey: "title")
    coder.encode(body as NSString, forKey: "body")
    coder.encode(created as NSDate, forKey: "created")
    if let link { coder.encode(link as NSURL, forKey: "link") }
    coder.encode(NSArray(array: tags.map { $0 as NSString }), forKey: "tags")
    coder.encode(NSDictionary(dictionary: wordCounts), forKey: "wordCounts")
    if let attachment { coder.encode(attachment, forKey: "attachment") }
    coder.encode(NSNumber(value: priority.rawValue), forKey: "priority")
    coder.encode(isPinned, forKey: "isPinned")
  }

  /// Compares by value.
  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? Note else { return false }
    return id == other.id && title == other.title && body == other.body
      && created == other.created && link == other.link && tags == other.tags
      && wordCounts == other.wordCounts && attachment == other.attachment
      && priority == other.priority && isPinned == other.isPinned
  }

  /// Hashes by identifier.
  public override var hash: Int { id.hashValue }
}
