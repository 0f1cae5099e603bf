import ArchiveCoder
import ArchiveFormat
import Foundation

/// Runs Foundation's own `NSKeyedUnarchiver` over one archive, the way an app would.
///
/// It sets `decodingFailurePolicy = .setErrorAndReturn` before any decode, maps every archived
/// class name through the registry with `setClass(_:forClassName:)`, and decodes the root with
/// `decodeObject(forKey:)` (legacy) or `decodeObject(of:forKey:)` (secure). On Linux some inputs
/// make swift-corelibs-foundation trap; run this only inside a worker process.
///
/// Two answers are Apple's rather than corelibs': a key whose value is `$null` decodes to nil
/// (`DecodedValue.noObject`), and on Linux a secure read whose root, or an element of a
/// Foundation collection the root holds, has a class the read does not allow is refused as
/// `class-not-allowed` before corelibs runs (`CorelibsClassCheck`), where corelibs would trap.
struct FoundationReferenceDecoder {
  let registry: ClassRegistry

  func decode(_ request: WorkerRequest) -> (outcome: DecodeOutcome, notes: [String]) {
    let mode: DecodePath = request.path.isSecure ? .foundationSecure : .foundationLegacy
    var notes: [String] = []
    var allowed: [AnyClass] = []
    if request.path.isSecure {
      for name in request.allowedClasses {
        guard let registered = registry.registeredClass(named: name) else {
          let message = "\(mode): allowed class '\(name)' is not registered"
          return (.rejected(.init(category: .malformed, keyPath: "root", message: message)), notes)
        }
        allowed.append(registered.type)
      }
    }
    let variant = request.variant ?? .standard
    if variant == .unarchiveTopLevelObject || variant == .unarchiveObject {
      return (decodeWithConvenience(request.archive, variant: variant, mode: mode), notes)
    }
    let unarchiver: NSKeyedUnarchiver
    do {
      unarchiver = try NSKeyedUnarchiver(forReadingFrom: request.archive)
    } catch {
      let message = "\(mode): NSKeyedUnarchiver(forReadingFrom:) threw: \(Self.describe(error))"
      return (.rejected(.init(category: .malformed, keyPath: "root", message: message)), notes)
    }
    if variant != .defaultFailurePolicy {
      unarchiver.decodingFailurePolicy = .setErrorAndReturn
    }
    unarchiver.requiresSecureCoding = request.path.isSecure
    var unmapped: [String] = []
    for entry in ArchivedClassTable(archive: [UInt8](request.archive)).entries {
      // Foundation's archiver writes a C array's elements in a holder class of its own, which
      // its unarchiver reads itself: no app class stands for it.
      if entry.className == HarnessUnarchiver.oldStyleArrayClassName { continue }
      if let resolution = request.classMap.resolve(
        className: entry.className, superclassNames: entry.superclassNames, in: registry),
        let registered = registry.registeredClass(named: resolution.registeredName)
      {
        // A stand-in is registered under the Apple-platform class's name: Foundation must be
        // told which class reads it.
        if resolution.registeredName != entry.className || registered.isStandIn {
          unarchiver.setClass(registered.type, forClassName: entry.className)
        }
      } else {
        unmapped.append(entry.className)
        if request.guardsUnmappedClasses {
          unarchiver.setClass(UnregisteredClassPlaceholder.self, forClassName: entry.className)
        }
      }
    }
    let keys = request.keys
    // The harness's own reading of the archive, for what corelibs gets wrong, read once when
    // first needed; nil when it does not read (Foundation then answers for itself).
    var read: KeyedArchive?? = nil
    func harnessReading() -> KeyedArchive? {
      if read == nil { read = .some(try? KeyedArchive(bytes: [UInt8](request.archive))) }
      return read ?? nil
    }
    #if !canImport(Darwin)
      if request.path.isSecure, variant == .standard, let archive = harnessReading(),
        let finding = CorelibsClassCheck(
          archive: archive, allowed: allowed,
          resolve: {
            unarchiver.class(forClassName: $0) ?? NSKeyedUnarchiver.class(forClassName: $0)
              ?? NSClassFromString($0)
          }
        ).firstDisallowed(keys: keys)
      {
        unarchiver.finishDecoding()
        return (.rejected(Self.rejection(finding, mode: mode, request: request)), notes)
      }
    #endif
    var roots: [(key: String, object: Any?)] = []
    var failure: (key: String, error: (any Error)?)?
    // NSKeyedUnarchiver escapes keyed reads of keys that start with `$`; an app reads the
    // `$0`, `$1`, ... keys that unkeyed encoding writes with unkeyed decodeObject() calls, in
    // order, as done here.
    var unkeyedReads: [Any?] = []
    for key in keys {
      let root: Any?
      if let position = Self.unkeyedPosition(of: key) {
        while unkeyedReads.count <= position, unarchiver.error == nil {
          unkeyedReads.append(unarchiver.decodeObject())
        }
        root = unkeyedReads.count > position ? unkeyedReads[position] : nil
      } else if request.path.isSecure {
        root = unarchiver.decodeObject(of: allowed, forKey: key)
      } else {
        root = unarchiver.decodeObject(forKey: key)
      }
      if let error = unarchiver.error {
        if root != nil {
          notes.append(
            key == "root"
              ? "the root came back with .error also set"
              : "\(HarnessDecoder.topKeyText(key)) came back with .error also set")
        }
        failure = (key, error)
        break
      }
      guard let root else {
        // `$null` under the key: nil without an error, which is what Apple's unarchiver gives.
        if let archive = harnessReading(), Self.holdsNull(archive, key: key) {
          roots.append((key, nil))
          continue
        }
        failure = (key, nil)
        break
      }
      roots.append((key, root))
    }
    if variant == .policyChangeAfterDecoding {
      unarchiver.decodingFailurePolicy = .setErrorAndReturn
    }
    unarchiver.finishDecoding()
    if let failure {
      let keyPath = HarnessDecoder.keyPath(ofTopKey: failure.key)
      guard let error = failure.error else {
        let message = "\(mode): \(keyPath): decode returned nil without an error"
        return (
          .rejected(.init(category: .initReturnedNil, keyPath: keyPath, message: message)), notes
        )
      }
      let text = Self.describe(error)
      let category = Self.category(of: error, text: text, unmapped: unmapped)
      var message = "\(mode): \(keyPath): \(text)"
      if category == .unmappedClass, !unmapped.isEmpty {
        message += " (unmapped: " + unmapped.map { "'\($0)'" }.joined(separator: ", ") + ")"
      }
      return (.rejected(.init(category: category, keyPath: keyPath, message: message)), notes)
    }
    var describer = ObjectDescriber()
    let fields = roots.map { root in
      DecodedField(key: root.key, value: root.object.map { describer.describe($0) } ?? .noObject)
    }
    return (.decoded(keys.count == 1 ? fields[0].value : .topLevel(fields)), notes)
  }

