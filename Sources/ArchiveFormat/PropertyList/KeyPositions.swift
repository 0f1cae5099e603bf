/// Where each key of a dictionary being read first stood, so that a repeated key keeps its
/// first place and takes its last value, as every reader of the package merges them.
///
/// A large dictionary (over 16 members) looks places up in a map and a small one scans what
/// it has built: a scan per repeat would make many repeated keys quadratic, and a map for a
/// handful of keys costs more than the scan.
///
/// ```swift
/// var places = KeyPositions(count: count)
/// if let earlier = places.earlier(name, next: members.count, scan: {
///   members.firstIndex { $0.key == name }
/// }) {
///   members[earlier].value = value
/// } else {
///   members.append((name, value))
/// }
/// ```
package struct KeyPositions {
  private let indexed: Bool
  private var positions: [String: Int]

  /// Places for a dictionary of `count` members.
  package init(count: Int) {
    indexed = count > 16
    positions = indexed ? Dictionary(minimumCapacity: count) : [:]
  }

  /// The place of an earlier member named `key`, or `nil` for a new key, which is then
  /// recorded at `next` (the place it is about to be appended at).
  ///
  /// - Parameters:
  ///   - key: The member's name.
  ///   - next: Where the member goes when its key is new.
  ///   - scan: Finds an earlier member by scanning what was built; used for small dictionaries.
  /// - Returns: The earlier member's place, or `nil` when the key is new.
  @inline(__always)
  package mutating func earlier(_ key: String, next: Int, scan: () -> Int?) -> Int? {
    guard indexed else { return scan() }
    if let place = positions[key] { return place }
    positions[key] = next
    return nil
  }
}
