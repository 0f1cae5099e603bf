extension PseudonymRenderer {
  /// `local@domain`: the local part character by character, the domain a reserved one of the same length.
  mutating func emailForm(_ text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream)
    -> [Unicode.Scalar]
  {
    guard let at = text.lastIndex(of: "@") else { return characters(text, stream: &stream) }
    return characters(text[..<at], stream: &stream) + ["@"]
      + reservedDomain(length: text.endIndex - at - 1, stream: &stream)
  }

  /// A URL with its scheme, port and path structure: user information and path
  /// character by character, the host a reserved name or address, the file extension kept.
  mutating func urlForm(
    _ url: URLShape, in text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream, depth: Int
  ) -> [Unicode.Scalar] {
    var output = Array(text[url.scheme]) + [":"]
    if let host = url.host {
      output += ["/", "/"]
      if let userInfo = url.userInfo {
        output += characters(text[userInfo], stream: &stream) + ["@"]
      }
      output += hostForm(text[host], stream: &stream)
      if let port = url.port {
        let digits = text[port]
        output += [":"]
        output +=
          digits.allSatisfy(\.isASCIIDigit) ? Array(digits) : characters(digits, stream: &stream)
      }
    }
    let rest = text[url.rest]
    guard url.host != nil else {
      return output + plain(rest, stream: &stream, depth: depth)
    }
    let pathEnd = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
    let path = rest[..<pathEnd]
    let segmentStart = (path.lastIndex(of: "/") ?? path.startIndex - 1) + 1
    var extensionStart = path.endIndex
    if let dot = path[segmentStart...].lastIndex(of: "."), dot > segmentStart,
      (1...5).contains(path.endIndex - dot - 1),
      path[(dot + 1)...].allSatisfy(\.isASCIIAlphanumeric)
    {
      extensionStart = dot
    }
    output += plain(path[..<extensionStart], stream: &stream, depth: depth)
    output += path[extensionStart...]
    output += plain(rest[pathEnd...], stream: &stream, depth: depth)
    return output
  }

  /// A host: `localhost` and reserved names kept, addresses in reserved ranges, other names a reserved domain.
  private mutating func hostForm(_ host: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream)
    -> [Unicode.Scalar]
  {
    guard !host.isEmpty else { return [] }
    if host.first == "[", host.last == "]", host.count > 2 {
      let inner = host.dropFirst().dropLast()
      guard TextDetector.ipv6Groups(inner) != nil else { return characters(host, stream: &stream) }
      return ["["] + ipv6Form(inner, stream: &stream) + ["]"]
    }
    if TextDetector.ipv4Octets(host) != nil { return ipv4Form(host, stream: &stream) }
    var name = ""
    name.unicodeScalars.append(contentsOf: host)
    let lowercased = name.lowercased()
    if lowercased == "localhost" || TextDetector.isReserved(domain: lowercased) {
      return Array(host)
    }
    return reservedDomain(length: host.count, stream: &stream)
  }

  /// A domain reserved for documentation (RFC 2606) of the given length where one fits.
  ///
  /// 11 characters: `example.com`; 13 or more: a made-up label before
  /// `.example.com`; 9 to 12: before `.example`; 6 to 8: before `.test`;
  /// shorter: `example.com`.
  func reservedDomain(length: Int, stream: inout KeyedStream) -> [Unicode.Scalar] {
    let suffix: String
    let labelLength: Int
    switch length {
    case 11: (suffix, labelLength) = ("example.com", 0)
    case 13...: (suffix, labelLength) = (".example.com", length - 12)
    case 9...12: (suffix, labelLength) = (".example", length - 8)
    case 6...8: (suffix, labelLength) = (".test", length - 5)
    default: (suffix, labelLength) = ("example.com", 0)
    }
    var output: [Unicode.Scalar] = []
    output.reserveCapacity(max(0, length))
    for position in 0..<labelLength {
      // Labels of at most 16 characters: a dot after every sixteenth, never last.
      if position % 16 == 15, position < labelLength - 1 {
        output.append(".")
      } else {
        output.append(
          ReplacementAlphabet.asciiLowercase.scalar(at: stream.next(below: 26)) ?? "x")
      }
    }
    return output + Array(suffix.unicodeScalars)
  }

  /// An IPv4 address of the same shape in a reserved range: the first number `0`, `10` or `24x`.
  func ipv4Form(_ text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream)
    -> [Unicode.Scalar]
  {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    var output: [Unicode.Scalar] = []
    for (index, part) in parts.enumerated() {
      if index > 0 { output.append(".") }
      let number: UInt64
      switch (index, part.count) {
      case (0, 1): number = 0
      case (0, 2): number = 10
      case (0, _): number = 240 + stream.next(below: UInt64(10))
      case (_, 1): number = stream.next(below: UInt64(10))
      case (_, 2): number = stream.next(in: 10...99)
      default: number = stream.next(in: 100...255)
      }
      output += String(number).unicodeScalars
    }
    return output
  }

  /// An IPv6 address of the same shape: hexadecimal digits replaced, the first group moved into a reserved range.
  ///
  /// A four-digit first group becomes `fdxx` (unique local); a shorter one starts
  /// with `0` (below `2000::`). An IPv4 tail becomes a reserved IPv4 address.
  func ipv6Form(_ text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream)
    -> [Unicode.Scalar]
  {
    var tailStart = text.endIndex
    if text.contains("."), let lastColon = text.lastIndex(of: ":") { tailStart = lastColon + 1 }
    var output = hexadecimal(text[..<tailStart], stream: &stream)
    if tailStart < text.endIndex { output += ipv4Form(text[tailStart...], stream: &stream) }
    guard let first = output.first, first != ":" else { return output }
    let groupLength = output.firstIndex(of: ":") ?? output.count
    let uppercase = text.contains { $0.isASCIIUppercase }
    if groupLength == 4 {
      output[0] = uppercase ? "F" : "f"
      output[1] = uppercase ? "D" : "d"
    } else {
      output[0] = "0"
    }
    return output
  }

  /// A phone number with the same separators and number of digits, whose first three digits are `000`.
  func phoneForm(_ text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream)
    -> [Unicode.Scalar]
  {
    var digitsSeen = 0
    return text.map { scalar in
      guard scalar.isASCIIDigit else { return scalar }
      digitsSeen += 1
      if digitsSeen <= 3 { return "0" }
      return ReplacementAlphabet.asciiDigits.scalar(at: stream.next(below: 10)) ?? scalar
    }
  }
}