  /// Whether the value under a `$top` key is `$null`.
  static func holdsNull(_ archive: KeyedArchive, key: String) -> Bool {
    guard case .uid(let uid)? = archive.top[key],
      case .null? = archive.object(at: Int(clamping: uid))
    else { return false }
    return true
  }

  /// The `class-not-allowed` rejection of an object whose class corelibs would trap on
  /// (`unmapped-class` when the class is the placeholder of a name nothing maps).
  static func rejection(
    _ finding: CorelibsClassCheck.Finding, mode: DecodePath, request: WorkerRequest
  ) -> DecodeRejection {
    let unmapped = finding.resolvedName == NSStringFromClass(UnregisteredClassPlaceholder.self)
    let allowed = "[" + request.allowedClasses.joined(separator: ", ") + "]"
    let subject =
      unmapped
      ? "class '\(finding.archivedName)' maps to no registered class, so it is not among the "
        + "allowed classes \(allowed)"
      : "class '\(finding.archivedName)' is not among the allowed classes \(allowed)"
    return DecodeRejection(
      category: unmapped ? .unmappedClass : .classNotAllowed, keyPath: finding.keyPath,
      message: "\(mode): \(finding.keyPath): \(subject); Apple's NSKeyedUnarchiver fails the "
        + "read with an error here, where swift-corelibs-foundation would trap (SIGILL, 'Value "
        + "was of unexpected class'), so Foundation was not run on it")
  }

  private func decodeWithConvenience(
    _ archive: Data, variant: FoundationReferenceVariant, mode: DecodePath
  ) -> DecodeOutcome {
    let unarchiving: any DeprecatedUnarchiving.Type = NSKeyedUnarchiver.self
    let root: Any?
    if variant == .unarchiveObject {
      root = unarchiving.unarchiveObject(with: archive)
    } else {
      do {
        root = try unarchiving.unarchiveTopLevelObjectWithData(archive)
      } catch {
        let message = "\(mode): unarchiveTopLevelObjectWithData threw: \(Self.describe(error))"
        return .rejected(.init(category: .malformed, keyPath: "root", message: message))
      }
    }
    guard let root else {
      let message = "\(mode): root: \(variant.rawValue) returned nil"
      return .rejected(.init(category: .initReturnedNil, keyPath: "root", message: message))
    }
    var describer = ObjectDescriber()
    return .decoded(describer.describe(root))
  }

  /// The position of a key that unkeyed encoding writes (`$0` is 0), or `nil` for any other key.
  static func unkeyedPosition(of key: String) -> Int? {
    guard key.hasPrefix("$"), key.count > 1, key.count <= 7 else { return nil }
    let digits = key.dropFirst()
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(digits)
  }

  /// Classifies an error by the code and the debug descriptions corelibs and Apple use.
  static func category(of error: any Error, text: String, unmapped: [String]) -> RejectionCategory {
    let nsError = error as NSError
    if text.contains(UnregisteredClassPlaceholder.failureMarker)
      || text.contains("UnregisteredClassPlaceholder")
    {
      return .unmappedClass
    }
    if nsError.code == CocoaError.coderValueNotFound.rawValue { return .missingField }
    if nsError.code == CocoaError.propertyListReadCorrupt.rawValue { return .malformed }
    let lowered = text.lowercased()
    if lowered.contains("allowed classes") || lowered.contains("unexpected class") {
      return .classNotAllowed
    }
    if lowered.contains("secure coding") || lowered.contains("securecoding") {
      return .notSecureCoding
    }
    if lowered.contains("invalid class") {
      return unmapped.isEmpty ? .malformed : .unmappedClass
    }
    if lowered.contains("failed to decode") { return .initReturnedNil }
    if lowered.contains("is not decodable") { return .notSecureCoding }
    if lowered.contains("not a reference") || lowered.contains("invalid object") {
      return .malformed
    }
    return .initFailed
  }

  /// The debug description of an error, or its localized description.
  static func describe(_ error: any Error) -> String {
    let nsError = error as NSError
    if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
    return "\(nsError.domain) \(nsError.code): \(nsError.localizedDescription)"
  }
}

/// The deprecated unarchiving entry points, reached through a protocol so that probing them on
/// purpose does not warn at every use.
protocol DeprecatedUnarchiving {
  static func unarchiveTopLevelObjectWithData(_ data: Data) throws -> Any?
  static func unarchiveObject(with data: Data) -> Any?
}

extension NSKeyedUnarchiver: DeprecatedUnarchiving {}
