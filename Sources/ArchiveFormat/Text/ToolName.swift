/// The running tool's name, as reports, page titles and hints write it.
///
/// A team's own harness executable (`profile-harness`, built on the library) names itself;
/// the command line resolves the name once, from the last path component of `argv[0]`, and
/// passes it to whatever writes it, as a `toolName: String` parameter. Library code never
/// reads `CommandLine.arguments` for it.
///
/// ```swift
/// ToolName.resolve(fromArgumentZero: "/opt/team/bin/profile-harness")  // "profile-harness"
/// ToolName.resolve(fromArgumentZero: nil)                              // "archive-harness"
/// ```
package enum ToolName {
  /// The shipped tool's name, used when no other is known.
  package static let standard = "archive-harness"

  /// The tool's name from `argv[0]`: its last path component, or ``standard`` when there is
  /// none.
  ///
  /// - Parameter argumentZero: The first command-line argument, if any.
  /// - Returns: The name to write.
  package static func resolve(fromArgumentZero argumentZero: String?) -> String {
    guard let argumentZero,
      let last = argumentZero.split(separator: "/").last.map(String.init), !last.isEmpty
    else { return standard }
    return last
  }
}
