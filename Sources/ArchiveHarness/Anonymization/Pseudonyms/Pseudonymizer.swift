import Foundation

/// Gives every value its pseudonym: keyed by the salt, the same for equal values, distinct for distinct ones.
///
/// One pseudonymizer serves a whole batch, so a value shared by two archives
/// gets one pseudonym. Each candidate is derived from the value, the salt and
/// an attempt number; a candidate equal to the value itself, to another
/// value's pseudonym, or to any original value of the batch is passed over
/// for the next attempt, and so is a string pseudonym the privacy scan would
/// report. When a class is too small to keep values apart (26 one-letter
/// strings), the last candidate is taken and counted in ``unresolved``.
struct Pseudonymizer {
  /// What the pseudonymizer could not guarantee, counted.
  struct Unresolved: Hashable, Sendable {
    /// Values whose pseudonym equals another value's, or the value itself.
    var collisions = 0
    /// Strings whose pseudonym the privacy scan would still report.
    var flagged = 0
  }

  private let key: AnonymizationKey
  private var renderer = PseudonymRenderer()
  private var strings = PseudonymTable<String>()
  private var data = PseudonymTable<[UInt8]>()
  private var uuids = PseudonymTable<[UInt8]>()
  private var integers = PseudonymTable<Int64>()
  private var unsignedIntegers = PseudonymTable<UInt64>()
  private var reals = PseudonymTable<UInt64>()
  /// What could not be guaranteed so far.
  private(set) var unresolved = Unresolved()

  /// Creates a pseudonymizer keyed by a salt; dates written in strings follow `dates`.
  init(key: AnonymizationKey, dates: DatePolicy = .shift) {
    self.key = key
    renderer.dates = dates
    renderer.dateShift = DatePolicy.shift(for: key)
  }

  /// Records the batch's original values, which no pseudonym may equal.
  mutating func reserve(strings originals: Set<String>, data originalData: Set<[UInt8]>) {
    strings.forbidden.formUnion(originals)
    data.forbidden.formUnion(originalData)
  }

  /// The pseudonym of a string (see `PseudonymRenderer` for its shape).
  mutating func string(_ text: String) -> String {
    if let known = strings.forward[text] { return known }
    let scalars = Array(text.unicodeScalars)
    guard PseudonymRenderer.hasReplaceableCharacter(scalars) else {
      strings.record(text, for: text)
      return text
    }
    let attempts = scalars.count <= 256 ? 16 : 3
    var candidate = text
    var candidateIsClean = false
    var candidates: Set<String> = []
    var tried = 0
    for attempt in 0..<attempts {
      tried += 1
      var stream = key.stream(domain: "string", value: Array(text.utf8), attempt: attempt)
      var rendered = ""
      rendered.unicodeScalars.append(contentsOf: renderer.render(scalars, stream: &stream))
      var findings = TextDetector.findings(in: Array(rendered.unicodeScalars))
      if !findings.isEmpty,
        let repaired = repairing(rendered, findings: findings, for: text, attempt: attempt)
      {
        rendered = repaired
        findings = []
      }
      candidate = rendered
      candidates.insert(rendered)
      candidateIsClean = findings.isEmpty
      if candidateIsClean, strings.isFree(candidate, for: text) { break }
    }
    // Every attempt wrote the same text with a date in it: what stays is what the date policy
    // keeps or truncates (two dates of one month truncated alike is the policy, not a clash).
    let fixedByPolicy =
      tried > 1 && candidates.count == 1 && !DateInText.spans(in: scalars).isEmpty
    if !candidateIsClean {
      unresolved.flagged += 1
    } else if !fixedByPolicy, !strings.isFree(candidate, for: text) {
      unresolved.collisions += 1
    }
    strings.record(candidate, for: text)
    return candidate
  }

  /// A candidate whose letters and digits happen to form what the scan reported (`findings`),
  /// with those stretches drawn again; `nil` when rounds of drawing leave something reported.
  ///
  /// Each character of a pseudonym is drawn by itself, so a long one can line up by chance
  /// into, say, an IBAN whose check digits hold (about one try in 97) across the spaces between
  /// several pseudonymous words. The reported stretches are already pseudonymous; they are drawn
  /// again within their characters' classes from a stream keyed by the text, the attempt and
  /// the round, so the result stays the same for the same text and salt.
  private mutating func repairing(
    _ candidate: String, findings: [DetectedSpan], for text: String, attempt: Int
  ) -> String? {
    var scalars = Array(candidate.unicodeScalars)
    var findings = findings
    for round in 0..<8 {
      var stream = key.stream(
        domain: "string-repair", value: Array(text.utf8), attempt: attempt * 8 + round)
      for finding in findings where finding.range.upperBound <= scalars.count {
        let redrawn = renderer.characters(scalars[finding.range], stream: &stream)
        scalars.replaceSubrange(finding.range, with: redrawn)
      }
      findings = TextDetector.findings(in: scalars)
      if findings.isEmpty {
        var repaired = ""
        repaired.unicodeScalars.append(contentsOf: scalars)
        return repaired
      }
    }
    return nil
  }

  /// A dictionary key: kept, as structure, unless the privacy scan would report it.
  mutating func dictionaryKey(_ key: String) -> String {
    TextDetector.findings(in: Array(key.unicodeScalars)).isEmpty ? key : string(key)
  }

  /// Bytes of the same length, keeping a known file signature when asked.
  mutating func data(_ bytes: [UInt8], keepingSignature: Bool) -> [UInt8] {
    if let known = data.forward[bytes] { return known }
    let kept = keepingSignature ? FileSignature.length(of: bytes) : 0
    guard kept < bytes.count else { return bytes }
    var candidate = bytes
    for attempt in 0..<8 {
      var stream = key.stream(domain: "data", value: bytes, attempt: attempt)
      candidate = Array(bytes[..<kept]) + stream.nextBytes(bytes.count - kept)
      if data.isFree(candidate, for: bytes) { break }
    }
    if !data.isFree(candidate, for: bytes) { unresolved.collisions += 1 }
    data.record(candidate, for: bytes)
    return candidate
  }

