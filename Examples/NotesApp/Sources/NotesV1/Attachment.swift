import Foundation

/// A file attached to a note, version 1.0; version 2 renamed the class `FileAttachment`.
///
/// ```swift
/// let photo = Attachment(fileName: "receipt.png", mimeType: "image/png", contents: Data([0x89]))
/// ```
public final class Attachment: NSObject, NSCoding {
  /// The file's name.
  public let fileName: String
  /// The file's media type, such as `image/png`.
  public let mimeType: String
  /// The file's bytes.
  public let contents: Data

  /// Creates an attachment.
  public init(fileName: String, mimeType: String, contents: Data) {
    self.fileName = fileName
    self.mimeType = mimeType
    self.contents = contents
    super.init()
  }

  /// Decodes an attachment the version 1 way.
  public init?(coder: NSCoder) {
    guard let fileName = coder.decodeObject(forKey: "fileName") as? String,
      let mimeType = coder.decodeObject(forKey: "mimeType") as? String,
      let contents = coder.decodeObject(forKey: "contents") as? Data
    else { return nil }
    self.fileName = fileName
    self.mimeType = mimeType
    self.contents = contents
    super.init()
  }

  /// Encodes every field under its property name.
  public func encode(with coder: NSCoder) {
    coder.encode(fileName as NSString, forKey: "fileName")
    coder.encode(mimeType as NSString, forKey: "mimeType")
    coder.encode(contents as NSData, forKey: "contents")
  }
}
