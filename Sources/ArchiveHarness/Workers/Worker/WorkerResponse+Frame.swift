import ArchiveCoder
import ArchiveFormat

extension WorkerResponse {
  private enum OutcomeTag: UInt8 {
    case decoded = 0
    case rejected = 1
    case crashed = 2
  }

  private enum ValueTag: UInt8 {
    case null = 0
    case bool, integer, double, string, data, date, uuid, url
    case array, set, orderedSet, dictionary, object
    case cycleReference, sharedReference, opaque
    case noObject
  }

  /// The deepest value an answer may carry: beyond the describer's 512 levels and the
  /// `$top` wrapper, so that reading an answer never recurses without a limit.
  static let maximumValueDepth = 1024

  /// The response as the worker sends it: the number, the outcome (a tag byte, then its
  /// fields), the notes, then the strictness findings.
  var encoded: [UInt8] {
    var writer = WorkerFrameWriter(capacity: 256)
    writer.append(integer: Int64(id))
    switch outcome {
    case .decoded(let value):
      writer.append(byte: OutcomeTag.decoded.rawValue)
      Self.append(value, to: &writer)
    case .rejected(let rejection):
      writer.append(byte: OutcomeTag.rejected.rawValue)
      writer.append(string: rejection.category.rawValue)
      writer.append(string: rejection.keyPath)
      writer.append(string: rejection.message)
    case .crashed(let crash):
      writer.append(byte: OutcomeTag.crashed.rawValue)
      writer.append(integer: Int64(crash.signal))
      writer.append(byte: crash.timedOut ? 1 : 0)
      writer.append(string: crash.detail)
    }
    writer.append(strings: notes)
    writer.append(length: strictnessFindings.count)
    for finding in strictnessFindings {
      writer.append(string: finding.rule.rawValue)
      writer.append(string: finding.severity.rawValue)
      writer.append(string: finding.className)
      writer.append(string: finding.keyPath)
      writer.append(strings: [finding.decoder, finding.key].compactMap { $0 })
      writer.append(strings: finding.allowedClasses)
      writer.append(strings: finding.fix)
    }
    return writer.bytes
  }

  /// Reads a response a worker sent.
  ///
  /// - Parameter frame: The frame.
  /// - Throws: `WorkerProtocolError` for a malformed answer.
  init(decoding frame: [UInt8]) throws(WorkerProtocolError) {
    var reader = WorkerFrameReader(frame)
    let id = Int(truncatingIfNeeded: try reader.integer())
    let outcome: DecodeOutcome
    switch OutcomeTag(rawValue: try reader.byte()) {
    case .decoded?:
      outcome = .decoded(try Self.value(from: &reader, depth: 0))
    case .rejected?:
      let name = try reader.string()
      guard let category = RejectionCategory(rawValue: name) else {
        throw WorkerProtocolError("unknown rejection category '\(name)' in an answer")
      }
      outcome = .rejected(
        DecodeRejection(
          category: category, keyPath: try reader.string(), message: try reader.string()))
    case .crashed?:
      let signal = Int32(truncatingIfNeeded: try reader.integer())
      let timedOut = try reader.byte() != 0
      outcome = .crashed(
        CrashReport(signal: signal, timedOut: timedOut, detail: try reader.string()))
    case nil:
      throw WorkerProtocolError("unknown outcome tag in an answer")
    }
    let notes = try reader.strings()
    // A rule's and a severity's names, a class, a key path, three lists: 28 bytes at least.
    let count = try reader.count(ofItemsAtLeast: 28)
    var findings: [StrictnessFinding] = []
    for _ in 0..<count { findings.append(try Self.strictnessFinding(from: &reader)) }
    try reader.expectEnd()
    self.init(id: id, outcome: outcome, notes: notes, strictnessFindings: findings)
  }

  private static func strictnessFinding(from reader: inout WorkerFrameReader)
    throws(WorkerProtocolError) -> StrictnessFinding
  {
    let ruleName = try reader.string()
    guard let rule = StrictnessRule(rawValue: ruleName) else {
      throw WorkerProtocolError("unknown strictness rule '\(ruleName)' in an answer")
    }
    let severityName = try reader.string()
    guard let severity = Severity(rawValue: severityName) else {
      throw WorkerProtocolError("unknown severity '\(severityName)' in an answer")
    }
    let className = try reader.string()
    let keyPath = try reader.string()
    let call = try reader.strings()
    guard call.isEmpty || call.count == 2 else {
      throw WorkerProtocolError("a strictness finding's call has \(call.count) parts, not 0 or 2")
    }
    return StrictnessFinding(
      rule: rule, severity: severity, className: className, keyPath: keyPath,
      decoder: call.first, key: call.last, allowedClasses: try reader.strings(),
      fix: try reader.strings())
  }

