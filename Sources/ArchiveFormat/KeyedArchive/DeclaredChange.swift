/// A difference between a historical archive and what the current code writes that the team
/// made on purpose, so that conservation accepts it.
///
/// Each names a field of a class by the class's current (mapped) name.
///
/// ```swift
/// let pinned = DeclaredChange(className: "NotesKit.Notebook", key: "pinned", .converted)
/// let check = ConservationCheck(registry: registry, declaredChanges: [pinned])
/// ```
public struct DeclaredChange: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What the current code does with the field.
  public enum Change: Sendable, Hashable, Codable {
    /// The field is written under another key.
    case renamed(to: String)
    /// The field is no longer written, for a reason.
    case dropped(reason: String)
    /// The field's value is converted to another type; the value is not compared.
    case converted
    /// The field is given a default in place of the archived value; the value is not compared.
    case defaulted
  }

  /// The class, by its current name: `NotesKit.Notebook`.
  public var className: String
  /// The archived field's key.
  public var key: String
  /// What the current code does with it.
  public var change: Change

  /// Declares a change.
  public init(className: String, key: String, _ change: Change) {
    self.className = className
    self.key = key
    self.change = change
  }

  /// The change as manifests and reports word it: `NotesKit.Notebook.pinned converted`.
  public var description: String {
    let what: String
    switch change {
    case .renamed(let key): what = "renamed to \(key)"
    case .dropped(let reason): what = "dropped (\(reason))"
    case .converted: what = "converted"
    case .defaulted: what = "defaulted"
    }
    return "\(className).\(key) \(what)"
  }
}
