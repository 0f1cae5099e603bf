/// How urgent a note is; version 1 stored it as a word, version 2 as this number.
///
/// ```swift
/// Priority(archivedWord: "high")  // .high
/// Priority.high.rawValue           // 2
/// ```
public enum Priority: Int, Sendable, CaseIterable {
  /// Can wait.
  case low = 0
  /// The default.
  case normal = 1
  /// Needs attention.
  case high = 2

  /// Reads the word version 1 archived (`low`, `normal`, `high`).
  ///
  /// - Parameter archivedWord: The word as archived.
  public init?(archivedWord: String) {
    switch archivedWord {
    case "low": self = .low
    case "normal": self = .normal
    case "high": self = .high
    default: return nil
    }
  }
}
