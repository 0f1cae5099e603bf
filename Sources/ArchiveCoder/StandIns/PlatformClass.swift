import Foundation

/// An Apple-platform class that a registry can declare: the real class where the runtime has it,
/// and its `PlatformStandIn` on Linux.
///
/// ```swift
/// let registry = ClassRegistry(modelClasses: [Note.self], platformClasses: [.uiColor])
/// registry.registeredClass(named: "UIColor")?.isStandIn  // true on Linux
/// ```
public enum PlatformClass: String, Sendable, CaseIterable, Hashable {
  /// UIKit's `UIColor`.
  case uiColor = "UIColor"
  /// AppKit's `NSColor`.
  case nsColor = "NSColor"
  /// AppKit's `NSColorSpace`, which `NSColor` archives for a custom color space.
  case nsColorSpace = "NSColorSpace"
  /// UIKit's `UIFont`.
  case uiFont = "UIFont"
  /// AppKit's `NSFont`.
  case nsFont = "NSFont"
  /// Core Location's `CLLocation`.
  case clLocation = "CLLocation"
  /// UIKit's `UIImage`.
  case uiImage = "UIImage"
  /// AppKit's `NSImage`.
  case nsImage = "NSImage"

  /// The real class's name, as archives spell it.
  public var className: String { rawValue }

  /// The stand-in that takes the class's place where the runtime does not have it.
  package var standInType: any PlatformStandIn.Type {
    switch self {
    case .uiColor: UIColorStandIn.self
    case .nsColor: NSColorStandIn.self
    case .nsColorSpace: NSColorSpaceStandIn.self
    case .uiFont: UIFontStandIn.self
    case .nsFont: NSFontStandIn.self
    case .clLocation: CLLocationStandIn.self
    case .uiImage: UIImageStandIn.self
    case .nsImage: NSImageStandIn.self
    }
  }

  /// The class a registry holds: the real class when this process has it (macOS with AppKit
  /// loaded, for the AppKit classes), otherwise the stand-in.
  ///
  /// On Darwin the answer depends on which frameworks the process has loaded, so there the
  /// stand-in tests change: PlatformStandInTests runs only where every class is a stand-in.
  public var registeredType: NSObject.Type {
    #if canImport(Darwin)
      if let real = NSClassFromString(rawValue) as? NSObject.Type,
        !(real is any PlatformStandIn.Type)
      {
        return real
      }
    #endif
    return standInType
  }
}
