import ArchiveCoder
import ArchiveFormat
import Foundation

extension WorkerRequest {
  /// The first byte of a request frame.
  static let marker = UInt8(ascii: "R")

  private enum Flag {
    static let guardsUnmappedClasses: UInt8 = 1 << 0
    static let hasAdvice: UInt8 = 1 << 1
    static let advice: UInt8 = 1 << 2
    static let hasVariant: UInt8 = 1 << 3
    static let hasTopKeys: UInt8 = 1 << 4
    static let hasFieldChanges: UInt8 = 1 << 5
  }

  /// The request as the supervisor sends it: ``marker``, the number, a flags byte, then
  /// length-prefixed fields; no text encoding of the archive's bytes.
  var encoded: [UInt8] {
    var writer = WorkerFrameWriter(capacity: archive.count + 256)
    writer.append(byte: Self.marker)
    writer.append(integer: Int64(id))
    var flags: UInt8 = guardsUnmappedClasses ? Flag.guardsUnmappedClasses : 0
    if let advice { flags |= Flag.hasAdvice | (advice ? Flag.advice : 0) }
    if variant != nil { flags |= Flag.hasVariant }
    if topKeys != nil { flags |= Flag.hasTopKeys }
    if !classMap.fieldChanges.isEmpty { flags |= Flag.hasFieldChanges }
    writer.append(byte: flags)
    writer.append(string: path.rawValue)
    writer.append(string: registryName)
    writer.append(field: [UInt8](archive))
    writer.append(strings: allowedClasses)
    Self.append(classMap.entries, to: &writer)
    Self.append(classMap.moduleRenames, to: &writer)
    if let variant { writer.append(string: variant.rawValue) }
    if let topKeys { writer.append(strings: topKeys) }
    if !classMap.fieldChanges.isEmpty { Self.append(classMap.fieldChanges, to: &writer) }
    return writer.bytes
  }

  /// Reads a request the supervisor sent.
  ///
  /// - Parameter frame: The frame, starting with ``marker``.
  /// - Throws: `WorkerProtocolError` for a malformed request.
  init(decoding frame: [UInt8]) throws(WorkerProtocolError) {
    var reader = WorkerFrameReader(frame)
    guard try reader.byte() == Self.marker else {
      throw WorkerProtocolError("a request frame does not start with its marker")
    }
    let id = try reader.integer()
    let flags = try reader.byte()
    let pathName = try reader.string()
    guard let path = DecodePath(rawValue: pathName) else {
      throw WorkerProtocolError("unknown decode path '\(pathName)' in a request")
    }
    let registryName = try reader.string()
    let archive = Data(try reader.field())
    let allowedClasses = try reader.strings()
    let entries = try Self.dictionary(from: &reader)
    let moduleRenames = try Self.dictionary(from: &reader)
    var variant: FoundationReferenceVariant? = nil
    if flags & Flag.hasVariant != 0 {
      let name = try reader.string()
      guard let known = FoundationReferenceVariant(rawValue: name) else {
        throw WorkerProtocolError("unknown reference variant '\(name)' in a request")
      }
      variant = known
    }
    let topKeys = flags & Flag.hasTopKeys != 0 ? try reader.strings() : nil
    let fieldChanges =
      flags & Flag.hasFieldChanges != 0 ? try Self.fieldChanges(from: &reader) : []
    try reader.expectEnd()
    self.init(
      id: Int(truncatingIfNeeded: id), path: path, registryName: registryName, archive: archive,
      allowedClasses: allowedClasses,
      classMap: ClassNameMap(
        entries: entries, moduleRenames: moduleRenames, fieldChanges: fieldChanges),
      guardsUnmappedClasses: flags & Flag.guardsUnmappedClasses != 0, variant: variant,
      advice: flags & Flag.hasAdvice != 0 ? flags & Flag.advice != 0 : nil, topKeys: topKeys)
  }

  private static func append(_ dictionary: [String: String], to writer: inout WorkerFrameWriter) {
    writer.append(length: dictionary.count)
    for (key, value) in dictionary {
      writer.append(string: key)
      writer.append(string: value)
    }
  }

  /// Each declared field change as four strings: class, key, kind and its argument.
  private static func append(_ changes: [DeclaredChange], to writer: inout WorkerFrameWriter) {
    writer.append(length: changes.count)
    for change in changes {
      let (kind, argument): (String, String)
      switch change.change {
      case .renamed(let key): (kind, argument) = ("renamed", key)
      case .dropped(let reason): (kind, argument) = ("dropped", reason)
      case .converted: (kind, argument) = ("converted", "")
      case .defaulted: (kind, argument) = ("defaulted", "")
      }
      writer.append(strings: [change.className, change.key, kind, argument])
    }
  }

  private static func fieldChanges(from reader: inout WorkerFrameReader)
    throws(WorkerProtocolError) -> [DeclaredChange]
  {
    let count = try reader.count(ofItemsAtLeast: 16)
    var changes: [DeclaredChange] = []
    for _ in 0..<count {
      let parts = try reader.strings()
      guard parts.count == 4 else {
        throw WorkerProtocolError("a declared field change in a request is not four strings")
      }
      let change: DeclaredChange.Change
      switch parts[2] {
      case "renamed": change = .renamed(to: parts[3])
      case "dropped": change = .dropped(reason: parts[3])
      case "converted": change = .converted
      case "defaulted": change = .defaulted
      default: throw WorkerProtocolError("unknown declared field change '\(parts[2])'")
      }
      changes.append(DeclaredChange(className: parts[0], key: parts[1], change))
    }
    return changes
  }

  private static func dictionary(from reader: inout WorkerFrameReader)
    throws(WorkerProtocolError) -> [String: String]
  {
    let count = try reader.count(ofItemsAtLeast: 8)
    var dictionary: [String: String] = [:]
    for _ in 0..<count {
      let key = try reader.string()
      dictionary[key] = try reader.string()
    }
    return dictionary
  }
}
