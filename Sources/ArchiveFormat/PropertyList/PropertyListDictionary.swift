/// A dictionary with string keys that keeps its entries in the order they were read or inserted.
///
/// Order matters: writing a dictionary back keeps the entries where they were,
/// so reading, writing and reading again gives an equal value.
public struct PropertyListDictionary: Hashable, Sendable {
  /// The entries, in order; keys are unique.
  public private(set) var entries: [(key: String, value: PropertyListValue)]

  /// Creates an empty dictionary.
  public init() {
    entries = []
  }

  /// Creates a dictionary from entries; a repeated key keeps its first place and its last value.
  public init(_ entries: [(key: String, value: PropertyListValue)]) {
    self.entries = []
    self.entries.reserveCapacity(entries.count)
    for entry in entries {
      self[entry.key] = entry.value
    }
  }

  /// The number of entries.
  public var count: Int { entries.count }

  /// The keys, in order.
  public var keys: [String] { entries.map(\.key) }

  /// The value for a key, or `nil`; setting `nil` removes the entry.
  ///
  /// Lookup is linear: keyed-archive objects hold a handful of keys, and a
  /// linear scan beats hashing at that size.
  public subscript(key: String) -> PropertyListValue? {
    get {
      for entry in entries where entry.key == key {
        return entry.value
      }
      return nil
    }
    set {
      if let index = entries.firstIndex(where: { $0.key == key }) {
        if let newValue {
          entries[index].value = newValue
        } else {
          entries.remove(at: index)
        }
      } else if let newValue {
        entries.append((key, newValue))
      }
    }
  }

  /// Appends an entry without checking for a repeated key: the caller guarantees the key is new.
  public mutating func appendUnchecked(key: String, value: PropertyListValue) {
    entries.append((key, value))
  }

  /// Replaces the value of the entry at a position, keeping its key and place; readers use it for repeated keys.
  package mutating func replaceValue(at position: Int, with value: PropertyListValue) {
    entries[position].value = value
  }

  /// Reserves room for entries.
  public mutating func reserveCapacity(_ capacity: Int) {
    entries.reserveCapacity(capacity)
  }

  /// Whether two dictionaries hold the same keys and values in the same order.
  public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
    guard lhs.entries.count == rhs.entries.count else { return false }
    for (left, right) in zip(lhs.entries, rhs.entries) {
      guard left.key == right.key, left.value == right.value else { return false }
    }
    return true
  }

  /// Hashes the entries in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(entries.count)
    for entry in entries {
      hasher.combine(entry.key)
      hasher.combine(entry.value)
    }
  }
}

extension PropertyListDictionary: ExpressibleByDictionaryLiteral {
  /// Creates a dictionary from key-value pairs, in order.
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self.init(elements.map { (key: $0.0, value: $0.1) })
  }
}
