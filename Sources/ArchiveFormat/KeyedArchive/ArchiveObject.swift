/// One entry of `$objects`.
package enum ArchiveObject: Hashable, Sendable {
  /// The `$null` placeholder (index 0).
  case null
  /// A value stored directly: a string, number, data, date or bool.
  case value(PropertyListValue)
  /// An instance of a class.
  case instance(ArchiveInstance)
  /// A class description.
  case classDescription(ArchiveClass)
}
