/// A place in a manifest or mapping file, as a 1-based line and column.
public struct ManifestLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file, as the caller named it.
  public var file: String
  /// The 1-based line, or 0 when unknown.
  public var line: Int
  /// The 1-based column in Unicode scalars, or 0 when unknown.
  public var column: Int

  /// Creates a location.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// The location as `file:line:col`, leaving out unknown parts.
  public var description: String {
    guard line > 0 else { return file }
    guard column > 0 else { return "\(file):\(line)" }
    return "\(file):\(line):\(column)"
  }
}
