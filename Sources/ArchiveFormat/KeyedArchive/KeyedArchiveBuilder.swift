/// Writes Apple-shaped keyed archives from a compact description, with the project's own writer.
///
/// Strings are stored in `$objects` and referenced by UID, arrays as
/// `NS.objects`, and class chains end in `NSObject`, as NSKeyedArchiver on
/// Apple platforms writes them.
///
/// ```swift
/// var builder = KeyedArchiveBuilder()
/// let street = builder.string("1 Main St")
/// let address = builder.object("ProfilesApp.Address", [("street", street)])
/// builder.setRoot(address)
/// let bytes = builder.bytes()
/// ```
package struct KeyedArchiveBuilder: Sendable {
  /// The objects written so far (index 0 is `$null`).
  package private(set) var objects: [PropertyListValue] = [.string("$null")]
  /// The `$top` entries.
  package var top = PropertyListDictionary()
  private var classes: [String: UInt64] = [:]

  /// Creates an empty archive builder.
  package init() {}

  /// A reference to `$null`.
  package static let null: PropertyListValue = .uid(0)

  /// Adds a raw object and returns a reference to it.
  package mutating func add(_ value: PropertyListValue) -> PropertyListValue {
    objects.append(value)
    return .uid(UInt64(objects.count - 1))
  }

  /// Reserves an object slot to fill later (for cycles), returning its reference.
  package mutating func reserve() -> PropertyListValue {
    add(.string("$placeholder"))
  }

  /// Fills a reserved slot.
  package mutating func fill(_ reference: PropertyListValue, with value: PropertyListValue) {
    guard case .uid(let index) = reference else { return }
    objects[Int(index)] = value
  }

  /// Adds a string object and returns a reference to it.
  package mutating func string(_ text: String) -> PropertyListValue {
    add(.string(text))
  }

  /// Returns the reference to a class description, adding it once per name.
  ///
  /// - Parameters:
  ///   - name: The class name.
  ///   - chain: The `$classes` to write; by default the name then `NSObject`.
  /// - Returns: The UID of the class description.
  package mutating func classReference(_ name: String, chain: [String]? = nil) -> PropertyListValue
  {
    let fullChain = chain ?? (name == "NSObject" ? ["NSObject"] : [name, "NSObject"])
    let key = name + "|" + fullChain.joined(separator: ",")
    if let existing = classes[key] { return .uid(existing) }
    let reference = add(
      .dictionary([
        "$classes": .array(fullChain.map(PropertyListValue.string)), "$classname": .string(name),
      ]))
    if case .uid(let index) = reference { classes[key] = index }
    return reference
  }

  /// The instance dictionary for a class and fields, for filling a reserved slot.
  package mutating func instanceValue(
    _ className: String, chain: [String]? = nil, _ fields: [(String, PropertyListValue)]
  ) -> PropertyListValue {
    var dictionary = PropertyListDictionary()
    for (key, value) in fields {
      dictionary[key] = value
    }
    dictionary["$class"] = classReference(className, chain: chain)
    return .dictionary(dictionary)
  }

  /// Adds an instance, with its fields in the order given, and returns a reference to it.
  package mutating func object(
    _ className: String, chain: [String]? = nil, _ fields: [(String, PropertyListValue)]
  ) -> PropertyListValue {
    let slot = reserve()
    fill(slot, with: instanceValue(className, chain: chain, fields))
    return slot
  }

  /// Adds an `NSArray` (or another collection class) of references.
  package mutating func array(_ elements: [PropertyListValue], className: String = "NSArray")
    -> PropertyListValue
  {
    let chain = className == "NSMutableArray" ? ["NSMutableArray", "NSArray", "NSObject"] : nil
    return object(className, chain: chain, [("NS.objects", .array(elements))])
  }

  /// Adds an `NSDictionary` of references.
  package mutating func dictionary(keys: [PropertyListValue], values: [PropertyListValue])
    -> PropertyListValue
  {
    object("NSDictionary", [("NS.keys", .array(keys)), ("NS.objects", .array(values))])
  }

  /// Sets `$top.root`.
  package mutating func setRoot(_ reference: PropertyListValue) {
    top["root"] = reference
  }

  /// The archive as a property list.
  package var propertyList: PropertyListValue {
    .dictionary([
      "$version": .integer(100_000),
      "$archiver": .string("NSKeyedArchiver"),
      "$top": .dictionary(top),
      "$objects": .array(objects),
    ])
  }

  /// The archive as binary property-list bytes.
  package func bytes() -> [UInt8] {
    BinaryPropertyListWriter().write(propertyList)
  }
}
