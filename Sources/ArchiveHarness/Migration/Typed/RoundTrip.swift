import ArchiveCoder
import ArchiveFormat
import Foundation

/// Migrates one archive by a verified round trip: legacy decode, secure re-encode, secure re-read, compare.
///
/// 1. Decode the bytes through the legacy path with the class map: the old
///    data as the old app saw it.
/// 2. Re-encode the object with the current classes and secure coding.
/// 3. Re-read the new bytes through the secure path with the read's
///    `allowedClasses`.
/// 4. Compare the re-read object with the first decode, field by field.
/// 5. Conserve: compare what the historical archive holds with the new archive, value by value
///    at key paths, with no app code (`ConservationCheck`). The first decode came from the
///    current code, so step 4 alone would compare that code with itself; a decoder that drops a
///    field agrees with itself. A value lost or changed, unless declared, refuses the record.
///
/// Any failure is a ``RecordRefusal`` naming the step and its cause. A `nil` decode, or an empty
/// collection decoded from an archive whose root holds elements, is a refusal:
/// it is never a value to write.
///
/// ```swift
/// let trip = RoundTrip(registry: registry, classMap: map, allowedClasses: ["ProfileKit.Memo"])
/// switch trip.run(bytes) {
/// case .success(let migrated): write(migrated.bytes)
/// case .failure(let refusal): print(refusal)
/// }
/// ```
public struct RoundTrip: Sendable {
  /// A verified migration of one archive.
  public struct Migrated: Sendable, Hashable {
    /// The new archive's bytes.
    public let bytes: [UInt8]
    /// The object as the legacy path decoded it.
    public let before: DecodedValue
    /// The object as the secure path re-read it; equal to ``before``.
    public let after: DecodedValue
  }

  /// The app's current classes.
  public var registry: ClassRegistry
  /// The archived-name map, applied on the legacy decode.
  public var classMap: ClassNameMap
  /// The classes the app's secure read declares.
  public var allowedClasses: [String]
  /// The bounds on reading.
  public var limits: ArchiveLimits

  /// Creates a round trip.
  public init(
    registry: ClassRegistry, classMap: ClassNameMap, allowedClasses: [String],
    limits: ArchiveLimits = .default
  ) {
    self.registry = registry
    self.classMap = classMap
    self.allowedClasses = allowedClasses
    self.limits = limits
  }

