import Foundation
import KeyedArchive

/// Migrates one archive by a verified round trip: legacy decode, secure re-encode, secure re-read, compare.
///
/// 1. Decode the bytes through the legacy path with the class map: the old
///    data as the old app saw it.
/// 2. Re-encode the object with the current classes and secure coding.
/// 3. Re-read the new bytes through the secure path with the read's
///    `allowedClasses`.
/// 4. Compare the re-read object with the first decode, field by field.
///
/// Any failure is a ``Refusal`` naming the step. A `nil` decode, or an empty
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
  /// A step of the round trip.
  public enum Step: String, Sendable, Hashable, Codable {
    /// Reading the bytes as a keyed archive.
    case read
    /// Decoding through the legacy path.
    case legacyDecode = "legacy-decode"
    /// Re-encoding with secure coding.
    case reencode = "re-encode"
    /// Re-reading the new bytes through the secure path.
    case reread = "re-read"
    /// Comparing the re-read object with the first decode.
    case compare
  }

  /// Why a record was not migrated: the step that failed and what happened.
  public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public let step: Step
    /// The category of the failure, such as `class-not-allowed` or `empty-decode`.
    public let category: String
    /// What happened.
    public let reason: String

    public var description: String { "\(step.rawValue): [\(category)] \(reason)" }
  }

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
  public func run(_ bytes: [UInt8]) -> Result<Migrated, Refusal> {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes, limits: limits)
    } catch {
      return .failure(Refusal(step: .read, category: "malformed", reason: error.description))
    }
    return run(archive)
  }

  /// Runs the round trip on an archive already read, sparing a second read of its bytes.
  func run(_ archive: KeyedArchive) -> Result<Migrated, Refusal> {
    if let refusal = HarnessDecoder.expansionRejection(archive, secure: false) {
      return .failure(Refusal(step: .read, category: "limit-exceeded", reason: refusal.message))
    }
    let legacy = HarnessDecoder(registry: registry, classMap: classMap, limits: limits)
      .decode(archive, secure: false)
    guard let object = legacy.object, legacy.outcome.decodedValue != nil else {
      let reason = legacy.outcome.rejection.map { ($0.category.rawValue, $0.message) }
      return .failure(
        Refusal(
          step: .legacyDecode, category: reason?.0 ?? "nil-decode",
          reason: reason?.1 ?? "the legacy decode returned nil"))
    }
    var describer = ObjectDescriber()
    let before = describer.describe(object)
    guard !describer.exceededNodeLimit else {
      return .failure(
        Refusal(
          step: .legacyDecode, category: "limit-exceeded",
          reason:
            "the decoded object expands to more than \(describer.maximumNodes) values; too large to compare"
        ))
    }
    if let refusal = emptyDecode(before, archive: archive) {
      return .failure(refusal)
    }

    let newBytes: [UInt8]
    do {
      newBytes = try HarnessArchiver.archivedData(
        withRootObject: object, requiringSecureCoding: true)
    } catch {
      return .failure(
        Refusal(step: .reencode, category: "not-secure-coding", reason: error.description))
    }

    let reread = HarnessDecoder(registry: registry, limits: limits)
      .decode(newBytes, secure: true, allowedClasses: allowedClasses)
    guard let rereadObject = reread.object, reread.outcome.decodedValue != nil else {
      let reason = reread.outcome.rejection.map { ($0.category.rawValue, $0.message) }
      return .failure(
        Refusal(
          step: .reread, category: reason?.0 ?? "nil-decode",
          reason: reason?.1 ?? "the secure re-read returned nil"))
    }
    var rereadDescriber = ObjectDescriber()
    let after = rereadDescriber.describe(rereadObject)
    guard !rereadDescriber.exceededNodeLimit else {
      return .failure(
        Refusal(
          step: .compare, category: "limit-exceeded",
          reason: "the re-read object expands to more than \(rereadDescriber.maximumNodes) values"))
    }
    guard after == before else {
      return .failure(
        Refusal(
          step: .compare, category: "changed",
          reason: "the re-read object differs: before \(before), after \(after)"))
    }
    return .success(Migrated(bytes: newBytes, before: before, after: after))
  }

  /// A refusal when the decode is an empty collection but the archive's root holds elements.
  private func emptyDecode(_ value: DecodedValue, archive: KeyedArchive) -> Refusal? {
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
      return Refusal(
        step: .legacyDecode, category: "empty-decode", reason: "the archive has no root")
    }
    let archived = archive.elementCount(of: root) ?? 1
    guard archived > 0 || value == .null else { return nil }
    return Refusal(
      step: .legacyDecode, category: "empty-decode",
      reason:
        "the decode came back \(value == .null ? "nil" : "empty") although the archive's root holds \(archived) element(s)"
    )
  }
}
