import ArchiveFormat
import Foundation

/// Decodes keyed archives into the app's registered classes with the harness's own coder.
///
/// Both modes follow the rules of Apple's `NSKeyedUnarchiver`: in secure mode the root's class
/// is checked against the read's allowed classes, each nested `decodeObject(of:forKey:)` against
/// the classes of that call, and container elements against the set that decoded the container;
/// a class passes by the registered class's real hierarchy. Every failure is a
/// `DecodeOutcome.rejected(_:)` value with a category and a key path, never a trap of the
/// coder itself. App code in `init?(coder:)` runs in this process: run untrusted app code
/// through `WorkerSupervisor` (HarnessContainment) with the `legacy` or `secure` path to contain traps.
///
/// ```swift
/// let decoder = HarnessDecoder(
///   registry: ClassRegistry(modelClasses: [UserProfile.self, Address.self]),
///   classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
/// let result = decoder.decode(bytes, secure: true, allowedClasses: ["ProfileKit.UserProfile"])
/// ```
package struct HarnessDecoder: Sendable {
  /// The classes that may be instantiated.
  package let registry: ClassRegistry
  /// The archived-name map.
  package let classMap: ClassNameMap
  /// The deepest nesting of object decodes before a `limit-exceeded` rejection.
  package var maximumDepth: Int
  /// The bounds on reading the archive.
  package var limits: ArchiveLimits
  /// Whether a decoded outcome carries the object's field description; turning it off leaves
  /// `DecodedValue.opaque(className:)` and saves re-reading the object's fields.
  package var describesObjects: Bool = true
  /// Whether a described decode also proves that the current code keeps what the archive holds.
  ///
  /// The decoded object is re-encoded and compared with the archive (`ConservationCheck`): a
  /// loss makes the outcome a `not-conserved` rejection, and a type change is a warning.
  package var conserves: Bool = true

  /// Creates a decoder.
  ///
  /// - Parameters:
  ///   - registry: The classes that may be instantiated.
  ///   - classMap: The archived-name map.
  ///   - maximumDepth: The deepest nesting of object decodes.
  ///   - limits: The bounds on reading the archive.
  package init(
    registry: ClassRegistry, classMap: ClassNameMap = .empty, maximumDepth: Int = 256,
    limits: ArchiveLimits = .default
  ) {
    self.registry = registry
    self.classMap = classMap
    self.maximumDepth = maximumDepth
    self.limits = limits
  }

  /// Decodes an archive from bytes.
  ///
  /// - Parameters:
  ///   - bytes: The archive (binary or XML property list).
  ///   - secure: Whether to require secure coding.
  ///   - allowedClasses: Runtime names of the classes the root decode allows (secure mode).
  ///   - topKeys: The `$top` keys the app reads, in order; `root` unless given. Several keys
  ///     decode to a `DecodedValue.topLevel(_:)` value.
  /// - Returns: The outcome and, when decoded, the object.
  package func decode(
    _ bytes: [UInt8], secure: Bool, allowedClasses: [String] = [], topKeys: [String] = ["root"]
  ) -> HarnessDecodeResult {
    decode(
      bytes, secure: secure, allowedClasses: allowedClasses, topKeys: topKeys,
      checksExpansion: describesObjects, describing: describesObjects)
  }

  /// Decodes an archive from bytes for a caller that walks the decoded graph itself, as
  /// `RoundTrip` (HarnessMigration) does with its own describer: the outcome is not described, but the graph
  /// must pass the same ``maximumExpandedSize`` check as a described decode.
  package func decodeUndescribed(_ bytes: [UInt8], secure: Bool, allowedClasses: [String])
    -> HarnessDecodeResult
  {
    decode(
      bytes, secure: secure, allowedClasses: allowedClasses, topKeys: ["root"],
      checksExpansion: true, describing: false)
  }

  private func decode(
    _ bytes: [UInt8], secure: Bool, allowedClasses: [String], topKeys: [String],
    checksExpansion: Bool, describing: Bool
  ) -> HarnessDecodeResult {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes, limits: limits)
    } catch {
      let mode: DecodePath = secure ? .secure : .legacy
      let rejection = DecodeRejection(
        category: error.code == .limitExceeded ? .limitExceeded : .malformed,
        keyPath: error.keyPath.isEmpty ? "$archive" : error.keyPath,
        message: "\(mode): \(error.description)")
      return HarnessDecodeResult(
        outcome: .rejected(rejection), object: nil, warnings: [], instantiatedClassNames: [])
    }
    return decode(
      archive, secure: secure, allowedClasses: allowedClasses, topKeys: topKeys,
      checksExpansion: checksExpansion, describing: describing)
  }

  /// Decodes a validated archive.
  ///
  /// - Parameters:
  ///   - archive: The archive.
  ///   - secure: Whether to require secure coding.
  ///   - allowedClasses: Runtime names of the classes the root decode allows (secure mode).
  ///   - topKeys: The `$top` keys the app reads, in order; `root` unless given.
  /// - Returns: The outcome and, when decoded, the object.
  package func decode(
    _ archive: KeyedArchive, secure: Bool, allowedClasses: [String] = [],
    topKeys: [String] = ["root"]
  ) -> HarnessDecodeResult {
    decode(
      archive, secure: secure, allowedClasses: allowedClasses, topKeys: topKeys,
      checksExpansion: describesObjects, describing: describesObjects)
  }

  /// Decodes a validated archive whose expansion the caller has checked, for a caller that
  /// describes the decoded graph itself (the legacy decode of HarnessMigration's `RoundTrip`).
  package func decodeUndescribed(_ archive: KeyedArchive, secure: Bool) -> HarnessDecodeResult {
    decode(
      archive, secure: secure, allowedClasses: [], topKeys: ["root"], checksExpansion: false,
      describing: false)
  }

  private func decode(
    _ archive: KeyedArchive, secure: Bool, allowedClasses: [String], topKeys: [String],
    checksExpansion: Bool, describing: Bool
  ) -> HarnessDecodeResult {
    let keys = topKeys.isEmpty ? ["root"] : topKeys
    if checksExpansion,
      let refusal = Self.expansionRejection(archive, secure: secure, topKeys: keys)
    {
      return HarnessDecodeResult(
        outcome: .rejected(refusal), object: nil, warnings: [], instantiatedClassNames: [])
    }
    let unarchiver = HarnessUnarchiver(
      archive: archive, registry: registry, classMap: classMap, secure: secure,
      maximumDepth: maximumDepth)
    let result = unarchiver.decodeTop(
      keys: keys, allowedClasses: allowedClasses, describing: describing)
    guard conserves, describing, keys.count == 1 else { return result }
    return conserved(result, archive: archive, topKey: keys[0])
  }

  /// The result, held to what the archive holds: the decoded object re-encoded by the current
  /// classes must keep every archived value (`ConservationCheck`).
  private func conserved(_ result: HarnessDecodeResult, archive: KeyedArchive, topKey: String)
    -> HarnessDecodeResult
  {
    guard let object = result.object, result.outcome.decodedValue != nil else { return result }
    let findings: [ConservationFinding]
    do {
      let bytes = try HarnessArchiver.archivedData(
        withRootObject: object, requiringSecureCoding: false, built: result.builtCollections)
      let rewritten = try KeyedArchive(bytes: bytes, limits: limits)
      // The class map carries the field changes the manifest declares.
      findings = try ConservationCheck(registry: registry, classMap: classMap)
        .findings(archive, at: topKey, rewritten, at: "root")
    } catch {
      var checked = result
      checked.warnings.append("what the current code keeps was not checked: \(error)")
      return checked
    }
    var checked = result
    checked.warnings += findings.filter { $0.kind.severity != .error }.map {
      "\($0.kind): \($0)"
    }
    let losses = findings.filter { $0.kind.severity == .error }
    guard let first = losses.first else { return checked }
    let more = losses.count > 3 ? "; and \(losses.count - 3) more" : ""
    let rejection = DecodeRejection(
      category: .notConserved, keyPath: first.keyPath,
      message: "the current code does not keep what the archive holds: "
        + losses.prefix(3).map(\.description).joined(separator: "; ") + more)
    var rejected = HarnessDecodeResult(
      outcome: .rejected(rejection), object: nil, warnings: checked.warnings,
      instantiatedClassNames: result.instantiatedClassNames)
    rejected.strictnessFindings = result.strictnessFindings
    return rejected
  }

  /// The keys a decode with no keys given reads: `root` when the archive has it, otherwise
  /// every `$top` key, in natural order (`$2` before `$10`).
  ///
  /// ```swift
  /// HarnessDecoder.defaultTopKeys(of: archive)  // ["$0", "$1", "$2"] for an XCTest archive
  /// ```
  ///
  /// - Parameter archive: The archive.
  /// - Returns: The keys, never empty unless `$top` is.
  package static func defaultTopKeys(of archive: KeyedArchive) -> [String] {
    archive.defaultReadKeys
  }

  /// The key path a rejection under a top key starts with: `root`, or `$top.KEY`.
  ///
  /// ```swift
  /// HarnessDecoder.keyPath(ofTopKey: "$1")  // "$top.$1"
  /// ```
  ///
  /// - Parameter key: A `$top` key.
  /// - Returns: The key path text.
  package static func keyPath(ofTopKey key: String) -> String {
    key == "root" ? "root" : ArchiveKeyPath(topKey: key, components: []).description
  }

  /// The keys, in the order read, that some decoded value gives as nil
  /// (`DecodedValue.noObject`): the one key of a single-key read, or a field of a `$top` value.
  ///
  /// ```swift
  /// HarnessDecoder.nilKeys(in: [.topLevel([DecodedField(key: "$1", value: .noObject)])],
  ///   keys: ["$0", "$1"])  // ["$1"]
  /// ```
  ///
  /// - Parameters:
  ///   - values: What the paths decoded.
  ///   - keys: The `$top` keys read.
  /// - Returns: The keys that decoded to nil on some path.
  package static func nilKeys(in values: [DecodedValue], keys: [String]) -> [String] {
    keys.filter { key in
      values.contains { value in
        if let fields = value.topLevelFields {
          return fields.contains { $0.key == key && $0.value == .noObject }
        }
        return keys.count == 1 && value == .noObject
      }
    }
  }

  /// The note a report gives for keys that decode to nil.
  ///
  /// - Parameter keys: The keys, from ``nilKeys(in:keys:)``; not empty.
  /// - Returns: `$top.root holds $null: the decode gives nil, …`.
  package static func nilNote(_ keys: [String]) -> String {
    keys.map(topKeyText).joined(separator: ", ")
      + " \(keys.count == 1 ? "holds" : "hold") $null: the decode gives nil, as Apple's "
      + "unarchiver does, and the app gets no object there"
  }

  /// A top key as messages name it: `$top.root`, `$top.$0`.
  package static func topKeyText(_ key: String) -> String {
    key == "root" ? "$top.root" : ArchiveKeyPath(topKey: key, components: []).description
  }

  /// The most values a decoded graph may expand to when it is walked as values.
  ///
  /// Describing, comparing and re-encoding walk it so. Foundation on Linux hands out nested
  /// collections as fresh Swift values, so a few shared arrays can stand for 2^40 values.
  package static let maximumExpandedSize = 1_000_000

  /// A `limit-exceeded` rejection when the archive's graph expands past ``maximumExpandedSize``.
  package static func expansionRejection(
    _ archive: KeyedArchive, secure: Bool, topKeys: [String] = ["root"]
  ) -> DecodeRejection? {
    var size = 0
    for key in topKeys {
      size += archive.expandedSize(from: key, limit: maximumExpandedSize)
      if size > maximumExpandedSize { break }
    }
    guard size > maximumExpandedSize else { return nil }
    return DecodeRejection(
      category: .limitExceeded,
      keyPath: topKeys.count == 1 ? keyPath(ofTopKey: topKeys[0]) : "$top",
      message:
        "\(secure ? DecodePath.secure : .legacy): root: shared references expand to more than \(maximumExpandedSize) values; walking the decoded graph would not finish"
    )
  }

  /// Decodes on a harness path: `legacy` or `secure`.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - path: ``DecodePath/legacy`` or ``DecodePath/secure``; Foundation paths are refused.
  ///   - allowedClasses: Runtime names of the classes the root decode allows.
  ///   - topKeys: The `$top` keys the app reads, in order.
  /// - Returns: The outcome.
  package func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String] = [],
    topKeys: [String] = ["root"]
  ) -> DecodeOutcome {
    guard !path.isFoundation else {
      return .rejected(
        DecodeRejection(
          category: .malformed, keyPath: "root",
          message: "\(path.rawValue): the harness coder does not run Foundation paths"))
    }
    return decode(bytes, secure: path.isSecure, allowedClasses: allowedClasses, topKeys: topKeys)
      .outcome
  }
}
