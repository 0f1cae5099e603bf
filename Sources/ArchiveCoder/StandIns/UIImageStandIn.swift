import Foundation

/// A stand-in for UIKit's `UIImage`, read from `UIImageData` (the encoded image), `UIScale` and
/// `UIResourceName` (an image archived by name).
///
/// The image is not decoded; its format is recognized from the first bytes.
///
/// ```swift
/// let image = coder.decodeObject(of: UIImageStandIn.self, forKey: "avatar")
/// image?.format  // "png"
/// ```
package final class UIImageStandIn: NSObject, PlatformStandIn {
  /// `UIImage`.
  package static let platformClassName = "UIImage"
  /// Whether the class adopts secure coding: `true`, as UIImage does.
  package static var supportsSecureCoding: Bool { true }

  /// The encoded image.
  package let imageData: Data?
  /// The scale.
  package let scale: Double?
  /// The resource name of an image archived by name.
  package let resourceName: String?

  /// Reads UIKit's archived form.
  ///
  /// - Parameter coder: The unarchiver.
  package required init?(coder: NSCoder) {
    let reader = StandInReader(coder: coder, className: Self.platformClassName)
    imageData = reader.data("UIImageData")
    scale = reader.double("UIScale", in: 0...1_000)
    resourceName = reader.string("UIResourceName")
    guard !reader.failed else { return nil }
    super.init()
  }

  /// Writes UIKit's archived form.
  package func encode(with coder: NSCoder) {
    if let imageData { coder.encode(imageData as NSData, forKey: "UIImageData") }
    if let scale { coder.encode(Float(scale), forKey: "UIScale") }
    if let resourceName { coder.encode(resourceName as NSString, forKey: "UIResourceName") }
  }

  /// The image format recognized from the data's first bytes: `png`, `jpeg`, `gif`, `tiff`,
  /// `heic`, or `unknown`; `nil` without data.
  package var format: String? {
    guard let imageData else { return nil }
    return ImageFormat.name(of: [UInt8](imageData.prefix(12)))
  }

  /// `format`, `byteCount`, `scale` and `resourceName`, when set.
  package var standInFields: [(key: String, value: Any?)] {
    var fields: [(key: String, value: Any?)] = []
    if let format { fields.append(("format", format)) }
    if let imageData { fields.append(("byteCount", imageData.count)) }
    if let scale { fields.append(("scale", scale)) }
    if let resourceName { fields.append(("resourceName", resourceName)) }
    return fields
  }
}

/// Recognizes an encoded image's format from its first bytes.
enum ImageFormat {
  static func name(of bytes: [UInt8]) -> String {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
    if bytes.starts(with: Array("GIF8".utf8)) { return "gif" }
    if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    {
      return "tiff"
    }
    if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) { return "heic" }
    return "unknown"
  }
}
