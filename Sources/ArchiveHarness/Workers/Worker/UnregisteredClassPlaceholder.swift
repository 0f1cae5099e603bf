import ArchiveCoder
import Foundation

/// The class Foundation's unarchiver is given for archived names the registry does not match.
///
/// Its decoder fails, so Foundation never looks such a name up by itself (`NSClassFromString`
/// would find any class linked into the binary, including ones the app no longer has).
final class UnregisteredClassPlaceholder: NSObject, NSSecureCoding {
  static let supportsSecureCoding = true

  /// The `NSDebugDescription` text its failure carries, so the worker can recognise it.
  static let failureMarker = "archive-harness: unregistered class placeholder"

  init?(coder: NSCoder) {
    coder.failWithError(
      NSError(
        domain: NSCocoaErrorDomain, code: CocoaError.coderReadCorrupt.rawValue,
        userInfo: [NSDebugDescriptionErrorKey: UnregisteredClassPlaceholder.failureMarker]))
    return nil
  }

  func encode(with coder: NSCoder) {}
}
