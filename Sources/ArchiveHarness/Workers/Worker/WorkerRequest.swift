import ArchiveCoder
import ArchiveFormat
import Foundation

/// One archive for a decode worker: the bytes, the path, and the read's classes and mapping.
package struct WorkerRequest: Sendable, Hashable, Codable {
  /// A number the response echoes.
  package var id: Int
  /// The decode path to run.
  package var path: DecodePath
  /// The name of the worker's registry to decode with.
  package var registryName: String
  /// The archive's bytes.
  package var archive: Data
  /// The runtime names of the classes the secure read allows, such as `ProfileKit.Memo`.
  package var allowedClasses: [String]
  /// The class-name map applied to the archive's class names.
  package var classMap: ClassNameMap
  /// Whether archived names that match no registered class are handed to Foundation as a
  /// placeholder class that fails to decode (the default), rather than looked up by Foundation.
  package var guardsUnmappedClasses: Bool
  /// How a Foundation path calls the unarchiver; `nil` means `FoundationReferenceVariant.standard`.
  package var variant: FoundationReferenceVariant?
  /// Whether to answer with the harness paths' `DifferentialAdvice` (its message as the one
  /// note, the secure outcome as the outcome) instead of one path's outcome; `nil` means no.
  package var advice: Bool?
  /// The `$top` keys the app reads, in order; `nil` means `root` alone.
  package var topKeys: [String]?

  /// Creates a request.
  ///
  /// - Parameters:
  ///   - id: A number the response echoes.
  ///   - path: The decode path to run.
  ///   - registryName: The name of the worker's registry to decode with.
  ///   - archive: The archive's bytes.
  ///   - allowedClasses: The runtime names of the classes the secure read allows.
  ///   - classMap: The class-name map applied to the archive's class names.
  ///   - guardsUnmappedClasses: Whether unmatched archived names reach Foundation as a failing
  ///     placeholder.
  ///   - variant: How a Foundation path calls the unarchiver.
  ///   - advice: Whether to answer with the differential advice instead.
  ///   - topKeys: The `$top` keys the app reads; `nil` means `root` alone.
  package init(
    id: Int, path: DecodePath, registryName: String, archive: Data, allowedClasses: [String],
    classMap: ClassNameMap, guardsUnmappedClasses: Bool = true,
    variant: FoundationReferenceVariant? = nil, advice: Bool? = nil, topKeys: [String]? = nil
  ) {
    self.id = id
    self.path = path
    self.registryName = registryName
    self.archive = archive
    self.allowedClasses = allowedClasses
    self.classMap = classMap
    self.guardsUnmappedClasses = guardsUnmappedClasses
    self.variant = variant
    self.advice = advice
    self.topKeys = topKeys
  }

  /// The keys to read: ``topKeys``, or `root`.
  package var keys: [String] {
    guard let topKeys, !topKeys.isEmpty else { return ["root"] }
    return topKeys
  }
}
