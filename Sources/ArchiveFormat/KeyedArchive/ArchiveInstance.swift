/// An archived instance: a reference to its class description and its keyed fields.
package struct ArchiveInstance: Hashable, Sendable {
  /// The index in `$objects` of the class description.
  package var classIndex: Int
  /// The class description, resolved.
  package var archiveClass: ArchiveClass
  /// The fields other than `$class`, in archive order; UIDs in them are validated references.
  package var fields: PropertyListDictionary

  /// Creates an instance.
  package init(classIndex: Int, archiveClass: ArchiveClass, fields: PropertyListDictionary) {
    self.classIndex = classIndex
    self.archiveClass = archiveClass
    self.fields = fields
  }

  /// The archived class name.
  package var className: String { archiveClass.name }
}
