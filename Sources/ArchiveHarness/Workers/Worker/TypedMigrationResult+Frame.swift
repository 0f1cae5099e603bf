import ArchiveCoder
import ArchiveFormat

extension TypedMigrationResult {
  private enum Tag: UInt8 {
    case unchanged = 0
    case rewritten = 1
    case refused = 2
  }

  /// The result as a worker sends it: a tag byte, then length-prefixed fields.
  ///
  /// A crash is never sent: the supervisor records it when the worker dies.
  package var encoded: [UInt8] {
    var writer = WorkerFrameWriter()
    switch self {
    case .unchanged, .crashed:
      writer.append(byte: Tag.unchanged.rawValue)
    case .rewritten(let bytes, let className):
      writer.append(byte: Tag.rewritten.rawValue)
      writer.append(string: className)
      writer.append(field: bytes)
    case .refused(let refusal):
      writer.append(byte: Tag.refused.rawValue)
      writer.append(string: refusal.step.rawValue)
      writer.append(string: refusal.cause.description)
      writer.append(string: refusal.reason)
    }
    return writer.bytes
  }

  /// Reads a result a worker sent.
  ///
  /// - Throws: `WorkerProtocolError` for a malformed answer.
  package init(decoding frame: [UInt8]) throws(WorkerProtocolError) {
    var reader = WorkerFrameReader(frame)
    switch Tag(rawValue: try reader.byte()) {
    case .unchanged?:
      self = .unchanged
    case .rewritten?:
      let className = try reader.string()
      self = .rewritten(try reader.field(), className: className)
    case .refused?:
      let stepName = try reader.string()
      guard let step = MigrationStep(rawValue: stepName) else {
        throw WorkerProtocolError("unknown migration step '\(stepName)' in an answer")
      }
      let causeName = try reader.string()
      guard let cause = RecordRefusal.Cause(named: causeName) else {
        throw WorkerProtocolError("unknown refusal cause '\(causeName)' in an answer")
      }
      self = .refused(RecordRefusal(step, cause: cause, try reader.string()))
    case nil:
      throw WorkerProtocolError("unknown migration answer tag")
    }
    try reader.expectEnd()
  }
}
