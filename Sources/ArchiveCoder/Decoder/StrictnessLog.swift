import ArchiveFormat

/// What one secure decode recorded for its strictness findings: each list an app wrote that
/// names `NSObject` or admitted a class only implicitly, and each untyped decode call.
///
/// A list is known by its owner (the read, or a class's decode call for a key), so the objects
/// of one class that make the same call share one record, and its fix covers all of them.
struct StrictnessLog {
  /// One list, as first met, and what it admitted that it does not name.
  private struct ListRecord {
    var owner: AllowedClassList.Owner
    /// The list as the read or call gave it.
    var names: [String]
    /// Where the list was first used.
    var keyPath: String
    var listsNSObject: Bool
    /// The classes the list admitted only because it names `NSObject`, in the order met.
    var throughNSObject: [String] = []
    /// The classes the list admitted without naming them, each with where it was first met.
    var implicit: [(className: String, keyPath: String)] = []

    /// The list to write: the list without `NSObject`, then every class it admitted without
    /// naming it.
    var fix: [String] {
      var seen: Set<String> = []
      return (names.filter { $0 != "NSObject" } + throughNSObject + implicit.map(\.className))
        .filter { seen.insert($0).inserted }
    }
  }

  private var records: [ListRecord] = []
  private var recordIndex: [AllowedClassList.Owner: Int] = [:]
  private var untyped: [StrictnessFinding] = []
  private var untypedCalls: Set<[String]> = []

  /// Records a class a list admitted, when the list names `NSObject`: the finding names the
  /// list, and the fix names the class when nothing but `NSObject` admitted it.
  ///
  /// - Parameters:
  ///   - className: The admitted class's runtime name.
  ///   - list: The list; one with no owner (Foundation's own) is not recorded.
  ///   - onlyThroughNSObject: Whether the list without `NSObject` refuses the class.
  ///   - keyPath: Where the class was decoded; worked out only when it is the list's first use.
  mutating func admitted(
    _ className: String, by list: AllowedClassList, onlyThroughNSObject: Bool,
    at keyPath: @autoclosure () -> String
  ) {
    guard let index = recordIndex(for: list, at: keyPath) else { return }
    if onlyThroughNSObject, !records[index].throughNSObject.contains(className) {
      records[index].throughNSObject.append(className)
    }
  }

  /// Records a property-list class a list admitted although it does not name it.
  ///
  /// - Parameters:
  ///   - className: The class, such as `NSString`.
  ///   - list: The list; one with no owner (Foundation's own) is not recorded.
  ///   - keyPath: Where the class was decoded; worked out only when it is the first place.
  mutating func implicit(
    _ className: String, by list: AllowedClassList, at keyPath: @autoclosure () -> String
  ) {
    guard let index = recordIndex(for: list, at: keyPath) else { return }
    if !records[index].implicit.contains(where: { $0.className == className }) {
      records[index].implicit.append((className, keyPath()))
    }
  }

  /// Records a `decodeObject(forKey:)` call on the secure coder, once per class and key.
  ///
  /// - Parameters:
  ///   - decoder: The class whose `init?(coder:)` made the call.
  ///   - key: The key.
  ///   - keyPath: The key path of the value.
  ///   - classes: The classes the archive holds under the key, the fix's list.
  mutating func untypedDecode(decoder: String, key: String, at keyPath: String, classes: [String]) {
    guard untypedCalls.insert([decoder, key]).inserted else { return }
    untyped.append(
      StrictnessFinding(
        rule: .untypedDecode, className: decoder, keyPath: keyPath, decoder: decoder, key: key,
        fix: classes))
  }

  /// Every finding, each a warning: per list, `NSObject` first and then each class it admitted
  /// without naming it; then the untyped decode calls.
  var findings: [StrictnessFinding] {
    var findings: [StrictnessFinding] = []
    for record in records {
      let fix = record.fix
      var decoder: String? = nil
      var key: String? = nil
      if case .call(let caller, let callKey) = record.owner {
        decoder = caller
        key = callKey
      }
      if record.listsNSObject {
        findings.append(
          StrictnessFinding(
            rule: .nsObjectAllowed, className: "NSObject", keyPath: record.keyPath,
            decoder: decoder, key: key, allowedClasses: record.names, fix: fix))
      }
      for leaf in record.implicit {
        findings.append(
          StrictnessFinding(
            rule: .unlistedPropertyListClass, className: leaf.className, keyPath: leaf.keyPath,
            decoder: decoder, key: key, allowedClasses: record.names, fix: fix))
      }
    }
    return findings + untyped
  }

  private mutating func recordIndex(for list: AllowedClassList, at keyPath: () -> String)
    -> Int?
  {
    guard let owner = list.owner else { return nil }
    if let index = recordIndex[owner] { return index }
    records.append(
      ListRecord(
        owner: owner, names: list.names, keyPath: keyPath(), listsNSObject: list.listsNSObject))
    recordIndex[owner] = records.count - 1
    return records.count - 1
  }
}
