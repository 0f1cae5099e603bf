import ArchiveFormat

/// A value the privacy scan reports that a person checked and found not to be personal data: `<reviewed keyPath=… reason=…/>`.
///
/// ```xml
/// <archive path="MyApp-3.2/settings.archive" sha256="…">
///   <reviewed keyPath="support" detector="email" reason="the app's public support address"/>
/// </archive>
/// ```
package struct ReviewedValue: Sendable, Hashable {
  /// The key path as written.
  package var keyPathText: String
  /// The parsed key path, starting at the entry's `topKey`; nil when it does not parse.
  package var keyPath: ArchiveKeyPath?
  /// The detector the review applies to (`email`, `phone`, …); every detector when nil.
  package var detector: String?
  /// Why the value is not personal data.
  package var reason: String
  /// Where the element was written.
  package var location: Place

  /// Creates a review.
  package init(
    keyPathText: String, keyPath: ArchiveKeyPath?, detector: String? = nil, reason: String,
    location: Place
  ) {
    self.keyPathText = keyPathText
    self.keyPath = keyPath
    self.detector = detector
    self.reason = reason
    self.location = location
  }
}
