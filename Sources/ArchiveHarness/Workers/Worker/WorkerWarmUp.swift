import ArchiveCoder
import ArchiveFormat
import Foundation

/// A fork server's warm-up: every path once over an archive this process writes itself, so
/// that the children it forks start with the runtime's type and conformance caches filled and
/// Foundation's symbols bound, rather than filling them again after every crash.
///
/// The archive holds Foundation's own value classes only (no app class, so no app code runs
/// in the server), and it decodes on the calling thread: the server keeps its one thread and
/// may fork.
enum WorkerWarmUp {
  /// The classes the warm-up archive holds, which its secure reads allow.
  static let classNames = ["NSDictionary", "NSArray", "NSString", "NSNumber", "NSDate", "NSData"]

  /// Decodes the warm-up archive on every path with each registry and encodes the answers.
  ///
  /// - Parameter registries: The registries requests may name.
  /// - Returns: How many paths decoded, for tests; a failure costs only warmth.
  @discardableResult
  static func run(registries: [String: ClassRegistry]) -> Int {
    guard let archive = makeArchive() else { return 0 }
    var decoded = 0
    for (name, registry) in registries.sorted(by: { $0.key < $1.key }) {
      for path in DecodePath.allCases {
        let request = WorkerRequest(
          id: 0, path: path, registryName: name, archive: Data(archive),
          allowedClasses: classNames, classMap: .empty)
        let response: WorkerResponse
        if path.isFoundation {
          let result = FoundationReferenceDecoder(registry: registry).decode(request)
          response = WorkerResponse(id: 0, outcome: result.outcome, notes: result.notes)
        } else {
          let result = HarnessDecoder(registry: registry, classMap: .empty).decode(
            archive, secure: path.isSecure, allowedClasses: classNames, topKeys: ["root"])
          response = WorkerResponse(id: 0, outcome: result.outcome, notes: result.warnings)
        }
        if (try? WorkerResponse(decoding: response.encoded))?.outcome.decodedValue != nil {
          decoded += 1
        }
      }
    }
    return decoded
  }

  /// A small archive of nested Foundation values, written by Foundation's archiver.
  static func makeArchive() -> [UInt8]? {
    let root: NSDictionary = [
      "name": "warm-up",
      "count": NSNumber(value: 3),
      "ratio": NSNumber(value: 0.5),
      "flag": NSNumber(value: true),
      "date": NSDate(timeIntervalSince1970: 0),
      "bytes": NSData(bytes: [1, 2, 3] as [UInt8], length: 3),
      "list": NSArray(array: ["a", NSNumber(value: 1), NSDictionary(dictionary: ["k": "v"])]),
    ]
    guard
      let data = try? NSKeyedArchiver.archivedData(
        withRootObject: root, requiringSecureCoding: true)
    else { return nil }
    return [UInt8](data)
  }
}
