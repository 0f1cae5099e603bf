import ArchiveCoder
import ArchiveFormat
import ArchiveManifest
import _ArchiveHarnessSystem

/// Reads a `verify --format json` report back into a ``VerificationReport`` for the other writers.
///
/// `report merge` merges shard reports as JSON, then hands the merged report
/// to the same `HTMLReportWriter`, `JUnitReportWriter` and
/// `TextReportWriter` that `verify` uses. Every value the writers show is
/// read back to what they show for the unsharded run: outcomes, categories,
/// expectations, notes, producers, the run's parameters and each decoded
/// object. Bytes the JSON gives only by length and SHA-256 come back as
/// equivalent values (a data expectation as its digest, observed data as that
/// many bytes). `JSONDocument` reads integers exactly, so an integer of any
/// 64-bit value comes back as written, and a double (`3.0`) stays a double.
/// Anything else is refused with the place in the document.
///
/// ```swift
/// let document = try JSONDocument(parsing: text)
/// let report = try VerificationReportReader().report(document)
/// print(JUnitReportWriter().render(report))
/// ```
package struct VerificationReportReader: Sendable {
  /// The largest observed data a report may declare, which is also the largest archive read.
  static let maximumDataLength = PropertyListLimits().maximumInputSize
  /// How deep decoded objects and observations may nest.
  static let maximumDepth = 512

  /// Creates a reader.
  package init() {}

  /// Reads a report.
  ///
  /// - Parameter document: A parsed `verify --format json` report of this serialization version.
  /// - Returns: The report, its cases in the document's order.
  /// - Throws: `VerificationReportReadError` naming the place that is not a report's.
  package func report(_ document: JSONDocument) throws(VerificationReportReadError)
    -> VerificationReport
  {
    let root = Node(document, place: "$")
    let version = try root.member("serializationVersion").integer()
    guard version == JSONReportWriter.serializationVersion else {
      throw VerificationReportReadError(
        path: "$.serializationVersion",
        message: "version \(version), not \(JSONReportWriter.serializationVersion)")
    }
    var report = VerificationReport(
      cases: try root.member("cases").elements(Self.verificationCase),
      notes: try root.member("notes").strings())
    if let digest = root.optional("manifestsDigest") {
      report.manifestsDigest = try digest.string()
    }
    if let shard = root.optional("shard") {
      let index = try shard.member("index").integer()
      let count = try shard.member("count").integer()
      guard let value = VerificationShard(index: index, count: count) else {
        throw VerificationReportReadError(path: shard.place, message: "not a shard K/N")
      }
      report.shard = value
    }
    if let run = root.optional("run") {
      report.run = RunParameters(
        manifests: try run.member("manifests").string(),
        archives: try run.member("archives").string(),
        harnessVersion: try run.member("harnessVersion").string(),
        platform: try run.member("platform").string())
    }
    if let containment = root.optional("containment") {
      let value = try containment.string()
      guard let known = Containment(reportValue: value) else {
        throw VerificationReportReadError(
          path: containment.place, message: "'\(value)' is not worker-process or off")
      }
      report.containment = known
    }
    return report
  }

  private static func verificationCase(_ node: Node) throws(VerificationReportReadError)
    -> VerificationCase
  {
    var paths: [PathResult] = []
    guard case .object(let members) = node.document else {
      throw node.error("not an object")
    }
    guard case .object(let pathMembers)? = members["paths"] else {
      throw node.error("no paths object")
    }
    let order = [CheckedPath.structure] + DecodePath.allCases.map(CheckedPath.decode) + [.privacy]
    for name in pathMembers.keys where !order.contains(where: { $0.description == name }) {
      throw VerificationReportReadError(
        path: "\(node.place).paths.\(name)", message: "no such path")
    }
    for path in order {
      if let value = pathMembers[path.description] {
        paths.append(
          try pathResult(path, Node(value, place: "\(node.place).paths.\(path.description)")))
      }
    }
    return VerificationCase(
      manifest: try node.member("manifest").string(),
      archive: try node.member("archive").string(),
      location: Place(parsing: try node.member("location").string()), paths: paths,
      expectations: try node.member("expectations").elements(expectation),
      notes: try node.member("notes").strings(),
      producer: try node.optional("producer")?.string(),
      duration: try node.optional("durationMilliseconds").map {
        (milliseconds: Node) throws(VerificationReportReadError) in
        TimeSpan.milliseconds(try milliseconds.integer())
      },
      strictnessFindings: try node.optional("strictnessFindings")?.elements(strictnessFinding)
        ?? [],
      storeFindings: try node.optional("storeFindings")?.elements(storeFinding) ?? [])
  }

  /// A store check's finding.
  private static func storeFinding(_ node: Node) throws(VerificationReportReadError)
    -> StoreFinding
  {
    let checkNode = node.member("check")
    guard let check = StoreFinding.Check(rawValue: try checkNode.string()) else {
      throw checkNode.error("no such store check")
    }
    let severityNode = node.member("severity")
    guard let severity = Severity(rawValue: try severityNode.string()) else {
      throw severityNode.error("no such severity")
    }
    return StoreFinding(
      check, severity, at: Place(parsing: try node.member("place").string()),
      try node.member("message").string())
  }

  /// A strictness finding; its `fixText` and `message` follow from the rest.
  private static func strictnessFinding(_ node: Node) throws(VerificationReportReadError)
    -> StrictnessFinding
  {
    let ruleNode = node.member("rule")
    guard let rule = StrictnessRule(rawValue: try ruleNode.string()) else {
      throw ruleNode.error("no such strictness rule")
    }
    let severityNode = node.member("severity")
    guard let severity = Severity(rawValue: try severityNode.string()) else {
      throw severityNode.error("no such severity")
    }
    return StrictnessFinding(
      rule: rule, severity: severity, className: try node.member("className").string(),
      keyPath: try node.member("keyPath").string(),
      decoder: try node.optional("decoder")?.string(), key: try node.optional("key")?.string(),
      allowedClasses: try node.member("allowedClasses").strings(),
      fix: try node.member("fix").strings())
  }

  private static func pathResult(_ path: CheckedPath, _ node: Node)
    throws(VerificationReportReadError) -> PathResult
  {
    let outcomeNode = node.member("outcome")
    guard let outcome = OutcomeKind(rawValue: try outcomeNode.string()) else {
      throw outcomeNode.error("no such outcome")
    }
    var result = PathResult(
      path: path, outcome: outcome, matches: try node.member("matches").bool())
    if let category = node.optional("category") {
      result.category = try self.category(category, outcome: outcome)
    }
    if let message = node.optional("message") { result.message = try message.string() }
    if let expected = node.optional("expected") {
      let kind = expected.member("outcome")
      switch try kind.string() {
      case OutcomeExpectation.Kind.decodes.rawValue: result.expected = .decodes
      case OutcomeExpectation.Kind.rejected.rawValue:
        let categoryNode = expected.member("category")
        guard let category = RejectionCategory(rawValue: try categoryNode.string()) else {
          throw categoryNode.error("no such rejection category")
        }
        result.expected = .rejected(category)
      default: throw kind.error("no such expected outcome")
      }
    }
    if let object = node.optional("object") {
      let value = try decodedValue(object, depth: 0, inArray: false)
      result.object = value
      if let name = node.optional("objectClass") {
        result.object = renamed(value, className: try name.string())
      }
    }
    return result
  }

  private static func category(_ node: Node, outcome: OutcomeKind)
    throws(VerificationReportReadError) -> PathResult.Category
  {
    let text = try node.string()
    switch text {
    case PathResult.Category.unreadable.description: return .unreadable
    case PathResult.Category.workerUnavailable.description: return .workerUnavailable
    case PathResult.Category.workerFailed.description: return .workerFailed
    case PathResult.Category.personalData.description: return .personalData
    case PathResult.Category.unlisted.description: return .unlisted
    case CrashReport.Cause.timeout.description: return .crash(.timeout)
    default: break
    }
    if outcome != .crashed, let category = RejectionCategory(rawValue: text) {
      return .rejection(category)
    }
    if let number = (1...64).first(where: { CrashReport.name(ofSignal: Int32($0)) == text }) {
      return .crash(.signal(Int32(number)))
    }
    throw node.error("no such category")
  }

  private static func expectation(_ node: Node) throws(VerificationReportReadError)
    -> ExpectationResult
  {
    let status = node.member("status")
    let passed: Bool
    switch try status.string() {
    case ExpectationFinding.Status.passed.rawValue: passed = true
    case ExpectationFinding.Status.failed.rawValue: passed = false
    default: throw status.error("no such status")
    }
    return ExpectationResult(
      keyPath: try node.member("keyPath").string(), passed: passed,
      expected: try kind(node.member("expected")),
      actual: try observation(node.member("actual"), depth: 0),
      location: Place(parsing: try node.member("location").string()))
  }

  /// The inverse of `FieldExpectation.Kind.jsonValue`; data comes back as its digest.
  private static func kind(_ node: Node) throws(VerificationReportReadError)
    -> FieldExpectation.Kind
  {
    let type = node.member("type")
    switch try type.string() {
    case "string": return .string(try node.member("value").string())
    case "integer": return .integer(try node.member("value").digits())
    case "real":
      return .real(try node.member("value").real(), tolerance: try node.member("tolerance").real())
    case "bool": return .bool(try node.member("value").bool())
    case "date":
      return .date(
        try node.member("seconds").real(), tolerance: try node.member("tolerance").real())
    case "data", "dataDigest":
      return .dataDigest(
        sha256: try node.member("sha256").string(),
        length: try node.optional("length")?.integer())
    case "null": return .null
    case "class": return .className(try node.member("name").string())
    case "present": return .present
    case "absent": return .absent
    case "maxLength": return .maxLength(try node.member("utf16").integer())
    case "range":
      return .range(min: try node.optional("min")?.real(), max: try node.optional("max")?.real())
    case "count":
      return .count(
        equals: try node.optional("equals")?.integer(), min: try node.optional("min")?.integer(),
        max: try node.optional("max")?.integer())
    case "oneOf": return .oneOf(try node.member("values").strings())
    case "matches": return .matches(try node.member("pattern").string())
    default: throw type.error("no such expectation type")
    }
  }

  /// The inverse of `ExpectationFinding.Observation.jsonValue`.
  private static func observation(_ node: Node, depth: Int) throws(VerificationReportReadError)
    -> ExpectationFinding.Observation
  {
    guard depth < maximumDepth else { throw node.error("nested too deeply") }
    let type = node.member("type")
    switch try type.string() {
    case "object":
      return .object(
        className: try node.member("class").string(), count: try node.optional("count")?.integer())
    case "present": return .present
    case "absent": return .absent
    case "noElements": return .noElements
    case "allMatch": return .allMatch(count: try node.member("elements").integer())
    case "class": return .className(try node.member("name").string())
    case "dataDigest":
      return .digest(
        length: try node.member("length").integer(), sha256: try node.member("sha256").string())
    case "utf16Length": return .utf16Length(try node.member("value").integer())
    case "count": return .count(try node.member("value").integer())
    case "uncountable": return .uncountable(try observation(node.member("value"), depth: depth + 1))
    case "someElementsFail":
      return .someElementsFail(
        first: try observation(node.member("first"), depth: depth + 1),
        failing: try node.member("failing").integer(), of: try node.member("elements").integer())
    case "malformedKeyPath": return .malformedKeyPath
    case "unresolvable": return .unresolvable(reason: try node.member("reason").string())
    case "archiveOutsideFolder": return .archiveOutsideFolder
    case "unreadableArchive": return .unreadableArchive
    case "oversizedArchive":
      return .oversizedArchive(
        size: try node.member("size").integer(), maxSize: try node.member("maxSize").integer())
    case "malformedArchive": return .malformedArchive(reason: try node.member("reason").string())
    default: return .value(try leaf(node, type: type))
    }
  }

  private static func leaf(_ node: Node, type: Node) throws(VerificationReportReadError)
    -> ArchiveLeaf
  {
    switch try type.string() {
    case "null": return .null
    case "string": return .string(try node.member("value").string())
    case "integer":
      let value = node.member("value")
      let digits = try value.digits()
      if let number = Int64(digits) { return .integer(number) }
      if let number = UInt64(digits) { return .unsignedInteger(number) }
      throw value.error("not a 64-bit integer")
    case "real": return .real(try node.member("value").real())
    case "bool": return .bool(try node.member("value").bool())
    case "date": return .date(try node.member("seconds").real())
    case "data":
      let length = node.member("length")
      let count = try length.integer()
      guard (0...maximumDataLength).contains(count) else {
        throw length.error("not a length from 0 to \(maximumDataLength)")
      }
      return .data([UInt8](repeating: 0, count: count))
    case "uuid":
      let value = node.member("value")
      let text = try value.string()
      guard let bytes = Hex.decode(text.split(separator: "-").joined()), bytes.count == 16 else {
        throw value.error("not a UUID")
      }
      return .uuid(bytes)
    case "url": return .url(try node.member("value").string())
    default: throw type.error("no such observation type")
    }
  }

  /// A collection with its class name, which its JSON (an array) does not carry.
  private static func renamed(_ value: DecodedValue, className: String) -> DecodedValue {
    switch value {
    case .array(_, let elements): .array(className: className, elements: elements)
    case .dictionary(_, let entries): .dictionary(className: className, entries: entries)
    default: value
    }
  }

  /// A value whose `jsonValue` is the given JSON: the inverse of `DecodedValue.jsonValue`.
  ///
  /// Only a dictionary's entries, inside an array, are objects without a `$class`.
  private static func decodedValue(_ node: Node, depth: Int, inArray: Bool)
    throws(VerificationReportReadError) -> DecodedValue
  {
    guard depth < maximumDepth else { throw node.error("nested too deeply") }
    switch node.document {
    case .null: return .null
    case .bool(let flag): return .bool(flag)
    case .string(let text): return .string(text)
    case .integer(let number): return .integer(number)
    // Decoded integers are Int64; one above Int64.max was never written, and reads as a double.
    case .unsignedInteger(let number): return .double(Double(number))
    case .number(let number): return .double(number)
    case .array(let elements):
      var values: [DecodedValue] = []
      for (index, element) in elements.enumerated() {
        values.append(
          try decodedValue(
            Node(element, place: "\(node.place)[\(index)]"), depth: depth + 1, inArray: true))
      }
      let entries = values.compactMap { value -> DecodedEntry? in
        guard case .object("", let fields) = value, fields.map(\.key) == ["key", "value"] else {
          return nil
        }
        return DecodedEntry(key: fields[0].value, value: fields[1].value)
      }
      if !values.isEmpty, entries.count == values.count {
        return .dictionary(className: "NSDictionary", entries: entries)
      }
      if values.contains(where: { if case .object("", _) = $0 { true } else { false } }) {
        throw node.error("an object without $class outside a dictionary")
      }
      return .array(className: "NSArray", elements: values)
    case .object(let members):
      if members["$class"] == nil, !inArray, Set(members.keys) == ["key", "value"] {
        throw node.error("an object without $class outside a dictionary")
      }
      return try decodedObject(members, node: node, depth: depth)
    }
  }

  private static func decodedObject(
    _ members: [String: JSONDocument], node: Node, depth: Int
  ) throws(VerificationReportReadError) -> DecodedValue {
    let names = Set(members.keys)
    if names == ["$nil"], case .bool(true)? = members["$nil"] { return .noObject }
    if names == ["$uuid"], case .string(let text)? = members["$uuid"] { return .uuid(text) }
    if names == ["$url"], case .string(let text)? = members["$url"] { return .url(text) }
    if names == ["$cycle"], case .string(let name)? = members["$cycle"] {
      return .cycleReference(className: name)
    }
    if names == ["$opaque"], case .string(let name)? = members["$opaque"] {
      return .opaque(className: name)
    }
    if names == ["$shared", "ordinal"], case .string(let name)? = members["$shared"],
      let ordinal = members["ordinal"]?.int64Value, let number = Int(exactly: ordinal)
    {
      return .sharedReference(className: name, ordinal: number)
    }
    if names == ["$date"], case .string(let text)? = members["$date"],
      let seconds = ISO8601.parse(text)
    {
      return .date(seconds)
    }
    if names == ["$data"], case .string(let text)? = members["$data"],
      let bytes = Base64.decode(text)
    {
      return .data(bytes)
    }
    if names == ["$real"], case .string(let text)? = members["$real"] {
      switch text {
      case "nan": return .double(.nan)
      case "inf": return .double(.infinity)
      case "-inf": return .double(-.infinity)
      default: throw node.error("no such real")
      }
    }
    var className = ""
    if let name = members["$class"] {
      guard case .string(let text) = name else { throw node.error("$class is not a string") }
      className = text
    } else if names != ["key", "value"] {
      throw node.error("an object without $class")
    }
    var fields: [DecodedField] = []
    for key in members.keys.sorted() where key != "$class" {
      guard let value = members[key] else { continue }
      let field = Node(value, place: "\(node.place).\(key)")
      fields.append(
        DecodedField(key: key, value: try decodedValue(field, depth: depth + 1, inArray: false)))
    }
    return .object(className: className, fields: fields)
  }
}

