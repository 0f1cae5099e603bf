import Foundation

/// A class that takes the place of an Apple-platform class that does not exist on Linux, such
/// as `UIColor` or `CLLocation`, so that archives holding one can be verified there.
///
/// A stand-in reads the real class's archived form, validating every key it reads, and counts
/// for secure coding as the real class: it is registered under the real class's name with the
/// real superclass chain (`NSObject` for every stand-in here). Reports mark each decoded stand-in
/// with a `$standIn` field. A model that holds the real class on Apple platforms names the
/// stand-in on Linux:
///
/// ```swift
/// #if canImport(UIKit)
///   typealias PlatformColor = UIColor
/// #else
///   typealias PlatformColor = UIColorStandIn
/// #endif
/// let color = coder.decodeObject(of: PlatformColor.self, forKey: "tint")
/// ```
package protocol PlatformStandIn: NSObject, NSSecureCoding {
  /// The Apple-platform class this stands in for, such as `UIColor`.
  static var platformClassName: String { get }

  /// The values read, by the names expectations and reports use, such as `red` or `latitude`.
  var standInFields: [(key: String, value: Any?)] { get }
}
