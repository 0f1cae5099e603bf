/// Whether a test run drafts manifest entries for archives no manifest lists, as snapshot
/// tests record missing snapshots.
///
/// An archive in the archives folder that no manifest lists is a case of its own. Under
/// ``missing`` that case scans the archive for personal data and, when the scan finds none,
/// drafts its entry (what every decode path does with it now, and its fields) into the
/// manifest named after the archive's folder, then fails with `recorded: review the outcomes
/// and commit`. Under ``never`` it fails, saying how to record it. The environment variable
/// `ARCHIVE_HARNESS_RECORD` (`missing` or `never`), when set, wins over the code's choice, so
/// CI can run with `ARCHIVE_HARNESS_RECORD=never` whatever the tests say.
///
/// ```swift
/// static let project = HarnessProject(
///   worker: .buildProduct(named: "notes-harness"),
///   configuration: HarnessConfiguration(modelClasses: NotesModel.classes),
///   record: .missing)
/// ```
public enum RecordMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Nothing is written: an archive no manifest lists fails its case.
  case never
  /// An archive no manifest lists gets its entry drafted, once the privacy scan passes on it.
  case missing

  /// The environment variable that sets the mode for a run: `missing` or `never`.
  public static let environmentVariable = "ARCHIVE_HARNESS_RECORD"

  /// The mode's name, as the environment variable spells it.
  public var description: String { rawValue }

  /// The mode a run uses: the environment variable's when it is set, else the code's choice.
  ///
  /// ```swift
  /// let mode = try RecordMode.resolved(.missing, environment: ["ARCHIVE_HARNESS_RECORD": "never"])
  /// // .never
  /// ```
  ///
  /// - Parameters:
  ///   - chosen: The mode the code asks for.
  ///   - environment: The process's environment.
  /// - Returns: The mode.
  /// - Throws: ``HarnessFailure`` when the variable holds another value.
  public static func resolved(_ chosen: RecordMode, environment: [String: String])
    throws(HarnessFailure) -> RecordMode
  {
    guard let value = environment[environmentVariable], !value.isEmpty else { return chosen }
    guard let mode = RecordMode(rawValue: value) else {
      throw HarnessFailure(
        subject: "setup",
        findings: [
          HarnessFinding(
            "\(environmentVariable)=\(value): expected "
              + allCases.map(\.rawValue).joined(separator: " or "))
        ])
    }
    return mode
  }
}
