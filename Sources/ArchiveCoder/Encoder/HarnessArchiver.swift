import ArchiveFormat
import Foundation
import _ArchiveHarnessSystem

/// An `NSCoder` that writes keyed archives the way `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding:)` does on Apple platforms.
///
/// It writes with the project's own deterministic writer: strings, numbers
/// and data inline in `$objects`, Foundation collections as `NS.objects` (and
/// `NS.keys`), app objects through their `encode(with:)` under their runtime
/// class names, with `$classes` chains ending in `NSObject`. Foundation's own
/// archiver on Linux cannot be used for this: it writes several Foundation
/// classes differently from Darwin.
///
/// Every object is written once; a second reference to the same instance
/// reuses its UID, so shared objects and cycles survive. Under secure coding a
/// class that does not adopt `NSSecureCoding` is a failure, as it is for Apple.
///
/// ```swift
/// let bytes = try HarnessArchiver.archivedData(withRootObject: profile, requiringSecureCoding: true)
/// ```
package final class HarnessArchiver: NSCoder {
  /// Why an object graph could not be archived.
  package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key path of the object that failed, such as `root.address`.
    package let keyPath: String
    /// A lowercase description.
    package let message: String

    /// The key path and the message, such as `root.address: cannot encode …`.
    package var description: String { "\(keyPath): \(message)" }
  }

  private var builder = KeyedArchiveBuilder()
  private let secure: Bool
  /// The fields of the object being encoded, innermost last.
  private var frames: [[(String, PropertyListValue)]] = []
  private var path: [String] = []
  private var identities: [ObjectIdentifier: PropertyListValue] = [:]
  /// Objects kept alive while archiving, so that their identifiers stay unique.
  private var retained: [AnyObject] = []
  private var failure: Failure?
  private let maximumDepth: Int
  /// The most objects one archive may hold before archiving is refused.
  private let maximumObjects = 1 << 22
  private var written = 0
  /// What a harness decode built for the collections being written, read instead of bridging.
  private let built: BuiltCollections

  private init(secure: Bool, maximumDepth: Int, built: BuiltCollections) {
    self.secure = secure
    self.maximumDepth = maximumDepth
    self.built = built
    super.init()
  }

  /// Archives an object graph.
  ///
  /// - Parameters:
  ///   - root: The root object.
  ///   - requiringSecureCoding: Whether every class must adopt `NSSecureCoding`.
  ///   - maximumDepth: The deepest nesting written before the archive is refused.
  /// - Returns: A binary property list.
  /// - Throws: `Failure` naming the key path of the object that could not be written.
  package static func archivedData(
    withRootObject root: Any, requiringSecureCoding: Bool, maximumDepth: Int = 256
  ) throws(Failure) -> [UInt8] {
    try archive(
      withRootObject: root, requiringSecureCoding: requiringSecureCoding, maximumDepth: maximumDepth
    )
    .bytes()
  }

  /// Archives an object graph that a harness decode built, reading its collections from what
  /// the decode built (`HarnessDecodeResult/builtCollections`) instead of bridging them.
  package static func archivedData(
    withRootObject root: Any, requiringSecureCoding: Bool, built: BuiltCollections,
    maximumDepth: Int = 256
  ) throws(Failure) -> [UInt8] {
    try archive(
      withRootObject: root, requiringSecureCoding: requiringSecureCoding,
      maximumDepth: maximumDepth,
      built: built
    )
    .bytes()
  }

  /// Archives an object graph, returning the archive before it is written to bytes.
  static func archive(
    withRootObject root: Any, requiringSecureCoding: Bool, maximumDepth: Int,
    built: BuiltCollections = .none
  ) throws(Failure) -> KeyedArchiveBuilder {
    let archiver = HarnessArchiver(
      secure: requiringSecureCoding, maximumDepth: maximumDepth, built: built)
    archiver.path = ["root"]
    let reference = archiver.reference(for: root)
    if let failure = archiver.failure { throw failure }
    archiver.builder.setRoot(reference)
    return archiver.builder
  }

  /// Always `true`: the archiver writes keyed archives only.
  package override var allowsKeyedCoding: Bool { true }
  /// Whether objects must adopt `NSSecureCoding`, as the archiver was created.
  package override var requiresSecureCoding: Bool { secure }

  // MARK: - Encoding fields

  private func set(_ value: PropertyListValue, forKey key: String) {
    guard !frames.isEmpty else {
      fail("'\(key)' was encoded outside an object")
      return
    }
    frames[frames.count - 1].append((key, value))
  }

  /// Encodes an object, or nil, under a key.
  package override func encode(_ object: Any?, forKey key: String) {
    path.append(key)
    defer { path.removeLast() }
    set(reference(for: object), forKey: key)
  }

  /// Encodes an object under a key; conditional objects are written like any other.
  package override func encodeConditionalObject(_ object: Any?, forKey key: String) {
    // A conditional object is written only when something else writes it unconditionally.
    if let object = object as AnyObject?, let existing = identities[ObjectIdentifier(object)] {
      set(existing, forKey: key)
    } else {
      set(KeyedArchiveBuilder.null, forKey: key)
    }
  }

  /// Encodes a Boolean under a key.
  package override func encode(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }
  /// Encodes an integer under a key.
  package override func encode(_ value: Int, forKey key: String) {
    set(.integer(Int64(value)), forKey: key)
  }
  /// Encodes a 32-bit integer under a key.
  package override func encode(_ value: Int32, forKey key: String) {
    set(.integer(Int64(value)), forKey: key)
  }
  /// Encodes a 64-bit integer under a key.
  package override func encode(_ value: Int64, forKey key: String) {
    set(.integer(value), forKey: key)
  }
  /// Encodes a single-precision real under a key.
  package override func encode(_ value: Float, forKey key: String) {
    set(.real(Double(value)), forKey: key)
  }
  /// Encodes a double-precision real under a key.
  package override func encode(_ value: Double, forKey key: String) {
    set(.real(value), forKey: key)
  }

  /// Encodes bytes under a key, as data.
  package override func encodeBytes(
    _ bytes: UnsafePointer<UInt8>?, length: Int, forKey key: String
  ) {
    guard let bytes else {
      set(.data([]), forKey: key)
      return
    }
    set(.data(Array(UnsafeBufferPointer(start: bytes, count: length))), forKey: key)
  }

  // MARK: - Unkeyed coding
  //
  // A keyed archive has no unkeyed values. NSCoder's own unkeyed methods trap in corelibs
  // ("must be overridden"), so a class whose encode(with:) writes unkeyed (an old Foundation
  // class, say) makes the encode fail, never the process.

  /// Unsupported in a keyed archive: the encode fails.
  package override func encodeValue(
    ofObjCType type: UnsafePointer<CChar>, at address: UnsafeRawPointer
  ) {
    fail("unkeyed encoding is not supported by keyed archives")
  }

  /// Unsupported in a keyed archive: the encode fails.
  package override func encode(_ data: Data) {
    fail("unkeyed encoding is not supported by keyed archives")
  }

  #if os(macOS) || !canImport(Darwin)
    /// Unsupported in a keyed archive: the encode fails. (NSCoder declares it on macOS and in
    /// corelibs only.)
    package override func encodePropertyList(_ propertyList: Any) {
      fail("unkeyed encoding is not supported by keyed archives")
    }
  #endif

  // MARK: - Objects

  private func fail(_ message: String) {
    if failure == nil {
      failure = Failure(keyPath: path.joined(separator: "."), message: message)
    }
  }

  /// The UID (or inline value) for an object, writing it the first time it is met.
  private func reference(for value: Any?) -> PropertyListValue {
    guard failure == nil, let value else { return KeyedArchiveBuilder.null }
    // Foundation on Linux hands out nested collections as fresh Swift values, so their
    // sharing cannot be seen; a budget keeps a graph of shared collections from expanding.
    written += 1
    guard written <= maximumObjects else {
      fail("the object graph expands to more than \(maximumObjects) objects")
      return KeyedArchiveBuilder.null
    }
    guard path.count <= maximumDepth else {
      fail("nesting deeper than \(maximumDepth) levels")
      return KeyedArchiveBuilder.null
    }
    // Swift values (structs such as String and Array): write them as their Foundation forms.
    // Objects skip this, so that an NSMutableArray is not taken for an [Any] and written as NSArray.
    let isObject = Swift.type(of: value) is AnyClass
    switch isObject ? nil : value {
    case let string as String:
      return builder.string(string)
    case let flag as Bool:
      return builder.add(.bool(flag))
    case let integer as Int:
      return builder.add(.integer(Int64(integer)))
    case let double as Double:
      return builder.add(.real(double))
    case let data as Data:
      return builder.add(.data([UInt8](data)))
    case let date as Date:
      return builder.object("NSDate", [("NS.time", .real(date.timeIntervalSinceReferenceDate))])
    case let array as [Any]:
      return collection("NSArray", chain: nil, key: "NS.objects", array)
    default:
      break
    }
    guard let object = value as? NSObject else {
      fail("a '\(type(of: value))' is not an object the archiver can write")
      return KeyedArchiveBuilder.null
    }
    let identity = ObjectIdentifier(object)
    if let existing = identities[identity] { return existing }
    retained.append(object)

    switch object {
    case let string as NSString:
      if object is NSMutableString, !Self.isBridged(object) {
        return remember(
          identity,
          builder.object(
            "NSMutableString", chain: ["NSMutableString", "NSString", "NSObject"],
            [("NS.string", .string(string as String))]))
      }
      return remember(identity, builder.string(string as String))
    case let number as NSNumber:
      return remember(identity, builder.add(Self.value(of: number)))
    case let data as NSData:
      return remember(identity, builder.add(.data([UInt8](data as Data))))
    case let date as NSDate:
      return remember(
        identity,
        builder.object("NSDate", [("NS.time", .real(date.timeIntervalSinceReferenceDate))]))
    case let uuid as NSUUID:
      var bytes = [UInt8](repeating: 0, count: 16)
      uuid.getBytes(&bytes)
      return remember(identity, builder.object("NSUUID", [("NS.uuidbytes", .data(bytes))]))
    case let url as NSURL:
      let slot = builder.reserve()
      identities[identity] = slot
      let relative = builder.string(url.relativeString)
      let base = url.baseURL.map { reference(for: $0 as NSURL) } ?? KeyedArchiveBuilder.null
      builder.fill(
        slot, with: builder.instanceValue("NSURL", [("NS.base", base), ("NS.relative", relative)]))
      return slot
    case is NSNull:
      return remember(identity, builder.object("NSNull", []))
    case let dictionary as NSDictionary:
      let slot = builder.reserve()
      identities[identity] = slot
      var keys: [PropertyListValue] = []
      var values: [PropertyListValue] = []
      // What the decode built, or allKeys, never the bridged dictionary: bridging hashes keys
      // and traps on some corelibs keys.
      let entries: [(key: Any, value: Any?)] =
        built.entries(dictionary)?.map { ($0.key, $0.value) }
        ?? dictionary.allKeys.map { ($0, dictionary.object(forKey: $0)) }
      for (key, value) in entries {
        path.append("[\(key)]")
        keys.append(reference(for: key))
        values.append(reference(for: value))
        path.removeLast()
      }
      let name = object is NSMutableDictionary ? "NSMutableDictionary" : "NSDictionary"
      let chain =
        name == "NSMutableDictionary" ? ["NSMutableDictionary", "NSDictionary", "NSObject"] : nil
      builder.fill(
        slot,
        with: builder.instanceValue(
          name, chain: chain, [("NS.keys", .array(keys)), ("NS.objects", .array(values))]))
      return slot
    case let array as NSArray:
      let mutable = object is NSMutableArray
      return collection(
        mutable ? "NSMutableArray" : "NSArray",
        chain: mutable ? ["NSMutableArray", "NSArray", "NSObject"] : nil,
        key: "NS.objects", built.elements(array) ?? array.map { $0 }, identity: identity)
    case let set as NSOrderedSet:
      // Foundation writes ordered sets element by element: NS.object.0, NS.object.1, …
      let mutable = object is NSMutableOrderedSet
      let slot = builder.reserve()
      identities[identity] = slot
      var fields: [(String, PropertyListValue)] = []
      for (index, element) in (built.elements(set) ?? set.array).enumerated() {
        path.append("[\(index)]")
        fields.append(("NS.object.\(index)", reference(for: element)))
        path.removeLast()
      }
      builder.fill(
        slot,
        with: builder.instanceValue(
          mutable ? "NSMutableOrderedSet" : "NSOrderedSet",
          chain: mutable ? ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"] : nil, fields))
      return slot
    case let set as NSSet:
      let mutable = object is NSMutableSet
      return collection(
        mutable ? "NSMutableSet" : "NSSet",
        chain: mutable ? ["NSMutableSet", "NSSet", "NSObject"] : nil,
        key: "NS.objects", built.elements(set) ?? set.allObjects, identity: identity)
    default:
      return appObject(object, identity: identity)
    }
  }

  private func remember(_ identity: ObjectIdentifier, _ reference: PropertyListValue)
    -> PropertyListValue
  {
    identities[identity] = reference
    return reference
  }

  private func collection(
    _ name: String, chain: [String]?, key: String, _ elements: [Any],
    identity: ObjectIdentifier? = nil
  ) -> PropertyListValue {
    let slot = builder.reserve()
    if let identity { identities[identity] = slot }
    var references: [PropertyListValue] = []
    references.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      path.append("[\(index)]")
      references.append(reference(for: element))
      path.removeLast()
    }
    builder.fill(slot, with: builder.instanceValue(name, chain: chain, [(key, .array(references))]))
    return slot
  }

  private func appObject(_ object: NSObject, identity: ObjectIdentifier) -> PropertyListValue {
    let type: AnyClass = Swift.type(of: object)
    guard let coding = object as? any NSCoding else {
      fail("class '\(ClassRegistry.runtimeName(of: type))' does not adopt NSCoding")
      return KeyedArchiveBuilder.null
    }
    if secure {
      guard let secureType = type as? any NSSecureCoding.Type, secureType.supportsSecureCoding
      else {
        fail("class '\(ClassRegistry.runtimeName(of: type))' does not support secure coding")
        return KeyedArchiveBuilder.null
      }
    }
    let chain = Self.archivedChain(of: Swift.type(of: object))
    let slot = builder.reserve()
    identities[identity] = slot
    frames.append([])
    coding.encode(with: self)
    let fields = frames.removeLast()
    builder.fill(slot, with: builder.instanceValue(chain[0], chain: chain, fields))
    return slot
  }

  /// The class names written as an app object's `$classes`, worked out once per class.
  private static let chains = Locked<[ObjectIdentifier: [String]]>([:])

  /// The real hierarchy, as the registry reads it from the runtime, ending in `NSObject`.
  ///
  /// Reading it means a name and a conformance look-up per superclass; a class's hierarchy
  /// cannot change while the process runs, so each class is read once.
  private static func archivedChain(of type: NSObject.Type) -> [String] {
    let key = ObjectIdentifier(type)
    if let known = chains.withLock({ $0[key] }) { return known }
    var chain = RegisteredClass(type: type).hierarchy
    if chain.last != "NSObject" { chain.append("NSObject") }
    chains.withLock { $0[key] = chain }
    return chain
  }

  private static func value(of number: NSNumber) -> PropertyListValue {
    switch String(cString: number.objCType) {
    case "c", "B": return .bool(number.boolValue)
    case "f", "d": return .real(number.doubleValue)
    case "Q", "L", "I", "S", "C":
      return .integer(unsigned: number.uint64Value)
    default: return .integer(number.int64Value)
    }
  }

  /// Whether a string object is a bridged Swift string rather than one the app made mutable.
  private static func isBridged(_ object: NSObject) -> Bool {
    String(describing: Swift.type(of: object)).contains("Swift")
  }
}
