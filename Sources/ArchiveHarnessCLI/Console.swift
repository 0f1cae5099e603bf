import ArchiveFormat
import _ArchiveHarnessSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes: the report to standard output, diagnostics and progress to standard error.
///
/// Tests capture both by giving their own sinks.
package struct Console: Sendable {
  /// Receives report text.
  package var output: @Sendable (String) -> Void
  /// Receives diagnostics and progress.
  package var error: @Sendable (String) -> Void
  /// Whether standard error is a terminal (colour and progress lines).
  package var errorIsTerminal: Bool
  /// Whether standard output is a terminal (colour).
  package var outputIsTerminal: Bool

  /// Creates a console over custom sinks.
  package init(
    output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
    outputIsTerminal: Bool = false, errorIsTerminal: Bool = false
  ) {
    self.output = output
    self.error = error
    self.outputIsTerminal = outputIsTerminal
    self.errorIsTerminal = errorIsTerminal
  }

  /// The process's standard output and standard error.
  package static var standard: Console {
    Console(
      output: { text in writeAll(text, to: 1) },
      error: { text in writeAll(text, to: 2) },
      outputIsTerminal: isatty(1) == 1,
      errorIsTerminal: isatty(2) == 1)
  }

  /// Writes a diagnostic line: `PLACE: error: [category] message`.
  ///
  /// ```swift
  /// console.diagnose(
  ///   .warning, place: Place(file: "manifests/v1.xml", line: 3, column: 5),
  ///   category: .semantic, "unused class")
  /// ```
  ///
  /// - Parameters:
  ///   - severity: How serious it is; coloured on a terminal.
  ///   - place: Where it is, such as `manifests/v1.xml:14:7`, `cache.sqlite:page 7` or a file.
  ///   - category: The bracketed category, such as `schema`, or `nil` for none.
  ///   - message: What is wrong, in lowercase words.
  package func diagnose(
    _ severity: Severity, place: Place, category: DiagnosticCategory?, _ message: String
  ) {
    let tag = category.map { "[\($0)] " } ?? ""
    var label = "\(severity):"
    if errorIsTerminal {
      let colour =
        switch severity {
        case .error: "\u{1B}[1;31m"
        case .warning: "\u{1B}[1;33m"
        case .note: "\u{1B}[1m"
        }
      label = colour + label + "\u{1B}[0m"
    }
    error("\(place): \(label) \(tag)\(message)\n")
  }

  /// Writes a diagnostic line about a file (or an option, a folder) as a whole.
  ///
  /// ```swift
  /// console.diagnose(.error, file: "Package.swift", category: nil, "not a package")
  /// ```
  package func diagnose(
    _ severity: Severity, file: String, category: DiagnosticCategory?, _ message: String
  ) {
    diagnose(severity, place: Place(file: file), category: category, message)
  }
}

private func writeAll(_ text: String, to descriptor: Int32) {
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeMutableBytes { buffer in
      write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
    }
    if written <= 0 {
      if written < 0 && errno == EINTR { continue }
      if descriptor == 1 { StandardOutput.recordFailure(written < 0 ? errno : EIO) }
      return
    }
    offset += written
  }
  bytes.removeAll()
}

/// Whether writing to the process's standard output failed (a full disk, a closed pipe,
/// `/dev/full`): a command whose output was lost must not exit 0.
enum StandardOutput {
  private static let failure = Locked<Int32?>(nil)

  /// Keeps the first failure's `errno`.
  static func recordFailure(_ code: Int32) {
    failure.withLock { if $0 == nil { $0 = code } }
  }

  /// The first failure's `errno`, or nil when every write went through.
  static var failedWith: Int32? { failure.withLock { $0 } }
}
