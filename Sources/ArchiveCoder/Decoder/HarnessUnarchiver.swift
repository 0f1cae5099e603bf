import ArchiveFormat
import Foundation

/// The harness's own keyed unarchiver: an `NSCoder` over a validated ``KeyedArchive`` graph
/// that runs the app's `init?(coder:)` and reports every failure as a value.
///
/// Use it through `HarnessDecoder`. Its policy is always `.setErrorAndReturn`: a failure
/// records the first `DecodeRejection`, sets `error`, and makes every later decode return
/// `nil` or zero, as Apple's unarchiver does after `failWithError(_:)`.
///
/// Rules it follows in secure mode:
/// - the root's class must pass the read's allowed classes (`wrong-root-class`);
/// - each `decodeObject(of:forKey:)` checks against that call's classes (`class-not-allowed`);
/// - container elements check against the set that decoded the container;
/// - a class passes when the registered class's real hierarchy contains a listed class;
/// - inline property-list leaves (strings, numbers, data, dates) are implicitly allowed;
///   container and string objects are not;
/// - the class must return `true` from `supportsSecureCoding` (`not-secure-coding`);
/// - a plain `decodeObject(forKey:)` is an error (`not-secure-coding`).
///
/// Shared references decode once. A reference back to an object still being decoded is a
/// `cycle`: Swift's `init?(coder:)` cannot hand out an object before it is initialised.
package final class HarnessUnarchiver: NSCoder {
  enum Origin {
    case root
    case call
    case element
  }

  enum BuiltContents {
    case elements([AnyObject])
    case entries(keys: [NSObject], values: [AnyObject])
    /// A range value's range, read without asking the value for its type, which leaks in
    /// corelibs.
    case range(NSRange)
    case url(URL)
  }

  enum PathElement {
    case key(String)
    case index(Int)
    case dictionaryValue(NSObject)
  }

  struct Context {
    let fields: PropertyListDictionary
    let className: String
    var missingKeys: [String] = []
    var leafMismatch: String?
  }

  let archive: KeyedArchive
  private let registry: ClassRegistry
  private let classMap: ClassNameMap
  let secure: Bool
  private let maximumDepth: Int
  private let mode: DecodePath

  private(set) var contexts: [Context] = []
  var path: [PathElement] = []
  /// The text rejections' key paths start with: `root`, or `$top.KEY` while another top key
  /// decodes.
  var pathRoot = "root"
  var callAllowed: [AllowedClassList?] = []
  private(set) var topLevelAllowed: AllowedClassList?
  private var cache: [Int: (object: AnyObject, registered: RegisteredClass)] = [:]
  private var inProgress: Set<Int> = []
  private var resolutions: [Int: (resolution: ClassResolution, registered: RegisteredClass)] = [:]
  var failure: DecodeRejection?
  /// What each collection this decode built holds, kept so that forms reading inside a
  /// collection never go through corelibs' bridging.
  var builtContents: [ObjectIdentifier: BuiltContents] = [:]
  /// Whether a dictionary this decode built has a collection as a key, which corelibs cannot
  /// bridge: its description then reads what was built (``builtEntries(of:)``).
  var hasCollectionKeys = false
  private var failureError: NSError?
  private var warnings: [String] = []
  private var warned: Set<String> = []
  private var instantiated: [String] = []
  private var instantiatedSet: Set<ObjectIdentifier> = []
  /// What the secure path saw that Apple's platforms only log today.
  var strictness = StrictnessLog()
  #if canImport(Darwin)
    /// The buffers `decodeBytes(forKey:returnedLength:)` returned, freed with the coder.
    private var keptBytes: [UnsafeMutableBufferPointer<UInt8>] = []
  #endif

  init(
    archive: KeyedArchive, registry: ClassRegistry, classMap: ClassNameMap, secure: Bool,
    maximumDepth: Int
  ) {
    self.archive = archive
    self.registry = registry
    self.classMap = classMap
    self.secure = secure
    self.maximumDepth = maximumDepth
    self.mode = secure ? .secure : .legacy
    super.init()
  }

  #if canImport(Darwin)
    deinit {
      for buffer in keptBytes { buffer.deallocate() }
    }
  #endif

  // MARK: - Root

  /// Decodes the objects under the given `$top` keys, in order, with one object cache, as an
  /// app does with one `decodeObject(of:forKey:)` call per key.
  ///
  /// One key describes as its object; several describe as a `$top` object with one field per
  /// key (`DecodedValue.topLevelClassName`). A key whose value is `$null` decodes to nil, as
  /// Apple's unarchiver gives it (`DecodedValue.noObject`): the result's object is then nil
  /// (one key), or leaves that key out (several).
  func decodeTop(keys: [String], allowedClasses: [String], describing: Bool)
    -> HarnessDecodeResult
  {
    let allowed =
      secure ? AllowedClassList(names: allowedClasses, registry: registry).owned(by: .read) : nil
    topLevelAllowed = allowed
    var decoded: [(key: String, object: AnyObject?, rootName: String)] = []
    for key in keys {
      pathRoot = HarnessDecoder.keyPath(ofTopKey: key)
      defer { pathRoot = "root" }
      switch decodeTopValue(key, allowed: allowed) {
      case .failed: break
      case .noObject:
        warnings.append(
          "\(HarnessDecoder.topKeyText(key)) is $null: the decode returns nil, as Apple's "
            + "unarchiver does; the app gets no object")
        decoded.append((key, nil, ""))
        continue
      case .object(let object):
        decoded.append((key, object, rootClassName(forTopKey: key)))
        continue
      }
      break
    }
    if let failure {
      var result = HarnessDecodeResult(
        outcome: .rejected(failure), object: nil, warnings: warnings,
        instantiatedClassNames: instantiated)
      // A refused read decoded only part of its graph, and an unlisted leaf may be what refused
      // it: only its untyped decode calls are findings, whatever the archive holds.
      result.strictnessFindings = strictness.findings.filter { $0.rule == .untypedDecode }
      return result
    }
    let value: DecodedValue
    if describing {
      var describer = ObjectDescriber()
      describer.built = builtCollections
      let fields = decoded.map {
        DecodedField(key: $0.key, value: $0.object.map { describer.describe($0) } ?? .noObject)
      }
      value = keys.count == 1 ? fields[0].value : .topLevel(fields)
    } else {
      let opaque = decoded.map {
        DecodedField(
          key: $0.key,
          value: $0.object == nil ? .noObject : .opaque(className: $0.rootName))
      }
      value = keys.count == 1 ? opaque[0].value : .topLevel(opaque)
    }
    let object: AnyObject?
    if keys.count == 1 {
      object = decoded[0].object
    } else {
      let present = decoded.compactMap { entry in entry.object.map { (entry.key, $0) } }
      object = NSDictionary(
        objects: present.map(\.1), forKeys: present.map { NSString(string: $0.0) })
    }
    var result = HarnessDecodeResult(
      outcome: .decoded(value), object: object, warnings: warnings,
      instantiatedClassNames: instantiated)
    result.builtCollections = builtCollections
    result.strictnessFindings = strictness.findings
    return result
  }

  /// What one `$top` key decoded to.
  private enum TopValue {
    /// The key decoded to this object.
    case object(AnyObject)
    /// The key holds `$null`: the decode returns nil without an error.
    case noObject
    /// The decode failed; `failure` says why.
    case failed
  }

  /// What this decode built, for reading its objects without bridging; `BuiltCollections.none`
  /// unless a dictionary has a collection as a key, the one case corelibs cannot bridge.
  ///
  /// The readers keep this unarchiver, and so what it built, alive as long as they live.
  var builtCollections: BuiltCollections {
    guard hasCollectionKeys else { return .none }
    return BuiltCollections(
      entries: { self.builtEntries(of: $0) }, elements: { self.builtElements(of: $0) })
  }

  private func decodeTopValue(_ key: String, allowed: AllowedClassList?) -> TopValue {
    guard let topValue = archive.top[key] else {
      fail(.missingField, "the archive has no \(HarnessDecoder.topKeyText(key))")
      return .failed
    }
    // `$null` under the key: Apple's decodeObject(forKey:) and decodeObject(of:forKey:) return
    // nil without an error, and check no class.
    if case .uid(let uid) = topValue, case .null? = archive.object(at: Int(clamping: uid)) {
      return .noObject
    }
    let object = decodeValue(topValue, allowed: allowed, origin: .root)
    if failure == nil, object == nil {
      fail(.missingField, "the object under \(HarnessDecoder.topKeyText(key)) is $null")
    }
    if failure == nil, let allowed, let leaf = leafKind(of: topValue),
      !allowed.admits(type: leaf.type)
    {
      fail(
        .wrongRootClass,
        "\(HarnessDecoder.topKeyText(key)) is an inline \(leaf.className), not one of the allowed classes "
          + "\(allowed.rendered); Apple's unarchiver returns it and a typed read sees nil")
    }
    if failure == nil, let allowed, let leaf = leafKind(of: topValue) {
      noteAdmitted(leaf.className, type: leaf.type, by: allowed)
    }
    guard failure == nil, let object else { return .failed }
    return .object(object)
  }

  private func rootClassName(forTopKey key: String) -> String {
    if case .uid(let uid)? = archive.top[key], let entry = cache[Int(clamping: uid)] {
      return entry.registered.name
    }
    if let topValue = archive.top[key], let leaf = leafKind(of: topValue) {
      return leaf.className
    }
    return ""
  }

  // MARK: - NSCoder

  // The NSCoder members an app's init?(coder:) reaches, and where this coder overrides them.
  // Darwin is Apple's Foundation (Objective-C NSCoder plus the Swift overlay); corelibs is
  // swift-corelibs-foundation. An overlay or extension method cannot be overridden: it reaches
  // this coder through the Objective-C entry point it calls. CoderOverrideSignatureTests
  // parses the rows and checks every `override` in Sources/HarnessCoder/Decoder against them, so
  // the table and the code cannot drift; keep one member a row.
  //
  // Overridden: both (one declaration, outside any #if), darwin (inside #if canImport(Darwin)),
  // corelibs (inside #if !canImport(Darwin)), macOS and corelibs (inside
  // #if os(macOS) || !canImport(Darwin): not on iOS), each (one declaration in each block), none.
  //
  // | Member | Darwin | corelibs | Overridden |
  // |---|---|---|---|
  // | allowsKeyedCoding | open var: Bool | open var: Bool | both |
  // | requiresSecureCoding | open var: Bool | open var: Bool | both |
  // | decodingFailurePolicy | open var: DecodingFailurePolicy | open internal(set) var | both |
  // | error | open var: (any Error)? | open var: (any Error)? | both |
  // | allowedClasses | open var: Set<AnyHashable>? | open var: [AnyClass]? | each |
  // | failWithError(_:) | open func (any Error) | open func (any Error) | both |
  // | containsValue(forKey:) | open func -> Bool | open func -> Bool | both |
  // | decodeObject(forKey:) | open func -> Any? | open func -> Any? | both |
  // | decodeObject(of:forKey:) | @nonobjc overlay ([AnyClass]?) -> Any? | open func ([AnyClass]?) -> Any? | corelibs |
  // | __decodeObject(ofClasses:forKey:) | open func (Set<AnyHashable>?) -> Any? | absent | darwin |
  // | __decodeArrayOfObjects(ofClasses:forKey:) | open func (Set<AnyHashable>) -> [Any]? (macOS 11, iOS 14) | absent | darwin |
  // | __decodeArrayOfObjects(of:forKey:) | open func (AnyClass) -> [Any]? (macOS 11, iOS 14) | absent | darwin |
  // | __decodeDictionary(withKeysOfClasses:objectsOfClasses:forKey:) | open func (Set<AnyHashable>, Set<AnyHashable>) -> [AnyHashable: Any]? (macOS 11, iOS 14) | absent | darwin |
  // | __decodeDictionary(withKeysOf:objectsOf:forKey:) | open func (AnyClass, AnyClass) -> [AnyHashable: Any]? (macOS 11, iOS 14) | absent | darwin |
  // | decodeObject(of:forKey:) generic T.Type | overlay, calls decodeObjectOfClass:forKey:, NSCoder's forwards to decodeObjectOfClasses:forKey: (unverified) | open func, calls decodeObject(of: [cls]) | none |
  // | decodeArrayOfObjects(ofClass:forKey:) and (ofClasses:) | @nonobjc overlay, calls the __ entry points | absent | none |
  // | decodeDictionary(withKeysOfClass:objectsOfClass:forKey:) and (ofClasses:) | @nonobjc overlay, calls the __ entry points | absent | none |
  // | decodeTopLevelObject(...) | @nonobjc overlay, calls decodeTopLevelObject…:error: | unavailable | none |
  // | decodePropertyList(forKey:) | open func -> Any? | open func -> Any? | both |
  // | decodeBool(forKey:) | open func -> Bool | open func -> Bool | both |
  // | decodeInteger(forKey:) | open func -> Int | open func -> Int | both |
  // | decodeInt64(forKey:) | open func -> Int64 | open func -> Int64 | both |
  // | decodeInt32(forKey:) | open func -> Int32 | open func -> Int32 | both |
  // | decodeCInt(forKey:) | open func -> Int32 | open func -> Int32 | both |
  // | decodeDouble(forKey:) | open func -> Double | open func -> Double | both |
  // | decodeFloat(forKey:) | open func -> Float | open func -> Float | both |
  // | decodeBytes(forKey:returnedLength:) | open func (UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt8>? | commented out (absent) | darwin |
  // | decodeBytes(forKey:minimumLength:) | open func, NSCoder's base reads decodeBytes(forKey:returnedLength:) | absent | none |
  // | withDecodedUnsafeBufferPointer(forKey:body:) | absent | open func, deprecated | corelibs |
  // | withDecodedUnsafeBytes(forKey:body:) | absent | open func (UnsafeRawBufferPointer?) | corelibs |
  // | decodeValue(ofObjCType:at:) | open func (UnsafePointer<CChar>, UnsafeMutableRawPointer), deprecated | open func, same | both |
  // | decodeValue(ofObjCType:at:size:) | open func (macOS 10.13, iOS 11) | absent | darwin |
  // | decodeData() | open func -> Data? | open func -> Data? | both |
  // | decodePropertyList() | open func -> Any? (macOS only) | open func -> Any? | macOS and corelibs |
  // | decodeObject() | open func -> Any?, base reads decodeValue(ofObjCType:at:) | open func, same | none |
  // | decodeBytes(withReturnedLength:) | open func, base reads decodeValue(ofObjCType:at:) | commented out (absent) | none |
  // | version(forClassName:) | open func -> Int | open func -> Int | both |
  // | systemVersion | open var: UInt32 | open var: UInt32 | none |

  /// Always `true`: keyed archives only.
  package override var allowsKeyedCoding: Bool { true }

  /// Whether this is the secure path, where every decode must name its allowed classes.
  package override var requiresSecureCoding: Bool { secure }

  /// Always `.setErrorAndReturn`: a failure is recorded in `error`, never raised.
  package override var decodingFailurePolicy: NSCoder.DecodingFailurePolicy { .setErrorAndReturn }

  /// The first failure of the decode, as `failWithError(_:)` or the coder itself recorded it.
  package override var error: (any Error)? { failureError }

  /// The classes the current decode call allows, or nil outside a secure decode.
  var currentAllowedTypes: [AnyClass]? {
    guard let current = callAllowed.last ?? topLevelAllowed else { return nil }
    return current.names.compactMap { registry.registeredClass(named: $0)?.type }
  }

  #if canImport(Darwin)
    /// The classes the current decode call allows, as the app's `init?(coder:)` sees them.
    package override var allowedClasses: Set<AnyHashable>? {
      // NSCoder's own answer is a set of class objects; NSSet bridges to it on Darwin.
      currentAllowedTypes.flatMap { NSSet(array: $0.map { $0 as AnyObject }) as? Set<AnyHashable> }
    }
  #else
    /// The classes the current decode call allows, as the app's `init?(coder:)` sees them.
    package override var allowedClasses: [AnyClass]? { currentAllowedTypes }
  #endif

  /// Records a decoder's failure; the first one is kept and reported as `init-failed`.
  package override func failWithError(_ error: any Error) {
    guard failure == nil else { return }
    let className = contexts.last?.className ?? "?"
    let nsError = error as NSError
    let reason =
      (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    fail(.initFailed, "init?(coder:) of '\(className)' failed: \(reason)", error: nsError)
  }

  /// Whether the current object's archive holds a value for the key.
  package override func containsValue(forKey key: String) -> Bool {
    contexts.last?.fields[key] != nil
  }

  /// Decodes the object under a key without class checks (the legacy call).
  package override func decodeObject(forKey key: String) -> Any? {
    if secure {
      noteUntypedDecode(forKey: key)
      failAt(
        key, .notSecureCoding,
        "plain decodeObject(forKey:) under secure coding; use decodeObject(of:forKey:)")
      return nil
    }
    return decodeField(key, allowed: nil)
  }

  #if canImport(Darwin)
    /// Decodes the object under a key, allowing only the given classes (the secure call).
    ///
    /// The Objective-C `decodeObjectOfClasses:forKey:`, which the overlay's
    /// `decodeObject(of:forKey:)` calls (its NSCoderShims.h). `decodeObject(of: T.self,
    /// forKey:)` calls `decodeObjectOfClass:forKey:`, which Swift cannot name; NSCoder's own
    /// implementation is expected to forward it here (unverified here: no Mac).
    package override func __decodeObject(ofClasses classes: Set<AnyHashable>?, forKey key: String)
      -> Any?
    {
      decodeObject(allowing: classes.map(Self.classList), forKey: key)
    }

    /// Decodes an array under a key whose elements are of the given classes.
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    package override func __decodeArrayOfObjects(
      ofClasses classes: Set<AnyHashable>, forKey key: String
    ) -> [Any]? {
      decodeArray(allowing: Self.classList(classes), forKey: key)
    }

    /// Decodes an array under a key whose elements are of the given class.
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    package override func __decodeArrayOfObjects(of cls: AnyClass, forKey key: String) -> [Any]? {
      decodeArray(allowing: [cls], forKey: key)
    }

    /// Decodes a dictionary under a key whose keys and values are of the given classes.
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    package override func __decodeDictionary(
      withKeysOfClasses keyClasses: Set<AnyHashable>,
      objectsOfClasses objectClasses: Set<AnyHashable>, forKey key: String
    ) -> [AnyHashable: Any]? {
      decodeDictionary(
        allowing: Self.classList(keyClasses) + Self.classList(objectClasses), forKey: key)
    }

    /// Decodes a dictionary under a key whose keys and values are of the given classes.
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    package override func __decodeDictionary(
      withKeysOf keyCls: AnyClass, objectsOf objectCls: AnyClass, forKey key: String
    ) -> [AnyHashable: Any]? {
      decodeDictionary(allowing: [keyCls, objectCls], forKey: key)
    }

    /// The classes of an Objective-C class set, as the overlay builds it from `[AnyClass]`.
    private static func classList(_ classes: Set<AnyHashable>) -> [AnyClass] {
      classes.compactMap { $0.base as? AnyClass }
    }

    private func decodeArray(allowing classes: [AnyClass], forKey key: String) -> [Any]? {
      guard let object = decodeObject(allowing: classes + [NSArray.self], forKey: key) else {
        return nil
      }
      guard let array = object as? NSArray else {
        failAt(
          key, .typeMismatch, "value is a \(ObjectDescriber.className(of: object)), not an array")
        return nil
      }
      return Array(array)
    }

    private func decodeDictionary(allowing classes: [AnyClass], forKey key: String)
      -> [AnyHashable: Any]?
    {
      guard let object = decodeObject(allowing: classes + [NSDictionary.self], forKey: key) else {
        return nil
      }
      // Darwin bridges every NSDictionary to a Swift dictionary; the cast is conditional in form only.
      guard object is NSDictionary, let dictionary = object as? [AnyHashable: Any] else {
        failAt(
          key, .typeMismatch,
          "value is a \(ObjectDescriber.className(of: object)), not a dictionary")
        return nil
      }
      return dictionary
    }
  #else
    /// Decodes the object under a key, allowing only the given classes (the secure call).
    package override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? {
      decodeObject(allowing: classes, forKey: key)
    }
  #endif

  /// The secure call's logic, which each platform's entry point reaches.
  ///
  /// - Parameters:
  ///   - classes: The classes the call allows.
  ///   - key: The key.
  ///   - ownList: Whether the app wrote the list (strictness findings are about it), rather
  ///     than Foundation (`decodePropertyList(forKey:)`).
  /// - Returns: The object, or nil.
  private func decodeObject(allowing classes: [AnyClass]?, forKey key: String, ownList: Bool = true)
    -> Any?
  {
    guard secure else { return decodeField(key, allowed: nil) }
    var list = AllowedClassList(types: classes ?? [])
    if ownList, let decoder = contexts.last?.className {
      list = list.owned(by: .call(decoder: decoder, key: key))
    }
    return decodeField(key, allowed: list)
  }

  /// Decodes a property-list object under a key.
  package override func decodePropertyList(forKey key: String) -> Any? {
    let plistClasses: [AnyClass] = [
      NSString.self, NSNumber.self, NSData.self, NSDate.self, NSArray.self, NSDictionary.self,
    ]
    return decodeObject(allowing: plistClasses, forKey: key, ownList: false)
  }

  /// Decodes a Boolean under a key; a missing or mistyped value is `false` and is recorded.
  package override func decodeBool(forKey key: String) -> Bool {
    switch scalar(key) {
    case .bool(let value)?: return value
    case .integer(let value)?: return value != 0
    case nil: return false
    case let other?:
      mismatch(key, other, expected: "a boolean")
      return false
    }
  }

  /// Decodes an integer under a key.
  package override func decodeInteger(forKey key: String) -> Int {
    Int(integer(key, range: Int64(Int.min)...Int64(Int.max), typeName: "Int"))
  }

  /// Decodes a 64-bit integer under a key.
  package override func decodeInt64(forKey key: String) -> Int64 {
    integer(key, range: Int64.min...Int64.max, typeName: "Int64")
  }

  /// Decodes a 32-bit integer under a key.
  package override func decodeInt32(forKey key: String) -> Int32 {
    Int32(integer(key, range: Int64(Int32.min)...Int64(Int32.max), typeName: "Int32"))
  }

  /// Decodes a C `int` under a key.
  package override func decodeCInt(forKey key: String) -> Int32 {
    decodeInt32(forKey: key)
  }

  /// Decodes a double-precision real under a key.
  package override func decodeDouble(forKey key: String) -> Double {
    switch scalar(key) {
    case .real(let value)?: return value
    case .integer(let value)?: return Double(value)
    case .unsignedInteger(let value)?: return Double(value)
    case nil: return 0
    case let other?:
      mismatch(key, other, expected: "a number")
      return 0
    }
  }

  /// Decodes a single-precision real under a key.
  package override func decodeFloat(forKey key: String) -> Float {
    Float(decodeDouble(forKey: key))
  }

  /// The bytes archived under a key: nil when there are none, or when the value is not data,
  /// which is recorded as a type mismatch.
  private func archivedBytes(forKey key: String) -> [UInt8]? {
    switch scalar(key) {
    case .data(let bytes)?:
      return bytes
    case nil:
      return nil
    case let other?:
      mismatch(key, other, expected: "data")
      return nil
    }
  }

  #if canImport(Darwin)
    /// Returns the bytes archived under a key and writes their count to `lengthp`; the bytes
    /// stay valid as long as this coder lives, as Apple's unarchiver keeps them.
    ///
    /// NSCoder's own implementation raises an Objective-C exception; corelibs has no such call.
    package override func decodeBytes(
      forKey key: String, returnedLength lengthp: UnsafeMutablePointer<Int>?
    ) -> UnsafePointer<UInt8>? {
      lengthp?.pointee = 0
      guard let bytes = archivedBytes(forKey: key) else { return nil }
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
      _ = buffer.initialize(from: bytes)
      keptBytes.append(buffer)
      lengthp?.pointee = bytes.count
      return buffer.baseAddress.map { UnsafePointer($0) }
    }

    /// Unsupported: keyed archives hold no Objective-C typed values; the failure is recorded.
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    package override func decodeValue(
      ofObjCType type: UnsafePointer<CChar>, at data: UnsafeMutableRawPointer, size: Int
    ) {
      unkeyed()
    }
  #else
    // Deprecated corelibs spelling of withDecodedUnsafeBytes; its base traps.
    /// Calls `body` with the bytes archived under a key, or nil when there are none.
    package override func withDecodedUnsafeBufferPointer<ResultType>(
      forKey key: String, body: (UnsafeBufferPointer<UInt8>?) throws -> ResultType
    ) rethrows -> ResultType {
      try withDecodedUnsafeBytes(forKey: key) { raw in
        try body(raw.map { $0.assumingMemoryBound(to: UInt8.self) })
      }
    }

    // A swift-corelibs-foundation experiment with no Darwin counterpart; it stands in for
    // decodeBytes(forKey:returnedLength:), which corelibs leaves commented out.
    /// Calls `body` with the bytes archived under a key, or nil when there are none.
    package override func withDecodedUnsafeBytes<ResultType>(
      forKey key: String, body: (UnsafeRawBufferPointer?) throws -> ResultType
    ) rethrows -> ResultType {
      guard let bytes = archivedBytes(forKey: key) else { return try body(nil) }
      return try bytes.withUnsafeBytes { try body($0) }
    }
  #endif

  /// Unsupported: keyed archives hold no Objective-C typed values; the failure is recorded.
  package override func decodeValue(
    ofObjCType type: UnsafePointer<CChar>, at data: UnsafeMutableRawPointer
  ) {
    unkeyed()
  }

  /// Unsupported outside keyed coding; the failure is recorded and the result is nil.
  package override func decodeData() -> Data? {
    unkeyed()
    return nil
  }

  #if os(macOS) || !canImport(Darwin)
    /// Unsupported outside keyed coding; the failure is recorded and the result is nil.
    ///
    /// NSCoder declares `decodePropertyList()` on macOS and in swift-corelibs-foundation only.
    package override func decodePropertyList() -> Any? {
      unkeyed()
      return nil
    }
  #endif

  /// Always 0: keyed archives record no class versions.
  package override func version(forClassName className: String) -> Int { 0 }

  // MARK: - Fields

  private func unkeyed() {
    fail(.malformed, "unkeyed decoding is not supported by keyed archives")
  }

  private func decodeField(_ key: String, allowed: AllowedClassList?) -> AnyObject? {
    guard failure == nil else { return nil }
    guard !contexts.isEmpty else {
      fail(.malformed, "decodeObject(forKey: '\(key)') called outside init?(coder:)")
      return nil
    }
    let index = contexts.count - 1
    guard let value = contexts[index].fields[key] else {
      contexts[index].missingKeys.append(key)
      return nil
    }
    callAllowed.append(allowed)
    path.append(.key(key))
    defer {
      callAllowed.removeLast()
      path.removeLast()
    }
    return decodeValue(value, allowed: allowed, origin: .call)
  }

  private func scalar(_ key: String) -> PropertyListValue? {
    guard failure == nil, let value = contexts.last?.fields[key] else { return nil }
    return value
  }

  private func integer(_ key: String, range: ClosedRange<Int64>, typeName: String) -> Int64 {
    let value: Int64
    switch scalar(key) {
    case .integer(let integer)?:
      value = integer
    case .bool(let bool)?:
      value = bool ? 1 : 0
    case .real(let real)?:
      guard let exact = Int64(exactly: real.rounded(.towardZero)) else {
        failAt(key, .typeMismatch, "value \(real) does not fit in \(typeName)")
        return 0
      }
      value = exact
    case .unsignedInteger(let unsigned)?:
      failAt(key, .typeMismatch, "value \(unsigned) does not fit in \(typeName)")
      return 0
    case nil:
      return 0
    case let other?:
      mismatch(key, other, expected: "an integer")
      return 0
    }
    guard range.contains(value) else {
      failAt(key, .typeMismatch, "value \(value) does not fit in \(typeName)")
      return 0
    }
    return value
  }

  private func mismatch(_ key: String, _ value: PropertyListValue, expected: String) {
    let found = value.uidValue == nil ? "a \(value.typeName)" : "an object reference"
    failAt(key, .typeMismatch, "value is \(found), not \(expected)")
  }

  // MARK: - Objects

  func decodeValue(
    _ value: PropertyListValue, allowed: AllowedClassList?, origin: Origin
  ) -> AnyObject? {
    guard failure == nil else { return nil }
    if case .uid(let uid) = value {
      guard uid <= UInt64(Int.max) else {
        fail(.malformed, "UID \(uid) is out of range")
        return nil
      }
      return decodeReference(Int(uid), allowed: allowed, origin: origin)
    }
    if secure, origin != .root, let allowed, let leaf = leafKind(of: value) {
      if allowed.admits(type: leaf.type) {
        noteAdmitted(leaf.className, type: leaf.type, by: allowed)
      } else {
        noteImplicitLeaf(leaf, allowed: allowed, origin: origin)
      }
    }
    switch value {
    case .string(let string): return NSString(string: string)
    case .integer(let integer): return NSNumber(value: integer)
    case .unsignedInteger(let unsigned): return NSNumber(value: unsigned)
    case .real(let real): return NSNumber(value: real)
    case .bool(let bool): return NSNumber(value: bool)
    case .date(let seconds): return NSDate(timeIntervalSinceReferenceDate: seconds)
    case .data(let bytes): return NSData(bytes: bytes, length: bytes.count)
    case .uid, .array, .dictionary:
      fail(.typeMismatch, "value is an inline \(value.typeName), not an object reference")
      return nil
    }
  }

  /// The Foundation class of an inline property-list leaf, following one UID into `$objects`.
  func leafKind(of value: PropertyListValue) -> FoundationValueKind? {
    switch value {
    case .string: return .string
    case .integer, .unsignedInteger, .real, .bool: return .number
    case .data: return .data
    case .date: return .date
    case .uid(let uid):
      guard case .value(let inner)? = archive.object(at: Int(clamping: uid)),
        inner.uidValue == nil
      else { return nil }
      return leafKind(of: inner)
    case .array, .dictionary: return nil
    }
  }

  private func noteImplicitLeaf(
    _ kind: FoundationValueKind, allowed: AllowedClassList, origin: Origin
  ) {
    let leaf = kind.className
    if origin == .call, !contexts.isEmpty, contexts[contexts.count - 1].leafMismatch == nil {
      contexts[contexts.count - 1].leafMismatch =
        "\(renderedPath) is an inline \(leaf), not one of \(allowed.rendered)"
    }
    strictness.implicit(leaf, by: allowed, at: renderedPath)
    if warned.insert("leaf:" + leaf).inserted {
      warnings.append(
        "\(mode): \(renderedPath): inline \(leaf) decoded although the allowed classes "
          + "\(allowed.rendered) do not list it; Apple allows property-list leaves implicitly "
          + "and logs that this will be disallowed in the future")
    }
  }

  private func decodeReference(
    _ uid: Int, allowed: AllowedClassList?, origin: Origin
  ) -> AnyObject? {
    guard let object = archive.object(at: uid) else {
      fail(.malformed, "UID \(uid) is past the end of $objects")
      return nil
    }
    switch object {
    case .null:
      return nil
    case .value(let value):
      if value.uidValue != nil || value.arrayValue != nil || value.dictionaryValue != nil {
        fail(.malformed, "$objects[\(uid)] is a bare \(value.typeName), not an object")
        return nil
      }
      return decodeValue(value, allowed: allowed, origin: origin)
    case .classDescription:
      fail(.malformed, "UID \(uid) names a class description, not an object")
      return nil
    case .instance(let instance):
      return decodeInstance(
        instance, uid: uid, allowed: allowed, origin: origin)
    }
  }

  private func decodeInstance(
    _ instance: ArchiveInstance, uid: Int, allowed: AllowedClassList?, origin: Origin
  ) -> AnyObject? {
    if let cached = cache[uid] {
      if let resolution = resolutions[instance.classIndex]?.resolution,
        !passesChecks(cached.registered, resolution, allowed, origin: origin)
      {
        return nil
      }
      return cached.object
    }
    if inProgress.contains(uid) {
      fail(
        .cycle,
        "object \(uid) ('\(instance.className)') refers back to an object still being decoded")
      return nil
    }
    guard inProgress.count < maximumDepth else {
      fail(.limitExceeded, "objects nest deeper than \(maximumDepth) levels")
      return nil
    }
    guard let (resolution, registered) = resolve(instance) else {
      let chain = instance.archiveClass.chain
      let chainText = chain.isEmpty ? "" : " (archived chain: \(chain.joined(separator: ", ")))"
      let keys = instance.fields.keys.filter { $0 != "$class" }
      let shown = keys.prefix(UnknownClassReport.maximumFieldKeys)
      let fieldText =
        keys.isEmpty
        ? "; it archives no fields"
        : "; its archived fields: " + shown.joined(separator: ", ")
          + (keys.count > shown.count ? ", …" : "")
      let message: String
      if let target = classMap.unregisteredTarget(for: instance.className, in: registry) {
        message =
          "class '\(instance.className)' maps to '\(target)' by the class map, but '\(target)' "
          + "is not a registered class" + chainText + fieldText + "; register '\(target)' in your "
          + "harness executable (HarnessConfiguration(modelClasses:)), or map "
          + "'\(instance.className)' to a class it registers"
      } else {
        message =
          "class '\(instance.className)' is not registered and no class map entry matches it"
          + chainText + fieldText + "; " + UnknownClassReport.hint(for: instance.className)
      }
      fail(.unmappedClass, message)
      return nil
    }
    guard passesChecks(registered, resolution, allowed, origin: origin) else {
      return nil
    }
    if resolution.isFromSuperclassChain, warned.insert("chain:" + resolution.archivedName).inserted
    {
      warnings.append(
        "\(mode): \(renderedPath): class \(resolution) is not registered itself; it is "
          + "decoded as the registered class its archived superclass names")
    }
    inProgress.insert(uid)
    defer { inProgress.remove(uid) }
    if instantiatedSet.insert(ObjectIdentifier(registered.type)).inserted {
      instantiated.append(registered.name)
    }
    let result: AnyObject?
    if let kind = registered.foundationKind {
      result = buildFoundationValue(kind, instance, allowed: allowed)
    } else {
      result = runInitializer(registered, instance)
    }
    if let result, failure == nil {
      cache[uid] = (result, registered)
      return result
    }
    return nil
  }

  func resolve(_ instance: ArchiveInstance) -> (ClassResolution, RegisteredClass)? {
    if let cached = resolutions[instance.classIndex] { return cached }
    let chain = instance.archiveClass.chain
    let superclasses = chain.first == instance.className ? Array(chain.dropFirst()) : chain
    guard
      let resolution = classMap.resolve(
        className: instance.className, superclassNames: superclasses, in: registry),
      let registered = registry.registeredClass(named: resolution.registeredName)
    else { return nil }
    resolutions[instance.classIndex] = (resolution, registered)
    return (resolution, registered)
  }

  private func passesChecks(
    _ registered: RegisteredClass, _ resolution: ClassResolution, _ allowed: AllowedClassList?,
    origin: Origin
  ) -> Bool {
    guard secure else {
      guard registered.conformsToCoding else {
        fail(.notSecureCoding, "class \(resolution) does not conform to NSCoding")
        return false
      }
      return true
    }
    let list = allowed ?? AllowedClassList(types: [])
    guard list.admits(registered) else {
      let category: RejectionCategory = origin == .root ? .wrongRootClass : .classNotAllowed
      let subject = origin == .element ? "container element class" : "class"
      fail(
        category,
        "\(subject) \(resolution) is not in the allowed classes \(list.rendered)")
      return false
    }
    guard registered.supportsSecureCoding else {
      fail(
        .notSecureCoding,
        "class \(resolution) does not adopt NSSecureCoding with supportsSecureCoding = true")
      return false
    }
    if list.listsNSObject {
      strictness.admitted(
        registered.name, by: list, onlyThroughNSObject: !list.withoutNSObject.admits(registered),
        at: renderedPath)
    }
    if origin == .call, registered.foundationKind == nil, let top = topLevelAllowed,
      !top.admits(registered), warned.insert(registered.name).inserted
    {
      warnings.append(
        "\(mode): \(renderedPath): class '\(registered.name)' passes its own decodeObject(of:forKey:) "
          + "call but is not in the top-level allowed classes \(top.rendered); SAP's migration "
          + "guide lists nested classes there too")
    }
    return true
  }

  private func runInitializer(_ registered: RegisteredClass, _ instance: ArchiveInstance)
    -> AnyObject?
  {
    guard let codingType = registered.type as? any NSCoding.Type else {
      fail(.notSecureCoding, "class '\(registered.name)' does not conform to NSCoding")
      return nil
    }
    contexts.append(Context(fields: instance.fields, className: registered.name))
    let object = codingType.init(coder: self)
    let context = contexts.removeLast()
    if failure != nil { return nil }
    guard let object else {
      if let mismatch = context.leafMismatch {
        fail(.typeMismatch, "init?(coder:) of '\(registered.name)' returned nil; \(mismatch)")
      } else if let key = context.missingKeys.first {
        failAt(
          key, .missingField,
          "init?(coder:) of '\(registered.name)' returned nil; key '\(key)' is absent")
      } else {
        fail(.initReturnedNil, "init?(coder:) of '\(registered.name)' returned nil")
      }
      return nil
    }
    return object as AnyObject
  }

  // MARK: - Failures

  var renderedPath: String {
    var text = pathRoot
    for element in path {
      switch element {
      case .key(let key): text += "." + key
      case .index(let index): text += "[\(index)]"
      case .dictionaryValue(let key): text += "[\(Self.render(key))]"
      }
    }
    return text
  }

  func failAt(
    _ key: String, _ category: RejectionCategory, _ detail: String, error: NSError? = nil
  ) {
    path.append(.key(key))
    fail(category, detail, error: error)
    path.removeLast()
  }

  func fail(_ category: RejectionCategory, _ detail: String, error: NSError? = nil) {
    guard failure == nil else { return }
    let keyPath = renderedPath
    let message = "\(mode): \(keyPath): \(detail)"
    failure = DecodeRejection(category: category, keyPath: keyPath, message: message)
    failureError =
      error
      ?? NSError(
        domain: NSCocoaErrorDomain,
        code: category == .missingField
          ? CocoaError.coderValueNotFound.rawValue : CocoaError.coderReadCorrupt.rawValue,
        userInfo: [NSDebugDescriptionErrorKey: message])
  }
}
