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
