/// How Foundation archives its value classes, read structurally from an instance's fields.
///
/// The class is recognised by its archived name, or by the first Foundation
/// class in its archived chain. This is for reading and printing only; a secure
/// decode decides by the registered class, never by these names.
package enum FoundationForm: Hashable, Sendable {
  /// `NSString`/`NSMutableString`: `NS.string`, or UTF-8 `NS.bytes`.
  case string(String)
  /// `NSArray`/`NSMutableArray`: the `NS.objects` values (UIDs or inline values).
  case array([PropertyListValue])
  /// `NSSet`/`NSMutableSet`/`NSCountedSet`: the `NS.objects` values.
  case set([PropertyListValue])
  /// `NSOrderedSet`/`NSMutableOrderedSet`: the `NS.objects` values.
  case orderedSet([PropertyListValue])
  /// `NSDictionary`/`NSMutableDictionary`: `NS.keys` and `NS.objects`, pairwise.
  case dictionary(keys: [PropertyListValue], values: [PropertyListValue])
  /// `NSDate`: `NS.time`, seconds since 2001-01-01.
  case date(Double)
  /// `NSData`/`NSMutableData`: `NS.data` or `NS.bytes`.
  case data([UInt8])
  /// `NSUUID`: the 16 `NS.uuidbytes`.
  case uuid([UInt8])
  /// `NSURL`: `NS.base` (a reference or `$null`) and `NS.relative`.
  case url(base: PropertyListValue?, relative: PropertyListValue)
  /// `NSNull`.
  case null

  /// The Foundation classes this reader understands, by archived name.
  package static let classNames: Set<String> = [
    "NSString", "NSMutableString", "NSArray", "NSMutableArray", "NSSet", "NSMutableSet",
    "NSCountedSet", "NSOrderedSet", "NSMutableOrderedSet", "NSDictionary", "NSMutableDictionary",
    "NSDate", "NSData", "NSMutableData", "NSUUID", "NSURL", "NSNull",
  ]

  /// The elements of a collection form, or `nil` for the other forms.
  package var elements: [PropertyListValue]? {
    switch self {
    case .array(let values), .set(let values), .orderedSet(let values): return values
    case .dictionary(_, let values): return values
    default: return nil
    }
  }

  /// Whether the form is a collection (array, set, ordered set or dictionary).
  package var isCollection: Bool { elements != nil }
}

extension KeyedArchive {
  /// The Foundation form of an instance, or `nil` when it is not a Foundation value class or its fields do not fit.
  package func foundationForm(of instance: ArchiveInstance) -> FoundationForm? {
    readFoundationForm(of: instance)
  }

  /// The string a value holds: an inline string, a string object, or an `NSString` instance.
  ///
  /// An `NSString` whose `NS.string` refers to another object is followed
  /// iteratively; a chain that comes back to an object it has already visited
  /// holds no string, so a hostile cycle ends instead of recursing.
  public func stringValue(of value: PropertyListValue) -> String? {
    readStringValue(of: value)
  }
}

/// Where the Foundation readings (`FoundationForm`, string values, leaves) find the object a
/// reference names: a ``KeyedArchive``'s objects, or a binary list read in place.
protocol ArchiveObjectLookup {
  /// The object a UID names, or `nil` when the UID is out of range.
  func object(at index: Int) -> ArchiveObject?
  /// The strings already read through references, for a caller that reads every object's
  /// leaf; `nil` for none.
  var stringMemo: StringMemo? { get }
}

extension ArchiveObjectLookup {
  var stringMemo: StringMemo? { nil }
}

/// What each reference followed to a string's text gave: the text, or `nil` for none.
///
/// A string whose `NS.string` names another string instance, which names another, and so on,
/// is followed to its end; a caller that reads every object's leaf (the graph JSON) would
/// follow each such chain again from each of its links, in time quadratic in its length. With
/// a memo, every link reads what the chain gave, once.
final class StringMemo {
  var texts: [UInt64: String?] = [:]
}

/// A lookup with a `StringMemo`: the archive's objects, each string chain followed once.
struct MemoizingLookup<Base: ArchiveObjectLookup>: ArchiveObjectLookup {
  let base: Base
  let stringMemo: StringMemo? = StringMemo()

  func object(at index: Int) -> ArchiveObject? { base.object(at: index) }
}

extension KeyedArchive: ArchiveObjectLookup {}

extension ArchiveObjectLookup {
  /// The instance at an index, when the object there is one.
  func lookUpInstance(at index: Int) -> ArchiveInstance? {
    guard case .instance(let instance)? = object(at: index) else { return nil }
    return instance
  }

