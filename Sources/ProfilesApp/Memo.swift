import Foundation

/// A versioned text memo, version 1 of the sample app's model, decoded with plain `NSCoding`.
///
/// Like version 2 it reads only schema 1, requires `schema` and `text`, and refuses text over
/// 4096 UTF-16 code units, but it returns `nil` rather than reporting an error.
public final class Memo: NSObject, NSCoding {
  /// The only schema version this release reads and writes.
  public static let currentSchema = 1
  /// The longest text accepted, in UTF-16 code units.
  public static let maximumTextLength = 4096

  /// The schema version the memo was written with.
  public let schema: Int
  /// The memo's text.
  public let text: String

  /// Creates a memo at the current schema.
  public init(text: String) {
    self.schema = Memo.currentSchema
    self.text = text
    super.init()
  }

  /// Creates a memo with an explicit schema, for writing historical and negative fixtures.
  public init(schema: Int, text: String) {
    self.schema = schema
    self.text = text
    super.init()
  }

  /// Decodes a memo the version 1 way, returning `nil` for anything it cannot accept.
  public init?(coder: NSCoder) {
    guard coder.containsValue(forKey: "schema") else { return nil }
    let schema = coder.decodeInteger(forKey: "schema")
    guard schema == Memo.currentSchema,
      let text = coder.decodeObject(forKey: "text") as? String,
      text.utf16.count <= Memo.maximumTextLength
    else {
      return nil
    }
    self.schema = schema
    self.text = text
    super.init()
  }

  /// Encodes the schema version and the text.
  public func encode(with coder: NSCoder) {
    coder.encode(schema, forKey: "schema")
    coder.encode(text as NSString, forKey: "text")
  }
}
