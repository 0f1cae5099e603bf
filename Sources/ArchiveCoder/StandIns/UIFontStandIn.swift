import Foundation

/// A stand-in for UIKit's `UIFont`, read from `UIFontName`, `UIFontPointSize`, `UIFontTraits`,
/// `UISystemFont` and `UIIBTextStyle`, with AppKit's `NSName` and `NSSize`, which UIKit also
/// writes, as fallbacks.
///
/// The `UIFontDescriptor` object UIKit writes too is not read.
///
/// ```swift
/// let font = coder.decodeObject(of: UIFontStandIn.self, forKey: "font")
/// font?.pointSize  // 17.0
/// ```
package final class UIFontStandIn: NSObject, PlatformStandIn {
  /// `UIFont`.
  package static let platformClassName = "UIFont"
  /// Whether the class adopts secure coding: `true`, as UIFont does.
  package static var supportsSecureCoding: Bool { true }

  /// The font's PostScript name.
  package let name: String?
  /// The point size.
  package let pointSize: Double
  /// The symbolic traits.
  package let traits: Int?
  /// Whether the font is the system font.
  package let isSystemFont: Bool
  /// The Interface Builder text style, such as `UICTFontTextStyleBody`.
  package let textStyle: String?

  /// Reads UIKit's archived form.
  ///
  /// - Parameter coder: The unarchiver.
  package required init?(coder: NSCoder) {
    let reader = StandInReader(coder: coder, className: Self.platformClassName)
    name = reader.string("UIFontName") ?? reader.string("NSName")
    let sizeKey = reader.has("UIFontPointSize") ? "UIFontPointSize" : "NSSize"
    pointSize = reader.double(sizeKey, in: 0...100_000) ?? 0
    traits = reader.integer("UIFontTraits")
    isSystemFont = reader.bool("UISystemFont") ?? false
    textStyle = reader.string("UIIBTextStyle")
    guard !reader.failed else { return nil }
    guard name != nil || isSystemFont || textStyle != nil else {
      reader.fail(
        "UIFontName", .missingField, "has no UIFontName, NSName, UISystemFont or UIIBTextStyle")
      return nil
    }
    super.init()
  }

  /// Writes UIKit's archived form.
  package func encode(with coder: NSCoder) {
    if let name { coder.encode(name as NSString, forKey: "UIFontName") }
    coder.encode(pointSize, forKey: "UIFontPointSize")
    if let traits { coder.encode(traits, forKey: "UIFontTraits") }
    coder.encode(isSystemFont, forKey: "UISystemFont")
    if let textStyle { coder.encode(textStyle as NSString, forKey: "UIIBTextStyle") }
  }

  /// `name`, `pointSize`, `traits`, `isSystemFont` and `textStyle`, when set.
  package var standInFields: [(key: String, value: Any?)] {
    var fields: [(key: String, value: Any?)] = []
    if let name { fields.append(("name", name)) }
    fields.append(("pointSize", pointSize))
    if let traits { fields.append(("traits", traits)) }
    fields.append(("isSystemFont", isSystemFont))
    if let textStyle { fields.append(("textStyle", textStyle)) }
    return fields
  }
}