  /// ``KeyedArchive/foundationForm(of:)``, with references followed through this lookup.
  func readFoundationForm(of instance: ArchiveInstance) -> FoundationForm? {
    guard let name = foundationClassName(of: instance) else { return nil }
    let fields = instance.fields
    switch name {
    case "NSString", "NSMutableString":
      switch stringContent(ofStringFields: fields) {
      case .text(let text)?: return .string(text)
      case .reference(let value)?: return readStringValue(of: value).map(FoundationForm.string)
      case nil: return nil
      }
    case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSCountedSet", "NSOrderedSet",
      "NSMutableOrderedSet":
      var values: [PropertyListValue]
      switch fields["NS.objects"] {
      case .array(let elements)?: values = elements
      case nil: values = []
      default: return nil
      }
      // Ordered sets are archived element by element: NS.object.0, NS.object.1, …
      if fields["NS.objects"] == nil, name == "NSOrderedSet" || name == "NSMutableOrderedSet" {
        var index = 0
        while let element = fields["NS.object.\(index)"] {
          values.append(element)
          index += 1
        }
      }
      switch name {
      case "NSArray", "NSMutableArray": return .array(values)
      case "NSOrderedSet", "NSMutableOrderedSet": return .orderedSet(values)
      default: return .set(values)
      }
    case "NSDictionary", "NSMutableDictionary":
      switch (fields["NS.keys"], fields["NS.objects"]) {
      case (.array(let keys)?, .array(let values)?) where keys.count == values.count:
        return .dictionary(keys: keys, values: values)
      case (nil, nil):
        return .dictionary(keys: [], values: [])
      default:
        return nil
      }
    case "NSDate":
      switch fields["NS.time"] {
      case .real(let seconds)?: return .date(seconds)
      case .integer(let seconds)?: return .date(Double(seconds))
      default: return nil
      }
    case "NSData", "NSMutableData":
      for key in ["NS.data", "NS.bytes"] {
        switch fields[key] {
        case .data(let bytes)?: return .data(bytes)
        case .uid(let uid)?:
          if case .value(.data(let bytes))? = object(at: Int(uid)) { return .data(bytes) }
        default: break
        }
      }
      return nil
    case "NSUUID":
      if case .data(let bytes)? = fields["NS.uuidbytes"], bytes.count == 16 {
        return .uuid(bytes)
      }
      return nil
    case "NSURL":
      guard let relative = fields["NS.relative"] else { return nil }
      let base = fields["NS.base"]
      return .url(base: base == .uid(0) ? nil : base, relative: relative)
    case "NSNull":
      return .null
    default:
      return nil
    }
  }

  /// ``KeyedArchive/stringValue(of:)``, with references followed through this lookup.
  func readStringValue(of value: PropertyListValue) -> String? {
    var followed: [UInt64] = []
    let text = followStringReferences(from: value, followed: &followed)
    // Every reference followed leads to the same text (or to none): the memo keeps it for each.
    if let memo = stringMemo {
      for uid in followed { memo.texts[uid] = .some(text) }
    }
    return text
  }

  /// Follows `value` to a string's text, noting each reference followed in `followed`.
  private func followStringReferences(from value: PropertyListValue, followed: inout [UInt64])
    -> String?
  {
    var current = value
    var visited: Set<UInt64> = []
    while true {
      switch current {
      case .string(let string):
        return string
      case .uid(let uid):
        if let known = stringMemo?.texts[uid] { return known }
        guard visited.insert(uid).inserted else { return nil }
        followed.append(uid)
        switch object(at: Int(uid)) {
        case .value(.string(let string))?:
          return string
        case .instance(let instance)?:
          switch foundationClassName(of: instance) {
          case "NSString"?, "NSMutableString"?: break
          default: return nil
          }
          switch stringContent(ofStringFields: instance.fields) {
          case .text(let text)?: return text
          case .reference(let next)?: current = next
          case nil: return nil
          }
        default:
          return nil
        }
      default:
        return nil
      }
    }
  }

  /// The Foundation class an instance is read as: its own archived name, or the first Foundation class in its chain.
  private func foundationClassName(of instance: ArchiveInstance) -> String? {
    if FoundationForm.classNames.contains(instance.className) { return instance.className }
    return instance.archiveClass.chain.first(where: { FoundationForm.classNames.contains($0) })
  }

  /// What an `NSString` instance's fields hold: its text, or a reference still to follow.
  private func stringContent(ofStringFields fields: PropertyListDictionary) -> StringContent? {
    if let value = fields["NS.string"] {
      if case .string(let text) = value { return .text(text) }
      return .reference(value)
    }
    if case .data(let bytes)? = fields["NS.bytes"],
      let text = String(validUTF8: bytes)
    {
      return .text(text)
    }
    return nil
  }
}

/// An `NSString` instance's content, as its fields hold it.
private enum StringContent {
  case text(String)
  case reference(PropertyListValue)
}
