import ArchiveFormat

/// What a store check of a manifest found: a Keychain item the new app's queries would no
/// longer find, or a Core Data attribute whose transformer or rows differ from the pin.
///
/// A store check is verified as a case of its own (``VerificationCase/paths`` is empty); its
/// findings are ``VerificationCase/storeFindings``, and one that is an error fails the case.
///
/// ```swift
/// let finding = StoreFinding(
///   .keychainSnapshot, .error, at: Place(file: "keychain.json", line: 0, column: 0),
///   "no Keychain query of the manifest finds this item")
/// print("\(finding.place): \(finding.severity): [\(finding.check)] \(finding.message)")
/// ```
package struct StoreFinding: Sendable, Hashable {
  /// The store checks a manifest can declare.
  package enum Check: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A `<keychainSnapshot>`: its items against the manifest's `<keychainQuery>`s, and its
    /// items that hold archives against the manifest's `<archive keychainItem>` entries.
    case keychainSnapshot = "keychain-snapshot"
    /// A `<coreDataAttribute>` pin: the model's transformer and the store's rows.
    case coreDataAttribute = "core-data-attribute"

    /// The check's name in reports.
    package var description: String { rawValue }
  }

  /// The check that found it.
  package var check: Check
  /// An error fails the case; a warning is reported only.
  package var severity: Severity
  /// The item, row or manifest element it concerns.
  package var place: Place
  /// The finding in a sentence, with what to do about it.
  package var message: String

  /// Creates a finding.
  package init(_ check: Check, _ severity: Severity, at place: Place, _ message: String) {
    self.check = check
    self.severity = severity
    self.place = place
    self.message = message
  }
}
