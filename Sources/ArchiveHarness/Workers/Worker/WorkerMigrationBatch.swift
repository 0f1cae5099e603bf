import ArchiveCoder
import Foundation

/// Archives for a decode worker to migrate, typed, one answer frame each, in order.
///
/// The frame is the byte `M` (a JSON request starts with `{`), a JSON header
/// (registry, class map, allowed classes, count, flush mode), then each archive
/// as a length-prefixed field. The worker answers each archive with one
/// `TypedMigrationResult` frame, in order: gathered and sent in bunches, or,
/// with `Header.flushEach`, each as soon as it is done, so that when the
/// worker dies the supervisor knows which archive it was on.
struct WorkerMigrationBatch {
  /// The first byte of a migration frame.
  static let marker = UInt8(ascii: "M")

  /// What the archives are read with.
  struct Header: Codable {
    var id: Int
    var registryName: String
    var classMap: ClassNameMap
    var allowedClasses: [String]
    var count: Int
    /// Whether each answer is sent as soon as it is ready, rather than gathered.
    var flushEach: Bool
  }

  var header: Header
  var archives: [[UInt8]]

  /// The frame's bytes.
  func encoded() throws(WorkerProtocolError) -> [UInt8] {
    var writer = WorkerFrameWriter()
    writer.append(byte: Self.marker)
    do {
      writer.append(field: [UInt8](try JSONEncoder().encode(header)))
    } catch {
      throw WorkerProtocolError("cannot encode migration batch \(header.id): \(error)")
    }
    for archive in archives { writer.append(field: archive) }
    return writer.bytes
  }

  /// Reads a migration frame.
  init(decoding frame: [UInt8]) throws(WorkerProtocolError) {
    var reader = WorkerFrameReader(frame)
    guard try reader.byte() == Self.marker else {
      throw WorkerProtocolError("not a migration batch")
    }
    do {
      header = try JSONDecoder().decode(Header.self, from: Data(try reader.field()))
    } catch let error as WorkerProtocolError {
      throw error
    } catch {
      throw WorkerProtocolError("cannot parse a migration batch header: \(error)")
    }
    guard header.count >= 0, header.count <= frame.count else {
      throw WorkerProtocolError("a migration batch declares \(header.count) archives")
    }
    archives = []
    archives.reserveCapacity(header.count)
    for _ in 0..<header.count { archives.append(try reader.field()) }
    try reader.expectEnd()
  }

  init(header: Header, archives: [[UInt8]]) {
    self.header = header
    self.archives = archives
  }
}
