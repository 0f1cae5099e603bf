import ArchiveFormat
import ArchiveManifest

/// What authoring learns from one archive: classes, root class and one expectation per reachable leaf.
///
/// The walk visits each object once, so shared references and cycles cost
/// nothing extra, and stops at a depth and an expectation count.
struct ArchiveSurvey {
  /// One expectation to write: its key path text and its element.
  struct Expectation {
    var keyPath: String
    /// The element, with the archived class name for a `class` expectation.
    var element: String
    /// The archived class name a `class` expectation names, which the manifest writes under the
    /// current (mapped) name; nil for other expectations.
    var archivedClass: String?

    /// The element as the manifest writes it: a `class` expectation under the current name.
    ///
    /// - Parameter current: Archived name → current name; a name without one stays as it is.
    /// - Returns: The element's text.
    func element(current: [String: String]) -> String {
      guard let archivedClass, let name = current[archivedClass], name != archivedClass,
        ManifestXMLWriter.isClassName(name)
      else { return element }
      return "<class\(ManifestXMLWriter.keyAttribute(keyPath)) name=\"\(XMLText.escaped(name))\"/>"
    }
  }

  /// Every class name in the archive's class descriptions, superclass chains included.
  var classNames: Set<String> = []
  /// The archived class names of the instances reachable from `$top`.
  var reachableClasses: Set<String> = []
  /// The root object's archived class name, when `$top.root` is an instance.
  var rootClassName: String?
  /// The `$top` keys an archive without `root` is read under, in the order a decode reads them;
  /// `nil` when it has `root`.
  var decodeKeys: [String]?
  /// The expectations, in walk order.
  var expectations: [Expectation] = []
  /// The leaves left out once the cap was reached.
  var omittedLeaves = 0
  /// Whether the walk stopped at the depth limit somewhere.
  var reachedDepthLimit = false
  /// Why the archive could not be read as a keyed archive, if it could not.
  var readError: String?
  /// The rejection every decode path gives an archive that does not read, such as `truncated`.
  var readErrorCategory = RejectionCategory.malformed

  private let limits: ManifestAuthor.Options
  /// Whether values are written masked, as a secret's are (a Keychain item's archive): strings
  /// and URLs by their length, data and UUIDs by their digest, never as they are.
  private let masksValues: Bool
  private var visited: Set<Int> = []

  /// A survey of an archive that does not read: no classes, no expectations.
  init(readError: KeyedArchiveError, options: ManifestAuthor.Options) {
    limits = options
    masksValues = false
    self.readError = "\(readError)"
    self.readErrorCategory = Self.category(of: readError)
  }

  /// The manifest's rejection category for an archive that does not read: `truncated`,
  /// `unknown-schema-version`, `limit-exceeded` or `malformed` (another archiver included), as
  /// verification reports it.
  static func category(of error: KeyedArchiveError) -> RejectionCategory {
    RejectionCategory(structural: error)
  }

  /// Surveys an archive.
  ///
  /// - Parameters:
  ///   - archive: The archive.
  ///   - options: Where the walk stops, and how long a value is written out.
  ///   - masksValues: Whether the archive holds secrets (a Keychain item's data): its strings
  ///     and URLs are then stated by their length, its data and UUIDs by their digest.
  init(archive: KeyedArchive, options: ManifestAuthor.Options, masksValues: Bool = false) {
    limits = options
    self.masksValues = masksValues
    for object in archive.objects {
      switch object {
      case .classDescription(let description):
        classNames.insert(description.name)
        classNames.formUnion(description.chain)
      case .instance(let instance):
        classNames.insert(instance.className)
        classNames.formUnion(instance.archiveClass.chain)
      default:
        break
      }
    }
    if let root = archive.top["root"] {
      let node = archive.node(for: root)
      if case .object(let index) = node, let instance = archive.instance(at: index) {
        rootClassName = instance.className
      } else {
        rootClassName = Self.foundationClass(of: archive.leaf(of: node))
      }
      walk(archive, archive.node(for: root), path: ArchiveKeyPath(components: []), depth: 0)
    } else {
      let keys = archive.defaultReadKeys
      decodeKeys = keys
      for key in keys {
        guard let value = archive.top[key] else { continue }
        walk(
          archive, archive.node(for: value), path: ArchiveKeyPath(topKey: key, components: []),
          depth: 0)
      }
    }
  }

  private mutating func walk(
    _ archive: KeyedArchive, _ node: ArchiveNode, path: ArchiveKeyPath, depth: Int
  ) {
    if case .object(let index) = node {
      if visited.contains(index) { return }
      visited.insert(index)
      if let instance = archive.instance(at: index) { reachableClasses.insert(instance.className) }
    }
    let key = path.description
    let leaf = archive.leaf(of: node)
    guard case .object(let className, let index, let count) = leaf else {
      add(key, Self.element(for: leaf, key: key, options: limits, masked: masksValues))
      return
    }
    if index >= 0, ManifestXMLWriter.isClassName(className) {
      add(
        key,
        "<class\(ManifestXMLWriter.keyAttribute(key)) name=\"\(XMLText.escaped(className))\"/>",
        archivedClass: className)
    }
    if let count {
      add(key, "<count\(ManifestXMLWriter.keyAttribute(key)) equals=\"\(count)\"/>")
    }
    guard depth < limits.maximumDepth else {
      reachedDepthLimit = true
      return
    }
    if case .object(let index) = node, let instance = archive.instance(at: index),
      let form = archive.foundationForm(of: instance)
    {
      switch form {
      case .set(let elements):
        // A set has no order: its elements are stated as a whole (`tags[*]`), never by an
        // index that the next archive of the same set may not keep.
        addUnordered(archive, elements, path: path.appending(.wildcard))
        return
      case .dictionary(let keys, _) where keys.contains { archive.stringValue(of: $0) == nil }:
        // Keys that are not strings have no key path; their values are not indexed either.
        return
      default:
        break
      }
    }
    for child in archive.children(of: node) {
      walk(
        archive, archive.node(for: child.value), path: path.appending(child.component),
        depth: depth + 1)
    }
  }

