/// Writes whole files by the project's one rule (see `OutputDestination`): reports, manifests,
/// anonymized archives, generated stores.
///
/// ```swift
/// try SafeFileWriter.write(Array(report.utf8), to: "verify.json")   // atomic
/// try SafeFileWriter.write(Array(report.utf8), to: "/dev/null")     // written through
/// ```
package enum SafeFileWriter {
  /// Writes bytes to a path, atomically for a regular or new file and in place for a character
  /// device, a FIFO or `-`.
  ///
  /// - Parameters:
  ///   - bytes: The whole contents.
  ///   - path: The path; `-` is standard output.
  /// - Returns: How the path was written.
  /// - Throws: `FileOutputError` for a refused path or a failed step; the path is then as it was.
  @discardableResult
  package static func write(_ bytes: [UInt8], to path: String) throws(FileOutputError)
    -> OutputDestination
  {
    let file = try OutputFile(path: path)
    do throws(FileOutputError) {
      try file.write(bytes)
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
    return file.destination
  }

  /// Writes text as UTF-8 to a path, by the same rule.
  ///
  /// - Parameters:
  ///   - text: The whole contents.
  ///   - path: The path; `-` is standard output.
  /// - Returns: How the path was written.
  /// - Throws: `FileOutputError` for a refused path or a failed step.
  @discardableResult
  package static func write(_ text: String, to path: String) throws(FileOutputError)
    -> OutputDestination
  {
    try write(Array(text.utf8), to: path)
  }

  /// Opens a path to write in pieces; `OutputFile.commit()` finishes it.
  ///
  /// - Parameter path: The path; `-` is standard output.
  /// - Returns: The open file.
  /// - Throws: `FileOutputError` when the path is refused or cannot be opened.
  package static func open(_ path: String) throws(FileOutputError) -> OutputFile {
    try OutputFile(path: path)
  }
}
