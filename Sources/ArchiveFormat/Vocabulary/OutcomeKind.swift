/// What one decode path did with an archive: decoded it, refused it, or crashed; or that it did not run.
///
/// ```swift
/// let kind = OutcomeKind.rejected
/// print(kind)  // rejected
/// ```
public enum OutcomeKind: String, Sendable, Hashable, Codable, CaseIterable,
  CustomStringConvertible
{
  /// The archive decoded into the app's object.
  case decoded
  /// The path refused the archive without crashing.
  case rejected
  /// The process decoding the archive died from a signal, or was killed after a timeout.
  case crashed
  /// The path did not run: no decode worker could be had, or its worker broke the protocol.
  ///
  /// Reports give the reason as the message; a decode never has this outcome.
  case notRun = "not-run"

  /// The kind's name, such as `decoded`.
  public var description: String { rawValue }
}
