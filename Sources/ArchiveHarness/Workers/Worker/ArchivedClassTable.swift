import ArchiveCoder
import ArchiveFormat

/// The class entries an archive's `$objects` declares, read without instantiating anything.
///
/// The harness worker uses it on the Foundation paths to tell `NSKeyedUnarchiver` which registered class
/// reads each archived name, so Foundation never looks a class up by the archive's word alone.
struct ArchivedClassTable {
  /// One `$classname` with the rest of its `$classes` chain.
  struct Entry: Hashable {
    let className: String
    let superclassNames: [String]
  }

  let entries: [Entry]

  /// Reads the class entries; unreadable bytes give an empty table.
  init(archive: [UInt8]) {
    let top: PropertyListValue
    do {
      top = try PropertyListReader().read(archive)
    } catch {
      entries = []
      return
    }
    guard let objects = top.dictionaryValue?["$objects"]?.arrayValue
    else {
      entries = []
      return
    }
    var seen: Set<Entry> = []
    var ordered: [Entry] = []
    for object in objects {
      guard let dictionary = object.dictionaryValue,
        let className = dictionary["$classname"]?.stringValue
      else { continue }
      let chain = dictionary["$classes"]?.arrayValue?.compactMap { $0.stringValue } ?? []
      let superclassNames = chain.first == className ? Array(chain.dropFirst()) : chain
      let entry = Entry(className: className, superclassNames: superclassNames)
      if seen.insert(entry).inserted { ordered.append(entry) }
    }
    entries = ordered
  }
}
