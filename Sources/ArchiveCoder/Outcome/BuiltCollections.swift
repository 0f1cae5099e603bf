import Foundation

/// What a harness decode built for its collections, read without Foundation's bridging.
///
/// corelibs bridges every value that `object(forKey:)` or iteration hands out, and traps
/// bridging a dictionary whose keys are arrays. A decode keeps the keys, values and elements
/// it built, so that describing, re-encoding and comparing its objects read those instead.
///
/// ```swift
/// var describer = ObjectDescriber()
/// describer.built = result.builtCollections
/// let value = describer.describe(result.object)
/// ```
package struct BuiltCollections {
  /// The entries a decode built for a dictionary, in archive order; `nil` for one it did not build.
  package var entries: (NSDictionary) -> [(key: NSObject, value: AnyObject)]?
  /// The elements a decode built for an array, set or ordered set; `nil` for one it did not build.
  package var elements: (AnyObject) -> [AnyObject]?

  /// Creates a lookup from its two readers.
  package init(
    entries: @escaping (NSDictionary) -> [(key: NSObject, value: AnyObject)]?,
    elements: @escaping (AnyObject) -> [AnyObject]?
  ) {
    self.entries = entries
    self.elements = elements
  }

  /// No built contents: every collection is read through Foundation.
  package static var none: BuiltCollections {
    BuiltCollections(entries: { _ in nil }, elements: { _ in nil })
  }
}
