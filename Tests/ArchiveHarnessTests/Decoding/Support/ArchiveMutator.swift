import ArchiveFormat

/// A deterministic pseudo-random generator (SplitMix64) for reproducible mutations.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}

/// Structural mutations of a keyed archive's `$objects`: references, types, keys, class names.
struct ArchiveMutator {
  static let classNamePool = [
    "NSArray", "NSMutableArray", "NSDictionary", "NSString", "NSMutableString", "NSObject",
    "NSNull", "NSURL", "NSUUID", "NSDate", "ProfilesApp.Memo", "ProfilesApp.Address",
    "ProfilesApp.UserProfile", "Unknown.Class",
  ]

  var objects: [PropertyListValue]
  var generator: SplitMix64

  /// Applies one to three mutations.
  mutating func mutate() {
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
      mutateOnce()
    }
  }

  private mutating func mutateOnce() {
    let index = Int.random(in: 1..<objects.count, using: &generator)
    let count = UInt64(objects.count)
    switch Int.random(in: 0..<6, using: &generator) {
    case 0:
      objects[index] = rewriteOneUID(
        objects[index], to: UInt64.random(in: 0...count, using: &generator))
    case 1:
      objects[index] = rewriteOneUID(objects[index], to: UInt64(index))
    case 2:
      guard case .dictionary(var dictionary) = objects[index],
        let key = dictionary.keys.randomElement(using: &generator)
      else { return }
      dictionary[key] = nil
      objects[index] = .dictionary(dictionary)
    case 3:
      guard case .dictionary(var dictionary) = objects[index], dictionary["$classname"] != nil
      else { return }
      let name = Self.classNamePool.randomElement(using: &generator) ?? "NSObject"
      dictionary["$classname"] = .string(name)
      if Bool.random(using: &generator) {
        dictionary["$classes"] = .array([.string(name), .string("NSObject")])
      }
      objects[index] = .dictionary(dictionary)
    case 4:
      guard case .dictionary(var dictionary) = objects[index],
        let key = dictionary.keys.randomElement(using: &generator), !key.hasPrefix("$")
      else { return }
      let replacements: [PropertyListValue] = [
        .string("x"), .integer(-1), .integer(Int64.max), .bool(true), .data([0xFF]), .real(.nan),
        .array([.uid(1)]), .dictionary(PropertyListDictionary()),
      ]
      dictionary[key] = replacements.randomElement(using: &generator)
      objects[index] = .dictionary(dictionary)
    default:
      let other = Int.random(in: 1..<objects.count, using: &generator)
      objects.swapAt(index, other)
    }
  }

  private mutating func rewriteOneUID(_ value: PropertyListValue, to target: UInt64)
    -> PropertyListValue
  {
    switch value {
    case .uid: return .uid(target)
    case .array(var elements):
      guard !elements.isEmpty else { return value }
      let position = Int.random(in: 0..<elements.count, using: &generator)
      elements[position] = rewriteOneUID(elements[position], to: target)
      return .array(elements)
    case .dictionary(var dictionary):
      guard let key = dictionary.keys.randomElement(using: &generator), let inner = dictionary[key]
      else { return value }
      dictionary[key] = rewriteOneUID(inner, to: target)
      return .dictionary(dictionary)
    default: return value
    }
  }

  /// The archive bytes with the original `$top`.
  func bytes(root: PropertyListValue) -> [UInt8] {
    BinaryPropertyListWriter().write(
      .dictionary(
        PropertyListDictionary([
          ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
          ("$top", .dictionary(PropertyListDictionary([("root", root)]))),
          ("$objects", .array(objects)),
        ])))
  }
}
