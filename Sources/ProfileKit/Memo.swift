import Foundation

/// A versioned text memo, version 2 of the sample app's model, decoded with secure coding.
///
/// Decoding accepts only ``Memo/currentSchema``, requires the `schema` key to be present (so
/// a missing version is not read as 0), requires `text`, and rejects text longer than
/// ``Memo/maximumTextLength`` UTF-16 code units by calling `failWithError(_:)`.
public final class Memo: NSObject, NSSecureCoding {
  /// Whether the class decodes safely under secure coding; always `true`.
  public static let supportsSecureCoding = true
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

  /// Decodes a memo, refusing unknown schemas, missing text and text over the limit.
  public init?(coder: NSCoder) {
    guard coder.containsValue(forKey: "schema") else {
      coder.failWithError(Memo.readError("memo has no 'schema' key"))
      return nil
    }
    let schema = coder.decodeInteger(forKey: "schema")
    guard schema == Memo.currentSchema else {
      coder.failWithError(Memo.readError("memo schema \(schema) is not supported"))
      return nil
    }
    guard let text = coder.decodeObject(of: NSString.self, forKey: "text") as String? else {
      return nil
    }
    guard text.utf16.count <= Memo.maximumTextLength else {
      coder.failWithError(
        Memo.readError(
          "memo text has \(text.utf16.count) UTF-16 units, over \(Memo.maximumTextLength)"))
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

  /// Compares by value.
  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? Memo else { return false }
    return schema == other.schema && text == other.text
  }

  /// Hashes by value.
  public override var hash: Int {
    var hasher = Hasher()
    hasher.combine(schema)
    hasher.combine(text)
    return hasher.finalize()
  }

  /// A short description of the memo's fields.
  public override var description: String {
    "Memo(schema: \(schema), text: \(text.count) characters)"
  }

  private static func readError(_ reason: String) -> NSError {
    NSError(
      domain: NSCocoaErrorDomain, code: CocoaError.coderReadCorrupt.rawValue,
      userInfo: [NSDebugDescriptionErrorKey: reason])
  }
}