  /// Order-free expectations for a set's elements at `path` (`tags[*]`).
  ///
  /// The values they are among, when every element is a short string or a number, and their
  /// class, when every element is an instance of one class. The count is stated by the caller.
  private mutating func addUnordered(
    _ archive: KeyedArchive, _ elements: [PropertyListValue], path: ArchiveKeyPath
  ) {
    guard !elements.isEmpty else { return }
    let key = path.description
    let leaves = elements.map { archive.leaf(of: archive.node(for: $0)) }
    var values: [String] = []
    for leaf in leaves {
      switch leaf {
      case .string(let text)
      where !masksValues && text.utf16.count <= 200 && XMLText.isValid(text):
        values.append(text)
      case .integer(let number): values.append(String(number))
      case .unsignedInteger(let number): values.append(String(number))
      default: break
      }
    }
    if values.count == leaves.count, values.count <= 100 {
      let listed = Array(Set(values)).sorted().map { "<value>\(XMLText.escaped($0))</value>" }
      add(key, "<oneOf\(ManifestXMLWriter.keyAttribute(key))>\(listed.joined())</oneOf>")
      return
    }
    let classes = Set(
      leaves.map { leaf -> String? in
        if case .object(let className, let index, _) = leaf, index >= 0 { return className }
        return nil
      })
    if classes.count == 1, let only = classes.first, let className = only,
      ManifestXMLWriter.isClassName(className)
    {
      add(
        key,
        "<class\(ManifestXMLWriter.keyAttribute(key)) name=\"\(XMLText.escaped(className))\"/>",
        archivedClass: className)
    }
  }

  private mutating func add(_ keyPath: String, _ element: String?, archivedClass: String? = nil) {
    guard let element else { return }
    guard expectations.count < limits.maximumExpectationsPerArchive else {
      omittedLeaves += 1
      return
    }
    expectations.append(
      Expectation(keyPath: keyPath, element: element, archivedClass: archivedClass))
  }

  /// The Foundation class a root that is a plain value (not an instance) decodes as:
  /// `NSString` for a string, `NSNumber` for a number; nil for `$null`.
  static func foundationClass(of leaf: ArchiveLeaf) -> String? {
    switch leaf {
    case .string: "NSString"
    case .integer, .unsignedInteger, .real, .bool: "NSNumber"
    case .data: "NSData"
    case .date: "NSDate"
    case .uuid: "NSUUID"
    case .url: "NSURL"
    case .null, .object: nil
    }
  }

  /// The expectation element for a leaf, or nil when the leaf cannot be written.
  ///
  /// - Parameters:
  ///   - leaf: The value.
  ///   - key: Its key path.
  ///   - options: How long a string or data is written out.
  ///   - masked: Whether the value may be a secret: a string is then stated by its length
  ///     (`count`, a URL's by `maxLength`), data and a UUID by their digest (`dataDigest`).
  /// - Returns: The element's text.
  static func element(
    for leaf: ArchiveLeaf, key: String, options: ManifestAuthor.Options, masked: Bool = false
  ) -> String? {
    let keyAttribute = ManifestXMLWriter.keyAttribute(key)
    if masked {
      switch leaf {
      case .string(let value):
        return "<count\(keyAttribute) equals=\"\(value.utf16.count)\"/>"
      case .url(let value):
        return "<maxLength\(keyAttribute) utf16=\"\(value.utf16.count)\"/>"
      case .data(let bytes), .uuid(let bytes):
        return
          "<dataDigest\(keyAttribute) sha256=\"\(SHA256Checksum.hash(bytes).hexadecimal)\" length=\"\(bytes.count)\"/>"
      default:
        break
      }
    }
    switch leaf {
    case .null:
      return "<null\(keyAttribute)/>"
    case .string(let value), .url(let value):
      let length = value.utf16.count
      if length > options.maximumStringLength || !XMLText.isValid(value) {
        return "<count\(keyAttribute) equals=\"\(length)\"/>"
      }
      return "<string\(keyAttribute)>\(XMLText.escaped(value))</string>"
    case .integer(let value):
      return "<integer\(keyAttribute)>\(value)</integer>"
    case .unsignedInteger(let value):
      return "<integer\(keyAttribute)>\(value)</integer>"
    case .real(let value):
      return "<real\(keyAttribute)>\(ManifestXMLWriter.double(value))</real>"
    case .bool(let value):
      return "<bool\(keyAttribute)>\(value)</bool>"
    case .date(let value):
      guard value.isFinite else { return nil }
      return "<date\(keyAttribute)>\(XSDValue.formatDateTime(value))</date>"
    case .data(let bytes), .uuid(let bytes):
      if bytes.count > options.maximumInlineDataLength {
        return
          "<dataDigest\(keyAttribute) sha256=\"\(SHA256Checksum.hash(bytes).hexadecimal)\" length=\"\(bytes.count)\"/>"
      }
      return "<data\(keyAttribute)>\(Base64.encode(bytes))</data>"
    case .object:
      return nil
    }
  }
}
