import Foundation

/// The model classes of the Notes app's version 1.0.
///
/// ```swift
/// let registry = ClassRegistry(modelClasses: NotesV1Model.classes)
/// ```
public enum NotesV1Model {
  /// Every model class of the module.
  public static let classes: [NSObject.Type] = [
    Note.self, Attachment.self, Notebook.self, SyncSession.self,
  ]
}
