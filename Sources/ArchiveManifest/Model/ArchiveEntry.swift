import ArchiveFormat

/// One archive file of a manifest, with its checksum, expected outcomes and field expectations.
package struct ArchiveEntry: Sendable {
  /// The path relative to the archives folder, as written.
  package var path: String
  /// The expected SHA-256 of the file, in lowercase hexadecimal.
  package var sha256: String
  /// The largest size, in bytes, the file may have before decoding is refused.
  package var maxSize: Int?
  /// The `$top` key whose object the key paths start from: the `topKey` attribute, else the
  /// first of ``decodeKeys``.
  package var topKey: String
  /// The `$top` keys the app reads, in order (`root` unless stated); each decode path reads
  /// every one with one unarchiver.
  package var decodeKeys: [String]
  /// The named registry the entry decodes with (`registry="v1"`), or nil for the app's
  /// current classes.
  package var registry: String?
  /// The allowed classes for this archive, overriding the manifest's.
  package var allowedClasses: [Manifest.ClassReference]?
  /// The root class for this archive, overriding the manifest's.
  package var rootClass: Manifest.ClassReference?
  /// The expected outcome of each decode path that the entry names.
  package var outcomes: [OutcomeExpectation]
  /// The field expectations, in document order.
  package var expectations: [FieldExpectation]
  /// The values the privacy scan reports that a person has reviewed, in document order.
  package var reviewed: [ReviewedValue]
  /// Where the entry's start tag begins.
  package var location: Place
  /// Where the `path` attribute was written.
  package var pathLocation: Place
  /// Where the `sha256` attribute was written.
  package var sha256Location: Place
  /// The Keychain item whose data is the archive, when ``path`` is a Keychain snapshot.
  ///
  /// Its key path as written (`genericPassword."com.example.auth".alice`); `nil` for a file
  /// entry. ``sha256`` is then the item's data's.
  package var keychainItem: String?
  /// Where the `keychainItem` attribute was written.
  package var keychainItemLocation: Place

  /// Creates an entry.
  package init(
    path: String, sha256: String, maxSize: Int? = nil, topKey: String = "root",
    decodeKeys: [String] = ["root"], allowedClasses: [Manifest.ClassReference]? = nil,
    rootClass: Manifest.ClassReference? = nil,
    outcomes: [OutcomeExpectation] = [], expectations: [FieldExpectation] = [],
    reviewed: [ReviewedValue] = [], location: Place,
    pathLocation: Place? = nil,
    sha256Location: Place? = nil, registry: String? = nil, keychainItem: String? = nil,
    keychainItemLocation: Place? = nil
  ) {
    self.keychainItem = keychainItem
    self.keychainItemLocation = keychainItemLocation ?? location
    self.registry = registry
    self.path = path
    self.sha256 = sha256
    self.maxSize = maxSize
    self.topKey = topKey
    self.decodeKeys = decodeKeys
    self.allowedClasses = allowedClasses
    self.rootClass = rootClass
    self.outcomes = outcomes
    self.expectations = expectations
    self.reviewed = reviewed
    self.location = location
    self.pathLocation = pathLocation ?? location
    self.sha256Location = sha256Location ?? location
  }

  /// What reports name the entry's case by, and the shard key: ``path``, or
  /// `SNAPSHOT:CLASS.SERVICE.ACCOUNT` for a Keychain item's entry.
  package var caseName: String {
    keychainItem.map { "\(path):\($0)" } ?? path
  }

  /// Returns the expected outcome for a decode path, if the entry names one.
  ///
  /// A manifest can name ``DecodePath/legacy``, ``DecodePath/secure`` and, by
  /// its `foundation` element, ``DecodePath/foundationSecure``.
  package func outcome(for path: DecodePath) -> OutcomeExpectation? {
    outcomes.first { $0.path == path }
  }
}

extension DecodePath {
  /// The decode paths a manifest entry can state an outcome for, in schema order.
  public static let manifestPaths: [DecodePath] = [.legacy, .secure, .foundationSecure]

  /// The element a manifest entry states this path's outcome with: `legacy`, `secure` or
  /// `foundation`; `nil` for Foundation's legacy path, which manifests do not name.
  public var manifestElementName: String? {
    switch self {
    case .legacy: "legacy"
    case .secure: "secure"
    case .foundationSecure: "foundation"
    case .foundationLegacy: nil
    }
  }

  /// The path whose outcome a manifest element states.
  ///
  /// - Parameter manifestElementName: `legacy`, `secure` or `foundation`.
  public init?(manifestElementName: String) {
    guard
      let path = Self.manifestPaths.first(where: { $0.manifestElementName == manifestElementName })
    else { return nil }
    self = path
  }
}
