import Foundation

/// Reads input files for commands, turning every failure into a diagnostic that names the file.
enum FileReading {
  /// Reads a whole file, refusing one larger than `limit` bytes before reading it.
  static func bytes(at path: String, limit: Int) throws -> [UInt8] {
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CommandFailure(file: path, category: .unreadable, message: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw CommandFailure(
        file: path, category: .unreadable, message: "is a directory, not a file")
    }
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
      size.intValue > limit
    {
      throw CommandFailure(
        file: path, category: .limitExceeded,
        message: "file of \(size.intValue) bytes exceeds the limit of \(limit) bytes")
    }
    guard let bytes = readAll(url.path, limit: limit) else {
      throw CommandFailure(file: path, category: .unreadable, message: "cannot read the file")
    }
    guard bytes.count <= limit else {
      throw CommandFailure(
        file: path, category: .limitExceeded,
        message: "file exceeds the limit of \(limit) bytes")
    }
    return bytes
  }

  /// Reads a file into one array, at most `limit + 1` bytes, or `nil` when it cannot be read.
  ///
  /// The bytes go straight into the array that is returned, so a large input
  /// is held once, not once as `Data` and again as its copy.
  private static func readAll(_ path: String, limit: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    // A regular file says its size (one byte more shows the end); a pipe grows as it is read.
    let isRegular = (status.st_mode & S_IFMT) == S_IFREG
    var bytes = [UInt8](
      repeating: 0, count: max(1, min(isRegular ? Int(status.st_size) + 1 : 1 << 16, limit + 1)))
    var filled = 0
    while true {
      if filled == bytes.count {
        guard bytes.count <= limit else { break }
        bytes.append(
          contentsOf: repeatElement(0, count: min(limit + 1, bytes.count * 2) - bytes.count))
      }
      let count = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        return systemRead(descriptor, base + filled, buffer.count - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { break }
      filled += count
    }
    bytes.removeLast(bytes.count - filled)
    return bytes
  }
}

/// The system's `read(2)`, named apart from the methods called `read` nearby.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
{
  read(descriptor, buffer, count)
}
