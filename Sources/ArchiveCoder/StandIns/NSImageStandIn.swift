import Foundation

/// A stand-in for AppKit's `NSImage`, read from `NSName`, `NSSize` (a size string such as
/// `{32, 32}`) and `NSImageFlags`.
///
/// The image representations AppKit archives under `NSReps` are not read.
///
/// ```swift
/// let image = coder.decodeObject(of: NSImageStandIn.self, forKey: "icon")
/// image?.width  // 32.0
/// ```
package final class NSImageStandIn: NSObject, PlatformStandIn {
  /// `NSImage`.
  package static let platformClassName = "NSImage"
  /// Whether the class adopts secure coding: `true`, as NSImage does.
  package static var supportsSecureCoding: Bool { true }

  /// The image's name, for an image archived by name.
  package let name: String?
  /// The width, from `NSSize`.
  package let width: Double?
  /// The height, from `NSSize`.
  package let height: Double?
  /// The archived flags.
  package let flags: Int?

  /// Reads AppKit's archived form.
  ///
  /// - Parameter coder: The unarchiver.
  package required init?(coder: NSCoder) {
    let reader = StandInReader(coder: coder, className: Self.platformClassName)
    name = reader.string("NSName")
    flags = reader.integer("NSImageFlags")
    var size: (Double, Double)? = nil
    if let text = reader.string("NSSize", maximumLength: GeometryString.maximumLength) {
      size = GeometryString.pair(text)
      if size == nil {
        reader.fail(
          "NSSize", .malformed, "'\(text.prefix(80))' is not a size string such as {32, 32}")
      }
    }
    width = size?.0
    height = size?.1
    guard !reader.failed else { return nil }
    super.init()
  }

  /// Writes AppKit's archived form.
  package func encode(with coder: NSCoder) {
    if let name { coder.encode(name as NSString, forKey: "NSName") }
    if let width, let height {
      coder.encode("{\(width), \(height)}" as NSString, forKey: "NSSize")
    }
    if let flags { coder.encode(Int32(truncatingIfNeeded: flags), forKey: "NSImageFlags") }
  }

  /// `name`, `width`, `height` and `flags`, when set.
  package var standInFields: [(key: String, value: Any?)] {
    var fields: [(key: String, value: Any?)] = []
    if let name { fields.append(("name", name)) }
    if let width, let height { fields += [("width", width), ("height", height)] }
    if let flags { fields.append(("flags", flags)) }
    return fields
  }
}
