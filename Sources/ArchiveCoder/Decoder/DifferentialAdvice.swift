/// The legacy and secure outcomes of one archive side by side, with the exact `allowedClasses`
/// that would make the secure read succeed when only legacy decodes.
///
/// ```swift
/// let advice = decoder.differentialAdvice(bytes, allowedClasses: ["ProfileKit.UserProfile"])
/// print(advice.message)
/// // legacy decodes, secure rejects: add NSArray, ProfileKit.Address to allowedClasses …
/// ```
package struct DifferentialAdvice: Sendable, Hashable, CustomStringConvertible {
  /// How the two paths compare.
  package enum Verdict: String, Sendable, Hashable, Codable {
    /// Both paths decode.
    case bothDecode = "both-decode"
    /// Both paths reject.
    case bothReject = "both-reject"
    /// Legacy decodes and secure rejects, and listing more classes fixes it.
    case fixableByAllowedClasses = "fixable-by-allowed-classes"
    /// Legacy decodes and secure rejects for a reason no class list fixes.
    case notFixableByAllowedClasses = "not-fixable-by-allowed-classes"
    /// Secure decodes and legacy rejects.
    case secureOnly = "secure-only"
  }

  /// The legacy outcome.
  package let legacy: DecodeOutcome
  /// The secure outcome with the read's own allowed classes.
  package let secure: DecodeOutcome
  /// How they compare.
  package let verdict: Verdict
  /// The allowed classes the read declared.
  package let allowedClasses: [String]
  /// The fewest classes to add under the documented per-call rule, in decode order.
  package let requiredAdditions: [String]
  /// The classes to add when nested model classes are listed too, as SAP's guide asks.
  package let recommendedAdditions: [String]
  /// The full allowed classes that make the secure read succeed (declared plus recommended).
  package let suggestedAllowedClasses: [String]

  /// Creates advice from its parts.
  package init(
    legacy: DecodeOutcome, secure: DecodeOutcome, verdict: Verdict, allowedClasses: [String],
    requiredAdditions: [String] = [], recommendedAdditions: [String] = [],
    suggestedAllowedClasses: [String] = []
  ) {
    self.legacy = legacy
    self.secure = secure
    self.verdict = verdict
    self.allowedClasses = allowedClasses
    self.requiredAdditions = requiredAdditions
    self.recommendedAdditions = recommendedAdditions
    self.suggestedAllowedClasses = suggestedAllowedClasses
  }

  /// A sentence for people, such as
  /// `legacy decodes, secure rejects: add NSArray, ProfileKit.Address to allowedClasses`.
  package var message: String {
    switch verdict {
    case .bothDecode:
      return "legacy and secure both decode"
    case .bothReject:
      return "legacy and secure both reject"
    case .secureOnly:
      return "secure decodes, legacy rejects: \(legacy.rejection?.message ?? legacy.description)"
    case .notFixableByAllowedClasses:
      let reason = secure.rejection?.description ?? secure.description
      return "legacy decodes, secure rejects and no allowedClasses fix it: \(reason)"
    case .fixableByAllowedClasses:
      var text =
        "legacy decodes, secure rejects: add "
        + recommendedAdditions.joined(separator: ", ") + " to allowedClasses"
      if requiredAdditions != recommendedAdditions {
        text += " (the per-call rule needs only " + requiredAdditions.joined(separator: ", ") + ")"
      }
      return text + "; allowedClasses: [" + suggestedAllowedClasses.joined(separator: ", ") + "]"
    }
  }

  /// The message.
  package var description: String { message }
}

extension HarnessDecoder {
  /// Decodes an archive on both harness paths and says what would make secure succeed.
  ///
  /// When legacy decodes and secure rejects, it tries the read's classes plus every class the
  /// legacy decode instantiated, then drops additions one by one while secure still succeeds.
  /// App code runs in this process, as with ``decode(_:secure:allowedClasses:topKeys:)-([UInt8],_,_,_)``.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  /// - Returns: The two outcomes and the advice.
  package func differentialAdvice(_ bytes: [UInt8], allowedClasses: [String])
    -> DifferentialAdvice
  {
    let legacy = decode(bytes, secure: false)
    let secure = decode(bytes, secure: true, allowedClasses: allowedClasses)
    switch (legacy.outcome.decodedValue != nil, secure.outcome.decodedValue != nil) {
    case (true, true):
      return DifferentialAdvice(
        legacy: legacy.outcome, secure: secure.outcome, verdict: .bothDecode,
        allowedClasses: allowedClasses)
    case (false, false):
      return DifferentialAdvice(
        legacy: legacy.outcome, secure: secure.outcome, verdict: .bothReject,
        allowedClasses: allowedClasses)
    case (false, true):
      return DifferentialAdvice(
        legacy: legacy.outcome, secure: secure.outcome, verdict: .secureOnly,
        allowedClasses: allowedClasses)
    case (true, false):
      break
    }
    // Suggest the class apps list: NSArray rather than the NSMutableArray an archive holds,
    // since a subclass passes under its superclass.
    var candidates: [String] = []
    for name in legacy.instantiatedClassNames {
      var suggested = name
      if let registered = registry.registeredClass(named: name),
        registered.foundationKind?.isMutable == true,
        let base = registered.superclassNames.first,
        registry.registeredClass(named: base)?.foundationKind != nil
      {
        suggested = base
      }
      if !allowedClasses.contains(suggested), !candidates.contains(suggested) {
        candidates.append(suggested)
      }
    }
    func succeeds(_ additions: [String]) -> Bool {
      decode(bytes, secure: true, allowedClasses: allowedClasses + additions).outcome
        .decodedValue != nil
    }
    guard succeeds(candidates) else {
      return DifferentialAdvice(
        legacy: legacy.outcome, secure: secure.outcome, verdict: .notFixableByAllowedClasses,
        allowedClasses: allowedClasses)
    }
    var required = candidates
    for candidate in candidates.reversed() {
      let without = required.filter { $0 != candidate }
      if succeeds(without) { required = without }
    }
    let nestedModels = candidates.filter { name in
      registry.registeredClass(named: name)?.foundationKind == nil
    }
    let recommended = candidates.filter { required.contains($0) || nestedModels.contains($0) }
    return DifferentialAdvice(
      legacy: legacy.outcome, secure: secure.outcome, verdict: .fixableByAllowedClasses,
      allowedClasses: allowedClasses, requiredAdditions: required,
      recommendedAdditions: recommended, suggestedAllowedClasses: allowedClasses + recommended)
  }
}
