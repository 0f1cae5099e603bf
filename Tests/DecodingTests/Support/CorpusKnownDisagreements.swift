/// Known disagreements between the harness coder and the Foundation reference path over the
/// shared corpus, each with its reason; a listed pair that agrees fails as an unexpected pass.
///
/// Measured with swift-corelibs-foundation of Swift 6.3.1 on Linux.
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
    ] + unkeyedSecureReads

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
