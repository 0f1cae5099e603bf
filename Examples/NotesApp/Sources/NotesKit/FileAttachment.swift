import Foundation

/// A file attached to a note, version 2; version 1 named this class `Attachment`.
///
/// ```swift
/// let photo = FileAttachment(fileName: "receipt.png", mimeType: "image/png", contents: Data([0x89]))
/// ```
public final class FileAttachment: NSObject, NSSecureCoding {
  /// Whether the class decodes safely under secure coding; always `true`.
  public static let supportsSecureCoding = true

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

  /// Decodes an attachment with secure coding.
  public init?(coder: NSCoder) {
    guard let fileName = coder.decodeObject(of: NSString.self, forKey: "fileName") as String?,
      let mimeType = coder.decodeObject(of: NSString.self, forKey: "mimeType") as String?,
      let contents = coder.decodeObject(of: NSData.self, forKey: "contents") as Data?
    else { return nil }
    self.fileName = fileName
    self.mimeType = mimeType
    self.contents = contents
    super.init()
  }

  /// Encodes every field under its property name, as version 1 did.
  public func encode(with coder: NSCoder) {
    coder.encode(fileName as NSString, forKey: "fileName")
    coder.encode(mimeType as NSString, forKey: "mimeType")
    coder.encode(contents as NSData, forKey: "contents")
  }

  /// Compares by value.
  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? FileAttachment else { return false }
    return fileName == other.fileName && mimeType == other.mimeType && contents == other.contents
  }

  /// Hashes by value.
  public override var hash: Int {
    var hasher = Hasher()
    hasher.combine(fileName)
    hasher.combine(contents)
    return hasher.finalize()
  }
}
