import ArchiveCoder
import ArchiveFormat
import Foundation
import Testing

@testable import ArchiveHarness

/// The binary frames a decode request and its answer travel in: every field round-trips, and a
/// malformed answer is a protocol error, never a trap or an unbounded allocation.
@Suite("Worker request and answer frames")
struct WorkerFrameTests {
  /// A value with every kind of ``DecodedValue``, nested.
  static let everyValue = DecodedValue.topLevel([
    DecodedField(key: "null", value: .null),
    DecodedField(key: "bool", value: .bool(true)),
    DecodedField(key: "integer", value: .integer(-42)),
    DecodedField(key: "double", value: .double(-0.0)),
    DecodedField(key: "infinity", value: .double(.infinity)),
    DecodedField(key: "string", value: .string("Zürich, \"quoted\"\n")),
    DecodedField(key: "data", value: .data([0, 1, 255])),
    DecodedField(key: "date", value: .date(1_234.5)),
    DecodedField(key: "uuid", value: .uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")),
    DecodedField(key: "url", value: .url("https://example.com/a")),
    DecodedField(
      key: "array", value: .array(className: "NSArray", elements: [.integer(1), .null])),
    DecodedField(key: "set", value: .set(className: "NSSet", elements: [.string("a")])),
    DecodedField(
      key: "orderedSet", value: .orderedSet(className: "NSOrderedSet", elements: [])),
    DecodedField(
      key: "dictionary",
      value: .dictionary(
        className: "NSDictionary",
        entries: [
          DecodedEntry(key: .string("k"), value: .array(className: "NSArray", elements: []))
        ]
      )),
    DecodedField(
      key: "object",
      value: .object(
        className: "ProfileKit.Address",
        fields: [DecodedField(key: "city", value: .string("Lisbon"))])),
    DecodedField(key: "cycle", value: .cycleReference(className: "ProfileKit.Node")),
    DecodedField(key: "shared", value: .sharedReference(className: "NSString", ordinal: 3)),
    DecodedField(key: "opaque", value: .opaque(className: "UIColor")),
    DecodedField(key: "nil", value: .noObject),
  ])

  @Test("A request round-trips with every field set")
  func requestRoundTripsWithEveryField() throws {
    let request = WorkerRequest(
      id: 7, path: .foundationSecure, registryName: "ProfilesApp-1",
      archive: Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]),
      allowedClasses: ["ProfileKit.UserProfile", "NSArray"],
      classMap: ClassNameMap(
        entries: ["Old.Profile": "ProfileKit.UserProfile"], moduleRenames: ["Old": "ProfileKit"]),
      guardsUnmappedClasses: false, variant: .unarchiveObject, advice: false,
      topKeys: ["root", "$0"])
    #expect(try WorkerRequest(decoding: request.encoded) == request)
  }

  @Test("A request round-trips with its optional fields absent")
  func requestRoundTripsWithoutOptionalFields() throws {
    let request = WorkerRequest(
      id: 1, path: .legacy, registryName: "default", archive: Data(), allowedClasses: [],
      classMap: .empty)
    #expect(try WorkerRequest(decoding: request.encoded) == request)
  }

  @Test("An answer round-trips a decoded value of every kind")
  func decodedAnswerRoundTrips() throws {
    let response = WorkerResponse(
      id: 12, outcome: .decoded(Self.everyValue), notes: ["the root came back with .error also set"]
    )
    #expect(try WorkerResponse(decoding: response.encoded) == response)
  }

  @Test("An answer round-trips a NaN bit for bit")
  func notANumberRoundTrips() throws {
    let response = WorkerResponse(id: 1, outcome: .decoded(.double(.nan)))
    let decoded = try WorkerResponse(decoding: response.encoded)
    guard case .decoded(.double(let number)) = decoded.outcome else {
      Issue.record("not a double: \(decoded.outcome)")
      return
    }
    #expect(number.bitPattern == Double.nan.bitPattern)
  }

  @Test("An answer round-trips a rejection")
  func rejectedAnswerRoundTrips() throws {
    let response = WorkerResponse(
      id: 3,
      outcome: .rejected(
        DecodeRejection(category: .classNotAllowed, keyPath: "root.address", message: "no")))
    #expect(try WorkerResponse(decoding: response.encoded) == response)
  }

  @Test("An answer round-trips a crash")
  func crashedAnswerRoundTrips() throws {
    let response = WorkerResponse(
      id: 4, outcome: .crashed(CrashReport(signal: 4, timedOut: true, detail: "Fatal error")))
    #expect(try WorkerResponse(decoding: response.encoded) == response)
  }

  @Test("A truncated answer is a protocol error")
  func truncatedAnswerIsRefused() {
    let frame = WorkerResponse(id: 5, outcome: .decoded(Self.everyValue)).encoded
    #expect(throws: WorkerProtocolError.self) {
      try WorkerResponse(decoding: Array(frame.dropLast(3)))
    }
  }

  @Test("An answer with bytes after its end is a protocol error")
  func answerWithTrailingBytesIsRefused() {
    let frame = WorkerResponse(id: 5, outcome: .decoded(.null)).encoded + [0]
    #expect(throws: WorkerProtocolError.self) { try WorkerResponse(decoding: frame) }
  }

  @Test("An answer with an unknown value tag is a protocol error")
  func unknownValueTagIsRefused() {
    // Number, the decoded tag, then a value tag no value has.
    let frame = [UInt8](repeating: 0, count: 8) + [0, 200] + [0, 0, 0, 0]
    #expect(throws: WorkerProtocolError.self) { try WorkerResponse(decoding: frame) }
  }

  @Test("An answer that declares more elements than its bytes hold is a protocol error")
  func oversizedCountIsRefused() {
    // An array named "" that declares 2^31 elements in a frame of a few bytes.
    let frame = [UInt8](repeating: 0, count: 8) + [0, 9] + [0, 0, 0, 0] + [0x80, 0, 0, 0]
    #expect(throws: WorkerProtocolError.self) { try WorkerResponse(decoding: frame) }
  }

  @Test("An answer nested deeper than the limit is a protocol error")
  func overlyDeepAnswerIsRefused() {
    var value = DecodedValue.null
    for _ in 0...WorkerResponse.maximumValueDepth {
      value = .array(className: "NSArray", elements: [value])
    }
    let frame = WorkerResponse(id: 6, outcome: .decoded(value)).encoded
    #expect(throws: WorkerProtocolError.self) { try WorkerResponse(decoding: frame) }
  }

  @Test("A request with an unknown decode path is a protocol error")
  func unknownPathIsRefused() {
    var writer = WorkerFrameWriter()
    writer.append(byte: WorkerRequest.marker)
    writer.append(integer: 1)
    writer.append(byte: 0)
    writer.append(string: "sideways")
    #expect(throws: WorkerProtocolError.self) { try WorkerRequest(decoding: writer.bytes) }
  }

  @Test("A worker's answer carries the findings through its frame")
  func findingsCrossTheWorkerFrame() throws {
    let decoder = HarnessDecoder(
      registry: ClassRegistry(modelClasses: [LooseShelf.self]), classMap: .empty)
    let shelf = try HarnessArchiver.archivedData(
      withRootObject: LooseShelf(titles: ["work", "home"]), requiringSecureCoding: true)
    let result = decoder.decode(
      shelf, secure: true, allowedClasses: [NSStringFromClass(LooseShelf.self)])
    let untyped = StrictnessFinding(
      rule: .untypedDecode, severity: .error, className: "A", keyPath: "root.k", decoder: "A",
      key: "k", fix: [])
    let response = WorkerResponse(
      id: 3, outcome: result.outcome, notes: ["n"],
      strictnessFindings: result.strictnessFindings + [untyped])
    let decoded = try WorkerResponse(decoding: response.encoded)
    #expect(decoded == response)
    #expect(decoded.strictnessFindings.count == 2)
  }
}