  private static func append(_ value: DecodedValue, to writer: inout WorkerFrameWriter) {
    switch value {
    case .null:
      writer.append(byte: ValueTag.null.rawValue)
    case .noObject:
      writer.append(byte: ValueTag.noObject.rawValue)
    case .bool(let flag):
      writer.append(byte: ValueTag.bool.rawValue)
      writer.append(byte: flag ? 1 : 0)
    case .integer(let number):
      writer.append(byte: ValueTag.integer.rawValue)
      writer.append(integer: number)
    case .double(let number):
      writer.append(byte: ValueTag.double.rawValue)
      writer.append(integer: Int64(bitPattern: number.bitPattern))
    case .string(let text):
      writer.append(byte: ValueTag.string.rawValue)
      writer.append(string: text)
    case .data(let bytes):
      writer.append(byte: ValueTag.data.rawValue)
      writer.append(field: bytes)
    case .date(let seconds):
      writer.append(byte: ValueTag.date.rawValue)
      writer.append(integer: Int64(bitPattern: seconds.bitPattern))
    case .uuid(let text):
      writer.append(byte: ValueTag.uuid.rawValue)
      writer.append(string: text)
    case .url(let text):
      writer.append(byte: ValueTag.url.rawValue)
      writer.append(string: text)
    case .array(let className, let elements):
      append(ValueTag.array, className, elements, to: &writer)
    case .set(let className, let elements):
      append(ValueTag.set, className, elements, to: &writer)
    case .orderedSet(let className, let elements):
      append(ValueTag.orderedSet, className, elements, to: &writer)
    case .dictionary(let className, let entries):
      writer.append(byte: ValueTag.dictionary.rawValue)
      writer.append(string: className)
      writer.append(length: entries.count)
      for entry in entries {
        append(entry.key, to: &writer)
        append(entry.value, to: &writer)
      }
    case .object(let className, let fields):
      writer.append(byte: ValueTag.object.rawValue)
      writer.append(string: className)
      writer.append(length: fields.count)
      for field in fields {
        writer.append(string: field.key)
        append(field.value, to: &writer)
      }
    case .cycleReference(let className):
      writer.append(byte: ValueTag.cycleReference.rawValue)
      writer.append(string: className)
    case .sharedReference(let className, let ordinal):
      writer.append(byte: ValueTag.sharedReference.rawValue)
      writer.append(string: className)
      writer.append(integer: Int64(ordinal))
    case .opaque(let className):
      writer.append(byte: ValueTag.opaque.rawValue)
      writer.append(string: className)
    }
  }

  private static func append(
    _ tag: ValueTag, _ className: String, _ elements: [DecodedValue],
    to writer: inout WorkerFrameWriter
  ) {
    writer.append(byte: tag.rawValue)
    writer.append(string: className)
    writer.append(length: elements.count)
    for element in elements { append(element, to: &writer) }
  }

  private static func value(from reader: inout WorkerFrameReader, depth: Int)
    throws(WorkerProtocolError) -> DecodedValue
  {
    guard depth < maximumValueDepth else {
      throw WorkerProtocolError("an answer nests values deeper than \(maximumValueDepth) levels")
    }
    switch ValueTag(rawValue: try reader.byte()) {
    case .null?: return .null
    case .noObject?: return .noObject
    case .bool?: return .bool(try reader.byte() != 0)
    case .integer?: return .integer(try reader.integer())
    case .double?: return .double(Double(bitPattern: UInt64(bitPattern: try reader.integer())))
    case .string?: return .string(try reader.string())
    case .data?: return .data(try reader.field())
    case .date?: return .date(Double(bitPattern: UInt64(bitPattern: try reader.integer())))
    case .uuid?: return .uuid(try reader.string())
    case .url?: return .url(try reader.string())
    case .array?:
      let className = try reader.string()
      return .array(className: className, elements: try values(from: &reader, depth: depth))
    case .set?:
      let className = try reader.string()
      return .set(className: className, elements: try values(from: &reader, depth: depth))
    case .orderedSet?:
      let className = try reader.string()
      return .orderedSet(className: className, elements: try values(from: &reader, depth: depth))
    case .dictionary?:
      let className = try reader.string()
      // A key and a value: a tag byte each at least.
      let count = try reader.count(ofItemsAtLeast: 2)
      var entries: [DecodedEntry] = []
      entries.reserveCapacity(count)
      for _ in 0..<count {
        let key = try value(from: &reader, depth: depth + 1)
        entries.append(DecodedEntry(key: key, value: try value(from: &reader, depth: depth + 1)))
      }
      return .dictionary(className: className, entries: entries)
    case .object?:
      let className = try reader.string()
      // A key's length and a value's tag byte at least.
      let count = try reader.count(ofItemsAtLeast: 5)
      var fields: [DecodedField] = []
      fields.reserveCapacity(count)
      for _ in 0..<count {
        let key = try reader.string()
        fields.append(DecodedField(key: key, value: try value(from: &reader, depth: depth + 1)))
      }
      return .object(className: className, fields: fields)
    case .cycleReference?: return .cycleReference(className: try reader.string())
    case .sharedReference?:
      let className = try reader.string()
      return .sharedReference(
        className: className, ordinal: Int(truncatingIfNeeded: try reader.integer()))
    case .opaque?: return .opaque(className: try reader.string())
    case nil: throw WorkerProtocolError("unknown value tag in an answer")
    }
  }

  private static func values(from reader: inout WorkerFrameReader, depth: Int)
    throws(WorkerProtocolError) -> [DecodedValue]
  {
    let count = try reader.count(ofItemsAtLeast: 1)
    var elements: [DecodedValue] = []
    elements.reserveCapacity(count)
    for _ in 0..<count { elements.append(try value(from: &reader, depth: depth + 1)) }
    return elements
  }
}
