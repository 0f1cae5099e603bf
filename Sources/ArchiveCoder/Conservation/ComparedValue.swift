import ArchiveFormat
import Foundation

/// A value one side of an archive comparison holds at a key path, as a difference names it.
///
/// A leaf keeps its value; a collection keeps its count and an object its class, since what
/// they hold is compared (and reported) at the key paths below them.
///
/// ```swift
/// ComparedValue.leaf(.bool(true)).description  // "true (bool)"
/// ComparedValue.instance(className: "ProfileKit.Address").typeName  // "object"
/// ```
package enum ComparedValue: Hashable, Sendable, CustomStringConvertible {
  /// `$null`, or `NSNull`.
  case null
  /// A string, number, date, data, UUID or URL.
  case leaf(ArchiveLeaf)
  /// An array or ordered set, with its element count.
  case array(count: Int)
  /// A set, with its element count.
  case set(count: Int)
  /// A dictionary, with its entry count.
  case dictionary(count: Int)
  /// An instance of a class outside Foundation's value forms, as its archive names it, with
  /// the name a class map gives it when one does.
  case instance(className: String, mappedTo: String? = nil)
  /// An instance that its archive also reaches from another key path: a shared reference
  /// whose counterpart on the other side is not shared, or shared otherwise.
  case sharedInstance(className: String, firstReachedAt: ArchiveKeyPath)

  /// The value's type, as the JSON output names it: `null`, `string`, `integer`, `real`,
  /// `bool`, `date`, `data`, `uuid`, `url`, `array`, `set`, `dictionary` or `object`.
  package var typeName: String {
    switch self {
    case .null: return "null"
    case .leaf(let leaf): return Self.typeName(of: leaf)
    case .array: return "array"
    case .set: return "set"
    case .dictionary: return "dictionary"
    case .instance, .sharedInstance: return "object"
    }
  }

  /// The element or entry count of a collection; `nil` for other values.
  package var count: Int? {
    switch self {
    case .array(let count), .set(let count), .dictionary(let count): return count
    default: return nil
    }
  }

  /// The class of an object; `nil` for other values.
  package var className: String? {
    switch self {
    case .instance(let name, _), .sharedInstance(let name, _): return name
    default: return nil
    }
  }

  /// The value in words, with its type: `"Ann" (string)`, `3 (integer)`, `2 elements (array)`,
  /// `an instance of ProfileKit.Address`.
  package var description: String {
    switch self {
    case .null: return "nil"
    case .leaf(let leaf): return Self.describe(leaf)
    case .array(let count): return "\(count) elements (array)"
    case .set(let count): return "\(count) elements (set)"
    case .dictionary(let count): return "\(count) entries (dictionary)"
    case .instance(let name, let mapped?): return "an instance of \(name) (mapped to \(mapped))"
    case .instance(let name, nil): return "an instance of \(name)"
    case .sharedInstance(let name, let path):
      return "the instance of \(name) also at \(path.displayText)"
    }
  }

  /// A leaf's type name, integers of either sign as `integer`.
  static func typeName(of leaf: ArchiveLeaf) -> String {
    switch leaf {
    case .null: return "null"
    case .string: return "string"
    case .integer, .unsignedInteger: return "integer"
    case .real: return "real"
    case .bool: return "bool"
    case .date: return "date"
    case .data: return "data"
    case .uuid: return "uuid"
    case .url: return "url"
    case .object: return "object"
    }
  }

  /// A leaf in words, long strings cut at 60 characters.
  static func describe(_ leaf: ArchiveLeaf) -> String {
    switch leaf {
    case .null: return "nil"
    case .string(let text):
      let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
      return "\"\(shown)\" (string)"
    case .integer(let number): return "\(number) (integer)"
    case .unsignedInteger(let number): return "\(number) (integer)"
    case .real(let number): return "\(number) (real)"
    case .bool(let flag): return "\(flag) (bool)"
    case .date(let seconds): return "\(Date(timeIntervalSinceReferenceDate: seconds)) (date)"
    case .data(let bytes): return "\(bytes.count) bytes (data)"
    case .uuid(let bytes): return "\(bytes.count)-byte UUID"
    case .url(let text): return "\"\(text)\" (URL)"
    case .object(let className, _, _): return "an instance of \(className)"
    }
  }
}

extension ArchiveKeyPath {
  /// The path as findings print it: its text, or `root` for the root itself.
  ///
  /// ```swift
  /// ArchiveKeyPath(components: []).displayText  // "root"
  /// ArchiveKeyPath(components: [.key("address"), .key("city")]).displayText  // "address.city"
  /// ```
  package var displayText: String {
    let text = description
    return text.isEmpty ? "root" : text
  }
}

extension ComparedValue {
  /// The value with a string's or a URL's text replaced by its length.
  ///
  /// For an archive whose text may be a secret, such as a Keychain item's token, a string
  /// becomes `‹43 characters, masked›`. Its type stays, so a changed type still shows; data is
  /// shown as a byte count already, and numbers, dates and classes are kept.
  ///
  /// ```swift
  /// ComparedValue.leaf(.string("t0k3n")).maskingText.description  // "‹5 characters, masked›" (string)
  /// ```
  package var maskingText: ComparedValue {
    switch self {
    case .leaf(.string(let text)): .leaf(.string(Self.mask(text)))
    case .leaf(.url(let text)): .leaf(.url(Self.mask(text)))
    default: self
    }
  }

  private static func mask(_ text: String) -> String {
    MaskedText.characters(text)
  }
}
