import Foundation

/// Describes a decoded object graph as a `DecodedValue`, reading app objects through the
/// fields their `encode(with:)` writes.
///
/// Both decode paths use it, so their descriptions differ only where the objects differ.
package struct ObjectDescriber {
  /// The deepest nesting described; deeper values become `DecodedValue.opaque(className:)`.
  package var maximumDepth: Int

  /// The most values one description holds before the rest is elided (default 1,000,000).
  package var maximumNodes: Int = 1_000_000
  /// Whether the last descriptions passed ``maximumNodes`` and were cut short.
  package private(set) var exceededNodeLimit = false
  private var describedNodes = 0
  private var enclosing: Set<ObjectIdentifier> = []
  /// Objects already described, with the order in which they were first met.
  private var described: [ObjectIdentifier: Int] = [:]
  private var keptAlive: [AnyObject] = []
  /// What a harness decode built, read instead of bridging its collections through Foundation.
  package var built = BuiltCollections.none

  /// Creates a describer.
  ///
  /// - Parameter maximumDepth: The deepest nesting described.
  package init(maximumDepth: Int = 512) {
    self.maximumDepth = maximumDepth
  }

  /// Describes a decoded value.
  ///
  /// - Parameter value: An object that a decode returned.
  /// - Returns: Its description; a reference back to an enclosing object becomes
  ///   `DecodedValue.cycleReference(className:)`.
  package mutating func describe(_ value: Any?) -> DecodedValue {
    guard let value else { return .null }
    // Foundation on Linux hands out nested collections as fresh Swift values, so their
    // identity, and the sharing the describer relies on, is lost: a budget bounds the walk.
    describedNodes += 1
    if describedNodes > maximumNodes {
      exceededNodeLimit = true
      return .opaque(className: "…")
    }
    if enclosing.count >= maximumDepth {
      return .opaque(className: ObjectDescriber.className(of: value))
    }
    if let object = value as? NSObject { return describeObject(object) }
    switch value {
    case let string as String: return .string(string)
    case let bool as Bool: return .bool(bool)
    case let integer as Int: return .integer(Int64(integer))
    case let double as Double: return .double(double)
    case let data as Data: return .data([UInt8](data))
    case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
    case let uuid as UUID: return .uuid(uuid.uuidString)
    case let url as URL: return .url(url.absoluteString)
    default: return .opaque(className: ObjectDescriber.className(of: value))
    }
  }

  private mutating func describeObject(_ object: NSObject) -> DecodedValue {
    switch object {
    case let string as NSString:
      return .string(string as String)
    case let number as NSNumber:
      return ObjectDescriber.describeNumber(number)
    case let data as NSData:
      return .data([UInt8](data as Data))
    case let date as NSDate:
      return .date(date.timeIntervalSinceReferenceDate)
    case let uuid as NSUUID:
      return .uuid(uuid.uuidString)
    case let url as NSURL:
      return .url((url as URL).absoluteString)
    case is NSNull:
      return .null
    default:
      break
    }
    let identifier = ObjectIdentifier(object)
    let className = ObjectDescriber.className(of: object)
    if enclosing.contains(identifier) { return .cycleReference(className: className) }
    // A shared object is described once; later references name it, so a graph in which
    // one object is reached 2^40 ways is still described in linear time.
    if let ordinal = described[identifier] {
      return .sharedReference(className: className, ordinal: ordinal)
    }
    let isContainer =
      object is NSArray || object is NSOrderedSet || object is NSSet || object is NSDictionary
    guard isContainer || object is any NSCoding else { return .opaque(className: className) }
    // Ordinals count containers and app objects in the order first met (pre-order).
    described[identifier] = described.count
    // Keep the object alive: a bridged collection is a temporary, and a later temporary at
    // the same address would otherwise be taken for this one.
    keptAlive.append(object)
    enclosing.insert(identifier)
    defer { enclosing.remove(identifier) }
    switch object {
    case let array as NSArray:
      return .array(
        className: ObjectDescriber.containerName(array, mutable: array is NSMutableArray),
        elements: built.elements(array)?.map { describe($0) } ?? array.map { describe($0) })
    case let orderedSet as NSOrderedSet:
      return .orderedSet(
        className: ObjectDescriber.containerName(
          orderedSet, mutable: orderedSet is NSMutableOrderedSet),
        elements: built.elements(orderedSet)?.map { describe($0) }
          ?? orderedSet.array.map { describe($0) })
    case let set as NSSet:
      let elements =
        (built.elements(set)?.map { describe($0) } ?? set.allObjects.map { describe($0) })
        .sorted { $0.description < $1.description }
      return .set(
        className: ObjectDescriber.containerName(set, mutable: set is NSMutableSet),
        elements: elements)
    case let dictionary as NSDictionary:
      var entries: [DecodedEntry] = []
      // Keys are read through allKeys, not by iterating the bridged dictionary: bridging
      // hashes each key as AnyHashable, which traps on corelibs for an NSArray key.
      if let built = built.entries(dictionary) {
        for (key, value) in built {
          entries.append(DecodedEntry(key: describe(key), value: describe(value)))
        }
      } else {
        for key in dictionary.allKeys {
          entries.append(
            DecodedEntry(key: describe(key), value: describe(dictionary.object(forKey: key))))
        }
      }
      entries.sort { $0.key.description < $1.key.description }
      return .dictionary(
        className: ObjectDescriber.containerName(
          dictionary, mutable: dictionary is NSMutableDictionary),
        entries: entries)
    default:
      break
    }
    if let standIn = object as? any PlatformStandIn {
      var fields = standIn.standInFields.map {
        DecodedField(key: $0.key, value: describe($0.value))
      }
      fields.append(DecodedField(key: Self.standInMarker, value: .bool(true)))
      return .object(className: type(of: standIn).platformClassName, fields: fields)
    }
    guard let coding = object as? any NSCoding else { return .opaque(className: className) }
    let recorder = FieldRecordingCoder()
    coding.encode(with: recorder)
    var fields: [DecodedField] = []
    fields.reserveCapacity(recorder.fields.count)
    for (key, field) in recorder.fields {
      let value: DecodedValue
      switch field {
      case .value(let scalar): value = scalar
      case .object(let nested): value = describe(nested)
      }
      fields.append(DecodedField(key: key, value: value))
    }
    if recorder.unkeyedWrites > 0 {
      fields.append(
        DecodedField(key: "$unkeyed", value: .integer(Int64(recorder.unkeyedWrites))))
      // A generic NSValue writes its type and bytes unkeyed: both are described, so that two
      // values of the same type with other bytes describe apart.
      if let value = object as? NSValue, let typed = Self.typedValueFields(value) {
        fields += typed
      }
    }
    return .object(className: className, fields: fields)
  }

  /// The type encoding and bytes of a generic NSValue of a type the harness reads.
  private static func typedValueFields(_ value: NSValue) -> [DecodedField]? {
    let encoding = String(cString: value.objCType)
    guard let type = ObjCTypeEncoding(encoding) else { return nil }
    var bytes = [UInt8](repeating: 0, count: type.byteCount)
    bytes.withUnsafeMutableBytes { buffer in
      if let base = buffer.baseAddress { value.getValue(base) }
    }
    return [
      DecodedField(key: "$objCType", value: .string(encoding)),
      DecodedField(key: "$bytes", value: .data(bytes)),
    ]
  }

  private static func describeNumber(_ number: NSNumber) -> DecodedValue {
    let type = String(cString: number.objCType)
    switch type {
    case "c", "B":
      let integer = number.int64Value
      return integer == 0 || integer == 1 ? .bool(integer == 1) : .integer(integer)
    case "f", "d":
      return .double(number.doubleValue)
    default:
      return .integer(number.int64Value)
    }
  }

  private static func containerName(_ object: NSObject, mutable: Bool) -> String {
    let name = RuntimeClassNames.name(of: type(of: object))
    if name.hasPrefix("NS") && !name.hasPrefix("NS_") { return name }
    // Corelibs uses private bridging subclasses; report the public class.
    switch object {
    case is NSArray: return mutable ? "NSMutableArray" : "NSArray"
    case is NSOrderedSet: return mutable ? "NSMutableOrderedSet" : "NSOrderedSet"
    case is NSSet: return mutable ? "NSMutableSet" : "NSSet"
    case is NSDictionary: return mutable ? "NSMutableDictionary" : "NSDictionary"
    default: return name
    }
  }

  /// The field every decoded stand-in carries, `$standIn: true`, so that reports show that a
  /// stand-in took the Apple-platform class's place.
  package static let standInMarker = "$standIn"

  /// The runtime class name of a value, as `NSStringFromClass` prints it for classes.
  ///
  /// - Parameter value: Any value.
  /// - Returns: Its class or type name.
  package static func className(of value: Any) -> String {
    guard let object = value as? NSObject else { return String(describing: type(of: value)) }
    if let standIn = object as? any PlatformStandIn {
      return type(of: standIn).platformClassName
    }
    let runtimeName = RuntimeClassNames.name(of: type(of: object))
    // A Foundation class cluster archives under its public class (classForCoder): corelibs'
    // NSSpecialValue is archived, and described, as NSValue.
    let coderName = RuntimeClassNames.name(of: object.classForCoder)
    if coderName != runtimeName, coderName.hasPrefix("NS"), !runtimeName.contains(".") {
      return coderName
    }
    return runtimeName
  }
}
