import PropertyList

/// A class description in `$objects`: `$classname` and the superclass chain `$classes` that the archive claims.
///
/// The chain is whatever the archive says. It is attacker-controlled and must
/// never decide what a secure decode allows.
public struct ArchiveClass: Hashable, Sendable {
  /// The archived class name (`$classname`), such as `NSMutableArray` or `ProfilesApp.UserProfile`.
  public var name: String
  /// The archived chain (`$classes`), the class itself first; empty when the archive gives none.
  public var chain: [String]
  /// Other keys of the description, such as `$classhints`, kept for writing back.
  public var extra: PropertyListDictionary

  /// Creates a class description.
  public init(
    name: String, chain: [String], extra: PropertyListDictionary = PropertyListDictionary()
  ) {
    self.name = name
    self.chain = chain
    self.extra = extra
  }
}

/// An archived instance: a reference to its class description and its keyed fields.
public struct ArchiveInstance: Hashable, Sendable {
  /// The index in `$objects` of the class description.
  public var classIndex: Int
  /// The class description, resolved.
  public var archiveClass: ArchiveClass
  /// The fields other than `$class`, in archive order; UIDs in them are validated references.
  public var fields: PropertyListDictionary

  /// Creates an instance.
  public init(classIndex: Int, archiveClass: ArchiveClass, fields: PropertyListDictionary) {
    self.classIndex = classIndex
    self.archiveClass = archiveClass
    self.fields = fields
  }

  /// The archived class name.
  public var className: String { archiveClass.name }
}

/// One entry of `$objects`.
public enum ArchiveObject: Hashable, Sendable {
  /// The `$null` placeholder (index 0).
  case null
  /// A value stored directly: a string, number, data, date or bool.
  case value(PropertyListValue)
  /// An instance of a class.
  case instance(ArchiveInstance)
  /// A class description.
  case classDescription(ArchiveClass)
}
