import Foundation

/// A stand-in for AppKit's `NSFont`, read from `NSName`, `NSSize` and `NSfFlags`.
///
/// ```swift
/// let font = coder.decodeObject(of: NSFontStandIn.self, forKey: "NSFont")
/// font?.name  // "Helvetica"
/// ```
package final class NSFontStandIn: NSObject, PlatformStandIn {
  /// `NSFont`.
  package static let platformClassName = "NSFont"
  /// Whether the class adopts secure coding: `true`, as NSFont does.
  package static var supportsSecureCoding: Bool { true }

  /// The font's PostScript name.
  package let name: String
  /// The point size.
  package let pointSize: Double
  /// The font flags AppKit archives (`NSfFlags`).
  package let flags: Int?

  /// Reads AppKit's archived form.
  ///
  /// - Parameter coder: The unarchiver.
  package required init?(coder: NSCoder) {
    let reader = StandInReader(coder: coder, className: Self.platformClassName)
    let name = reader.string("NSName", required: true)
    pointSize = reader.double("NSSize", in: 0...100_000) ?? 0
    flags = reader.integer("NSfFlags")
    guard let name, !reader.failed else { return nil }
    self.name = name
    super.init()
  }

  /// Writes AppKit's archived form.
  package func encode(with coder: NSCoder) {
    coder.encode(name as NSString, forKey: "NSName")
    coder.encode(pointSize, forKey: "NSSize")
    if let flags { coder.encode(Int32(truncatingIfNeeded: flags), forKey: "NSfFlags") }
  }

  /// `name`, `pointSize` and `flags`, when set.
  package var standInFields: [(key: String, value: Any?)] {
    var fields: [(key: String, value: Any?)] = [("name", name), ("pointSize", pointSize)]
    if let flags { fields.append(("flags", flags)) }
    return fields
  }
}
