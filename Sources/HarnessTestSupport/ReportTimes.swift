import Foundation

/// Reports with their measured times set to zero, so that two runs' reports compare equal.
///
/// A verify report records each entry's wall time (`durationMilliseconds` in JSON, `time=` in
/// JUnit), which differs from run to run; everything else in it is the same for the same input.
///
/// ```swift
/// #expect(ReportTimes.zeroed(first.stdout) == ReportTimes.zeroed(second.stdout))
/// ```
package enum ReportTimes {
  /// The text with every JSON `durationMilliseconds` and every JUnit `time` attribute zeroed.
  ///
  /// - Parameter text: A JSON or JUnit verify report.
  /// - Returns: The report with `"durationMilliseconds": 0` and `time="0.000"`.
  package static func zeroed(_ text: String) -> String {
    do {
      let result = try TextPattern.replacing(
        #""durationMilliseconds": ?[0-9]+"#, in: text, with: #""durationMilliseconds": 0"#)
      return try TextPattern.replacing(#"\stime="[0-9.]+""#, in: result, with: #" time="0.000""#)
    } catch {
      // Both patterns are constants that compile; an error here is a bug in this file.
      preconditionFailure("ReportTimes: \(error)")
    }
  }
}
