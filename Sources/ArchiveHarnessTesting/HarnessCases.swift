import ArchiveHarness
import Foundation

/// The one line of setup that gives a team one Swift Testing case per manifest entry.
///
/// ```swift
/// import ArchiveHarnessTesting
/// import NotesModel
/// import Testing
///
/// @Test(
///   arguments: HarnessCases.all(
///     manifests: "manifests", archives: "LegacyArchives", relativeTo: #filePath,
///     configuration: HarnessConfiguration(
///       modelClasses: [Note.self], worker: .buildProduct(named: "notes-harness"))))
/// func entry(_ harnessCase: HarnessCase) throws {
///   try harnessCase.verify()
/// }
/// ```
public enum HarnessCases {
  /// Every entry of every manifest in the team's package, as test cases.
  ///
  /// - Parameters:
  ///   - manifests: The manifests folder, relative to the package root (or absolute).
  ///   - archives: The archives folder, relative to the package root (or absolute).
  ///   - filePath: A file inside the team's package, normally the caller's `#filePath`; the
  ///     package root is the nearest folder above it that holds `Package.swift`.
  ///   - root: The package root, when it is not to be found from `filePath`.
  ///   - configuration: The model classes and the worker; from `swift test`, the worker is
  ///     the team's harness executable, `.buildProduct(named:)`.
  /// - Returns: The cases, in manifest then entry order; a setup problem is one failing case.
  public static func all(
    manifests: String = "manifests", archives: String = "LegacyArchives",
    relativeTo filePath: String = #filePath, root: URL? = nil,
    configuration: HarnessConfiguration
  ) -> [HarnessCase] {
    HarnessProject(
      manifests: manifests, archives: archives, relativeTo: filePath, root: root,
      configuration: configuration
    ).cases
  }
}
