import ArchiveCoder
import ArchiveFormat
import CHarnessSQLite

/// `coredata preflight`: reads every row of a Core Data store's transformable attributes the
/// way the attribute's value transformer would, and names the rows it would turn into `nil`.
///
/// For each attribute the preflight decides which allowed-classes list to check against (the
/// `Basis`): the declared transformer's (`NSSecureUnarchiveFromData`'s default top-level
/// classes, or a custom subclass's list given with `--allowed-classes`), or, for the deprecated
/// default (`NSKeyedUnarchiveFromData`) and for a custom transformer whose list is not given,
/// the proposed `NSSecureUnarchiveFromData` defaults. Each row is then:
///
/// - walked as Apple's secure unarchiver checks it: the root object's class, and the classes of
///   the elements and keys of Foundation collections beneath it, must each be allowed (by the
///   archived class or a superclass in its archived chain); the first class that is not is the
///   reason the row would be lost, with its key path;
/// - decoded through the harness coder's legacy path and its secure path with the list, which
///   also checks what registered classes' own `init?(coder:)` ask for. A class the harness has
///   not registered is counted, not a loss: a team's own harness executable registers it.
///
/// The decodes run where the ``runner`` runs them: in a decode worker for a harness that
/// registers app classes (``HarnessConfiguration/preflightRunner()``), so that an
/// `init?(coder:)` that traps is a `decoder-crashed` lost row, not the end of the command; in
/// this process when no app code can run.
///
/// The store is opened read-only (no journal, no `-shm`); nothing is written.
///
/// ```swift
/// let preflight = TransformerPreflight(
///   storePath: "Books.sqlite", runner: InProcessPathRunner(registry: ClassRegistry()))
/// let report = try preflight.run([
///   .init(entity: "Book", attribute: "cover", declaredTransformer: "NSSecureUnarchiveFromData",
///     customClassName: nil, modelPlace: "Books.xcdatamodel/contents:4:9")
/// ])
/// print(report.lostRowCount)  // 0 when every row decodes
/// ```
package struct TransformerPreflight {
  /// `NSSecureUnarchiveFromData`'s default `allowedTopLevelClasses`, in Apple's order.
  package static let secureDefaultClasses = [
    "NSArray", "NSDictionary", "NSSet", "NSString", "NSNumber", "NSDate", "NSData", "NSURL",
    "NSUUID", "NSNull",
  ]

  /// The names a model gives the secure default transformer.
  package static let secureDefaultNames: Set<String> = [
    "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformerName",
    "NSSecureUnarchiveFromDataTransformer",
  ]
  /// The names a model gives the deprecated default transformer (none, or these).
  package static let deprecatedDefaultNames: Set<String> = [
    "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName",
  ]

  /// The most lost rows listed per attribute; the count is always given in full.
  package static let maximumListedRows = 1000

  /// One transformable attribute to check, as the model declares it.
  package struct Attribute: Hashable, Sendable {
    /// The entity that declares it.
    package var entity: String
    /// The attribute's name.
    package var attribute: String
    /// `valueTransformerName`, `nil` for none.
    package var declaredTransformer: String?
    /// `customClassName`, when the model gives one.
    package var customClassName: String?
    /// Where the model declares it, as text (`contents:4:9`).
    package var modelPlace: String
    /// The custom transformer's `allowedTopLevelClasses`, when given.
    package var allowedClasses: [String]?
    /// Whether the attribute is transient (it has no column, and is skipped).
    package var isTransient: Bool

    /// Creates an attribute to check.
    package init(
      entity: String, attribute: String, declaredTransformer: String?, customClassName: String?,
      modelPlace: String, allowedClasses: [String]? = nil, isTransient: Bool = false
    ) {
      self.entity = entity
      self.attribute = attribute
      self.declaredTransformer = declaredTransformer
      self.customClassName = customClassName
      self.modelPlace = modelPlace
      self.allowedClasses = allowedClasses
      self.isTransient = isTransient
    }

    /// `Entity.attribute`.
    package var qualifiedName: String { "\(entity).\(attribute)" }

    /// What the declared transformer is.
    package var transformer: TransformerKind {
      guard let name = declaredTransformer,
        !TransformerPreflight.deprecatedDefaultNames.contains(name)
      else { return .deprecatedDefault }
      return TransformerPreflight.secureDefaultNames.contains(name) ? .secureDefault : .custom(name)
    }
  }

  /// The kinds of value transformer a model can name.
  package enum TransformerKind: Hashable, Sendable {
    /// None, or `NSKeyedUnarchiveFromData`: deprecated, it reads with no allowed classes.
    case deprecatedDefault
    /// `NSSecureUnarchiveFromData`, with its default top-level classes.
    case secureDefault
    /// Another registered name: a subclass of `NSSecureUnarchiveFromDataTransformer`, or a
    /// transformer of its own format.
    case custom(String)
  }

  /// Which list the rows were checked against, and why.
  package enum Basis: String, Hashable, Sendable {
    /// The declared `NSSecureUnarchiveFromData`'s default classes.
    case declared
    /// The custom transformer's list, as `--allowed-classes` or the manifest gave it.
    case declaredCustom = "declared-custom"
    /// `NSSecureUnarchiveFromData`'s defaults, proposed in place of the deprecated default.
    case proposed
    /// `NSSecureUnarchiveFromData`'s defaults, for a custom transformer whose list is not known.
    case proposedForCustom = "proposed-for-custom"
  }

  /// Why a row would be lost.
  package enum LossKind: String, Hashable, Sendable {
    /// A class in the graph the list does not allow.
    case classNotAllowed = "class-not-allowed"
    /// The harness coder's secure path refused the row for another reason.
    case secureReadRejected = "secure-read-rejected"
    /// The bytes are not a keyed archive: no unarchiving transformer reads them.
    case notAnArchive = "not-an-archive"
    /// The app's `init?(coder:)` trapped in the decode worker: the app would crash on the row.
    case decoderCrashed = "decoder-crashed"
  }

  /// One row that would become `nil`.
  package struct LostRow: Hashable, Sendable {
    /// `Z_PK`.
    package var primaryKey: Int64
    /// The row's own entity (by `Z_ENT`), or the attribute's entity.
    package var entity: String
    /// Why.
    package var kind: LossKind
    /// The class that is not allowed, when that is why.
    package var className: String?
    /// Where in the archive's graph (`root`, `root[2]`, `root.NS.objects`).
    package var keyPath: String
    /// A sentence saying why.
    package var message: String
  }

  /// What the harness coder's paths made of the rows: counts by outcome.
  package struct PathCounts: Hashable, Sendable {
    /// Rows the path decoded.
    package var decoded = 0
    /// Rows refused because a class is not registered in this harness.
    package var unregistered = 0
    /// Rows refused for any other reason, by category.
    package var rejected: [RejectionCategory: Int] = [:]
  }

  /// The result for one attribute.
  package struct AttributeReport: Hashable, Sendable {
    /// The attribute, as the model declares it.
    package var attribute: Attribute
    /// Its table and column.
    package var table: String
    /// Its column.
    package var column: String
    /// The list the rows were checked against, and why that one.
    package var basis: Basis
    /// The list itself.
    package var checkedClasses: [String]
    /// Rows read (of the entity and its sub-entities).
    package var rows = 0
    /// Rows holding NULL.
    package var nullRows = 0
    /// Rows holding keyed archives.
    package var archiveRows = 0
    /// Rows that are not archives and not NULL (a custom transformer's own format).
    package var otherRows = 0
    /// The smallest `allowedTopLevelClasses` that decodes every archive row.
    package var minimalAllowedClasses: [String] = []
    /// The classes of those that are property-list leaves (`NSString`, `NSNumber`, …), which a
    /// secure read today only logs when they are missing.
    package var leafClasses: [String] = []
    /// The classes archived in the rows that the harness has not registered.
    package var unregisteredClasses: [String] = []
    /// The rows that would be lost, at most ``maximumListedRows``.
    package var lostRows: [LostRow] = []
    /// How many rows would be lost in all.
    package var lostRowCount = 0
    /// The legacy path's outcomes.
    package var legacy = PathCounts()
    /// The secure path's outcomes, with ``checkedClasses``.
    package var secure = PathCounts()
    /// Whether the attribute was skipped (transient), and why.
    package var skipped: String?
  }

  /// The result for a store.
  package struct Report: Hashable, Sendable {
    /// The store, as given.
    package var store: String
    /// The model, as given.
    package var model: String
    /// Every transformable attribute.
    package var attributes: [AttributeReport]

    /// Rows that would be lost, over every attribute.
    package var lostRowCount: Int { attributes.reduce(0) { $0 + $1.lostRowCount } }
  }

  /// The store.
  package var storePath: String
  /// Where the harness coder's legacy and secure decodes run: a decode worker, or this process.
  package var runner: any DecodePathRunner
  /// The archived-name map.
  package var classMap: ClassNameMap

  /// Creates a preflight of a store.
  ///
  /// - Parameters:
  ///   - storePath: The Core Data SQLite store.
  ///   - runner: Where the rows decode; `HarnessConfiguration.preflightRunner()` chooses.
  ///   - classMap: The archived-name map.
  package init(
    storePath: String, runner: any DecodePathRunner, classMap: ClassNameMap = .empty
  ) {
    self.storePath = storePath
    self.runner = runner
    self.classMap = classMap
  }

  /// Checks every attribute's rows.
  ///
  /// - Parameters:
  ///   - attributes: The model's transformable attributes.
  ///   - model: The model, as given, for the report.
  /// - Returns: Each attribute's rows, lists and lost rows.
  /// - Throws: `MigrationError`: the store cannot be opened, is not a Core Data store, or lacks
  ///   an attribute's entity, table or column (the error names the model's place too), or the
  ///   runner's decode worker cannot be had (`worker-unavailable`).
  package func run(_ attributes: [Attribute], model: String = "") throws(MigrationError) -> Report {
    let database = try SQLiteDatabase(path: storePath, readOnly: true)
    guard let schema = try CoreDataSchema.read(database) else {
      throw MigrationError(
        .notAStore, file: storePath,
        "not a Core Data store: it has no Z_PRIMARYKEY and Z_METADATA tables")
    }
    var report = Report(store: storePath, model: model, attributes: [])
    for attribute in attributes {
      report.attributes.append(try check(attribute, schema: schema, database: database))
    }
    return report
  }

  /// Where a preflight decodes rows: in `worker` when `registry` holds app classes, whose
  /// `init?(coder:)` may trap; in this process when it holds none (the installed
  /// `archive-harness`), since then only the harness coder runs.
  ///
  /// - Parameters:
  ///   - registry: The harness's classes.
  ///   - worker: The runner that decodes in the harness's decode worker.
  /// - Returns: The runner to decode rows with.
  package static func runner(registry: ClassRegistry, worker: any DecodePathRunner)
    -> any DecodePathRunner
  {
    registry.modelClasses.isEmpty ? InProcessPathRunner(registry: registry) : worker
  }

  /// The list an attribute's rows are checked against.
  static func basis(of attribute: Attribute) -> (Basis, [String]) {
    switch attribute.transformer {
    case .deprecatedDefault: return (.proposed, secureDefaultClasses)
    case .secureDefault: return (.declared, secureDefaultClasses)
    case .custom:
      if let given = attribute.allowedClasses { return (.declaredCustom, given) }
      return (.proposedForCustom, secureDefaultClasses)
    }
  }

  private func check(_ attribute: Attribute, schema: CoreDataSchema, database: SQLiteDatabase)
    throws(MigrationError) -> AttributeReport
  {
    let (basis, classes) = Self.basis(of: attribute)
    var report = AttributeReport(
      attribute: attribute, table: "", column: "", basis: basis, checkedClasses: classes)
    if attribute.isTransient {
      report.skipped = "transient: Core Data keeps no column for it"
      return report
    }
    let target: CoreDataSchema.Target
    do throws(MigrationError) {
      target = try schema.target(
        entity: attribute.entity, attribute: attribute.attribute, in: database, path: storePath)
    } catch {
      throw MigrationError(
        error.code, place: error.place,
        "the model's \(attribute.qualifiedName) (\(attribute.modelPlace)): \(error.message)")
    }
    report.table = target.table
    report.column = target.column
    var sql =
      "SELECT Z_PK, \(target.names.isEmpty ? "NULL" : "Z_ENT"), \(SQLiteDatabase.quote(target.column)) FROM \(SQLiteDatabase.quote(target.table))"
    if let filter = target.entityFilter {
      sql += " WHERE Z_ENT IN (\(filter.sorted().map(String.init).joined(separator: ", ")))"
    }
    sql += " ORDER BY Z_PK"
    let rows = try database.prepare(sql)
    var minimal = ClassCollector()
    var unregistered: Set<String> = []
    while try rows.step() {
      report.rows += 1
      let primaryKey = rows.integer(0)
      var entity = attribute.entity
      if case .integer(let number) = rows.value(1), let name = target.names[number] {
        entity = name
      }
      switch rows.columnType(2) {
      case SQLITE_NULL:
        report.nullRows += 1
        continue
      case SQLITE_BLOB, SQLITE_TEXT:
        break
      default:
        report.otherRows += 1
        if basis != .declaredCustom, basis != .proposedForCustom {
          record(
            LostRow(
              primaryKey: primaryKey, entity: entity, kind: .notAnArchive, className: nil,
              keyPath: "$archive", message: "the column holds a number, not archive bytes"),
            in: &report)
        }
        continue
      }
      let bytes = rows.bytes(2)
      let archive: KeyedArchive
      do throws(KeyedArchiveError) {
        archive = try KeyedArchive(bytes: bytes)
      } catch {
        report.otherRows += 1
        // A custom transformer may keep a format of its own; an unarchiving one cannot read it.
        if case .custom = attribute.transformer, basis == .proposedForCustom { continue }
        record(
          LostRow(
            primaryKey: primaryKey, entity: entity, kind: .notAnArchive, className: nil,
            keyPath: error.keyPath.isEmpty ? "$archive" : error.keyPath,
            message: "not a keyed archive: \(error.description)"),
          in: &report)
        continue
      }
      report.archiveRows += 1
      let walk = TopLevelWalk(archive: archive)
      minimal.add(walk)
      let allowed = Set(classes)
      var lost: LostRow?
      if let refused = walk.instances.first(where: { allowed.isDisjoint(with: $0.chain) }) {
        lost = LostRow(
          primaryKey: primaryKey, entity: entity, kind: .classNotAllowed,
          className: refused.name, keyPath: refused.keyPath,
          message:
            "class '\(refused.name)' (archived chain: \(refused.chain.joined(separator: ", "))) is not in allowedTopLevelClasses, at \(refused.keyPath)"
        )
      }
      let (legacy, secure) = try decode(bytes, allowedClasses: classes)
      count(legacy, into: &report.legacy, unregistered: &unregistered)
      count(secure, into: &report.secure, unregistered: &unregistered)
      for (path, outcome) in [(DecodePath.secure, secure), (.legacy, legacy)] where lost == nil {
        guard let crash = outcome.crash else { continue }
        lost = LostRow(
          primaryKey: primaryKey, entity: entity, kind: .decoderCrashed, className: nil,
          keyPath: "root",
          message:
            "the app's decoding trapped in the decode worker on the \(path.rawValue) path (\(crash.summary)): the app would crash reading the row"
        )
      }
      if lost == nil, let rejection = secure.rejection, rejection.category != .unmappedClass {
        lost = LostRow(
          primaryKey: primaryKey, entity: entity,
          kind: rejection.category == .classNotAllowed ? .classNotAllowed : .secureReadRejected,
          className: nil, keyPath: rejection.keyPath,
          message: "the secure read refuses it: \(rejection.description)")
      }
      if let lost { record(lost, in: &report) }
    }
    report.minimalAllowedClasses = minimal.minimal
    report.leafClasses = minimal.leaves
    report.unregisteredClasses = unregistered.sorted()
    return report
  }

  /// The row's legacy and secure outcomes, in one request to the runner.
  private func decode(_ bytes: [UInt8], allowedClasses: [String]) throws(MigrationError) -> (
    legacy: DecodeOutcome, secure: DecodeOutcome
  ) {
    let results = runner.outcomes(
      bytes, paths: [.legacy, .secure], allowedClasses: allowedClasses, classMap: classMap,
      topKeys: ["root"])
    var outcomes: [DecodeOutcome] = []
    for result in results {
      switch result {
      case .success(let outcome): outcomes.append(outcome)
      case .failure(let error):
        throw MigrationError(.workerUnavailable, file: storePath, error.description)
      }
    }
    guard outcomes.count == 2 else {
      throw MigrationError(
        .workerUnavailable, file: storePath, "the decode worker answered no legacy and secure path")
    }
    return (outcomes[0], outcomes[1])
  }

  private func record(_ row: LostRow, in report: inout AttributeReport) {
    report.lostRowCount += 1
    if report.lostRows.count < Self.maximumListedRows { report.lostRows.append(row) }
  }

  private func count(
    _ outcome: DecodeOutcome, into counts: inout PathCounts, unregistered: inout Set<String>
  ) {
    switch outcome {
    case .decoded: counts.decoded += 1
    case .rejected(let rejection) where rejection.category == .unmappedClass:
      counts.unregistered += 1
      if let name = Self.quotedClassName(in: rejection.message) { unregistered.insert(name) }
    case .rejected(let rejection): counts.rejected[rejection.category, default: 0] += 1
    case .crashed: counts.rejected[.crashed, default: 0] += 1
    }
  }

  /// The first `'…'` of a rejection message: the class it names.
  static func quotedClassName(in message: String) -> String? {
    guard let start = message.firstIndex(of: "'") else { return nil }
    let rest = message[message.index(after: start)...]
    guard let end = rest.firstIndex(of: "'") else { return nil }
    return String(rest[..<end])
  }
}

