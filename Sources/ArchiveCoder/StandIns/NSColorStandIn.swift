import Foundation

/// A stand-in for AppKit's `NSColor`, read from `NSColorSpace` and the components it names:
/// `NSRGB` (1 calibrated, 2 device RGB), `NSWhite` (3 calibrated, 4 device white), `NSCMYK`
/// (5) as space-separated text, or `NSCatalogName` and `NSColorName` (6, a named color).
///
/// A color in a custom color space also carries `NSComponents` and an `NSCustomColorSpace`
/// object, read as an `NSColorSpaceStandIn`.
///
/// ```swift
/// let color = coder.decodeObject(of: NSColorStandIn.self, forKey: "NSColor")
/// color?.components  // [0.98, 0.0, 0.03]
/// ```
package final class NSColorStandIn: NSObject, PlatformStandIn {
  /// `NSColor`.
  package static let platformClassName = "NSColor"
  /// Whether the class adopts secure coding: `true`, as NSColor does.
  package static var supportsSecureCoding: Bool { true }

  /// The archived color space code (`NSColorSpace`).
  package let colorSpace: Int
  /// The components, alpha last when archived: RGB(A), white(A) or CMYK(A).
  package let components: [Double]
  /// A named color's catalog, such as `System`.
  package let catalogName: String?
  /// A named color's name, such as `controlColor`.
  package let colorName: String?
  /// The custom color space, when the color has one.
  package let customColorSpace: NSColorSpaceStandIn?

  /// Reads AppKit's archived form.
  ///
  /// - Parameter coder: The unarchiver.
  package required init?(coder: NSCoder) {
    let reader = StandInReader(coder: coder, className: Self.platformClassName)
    guard let space = reader.integer("NSColorSpace", required: true) else { return nil }
    colorSpace = space
    var catalog: String? = nil
    var name: String? = nil
    var values: [Double] = []
    switch space {
    case 1, 2: values = reader.numberList("NSRGB", counts: 3...4) ?? []
    case 3, 4: values = reader.numberList("NSWhite", counts: 1...2) ?? []
    case 5: values = reader.numberList("NSCMYK", counts: 4...5) ?? []
    case 6:
      catalog = reader.string("NSCatalogName", required: true)
      name = reader.string("NSColorName", required: true)
    default:
      reader.fail(
        "NSColorSpace", .malformed,
        "NSColorSpace \(space) is not a form the stand-in reads (1-5 components, 6 named)")
    }
    catalogName = catalog
    colorName = name
    components = values
    customColorSpace = reader.object("NSCustomColorSpace", of: NSColorSpaceStandIn.self)
    guard !reader.failed else { return nil }
    super.init()
  }

  /// Writes AppKit's archived form.
  package func encode(with coder: NSCoder) {
    coder.encode(Int32(colorSpace), forKey: "NSColorSpace")
    let text = components.map { String($0) }.joined(separator: " ")
    let key: String? =
      switch colorSpace {
      case 1, 2: "NSRGB"
      case 3, 4: "NSWhite"
      case 5: "NSCMYK"
      default: nil
      }
    if let key {
      let bytes = Array(text.utf8)
      bytes.withUnsafeBufferPointer {
        coder.encodeBytes($0.baseAddress, length: $0.count, forKey: key)
      }
    }
    if let catalogName { coder.encode(catalogName as NSString, forKey: "NSCatalogName") }
    if let colorName { coder.encode(colorName as NSString, forKey: "NSColorName") }
    if let customColorSpace { coder.encode(customColorSpace, forKey: "NSCustomColorSpace") }
  }

  /// `colorSpace`, then `red`/`green`/`blue`, `white` or `cyan`/`magenta`/`yellow`/`black`,
  /// `alpha` when archived, or `catalogName` and `colorName`.
  package var standInFields: [(key: String, value: Any?)] {
    var fields: [(key: String, value: Any?)] = [("colorSpace", colorSpace)]
    let names: [String] =
      switch colorSpace {
      case 1, 2: ["red", "green", "blue", "alpha"]
      case 3, 4: ["white", "alpha"]
      case 5: ["cyan", "magenta", "yellow", "black", "alpha"]
      default: []
      }
    for (name, value) in zip(names, components) { fields.append((name, value)) }
    if let catalogName { fields.append(("catalogName", catalogName)) }
    if let colorName { fields.append(("colorName", colorName)) }
    if let customColorSpace { fields.append(("customColorSpace", customColorSpace)) }
    return fields
  }
}
