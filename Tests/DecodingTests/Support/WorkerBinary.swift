import Foundation

/// Finds the built `archive-harness` binary, which serves as the decode worker in tests.
enum WorkerBinary {
  static var url: URL? {
    let fileManager = FileManager.default
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL {
      candidates.append(
        executable.deletingLastPathComponent().appendingPathComponent("profiles-harness"))
    }
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug/profiles-harness"))
    return candidates.first { fileManager.isExecutableFile(atPath: $0.path) }
  }
}
