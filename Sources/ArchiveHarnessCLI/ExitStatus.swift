/// The process exit statuses every command uses.
///
/// `diff` and `cmp` set the precedent: 1 means "ran, and found differences",
/// 2 means "could not run". swift-argument-parser's 64 for usage errors is
/// folded into 2 so that CI scripts have one status for "fix the invocation".
package enum ExitStatus: Int32, Sendable {
  /// Everything passed or was applied.
  case success = 0
  /// The run finished with findings: a mismatch, a rejection, a refusal.
  case findings = 1
  /// The run could not proceed: bad arguments, unreadable or malformed input, an internal error.
  case unusable = 2

  /// The `EXIT STATUS` help section shared by most commands.
  static let standardHelp = """
      0  success: everything passed or was applied
      1  the run finished with findings (a mismatch, a rejection, a refusal)
      2  the run could not proceed (bad arguments, unreadable or malformed input)
    """
}
