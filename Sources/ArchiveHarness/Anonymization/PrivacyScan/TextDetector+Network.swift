extension TextDetector {
  /// IPv4 addresses: four dot-separated numbers from 0 to 255, without leading zeros.
  ///
  /// A run next to a letter, a `-` or another dot is a version, not an address
  /// (`v1.2.3.4`, `1.2.3.4-beta`, `1.2.3.4.5`), and so is one after the word
  /// `version` or `build`. Private, loopback, link-local, shared, documentation,
  /// multicast and reserved ranges are not reported; the anonymizer's
  /// pseudonyms fall in them.
  static func ipv4Addresses(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index < text.count {
      guard text[index].isASCIIDigit else {
        index += 1
        continue
      }
      var end = index
      while end < text.count, text[end].isASCIIDigit || text[end] == "." { end += 1 }
      defer { index = end }
      var last = end
      if text[last - 1] == "." { last -= 1 }
      if index > 0, text[index - 1].isWordCharacter || text[index - 1] == "-" { continue }
      if last < text.count, text[last].isWordCharacter || text[last] == "-" { continue }
      guard let octets = ipv4Octets(text[index..<last]) else { continue }
      let reportable = isPublic(ipv4: octets) && !followsVersionWord(text, at: index)
      spans.append(DetectedSpan(kind: .ipv4, range: index..<last, isReportable: reportable))
    }
    return spans
  }

  /// The four octets of a dotted IPv4 address, or nil.
  static func ipv4Octets(_ text: ArraySlice<Unicode.Scalar>) -> [Int]? {
    var octets: [Int] = []
    var value = 0
    var digits = 0
    var leadingZero = false
    for scalar in text {
      if scalar == "." {
        guard digits > 0, octets.count < 3 else { return nil }
        octets.append(value)
        value = 0
        digits = 0
        leadingZero = false
        continue
      }
      guard scalar.isASCIIDigit, digits < 3, !leadingZero else { return nil }
      if digits == 0, scalar == "0" { leadingZero = true }
      value = value * 10 + scalar.asciiDigitValue
      digits += 1
    }
    guard digits > 0, octets.count == 3 else { return nil }
    octets.append(value)
    return octets.allSatisfy({ $0 <= 255 }) ? octets : nil
  }

  /// Whether an IPv4 address is outside every special-purpose range.
  static func isPublic(ipv4 octets: [Int]) -> Bool {
    let (a, b, c) = (octets[0], octets[1], octets[2])
    switch a {
    case 0, 10, 127: return false
    case 100 where (64...127).contains(b): return false
    case 169 where b == 254: return false
    case 172 where (16...31).contains(b): return false
    case 192 where b == 168 || (b == 0 && (c == 0 || c == 2)): return false
    case 198 where b == 18 || b == 19 || (b == 51 && c == 100): return false
    case 203 where b == 0 && c == 113: return false
    case 224...255: return false
    default: return true
    }
  }

  /// Whether the word just before a position is `version`, `ver` or `build`.
  private static func followsVersionWord(_ text: [Unicode.Scalar], at index: Int) -> Bool {
    var end = index
    while end > 0, end > index - 4, text[end - 1] == " " || text[end - 1] == ":" { end -= 1 }
    var start = end
    while start > 0, end - start < 8, text[start - 1].isASCIILetter { start -= 1 }
    var word = ""
    word.unicodeScalars.append(contentsOf: text[start..<end])
    return ["version", "ver", "build", "v"].contains(word.lowercased())
  }

  /// IPv6 addresses: up to eight groups of one to four hex digits, one `::` at most, an IPv4 tail allowed.
  ///
  /// Without `::` the address needs all eight groups, so times (`12:30:45`)
  /// and MAC addresses are not addresses. Addresses below `2000::`
  /// (unspecified, loopback, IPv4-mapped), unique-local `fc00::/7`, link-local
  /// `fe80::/10`, multicast and the documentation prefix `2001:db8::/32` are not reported.
  static func ipv6Addresses(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index < text.count {
      let scalar = text[index]
      guard scalar.isASCIIHexDigit || scalar == ":" else {
        index += 1
        continue
      }
      var end = index
      var colons = 0
      while end < text.count, text[end].isASCIIHexDigit || text[end] == ":" || text[end] == "." {
        if text[end] == ":" { colons += 1 }
        end += 1
      }
      defer { index = end }
      guard colons >= 2 else { continue }
      var last = end
      while last > index, text[last - 1] == "." { last -= 1 }
      // One trailing colon is punctuation (`address fe80::1: up`); two are `::`.
      if last - index >= 2, text[last - 1] == ":", text[last - 2] != ":" { last -= 1 }
      if index > 0, text[index - 1].isWordCharacter { continue }
      if last < text.count, text[last].isWordCharacter { continue }
      guard let groups = ipv6Groups(text[index..<last]) else { continue }
      spans.append(
        DetectedSpan(kind: .ipv6, range: index..<last, isReportable: isGlobal(ipv6: groups)))
    }
    return spans
  }

  /// The first two 16-bit groups of an IPv6 address, or nil when the text is not one.
  static func ipv6Groups(_ text: ArraySlice<Unicode.Scalar>) -> [Int]? {
    var string = ""
    string.unicodeScalars.append(contentsOf: text)
    let halves = doubleColonHalves(of: string)
    guard halves.count <= 2 else { return nil }
    var groups: [[Int]] = []
    var groupCount = 0
    for (position, half) in halves.enumerated() {
      var values: [Int] = []
      guard !half.isEmpty else {
        groups.append(values)
        continue
      }
      let parts = half.split(separator: ":", omittingEmptySubsequences: false)
      for (partIndex, part) in parts.enumerated() {
        let isLast = position == halves.count - 1 && partIndex == parts.count - 1
        if isLast, part.contains(".") {
          guard let octets = ipv4Octets(ArraySlice(part.unicodeScalars)) else { return nil }
          values += [octets[0] << 8 | octets[1], octets[2] << 8 | octets[3]]
          continue
        }
        guard (1...4).contains(part.count), let value = Int(part, radix: 16) else { return nil }
        values.append(value)
      }
      groupCount += values.count
      groups.append(values)
    }
    if halves.count == 1 {
      guard groupCount == 8 else { return nil }
    } else {
      guard groupCount <= 7, groupCount > 0 || string == "::" else { return nil }
    }
    guard string.unicodeScalars.contains(where: \.isASCIIHexDigit) else { return nil }
    let leading = groups.first ?? []
    return [leading.first ?? 0, leading.count > 1 ? leading[1] : 0]
  }

  /// Whether an IPv6 address, given by its first two groups, is outside every special-purpose range.
  static func isGlobal(ipv6 groups: [Int]) -> Bool {
    let first = groups[0]
    if first < 0x2000 { return false }
    if (0xFC00...0xFDFF).contains(first) || (0xFE80...0xFEBF).contains(first) { return false }
    if first >= 0xFF00 { return false }
    if first == 0x2001, groups[1] == 0x0DB8 { return false }
    return true
  }

  /// URLs: a scheme, `://`, and everything up to white space, a quote or an angle bracket.
  ///
  /// Trailing sentence punctuation is left out. URLs are not reported; the
  /// anonymizer keeps their scheme and path structure.
  static func urls(in text: [Unicode.Scalar]) -> [DetectedSpan] {
    var spans: [DetectedSpan] = []
    var index = 0
    while index + 2 < text.count {
      guard text[index] == ":", text[index + 1] == "/", text[index + 2] == "/" else {
        index += 1
        continue
      }
      var start = index
      while start > 0, index - start < 32, isSchemeCharacter(text[start - 1]) { start -= 1 }
      while start < index, !text[start].isASCIILetter { start += 1 }
      guard start < index, start == 0 || !text[start - 1].isWordCharacter else {
        index += 3
        continue
      }
      var end = index + 3
      while end < text.count, !text[end].isSpace, !"\"<>`".unicodeScalars.contains(text[end]) {
        end += 1
      }
      while end > index + 3, ".,;:!?)'".unicodeScalars.contains(text[end - 1]) { end -= 1 }
      if end > index + 3 {
        spans.append(DetectedSpan(kind: .url, range: start..<end, isReportable: false))
      }
      index = max(end, index + 3)
    }
    return spans
  }

  /// A character of a URL scheme after its first letter.
  static func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCIIAlphanumeric || scalar == "+" || scalar == "-" || scalar == "."
  }

  /// The text split at each `::`, so `a::b` gives `a` and `b`, and `::` gives two empty halves.
  private static func doubleColonHalves(of text: String) -> [String] {
    var halves: [String] = []
    var current = ""
    var previousWasColon = false
    for scalar in text.unicodeScalars {
      if scalar == ":", previousWasColon {
        current.unicodeScalars.removeLast()
        halves.append(current)
        current = ""
        previousWasColon = false
        continue
      }
      current.unicodeScalars.append(scalar)
      previousWasColon = scalar == ":"
    }
    halves.append(current)
    return halves
  }
}
