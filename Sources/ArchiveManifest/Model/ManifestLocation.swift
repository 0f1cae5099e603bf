import ArchiveFormat

/// The place of a manifest element; now the one ``Place`` type every error and finding uses.
///
/// ```swift
/// let place: Place = Place(file: "manifests/Notes-1.0.xml", line: 14, column: 5)
/// ```
@available(*, deprecated, renamed: "Place")
package typealias ManifestLocation = Place
