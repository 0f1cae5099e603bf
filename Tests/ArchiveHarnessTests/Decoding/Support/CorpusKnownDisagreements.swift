/// Known disagreements between the harness coder and the Foundation reference path over the
/// shared corpus, each with its reason; a listed pair that agrees fails as an unexpected pass.
///
/// Measured with swift-corelibs-foundation of Swift 6.3.1 on Linux; the comparison runs only
/// where Foundation is corelibs (``FoundationImplementation/isCorelibs``).
enum CorpusKnownDisagreements {
  struct Entry: Hashable {
    let path: String
    let mode: String
    let reason: String
  }

  static let entries: [Entry] =
    [
      Entry(
        path: "michaelwright235-nskeyedunarchiver/circularReference.plist", mode: "legacy",
        reason: "corelibs recurses into the self-containing array until SIGSEGV; the harness "
          + "reports a cycle"),
      Entry(
        path: "michaelwright235-nskeyedunarchiver/circularReference.plist", mode: "secure",
        reason: "as legacy: corelibs SIGSEGV, harness cycle"),
      Entry(
        path: "bpylist2/nsmutabledata_archive.plist", mode: "legacy",
        reason: "NS.data is a UID to a data object; corelibs' NSData init(coder:) reads it only "
          + "inline and fails, the harness follows the reference"),
      Entry(
        path: "bpylist2/nsmutabledata_archive.plist", mode: "secure",
        reason: "as legacy: corelibs NSData does not follow a UID in NS.data"),
      Entry(
        path: "michaelwright235-nskeyedunarchiver/NSAffineTransform.plist", mode: "legacy",
        reason: "Apple writes the matrix as NSTransformStruct, six big-endian floats; corelibs "
          + "reads only its own old-style array and fails, the harness reads NSTransformStruct"),
      Entry(
        path: "michaelwright235-nskeyedunarchiver/NSAffineTransform.plist", mode: "secure",
        reason: "as legacy: corelibs cannot read NSTransformStruct"),
      Entry(
        path: "swift-corelibs-foundation/NSKeyedUnarchiver-NotificationTest.plist",
        mode: "legacy",
        reason: "corelibs' NSNotification init(coder:) leaves NS.userinfo unread (commented out "
          + "in its source); Apple's reads it, and so does the harness"),
      Entry(
        path: "swift-corelibs-foundation/macOS-10.14/DateIntervalFormatter-Default.archive",
        mode: "legacy", reason: dateTemplateFromStyles),
      Entry(
        path:
          "swift-corelibs-foundation/macOS-10.14/DateIntervalFormatter-ValuesSetWithTemplate.archive",
        mode: "legacy", reason: dateTemplateFromStyles),
      Entry(
        path:
          "swift-corelibs-foundation/macOS-10.14/DateIntervalFormatter-ValuesSetWithoutTemplate.archive",
        mode: "legacy", reason: dateTemplateFromStyles),
    ] + unkeyedSecureReads + notSecureCodingReads

  /// Why a decoded NSDateIntervalFormatter differs: derived state, not archived state.
  static let dateTemplateFromStyles =
    "NS.dateTemplateFromStyles is derived from the styles: corelibs' decode leaves it unset, "
    + "the harness's formatter, built through the public setters, derives it again"

  /// The archives whose root class does not adopt NSSecureCoding, on Apple's platforms or in
  /// corelibs: Apple's secure read refuses them, and so does the harness, while corelibs traps.
  static let notSecureCodingReads: [Entry] = [
    "NSKeyedUnarchiver-NotificationTest.plist",
    "macOS-10.14/ByteCountFormatter-AllFieldsSet.archive",
    "macOS-10.14/ByteCountFormatter-Default.archive",
    "macOS-10.14/DateIntervalFormatter-Default.archive",
    "macOS-10.14/DateIntervalFormatter-ValuesSetWithTemplate.archive",
    "macOS-10.14/DateIntervalFormatter-ValuesSetWithoutTemplate.archive",
  ].map {
    Entry(
      path: "swift-corelibs-foundation/" + $0, mode: "secure",
      reason: "corelibs traps (SIGILL) on a class without NSSecureCoding under secure coding; "
        + "the harness rejects it as not-secure-coding, as Apple's unarchiver does")
  }

  /// The unkeyed archives whose secure read traps in corelibs.
  ///
  /// Unkeyed encoding keeps objects under `$0`, `$1`, …; an app reads them with unkeyed
  /// decodeObject(), which corelibs runs under secure coding only until a value is an object,
  /// then traps in its allowed-classes check (SIGILL). The harness reads each key as a
  /// decodeObject(of:forKey:) call would.
  static let unkeyedSecureReads: [Entry] = [
    "arrays.bin", "arrays.xml", "dict.bin", "dict.xml", "nestedarrays.bin", "nestedarrays.xml",
  ].map {
    Entry(
      path: "danielpaulus-nskeyedarchiver/" + $0, mode: "secure",
      reason: "corelibs traps reading $N keys unkeyed under secure coding; the harness decodes")
  }

  static func reason(path: String, mode: String) -> String? {
    entries.first { $0.path == path && $0.mode == mode }?.reason
  }
}
