import Foundation

/// Shell scripts that stand in for a decode worker: they may answer the handshake, then misbehave.
enum FakeWorker {
  /// The handshake a real worker serving the default registry writes, as a frame.
  static let handshake =
    #"{"worker":"archive-harness-decode-worker","protocolVersion":4,"registries":["default"]}"#

  /// Writes an executable script that writes the handshake frame, then runs `body`.
  ///
  /// - Parameters:
  ///   - purpose: What the script does, as a comment in it.
  ///   - body: Shell commands to run after the handshake.
  ///   - handshake: The frame's text; the real handshake by default.
  /// - Returns: The script's URL in a fresh temporary folder.
  /// - Throws: When the folder or the script cannot be written.
  static func script(_ purpose: String, body: String, handshake: String = handshake) throws
    -> URL
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fake-worker-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("fake-worker")
    let length = handshake.utf8.count
    let prefix = [length >> 24, length >> 16, length >> 8, length]
      .map { "\\" + String($0 & 0xFF, radix: 8) }.joined()
    let text = """
      #!/bin/sh
      # \(purpose)
      printf '\(prefix)%s' '\(handshake)'
      \(body)

      """
    try Data(text.utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url
  }

  /// Removes a script's folder.
  static func remove(_ script: URL) {
    try? FileManager.default.removeItem(at: script.deletingLastPathComponent())
  }
}