/// The classes Apple's secure unarchiver checks against the top-level allowed classes: the
/// root's, and, below a Foundation collection, its elements' and keys'.
struct TopLevelWalk {
  /// One instance whose class is checked.
  struct Checked {
    /// The archived class name.
    var name: String
    /// The class and its archived superclasses.
    var chain: [String]
    /// Where it is.
    var keyPath: String
  }

  /// The instances checked, in graph order.
  private(set) var instances: [Checked] = []
  /// The property-list leaf classes met (`NSString`, `NSNumber`, `NSData`, `NSDate`).
  private(set) var leaves: Set<String> = []

  /// The deepest collection nesting walked.
  static let maximumDepth = 256

  init(archive: KeyedArchive) {
    var visited: Set<Int> = []
    if let root = archive.root { walk(root, keyPath: "root", archive, &visited, depth: 0) }
  }

  private mutating func walk(
    _ node: ArchiveNode, keyPath: String, _ archive: KeyedArchive, _ visited: inout Set<Int>,
    depth: Int
  ) {
    guard depth < Self.maximumDepth else { return }
    switch node {
    case .null:
      return
    case .value(let value):
      if let leaf = Self.leafClass(of: value) { leaves.insert(leaf) }
    case .object(let index):
      guard let instance = archive.instance(at: index) else { return }
      guard visited.insert(index).inserted else { return }
      var chain = [instance.className]
      for name in instance.archiveClass.chain where !chain.contains(name) { chain.append(name) }
      instances.append(Checked(name: instance.className, chain: chain, keyPath: keyPath))
      switch archive.foundationForm(of: instance) {
      case .array(let values)?, .set(let values)?, .orderedSet(let values)?:
        for (offset, value) in values.enumerated() {
          walk(
            archive.node(for: value), keyPath: "\(keyPath)[\(offset)]", archive, &visited,
            depth: depth + 1)
        }
      case .dictionary(let keys, let values)?:
        for (offset, pair) in zip(keys, values).enumerated() {
          let keyNode = archive.node(for: pair.0)
          let name: String
          if case .string(let text) = archive.leaf(of: keyNode) {
            name = text
          } else {
            name = "[\(offset)]"
          }
          walk(keyNode, keyPath: "\(keyPath).<key \(offset)>", archive, &visited, depth: depth + 1)
          walk(
            archive.node(for: pair.1), keyPath: "\(keyPath).\(name)", archive, &visited,
            depth: depth + 1)
        }
      default:
        return
      }
    }
  }

