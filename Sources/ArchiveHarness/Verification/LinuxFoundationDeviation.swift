import ArchiveCoder
import ArchiveFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A known way swift-corelibs-foundation's `NSKeyedUnarchiver` departs from what Apple's Foundation documents.
///
/// On Linux the Foundation paths run swift-corelibs-foundation. Where the
/// harness coder and Foundation disagree in one of these known ways, a report
/// names the deviation ("Linux Foundation deviation: …") rather than a plain
/// disagreement. Recognition is narrow: Foundation's outcome must carry the
/// deviation's own signature (its message, or its signal and trap text) and
/// the harness coder's outcome must be the one Apple's Foundation documents,
/// so every other disagreement is still reported as one. On other platforms,
/// where Foundation is Apple's, nothing is a deviation.
///
/// ```swift
/// if let deviation = LinuxFoundationDeviation.recognize(
///   harness: legacyOutcome, foundation: foundationLegacyOutcome, archive: archive)
/// {
///   print(deviation.note(path: .foundationLegacy, harness: legacyOutcome,
///     foundation: foundationLegacyOutcome))  // Linux Foundation deviation [absent-key-fails]: …
/// }
/// ```
package enum LinuxFoundationDeviation: String, Sendable, Hashable, CaseIterable {
  /// A decode of an absent key fails (`No value found for key …`) where Apple's returns nil.
  case absentKeyFails = "absent-key-fails"
  /// A class the read does not allow traps (SIGILL, `Value was of unexpected class …`) even
  /// under `.setErrorAndReturn`, where Apple's sets the error and returns nil.
  case disallowedClassTraps = "disallowed-class-traps"
  /// A reference cycle is followed until the stack overflows (SIGSEGV).
  case cycleOverflowsStack = "cycle-overflows-stack"

  /// What swift-corelibs-foundation does.
  package var corelibsBehaviour: String {
    switch self {
    case .absentKeyFails:
      "swift-corelibs-foundation fails the read on an absent key ('No value found for key …')"
    case .disallowedClassTraps:
      "swift-corelibs-foundation traps on a class the read does not allow ('Value was of "
        + "unexpected class …'), even with .setErrorAndReturn"
    case .cycleOverflowsStack:
      "swift-corelibs-foundation follows a reference cycle until its stack overflows"
    }
  }

  /// What Apple's Foundation documents for the same input.
  package var appleBehaviour: String {
    switch self {
    case .absentKeyFails:
      "Apple's decodeObject(forKey:) returns nil 'if key does not exist', and "
        + "decodeObject(of:forKey:) fails only on a secure-coding violation"
    case .disallowedClassTraps:
      "Apple's .setErrorAndReturn captures the failure as an NSError and returns nil"
    case .cycleOverflowsStack:
      "Apple's keyed archives keep circular references between objects, and the harness "
        + "coder refuses the cycle as the app's read must"
    }
  }

  /// The report's note: the deviation's name, the two outcomes, and both behaviours.
  ///
  /// - Parameters:
  ///   - path: The Foundation path, such as ``DecodePath/foundationSecure``.
  ///   - harness: The harness coder's outcome.
  ///   - foundation: Foundation's outcome.
  /// - Returns: A line starting `Linux Foundation deviation [name]:`.
  package func note(path: DecodePath, harness: DecodeOutcome, foundation: DecodeOutcome) -> String {
    "Linux Foundation deviation [\(rawValue)]: \(path.rawValue) \(Verifier.summary(foundation)), "
      + "harness \(Verifier.summary(harness)). \(corelibsBehaviour); \(appleBehaviour)."
  }

  /// Whether Foundation here is swift-corelibs-foundation.
  package static var foundationIsCorelibs: Bool {
    #if os(Linux)
      true
    #else
      false
    #endif
  }

  /// The deviation that explains a disagreement between the harness coder and Foundation, if any.
  ///
  /// - Parameters:
  ///   - harness: The harness coder's outcome on the legacy or secure path.
  ///   - foundation: Foundation's outcome on the path of the same mode.
  ///   - archive: The archive, to check that a key Foundation calls absent is absent.
  ///   - foundationIsCorelibs: Whether Foundation is swift-corelibs-foundation; Linux only.
  /// - Returns: The deviation, or nil when the disagreement is not a known one.
  package static func recognize(
    harness: DecodeOutcome, foundation: DecodeOutcome, archive: KeyedArchive?,
    foundationIsCorelibs: Bool = foundationIsCorelibs
  ) -> LinuxFoundationDeviation? {
    guard foundationIsCorelibs else { return nil }
    switch (harness, foundation) {
    case (.decoded, .rejected(let rejection)):
      guard rejection.category == .missingField, let key = absentKey(in: rejection.message),
        let archive, isAbsent(key, somewhereIn: archive)
      else { return nil }
      return .absentKeyFails
    case (.rejected(let rejection), .crashed(let crash)):
      let classChecks: Set<RejectionCategory> = [.classNotAllowed, .wrongRootClass, .unmappedClass]
      if classChecks.contains(rejection.category), !crash.timedOut,
        crash.signal == SIGILL || crash.signal == SIGTRAP,
        crash.detail.contains("Value was of unexpected class")
      {
        return .disallowedClassTraps
      }
      if rejection.category == .cycle, !crash.timedOut, crash.signal == SIGSEGV {
        return .cycleOverflowsStack
      }
      return nil
    default:
      return nil
    }
  }

  /// The key of corelibs' `No value found for key Optional("title"). …` (or `key title.`).
  static func absentKey(in message: String) -> String? {
    guard let start = message.range(of: "No value found for key ") else { return nil }
    var rest = message[start.upperBound...]
    if rest.hasPrefix("Optional(\""), let end = rest.range(of: "\")") {
      return String(rest[rest.index(rest.startIndex, offsetBy: 10)..<end.lowerBound])
    }
    if let end = rest.range(of: ". ") { rest = rest[..<end.lowerBound] }
    return rest.isEmpty ? nil : String(rest)
  }

  /// Whether some app object in the archive (an instance of a class not named `NS…`) has no
  /// field named `key`.
  static func isAbsent(_ key: String, somewhereIn archive: KeyedArchive) -> Bool {
    archive.objects.contains { object in
      guard case .instance(let instance) = object, !instance.className.hasPrefix("NS") else {
        return false
      }
      return instance.fields[key] == nil
    }
  }
}