  /// A random (version 4) UUID in place of a UUID's 16 bytes.
  mutating func uuid(_ bytes: [UInt8]) -> [UInt8] {
    if let known = uuids.forward[bytes] { return known }
    var candidate = bytes
    for attempt in 0..<8 {
      var stream = key.stream(domain: "uuid", value: bytes, attempt: attempt)
      candidate = stream.nextBytes(16)
      candidate[6] = candidate[6] & 0x0F | 0x40
      candidate[8] = candidate[8] & 0x3F | 0x80
      if uuids.isFree(candidate, for: bytes) { break }
    }
    uuids.record(candidate, for: bytes)
    return candidate
  }

  /// An integer with the same sign and number of digits.
  mutating func integer(_ value: Int64) -> Int64 {
    if let known = integers.forward[value] { return known }
    let digits = String(value.magnitude).count
    var low: UInt64 = digits == 1 ? (value < 0 ? 1 : 0) : Self.powerOfTen(digits - 1)
    var high: UInt64 = digits >= 19 ? UInt64(Int64.max) : Self.powerOfTen(digits) - 1
    if value < 0, digits >= 19 { high += 1 }
    low = min(low, high)
    var candidate = value
    for attempt in 0..<32 {
      var stream = key.stream(
        domain: "integer", value: Self.bytes(of: UInt64(bitPattern: value)), attempt: attempt)
      let magnitude = stream.next(in: low...high)
      candidate = value < 0 ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
      if integers.isFree(candidate, for: value) { break }
    }
    if !integers.isFree(candidate, for: value) { unresolved.collisions += 1 }
    integers.record(candidate, for: value)
    return candidate
  }

  /// An unsigned integer above `Int64.max` with the same number of digits.
  mutating func unsignedInteger(_ value: UInt64) -> UInt64 {
    if let known = unsignedIntegers.forward[value] { return known }
    let low = max(UInt64(Int64.max) + 1, Self.powerOfTen(String(value).count - 1))
    let high = String(value).count >= 20 ? UInt64.max : Self.powerOfTen(19) - 1
    var candidate = value
    for attempt in 0..<8 {
      var stream = key.stream(domain: "unsigned", value: Self.bytes(of: value), attempt: attempt)
      candidate = stream.next(in: min(low, high)...high)
      if unsignedIntegers.isFree(candidate, for: value) { break }
    }
    unsignedIntegers.record(candidate, for: value)
    return candidate
  }

  /// A real number with the same sign, the same number of digits before the point
  /// (up to 6 after it), or the same power of ten when it is very large or small.
  mutating func real(_ value: Double) -> Double {
    guard value.isFinite, value != 0 else { return value }
    if let known = reals.forward[value.bitPattern] { return Double(bitPattern: known) }
    let magnitude = value.magnitude
    var candidate = value
    for attempt in 0..<16 {
      var stream = key.stream(
        domain: "real", value: Self.bytes(of: value.bitPattern), attempt: attempt)
      var replaced: Double
      if magnitude >= 1e15 || magnitude < 1e-6 {
        let scale = pow(10, floor(log10(magnitude)))
        replaced = scale * (1 + Double(stream.next(below: UInt64(9_000_000))) / 1_000_000)
      } else {
        let whole = magnitude.rounded(.down)
        let digits = whole == 0 ? 0 : String(Int64(whole)).count
        let low = digits <= 1 ? 1 : Self.powerOfTen(digits - 1)
        replaced = digits == 0 ? 0 : Double(stream.next(in: low...Self.powerOfTen(digits) - 1))
        let fractionDigits = Self.fractionDigits(of: magnitude)
        if fractionDigits > 0 {
          let scale = Self.powerOfTen(fractionDigits)
          replaced += Double(stream.next(below: scale)) / Double(scale)
        }
      }
      candidate = value < 0 ? -replaced : replaced
      if reals.isFree(candidate.bitPattern, for: value.bitPattern) { break }
    }
    reals.record(candidate.bitPattern, for: value.bitPattern)
    return candidate
  }

  private static func fractionDigits(of value: Double) -> Int {
    let text = String(value)
    guard !text.contains("e"), let dot = text.firstIndex(of: ".") else { return 0 }
    let fraction = text[text.index(after: dot)...]
    return fraction == "0" ? 0 : min(6, fraction.count)
  }

  private static func powerOfTen(_ exponent: Int) -> UInt64 {
    var value: UInt64 = 1
    for _ in 0..<min(max(0, exponent), 19) { value *= 10 }
    return value
  }

  private static func bytes(of value: UInt64) -> [UInt8] {
    stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: value >> UInt64($0)) }
  }
}

/// One kind of value's pseudonyms: the mapping, the pseudonyms given out, and the values no pseudonym may equal.
struct PseudonymTable<Value: Hashable> {
  /// Each value's pseudonym.
  var forward: [Value: Value] = [:]
  /// Every pseudonym given out.
  var used: Set<Value> = []
  /// Original values of the batch, which no pseudonym may equal.
  var forbidden: Set<Value> = []

  /// Whether a candidate differs from its value and from every pseudonym and original so far.
  func isFree(_ candidate: Value, for value: Value) -> Bool {
    candidate != value && !used.contains(candidate) && !forbidden.contains(candidate)
  }

  /// Records a value's pseudonym.
  mutating func record(_ pseudonym: Value, for value: Value) {
    forward[value] = pseudonym
    used.insert(pseudonym)
  }
}
