import Foundation
import HarnessJSONOutput

/// The JSON Schemas the repository ships in `schemas/`, one for each `--format json` output.
///
/// ```swift
/// let violations = try JSONSchemas.violations(of: result.stdout, against: .verify)
/// #expect(violations.isEmpty, "\(violations)")
/// ```
public enum JSONSchemas {
  /// A shipped schema.
  public enum Name: String, Sendable, CaseIterable {
    /// `decode --format json`.
    case decode
    /// `diff --format json`.
    case diff
    /// `verify --format json`.
    case verify
    /// `migrate-dry-run --format json`.
    case migrationPlan = "migration-plan"
    /// `migrate --format json`.
    case migrationReport = "migration-report"
    /// `privacy-scan --format json`.
    case privacyScan = "privacy-scan"
    /// `survey --format json`.
    case survey

    /// The schema file's path: `schemas/NAME.schema.json` in the package.
    public var path: String {
      Corpus.packageRoot.appendingPathComponent("schemas/\(rawValue).schema.json").path
    }
  }

  /// Loads a shipped schema and makes its validator.
  ///
  /// - Parameter name: The schema.
  /// - Returns: A validator for it.
  /// - Throws: When the file is missing, is not JSON, or uses an unsupported keyword.
  public static func validator(_ name: Name) throws -> JSONSchemaValidator {
    let data = try Data(contentsOf: URL(fileURLWithPath: name.path))
    return try JSONSchemaValidator(
      schema: JSONDocument(parsing: String(decoding: data, as: UTF8.self)))
  }

  /// Checks an output's text against a shipped schema.
  ///
  /// - Parameters:
  ///   - text: The JSON a command printed.
  ///   - name: The schema it promises to follow.
  /// - Returns: Every violation; none when the text is valid.
  /// - Throws: When the schema cannot be loaded or the text is not JSON.
  public static func violations(of text: String, against name: Name) throws
    -> [JSONSchemaViolation]
  {
    try validator(name).validate(JSONDocument(parsing: text))
  }
}
