import Foundation

/// A stand-in for AppKit's `NSColorSpace` as `NSColor` archives a custom color space: `NSID`
/// and the ICC profile bytes `NSICC`.
///
/// ```swift
/// let space = coder.decodeObject(of: NSColorSpaceStandIn.self, forKey: "NSCustomColorSpace")
/// space?.identifier  // 7
/// ```
package final class NSColorSpaceStandIn: NSObject, PlatformStandIn {
  /// `NSColorSpace`.
  package static let platformClassName = "NSColorSpace"
  /// Whether the class adopts secure coding: `true`, as NSColorSpace does.
  package static var supportsSecureCoding: Bool { true }

  /// The archived color space identifier (`NSID`).
  package let identifier: Int?
  /// The ICC profile (`NSICC`).
  package let iccProfile: Data?

  /// Reads AppKit's archived form.
  ///
  /// - Parameter coder: The unarchiver.
  package required init?(coder: NSCoder) {
    let reader = StandInReader(coder: coder, className: Self.platformClassName)
    identifier = reader.integer("NSID")
    iccProfile = reader.data("NSICC")
    guard !reader.failed else { return nil }
    super.init()
  }

  /// Writes AppKit's archived form.
  package func encode(with coder: NSCoder) {
    if let identifier { coder.encode(identifier, forKey: "NSID") }
    if let iccProfile { coder.encode(iccProfile as NSData, forKey: "NSICC") }
  }

  /// `identifier` and the ICC profile's byte count.
  package var standInFields: [(key: String, value: Any?)] {
    [("identifier", identifier), ("iccProfileLength", iccProfile?.count)]
  }
}
