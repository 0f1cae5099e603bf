import ArchiveFormat
import Foundation

/// The JSON Schemas the repository ships in `schemas/`, one for each `--format json` output,
/// checked by Python's `jsonschema` (`scripts/check-json-schema`), an implementation
/// independent of the harness.
///
/// ```swift
/// let violations = try JSONSchemas.violations(of: result.stdout, against: .verify)
/// #expect(violations.isEmpty, "\(violations)")
/// ```
///
/// The check needs `python3` with `jsonschema` (`python3 -m pip install jsonschema`); without
/// them every check throws `JSONSchemaError`, so a test fails rather than passing unchecked.
package enum JSONSchemas {
  /// A shipped schema.
  package enum Name: String, Sendable, CaseIterable {
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
    /// `coredata preflight --format json`.
    case coreDataPreflight = "coredata-preflight"

    /// The schema file's path: `schemas/NAME.schema.json` in the package.
    package var path: String {
      Corpus.packageRoot.appendingPathComponent("schemas/\(rawValue).schema.json").path
    }
  }

  /// A shipped schema, read with the harness's JSON reader, for tests that compare it with
  /// the code's vocabularies.
  ///
  /// - Parameter name: The schema.
  /// - Returns: The schema document.
  /// - Throws: When the file is missing or is not JSON.
  package static func schema(_ name: Name) throws -> JSONDocument {
    let data = try Data(contentsOf: URL(fileURLWithPath: name.path))
    return try JSONDocument(parsing: String(decoding: data, as: UTF8.self))
  }

  /// Checks an output's text against a shipped schema.
  ///
  /// - Parameters:
  ///   - text: The JSON a command printed.
  ///   - name: The schema it promises to follow.
  /// - Returns: Every violation, in the order `jsonschema` finds them; none when the text is valid.
  /// - Throws: `JSONSchemaError` when the check cannot run: the text is not JSON (or repeats
  ///   a member), the schema is not a valid schema or uses a keyword its draft does not define,
  ///   or `python3` or `jsonschema` is missing.
  package static func violations(of text: String, against name: Name) throws
    -> [JSONSchemaViolation]
  {
    try violations(of: text, againstSchemaAt: name.path)
  }

  /// Checks a JSON text against the schema in a file, which names its draft in `$schema`.
  ///
  /// - Parameters:
  ///   - text: The JSON document.
  ///   - schemaPath: The schema file's path.
  /// - Returns: Every violation; none when the text is valid.
  /// - Throws: `JSONSchemaError` when the check cannot run, as for
  ///   ``violations(of:against:)``.
  package static func violations(of text: String, againstSchemaAt schemaPath: String) throws
    -> [JSONSchemaViolation]
  {
    let result = try PythonScript.run("check-json-schema", [schemaPath], on: text)
    guard result.status == 0 || result.status == 1,
      case .array(let found)? = try? JSONDocument(parsing: result.stdout)
    else {
      throw JSONSchemaError(message: "scripts/check-json-schema: \(PythonScript.failure(result))")
    }
    let violations = found.compactMap { violation -> JSONSchemaViolation? in
      guard case .string(let path)? = violation["path"],
        case .string(let message)? = violation["message"]
      else { return nil }
      return JSONSchemaViolation(path: path, message: message)
    }
    guard violations.count == found.count, violations.isEmpty == (result.status == 0) else {
      throw JSONSchemaError(
        message: "scripts/check-json-schema printed what it should not: \(result.stdout)")
    }
    return violations
  }
}
