import Foundation

/// A Foundation value class the harness coder builds itself from its archived form.
public enum FoundationValueKind: String, Sendable, CaseIterable, Hashable {
  case string = "NSString"
  case mutableString = "NSMutableString"
  case number = "NSNumber"
  case array = "NSArray"
  case mutableArray = "NSMutableArray"
  case dictionary = "NSDictionary"
  case mutableDictionary = "NSMutableDictionary"
  case set = "NSSet"
  case mutableSet = "NSMutableSet"
  case orderedSet = "NSOrderedSet"
  case mutableOrderedSet = "NSMutableOrderedSet"
  case date = "NSDate"
  case data = "NSData"
  case mutableData = "NSMutableData"
  case uuid = "NSUUID"
  case url = "NSURL"
  case null = "NSNull"
  case object = "NSObject"

  /// The class's plain name, as archives and `NSStringFromClass` spell it.
  public var className: String { rawValue }

  /// Whether the class holds other objects whose classes secure coding checks.
  public var isContainer: Bool {
    switch self {
    case .array, .mutableArray, .dictionary, .mutableDictionary, .set, .mutableSet,
      .orderedSet, .mutableOrderedSet:
      return true
    default:
      return false
    }
  }

  /// Whether the class is a mutable variant.
  public var isMutable: Bool {
    switch self {
    case .mutableString, .mutableArray, .mutableDictionary, .mutableSet, .mutableOrderedSet,
      .mutableData:
      return true
    default:
      return false
    }
  }

  /// The Foundation class itself.
  public var type: NSObject.Type {
    switch self {
    case .string: return NSString.self
    case .mutableString: return NSMutableString.self
    case .number: return NSNumber.self
    case .array: return NSArray.self
    case .mutableArray: return NSMutableArray.self
    case .dictionary: return NSDictionary.self
    case .mutableDictionary: return NSMutableDictionary.self
    case .set: return NSSet.self
    case .mutableSet: return NSMutableSet.self
    case .orderedSet: return NSOrderedSet.self
    case .mutableOrderedSet: return NSMutableOrderedSet.self
    case .date: return NSDate.self
    case .data: return NSData.self
    case .mutableData: return NSMutableData.self
    case .uuid: return NSUUID.self
    case .url: return NSURL.self
    case .null: return NSNull.self
    case .object: return NSObject.self
    }
  }
}
