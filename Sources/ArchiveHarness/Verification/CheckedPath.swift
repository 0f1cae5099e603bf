import ArchiveFormat

/// A part of a case's report: the structural check of the archive, one decode path, or the privacy scan.
///
/// ```swift
/// let secure = report.cases[0].paths.first { $0.path == .decode(.secure) }
/// print(CheckedPath.decode(.foundationSecure))  // foundation-secure
/// ```
public enum CheckedPath: Sendable, Hashable, CustomStringConvertible {
  /// Reading the file as an archive, before any decode path runs.
  case structure
  /// A decode path.
  case decode(DecodePath)
  /// The privacy scan of the archive (`verify --privacy`), reported when it finds something.
  case privacy

  /// The name reports use: `structure`, the decode path's name such as `secure`, or `privacy`.
  public var description: String {
    switch self {
    case .structure: "structure"
    case .decode(let path): path.description
    case .privacy: "privacy"
    }
  }
}
