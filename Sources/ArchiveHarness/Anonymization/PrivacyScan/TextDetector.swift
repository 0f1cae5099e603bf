import Foundation

/// Finds personal data in text: emails, phone numbers, IBANs, card numbers, IP addresses and secrets.
///
/// Every detector is a single left-to-right pass that never backtracks more
/// than a fixed distance, so a hostile string of any length costs linear
/// time. The anonymizer uses the same detectors to choose each span's
/// pseudonym (an email keeps the shape of an email at a reserved domain, a
/// phone number becomes a fictional one), so its output does not trip the
/// privacy scan.
enum TextDetector {
  /// The spans the privacy scan reports, without overlaps, in text order.
  ///
  /// A date (`08.03.2023 09:30`, see `DateInText`) is no finding, and no phone
  /// number can overlap it.
  static func findings(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    let reportable = { (spans: [DetectedSpan]) in spans.filter(\.isReportable) }
    return resolve([
      reportable(emails(in: text)), reportable(jsonWebTokens(in: text)),
      reportable(bearerTokens(in: text)), ibans(in: text), cardNumbers(in: text),
      DateInText.spans(in: text), reportable(ipv6Addresses(in: text)),
      reportable(ipv4Addresses(in: text)), reportable(phoneNumbers(in: text)),
      reportable(words(in: text)),
    ]).filter { $0.kind != .date }
  }

  /// The spans the anonymizer gives a pseudonym of their own shape, without overlaps, in text order.
  ///
  /// - Parameters:
  ///   - text: The text's Unicode scalars.
  ///   - includingURLs: Whether a URL inside the text is a span; the anonymizer
  ///     turns it off inside a URL, so URLs do not nest.
  /// - Returns: The spans, reportable or not.
  static func shapes(in text: [Unicode.Scalar], includingURLs: Bool = true) -> [DetectedSpan] {
    resolve([
      includingURLs ? urls(in: text) : [], emails(in: text), jsonWebTokens(in: text),
      bearerTokens(in: text), DateInText.spans(in: text), ipv6Addresses(in: text),
      ipv4Addresses(in: text),
      phoneNumbers(in: text), words(in: text),
    ])
  }

  /// Merges spans by priority: a span is kept when it overlaps no span of an earlier level or an earlier span of its own.
  static func resolve(_ levels: [[DetectedSpan]]) -> [DetectedSpan] {
    var accepted: [DetectedSpan] = []
    for level in levels where !level.isEmpty {
      let sorted = level.sorted { $0.range.lowerBound < $1.range.lowerBound }
      var merged: [DetectedSpan] = []
      merged.reserveCapacity(accepted.count + sorted.count)
      var next = 0
      for candidate in sorted where !candidate.range.isEmpty {
        while next < accepted.count, accepted[next].range.lowerBound < candidate.range.lowerBound {
          merged.append(accepted[next])
          next += 1
        }
        let previousEnd = merged.last?.range.upperBound ?? Int.min
        let nextStart = next < accepted.count ? accepted[next].range.lowerBound : Int.max
        if candidate.range.lowerBound >= previousEnd, candidate.range.upperBound <= nextStart {
          merged.append(candidate)
        }
      }
      merged += accepted[next...]
      accepted = merged
    }
    return accepted
  }

  /// The Shannon entropy of a run of ASCII scalars, in bits per character.
  static func entropy(_ text: ArraySlice<Unicode.Scalar>) -> Double {
    guard !text.isEmpty else { return 0 }
    var counts = [Int](repeating: 0, count: 128)
    for scalar in text where scalar.value < 128 { counts[Int(scalar.value)] += 1 }
    let total = Double(text.count)
    var bits = 0.0
    for count in counts where count > 0 {
      let probability = Double(count) / total
      bits -= probability * log2(probability)
    }
    return bits
  }
}
