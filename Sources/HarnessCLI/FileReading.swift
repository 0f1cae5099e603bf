import Foundation

/// Reads input files for commands, turning every failure into a diagnostic that names the file.
enum FileReading {
  /// Reads a whole file, refusing one larger than `limit` bytes before reading it.
  static func bytes(at path: String, limit: Int) throws -> [UInt8] {
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CommandFailure(place: path, category: .unreadable, message: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw CommandFailure(
        place: path, category: .unreadable, message: "is a directory, not a file")
    }
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
      size.intValue > limit
    {
      throw CommandFailure(
        place: path, category: .limitExceeded,
        message: "file of \(size.intValue) bytes exceeds the limit of \(limit) bytes")
    }
    do {
      return try Data(contentsOf: url).withUnsafeBytes { Array($0) }
    } catch {
      throw CommandFailure(place: path, category: .unreadable, message: "cannot read the file")
    }
  }
}
