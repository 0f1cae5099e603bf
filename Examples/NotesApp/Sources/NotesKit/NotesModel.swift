import Foundation

/// The model classes of the Notes app's version 2 and the classes its reads declare.
///
/// ```swift
/// let configuration = HarnessConfiguration(modelClasses: NotesModel.classes)
/// ```
public enum NotesModel {
  /// Every model class of the module, for a decode registry.
  public static let classes: [NSObject.Type] = [
    Note.self, FileAttachment.self, Notebook.self, SyncSession.self,
  ]

  /// The classes the app's read of a note or notebook file declares.
  public static let allowedClasses: [AnyClass] = [Notebook.self, Note.self, NSArray.self]
}
