import Foundation

/// A stand-in for UIKit's `UIColor`: an RGBA or white color read from `UIColorComponentCount`
/// with `UIRed`, `UIGreen`, `UIBlue` and `UIAlpha`, or `UIWhite` and `UIAlpha`.
///
/// UIKit also writes each component as a double under `UIRed-Double` and the others, which is
/// preferred when present, an AppKit-compatible `NSRGB` or `NSWhite` with `NSColorSpace`, and
/// `UISystemColorName` for system colors.
///
/// ```swift
/// let color = coder.decodeObject(of: UIColorStandIn.self, forKey: "tint")
/// color?.red  // 1.0
/// ```
package final class UIColorStandIn: NSObject, PlatformStandIn {
  /// `UIColor`.
  package static let platformClassName = "UIColor"
  /// Whether the class adopts secure coding: `true`, as UIColor does.
  package static var supportsSecureCoding: Bool { true }

  /// 4 for an RGBA color, 2 for a white color.
  package let componentCount: Int
  /// The red component of an RGBA color.
  package let red: Double?
  /// The green component of an RGBA color.
  package let green: Double?
  /// The blue component of an RGBA color.
  package let blue: Double?
  /// The white component of a white color.
  package let white: Double?
  /// The alpha component.
  package let alpha: Double
  /// The system color's name, such as `systemBlueColor`, when the color is one.
  package let systemColorName: String?

  /// Creates an RGBA color.
  package init(red: Double, green: Double, blue: Double, alpha: Double) {
    componentCount = 4
    self.red = red
    self.green = green
    self.blue = blue
    self.white = nil
    self.alpha = alpha
    self.systemColorName = nil
    super.init()
  }

  /// Reads UIKit's archived form.
  ///
  /// - Parameter coder: The unarchiver.
  package required init?(coder: NSCoder) {
    let reader = StandInReader(coder: coder, className: Self.platformClassName)
    guard
      let count = reader.integer("UIColorComponentCount", required: true, in: Int.min...Int.max)
    else { return nil }
    guard count == 2 || count == 4 else {
      reader.fail(
        "UIColorComponentCount", .malformed,
        "UIColorComponentCount is \(count); only 2 (white) and 4 (RGBA) are archived")
      return nil
    }
    func component(_ key: String) -> Double? {
      reader.has(key + "-Double")
        ? reader.double(key + "-Double") : reader.double(key, required: true)
    }
    componentCount = count
    systemColorName = reader.string("UISystemColorName")
    if count == 4 {
      red = component("UIRed")
      green = component("UIGreen")
      blue = component("UIBlue")
      white = nil
    } else {
      white = component("UIWhite")
      red = nil
      green = nil
      blue = nil
    }
    guard let alpha = component("UIAlpha"), !reader.failed else { return nil }
    self.alpha = alpha
    super.init()
  }

  /// Writes UIKit's archived form.
  package func encode(with coder: NSCoder) {
    if let systemColorName {
      coder.encode(systemColorName as NSString, forKey: "UISystemColorName")
    }
    coder.encode(Int32(componentCount), forKey: "UIColorComponentCount")
    if componentCount == 4 {
      coder.encode(Float(red ?? 0), forKey: "UIRed")
      coder.encode(Float(green ?? 0), forKey: "UIGreen")
      coder.encode(Float(blue ?? 0), forKey: "UIBlue")
    } else {
      coder.encode(Float(white ?? 0), forKey: "UIWhite")
    }
    coder.encode(Float(alpha), forKey: "UIAlpha")
  }

  /// `componentCount`, the components, and `systemColorName` when set.
  package var standInFields: [(key: String, value: Any?)] {
    var fields: [(key: String, value: Any?)] = [("componentCount", componentCount)]
    if componentCount == 4 {
      fields += [("red", red), ("green", green), ("blue", blue)]
    } else {
      fields.append(("white", white))
    }
    fields.append(("alpha", alpha))
    if let systemColorName { fields.append(("systemColorName", systemColorName)) }
    return fields
  }
}