  /// The class a property-list value stored in `$objects` decodes to.
  static func leafClass(of value: PropertyListValue) -> String? {
    switch value {
    case .string: "NSString"
    case .integer, .unsignedInteger, .real, .bool: "NSNumber"
    case .data: "NSData"
    case .date: "NSDate"
    default: nil
    }
  }
}

/// The smallest top-level list that admits every walked row.
struct ClassCollector {
  private var picked: Set<String> = []
  private var leafNames: Set<String> = []

  /// Adds one row's classes: for each, the default secure class in its chain when there is
  /// one (`NSMutableArray` is allowed by `NSArray`), else the class itself.
  mutating func add(_ walk: TopLevelWalk) {
    let defaults = TransformerPreflight.secureDefaultClasses
    for checked in walk.instances {
      picked.insert(defaults.first(where: checked.chain.contains) ?? checked.name)
    }
    leafNames.formUnion(walk.leaves)
    picked.formUnion(walk.leaves)
  }

  /// The list: the default secure classes in Apple's order, then the rest by name.
  var minimal: [String] {
    let defaults = TransformerPreflight.secureDefaultClasses
    return defaults.filter(picked.contains) + picked.subtracting(defaults).sorted()
  }

  /// The leaf classes among them.
  var leaves: [String] {
    TransformerPreflight.secureDefaultClasses.filter(leafNames.contains)
  }
}
