/// Feeds a census every file of a folder and its subfolders, each folder's own files one place.
///
/// The folder is read as `DirectoryStore` reads it for `migrate`: in path order, hidden
/// entries left out, symbolic links never followed (each counted as a value that cannot hold
/// bytes), FIFOs, devices and sockets never opened, and files over the size limit not read.
struct DirectorySurveySource {
  /// The folder.
  let path: String
  /// Files per batch: a few, since each may be as large as the size limit.
  var batchSize = 4

  private let store: DirectoryStore

  /// Opens a folder.
  ///
  /// - Throws: `MigrationError` when the path is not a readable folder.
  init(path: String) throws(MigrationError) {
    store = try DirectoryStore(path: path)
    self.path = store.path
  }

  /// Reads every file into the census; returns the number of entries read.
  func run(into census: SurveyCensus) throws(MigrationError) -> Int {
    var files = 0
    while case let batch = try store.nextBatch(maximumCount: batchSize), !batch.isEmpty {
      for record in batch {
        guard case .file(let full, let relative) = record.id.kind else { continue }
        files += 1
        let folder = DurableFile.directory(of: relative)
        let place = census.place(.folder(relativePath: folder))
        switch record.content {
        case .bytes(let bytes):
          census.count(bytes, at: place, isBlob: true) { .file(full) }
        case .null:
          census.countNull(at: place)
        case .unsupported, .refused:
          census.countNonBlob(at: place)
        }
      }
    }
    return files
  }
}
