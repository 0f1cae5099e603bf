import ArchiveFormat
import Foundation

/// A description of a decoded object graph that both decode paths produce the same way.
///
/// App objects are described by the fields their `encode(with:)` writes, so the harness coder
/// and Foundation's unarchiver can be compared field by field.
public indirect enum DecodedValue: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `NSNull`.
  case null
  /// A boolean.
  case bool(Bool)
  /// An integer.
  case integer(Int64)
  /// A floating-point number.
  case double(Double)
  /// A string.
  case string(String)
  /// Bytes.
  case data([UInt8])
  /// A date, as seconds since 2001-01-01T00:00:00Z.
  case date(Double)
  /// A UUID string.
  case uuid(String)
  /// A URL string.
  case url(String)
  /// An array, with its class name.
  case array(className: String, elements: [DecodedValue])
  /// A set, its elements sorted by their descriptions, with its class name.
  case set(className: String, elements: [DecodedValue])
  /// An ordered set, with its class name.
  case orderedSet(className: String, elements: [DecodedValue])
  /// A dictionary, its entries sorted by their keys' descriptions, with its class name.
  case dictionary(className: String, entries: [DecodedEntry])
  /// An app object: its runtime class name and the fields its `encode(with:)` writes.
  case object(className: String, fields: [DecodedField])
  /// A reference back to an object that encloses this one (a cycle), by class name.
  case cycleReference(className: String)
  /// A second reference to an object described earlier, by class name and the order in
  /// which it was first described, so shared objects are described once and graphs of
  /// the same shape describe alike.
  case sharedReference(className: String, ordinal: Int)
  /// A value whose class the describer does not know, by class name.
  case opaque(className: String)
  /// No object: the decode returned `nil` without an error, as Apple's unarchiver does for
  /// `$null` under a `$top` key (a nil root). Printed `nil`; never a value to write back.
  ///
  /// ```swift
  /// let value = DecodedValue.noObject
  /// print(value, value.className)  // nil nil
  /// ```
  case noObject

  /// The class name for object-like values, or the plain type name for scalars.
  public var className: String {
    switch self {
    case .null: "NSNull"
    case .noObject: "nil"
    case .bool, .integer, .double: "NSNumber"
    case .string: "NSString"
    case .data: "NSData"
    case .date: "NSDate"
    case .uuid: "NSUUID"
    case .url: "NSURL"
    case .array(let name, _), .set(let name, _), .orderedSet(let name, _),
      .dictionary(let name, _), .object(let name, _), .cycleReference(let name),
      .sharedReference(let name, _),
      .opaque(let name):
      name
    }
  }

  /// The class name of the value that several `$top` keys decode to: one field per key.
  public static let topLevelClassName = "$top"

  /// The objects decoded under several `$top` keys, one field per key, in the order read.
  ///
  /// ```swift
  /// let value = DecodedValue.topLevel([DecodedField(key: "$0", value: .integer(1))])
  /// value[field: "$0"]  // .integer(1)
  /// ```
  ///
  /// - Parameter fields: The top keys and what each decoded to.
  /// - Returns: An object of class ``topLevelClassName``.
  public static func topLevel(_ fields: [DecodedField]) -> DecodedValue {
    .object(className: topLevelClassName, fields: fields)
  }

  /// The values of a ``topLevel(_:)`` value by top key, or `nil` for any other value.
  public var topLevelFields: [DecodedField]? {
    guard case .object(Self.topLevelClassName, let fields) = self else { return nil }
    return fields
  }

  /// The field with the given key, for an app object.
  ///
  /// - Parameter key: A field key, such as `name`.
  /// - Returns: The field's value, or `nil` when absent or not an object.
  public subscript(field key: String) -> DecodedValue? {
    guard case .object(_, let fields) = self else { return nil }
    return fields.first { $0.key == key }?.value
  }

  /// A compact, deterministic rendering such as `ProfileKit.Address{city: "Town", …}`.
  public var description: String {
    switch self {
    case .null: return "null"
    case .noObject: return "nil"
    case .bool(let value): return String(value)
    case .integer(let value): return String(value)
    case .double(let value): return String(value)
    case .string(let value): return SwiftLiteral.quoted(value)
    case .data(let bytes): return "<\(bytes.count) bytes>"
    case .date(let seconds): return "date(\(seconds))"
    case .uuid(let value): return "uuid(\(value))"
    case .url(let value): return "url(\(value))"
    case .array(_, let elements), .orderedSet(_, let elements):
      return "[" + elements.map(\.description).joined(separator: ", ") + "]"
    case .set(_, let elements):
      return "{" + elements.map(\.description).joined(separator: ", ") + "}"
    case .dictionary(_, let entries):
      if entries.isEmpty { return "[:]" }
      return "[" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    case .object(let name, let fields):
      return name + "{" + fields.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    case .cycleReference(let name): return "<cycle to \(name)>"
    case .sharedReference(let name, let ordinal): return "<shared \(name) #\(ordinal)>"
    case .opaque(let name): return "<\(name)>"
    }
  }
}