  /// Runs the round trip on one archive.
  public func run(_ bytes: [UInt8]) -> Result<Migrated, RecordRefusal> {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes, limits: limits)
    } catch {
      return .failure(
        RecordRefusal(
          .read, cause: .rejected(.malformed), error.description))
    }
    return run(archive)
  }

  /// Runs the round trip on an archive already read, sparing a second read of its bytes.
  func run(_ archive: KeyedArchive) -> Result<Migrated, RecordRefusal> {
    if let refusal = HarnessDecoder.expansionRejection(archive, secure: false) {
      return .failure(
        RecordRefusal(
          .read, cause: .rejected(.limitExceeded), refusal.message))
    }
    // Each decode leaves the describing to this trip's own describers below: a described
    // decode would walk the same graph a second time. The expansion check above covers the
    // legacy decode; the re-read makes its own.
    let legacy = HarnessDecoder(registry: registry, classMap: classMap, limits: limits)
      .decodeUndescribed(archive, secure: false)
    guard let object = legacy.object, legacy.outcome.decodedValue != nil else {
      // A nil root decodes to nil, as Apple's unarchiver gives it: a finding, never a value
      // to write back.
      let reason =
        legacy.outcome.decodedValue == .noObject
        ? "the archive's root is $null: the decode gives nil, as Apple's unarchiver does, "
          + "and there is no object to rewrite" : "the legacy decode returned nil"
      return .failure(RecordRefusal(step: .decode, outcome: legacy.outcome, nilReason: reason))
    }
    let before: DecodedValue
    switch describe(object, of: legacy, step: .decode, naming: "the decoded object") {
    case .success(let value): before = value
    case .failure(let refusal): return .failure(refusal)
    }
    if let refusal = emptyDecode(before, archive: archive) {
      return .failure(refusal)
    }

    let newBytes: [UInt8]
    do {
      newBytes = try HarnessArchiver.archivedData(
        withRootObject: object, requiringSecureCoding: true, built: legacy.builtCollections)
    } catch {
      return .failure(
        RecordRefusal(
          .encode, cause: .rejected(.notSecureCoding), error.description))
    }

    let reread = HarnessDecoder(registry: registry, limits: limits)
      .decodeUndescribed(newBytes, secure: true, allowedClasses: allowedClasses)
    guard let rereadObject = reread.object, reread.outcome.decodedValue != nil else {
      return .failure(
        RecordRefusal(
          step: .reRead, outcome: reread.outcome, nilReason: "the secure re-read returned nil"))
    }
    let after: DecodedValue
    switch describe(rereadObject, of: reread, step: .compare, naming: "the re-read object") {
    case .success(let value): after = value
    case .failure(let refusal): return .failure(refusal)
    }
    guard after == before else {
      return .failure(
        RecordRefusal(
          .compare, cause: .changed, "the re-read object differs: before \(before), after \(after)")
      )
    }
    if let refusal = conservationRefusal(archive, newBytes) { return .failure(refusal) }
    return .success(Migrated(bytes: newBytes, before: before, after: after))
  }

  /// A refusal when the new bytes lose or change a value the historical archive holds.
  private func conservationRefusal(_ archive: KeyedArchive, _ newBytes: [UInt8]) -> RecordRefusal? {
    let findings: [ConservationFinding]
    do {
      let rewritten = try KeyedArchive(bytes: newBytes, limits: limits)
      // The class map carries the field changes the manifest declares.
      findings = try ConservationCheck(registry: registry, classMap: classMap)
        .findings(archive, rewritten)
    } catch {
      return RecordRefusal(.conserve, cause: .rejected(.limitExceeded), "\(error)")
    }
    let losses = findings.filter { $0.kind.severity == .error }
    guard !losses.isEmpty else { return nil }
    let more = losses.count > 3 ? "; and \(losses.count - 3) more" : ""
    return RecordRefusal(
      .conserve, cause: .rejected(.notConserved),
      "the new archive does not keep what the old one holds: "
        + losses.prefix(3).map(\.description).joined(separator: "; ") + more)
  }

  /// Describes a decoded object for the comparison, from what its decode built; a refusal at
  /// `step` when the description passes the describer's node budget.
  private func describe(
    _ object: AnyObject, of result: HarnessDecodeResult, step: MigrationStep, naming name: String
  ) -> Result<DecodedValue, RecordRefusal> {
    var describer = ObjectDescriber()
    describer.built = result.builtCollections
    let value = describer.describe(object)
    guard !describer.exceededNodeLimit else {
      return .failure(
        RecordRefusal(
          step, cause: .rejected(.limitExceeded),
          "\(name) expands to more than \(describer.maximumNodes) values; too large to compare"
        ))
    }
    return .success(value)
  }

  /// A refusal when the decode is an empty collection but the archive's root holds elements.
  private func emptyDecode(_ value: DecodedValue, archive: KeyedArchive) -> RecordRefusal? {
    let decodedCount: Int?
    switch value {
    case .null: decodedCount = 0
    case .array(_, let elements), .set(_, let elements), .orderedSet(_, let elements):
      decodedCount = elements.count
    case .dictionary(_, let entries): decodedCount = entries.count
    case .string(let string): decodedCount = string.isEmpty ? 0 : nil
    default: decodedCount = nil
    }
    guard decodedCount == 0 else { return nil }
    guard let root = archive.root else {
      return RecordRefusal(
        .decode, cause: .emptyDecode, "the archive has no root")
    }
    let archived = archive.elementCount(of: root) ?? 1
    guard archived > 0 || value == .null else { return nil }
    return RecordRefusal(
      .decode, cause: .emptyDecode,
      "the decode came back \(value == .null ? "nil" : "empty") although the archive's root holds \(archived) element(s)"
    )
  }
}

extension RecordRefusal {
  /// A refusal for a decode that gave no object: its rejection, or a `nil-decode`.
  fileprivate init(step: MigrationStep, outcome: DecodeOutcome, nilReason: String) {
    if let rejection = outcome.rejection {
      self.init(step, cause: .rejected(rejection.category), rejection.message)
    } else {
      self.init(step, cause: .nilDecode, nilReason)
    }
  }
}