/// A value of the document with its place, for errors that name where they are.
private struct Node {
  var document: JSONDocument
  var place: String

  init(_ document: JSONDocument, place: String) {
    self.document = document
    self.place = place
  }

  func error(_ message: String) -> VerificationReportReadError {
    VerificationReportReadError(path: place, message: message)
  }

  /// The member, which is `null` (and so refused by every reader but ``optional(_:)``) when absent.
  func member(_ name: String) -> Node {
    Node(document[name] ?? .null, place: "\(place).\(name)")
  }

  /// The member, or `nil` when it is absent or `null`.
  func optional(_ name: String) -> Node? {
    guard let value = document[name], value != .null else { return nil }
    return Node(value, place: "\(place).\(name)")
  }

  func string() throws(VerificationReportReadError) -> String {
    guard case .string(let text) = document else { throw error("not a string") }
    return text
  }

  func bool() throws(VerificationReportReadError) -> Bool {
    guard case .bool(let flag) = document else { throw error("not a boolean") }
    return flag
  }

  func integer() throws(VerificationReportReadError) -> Int {
    guard let number = document.int64Value, let value = Int(exactly: number) else {
      throw error("not an integer")
    }
    return value
  }

  /// An integer written as a number or as its decimal digits, as decimal digits.
  func digits() throws(VerificationReportReadError) -> String {
    switch document {
    case .string(let text) where !text.isEmpty: return text
    case .integer(let number): return String(number)
    case .unsignedInteger(let number): return String(number)
    default: throw error("not an integer")
    }
  }

  /// A real: a number, or `"nan"`, `"inf"` or `"-inf"`.
  func real() throws(VerificationReportReadError) -> Double {
    switch document {
    case .integer, .unsignedInteger, .number:
      guard let number = document.doubleValue else { throw error("not a real") }
      return number
    case .string("nan"): return .nan
    case .string("inf"): return .infinity
    case .string("-inf"): return -.infinity
    default: throw error("not a real")
    }
  }

  func elements() throws(VerificationReportReadError) -> [Node] {
    guard case .array(let items) = document else { throw error("not an array") }
    return items.enumerated().map { Node($0.element, place: "\(place)[\($0.offset)]") }
  }

  func elements<Value>(_ read: (Node) throws(VerificationReportReadError) -> Value)
    throws(VerificationReportReadError) -> [Value]
  {
    var values: [Value] = []
    for element in try elements() { values.append(try read(element)) }
    return values
  }

  func strings() throws(VerificationReportReadError) -> [String] {
    var values: [String] = []
    for element in try elements() { values.append(try element.string()) }
    return values
  }
}
