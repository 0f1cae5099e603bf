import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Which Foundation these tests run against, for the suites that pin one implementation's
/// behaviour.
enum FoundationImplementation {
  /// Whether Foundation here is swift-corelibs-foundation (Linux), not Apple's (Darwin).
  static let isCorelibs: Bool = {
    #if canImport(Darwin)
      false
    #else
      true
    #endif
  }()

  /// Whether Foundation here has macOS's geometry NSValue forms and NSAffineTransform: macOS
  /// and corelibs do; iOS's geometry values are UIKit's.
  static let hasMacOSGeometry: Bool = {
    #if os(macOS) || !canImport(Darwin)
      true
    #else
      false
    #endif
  }()

  /// Whether a worker's crash signal is Foundation refusing to go on: corelibs' `fatalError`
  /// traps (SIGILL, or SIGTRAP); on Darwin an Objective-C exception aborts (SIGABRT).
  static func isTrap(_ signal: Int32) -> Bool {
    #if canImport(Darwin)
      // Unverified here: no Mac. An uncaught NSException ends in abort().
      return signal == SIGABRT || signal == SIGILL || signal == SIGTRAP
    #else
      return signal == SIGILL || signal == SIGTRAP
    #endif
  }
}
