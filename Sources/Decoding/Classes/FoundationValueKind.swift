import Foundation

/// A Foundation value class the harness coder builds itself from its archived form.
public enum FoundationValueKind: String, Sendable, CaseIterable, Hashable {
  /// `NSString`.
  case string = "NSString"
  /// `NSMutableString`.
  case mutableString = "NSMutableString"
  /// `NSNumber`.
  case number = "NSNumber"
  /// `NSArray`.
  case array = "NSArray"
  /// `NSMutableArray`.
  case mutableArray = "NSMutableArray"
  /// `NSDictionary`.
  case dictionary = "NSDictionary"
  /// `NSMutableDictionary`.
  case mutableDictionary = "NSMutableDictionary"
  /// `NSSet`.
  case set = "NSSet"
  /// `NSMutableSet`.
  case mutableSet = "NSMutableSet"
  /// `NSOrderedSet`.
  case orderedSet = "NSOrderedSet"
  /// `NSMutableOrderedSet`.
  case mutableOrderedSet = "NSMutableOrderedSet"
  /// `NSDate`.
  case date = "NSDate"
  /// `NSData`.
  case data = "NSData"
  /// `NSMutableData`.
  case mutableData = "NSMutableData"
  /// `NSUUID`.
  case uuid = "NSUUID"
  /// `NSURL`.
  case url = "NSURL"
  /// `NSNull`.
  case null = "NSNull"
  /// `NSObject`, the root of every class chain.
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
