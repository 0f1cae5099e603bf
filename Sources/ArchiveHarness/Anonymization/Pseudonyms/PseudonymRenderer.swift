/// Writes the format-keeping pseudonym of a text from a keyed stream.
///
/// Outside recognised spans, each letter becomes a letter of the same case
/// and script class and each digit a digit of its block; everything else
/// (punctuation, white space, symbols, marks) stays, and so does the length
/// in UTF-16 units. Spans the detectors recognise get a pseudonym of their
/// own shape, chosen so that the privacy scan does not report it:
///
/// | Span | Pseudonym |
/// |---|---|
/// | email | the local part's pseudonym at a reserved domain of the same length (`qrst@example.com`) |
/// | URL | scheme, port and path structure kept; host a reserved domain; file extension kept |
/// | IPv4, IPv6 | an address of the same shape in a reserved range (`10.`, `24x.`, `fdxx:`) |
/// | phone number | the same separators, digits that start `000` (a number no country assigns) |
/// | JWT, bearer token, long token | two letters per case and two digits (`abBa01…`): the same classes, no entropy |
/// | UUID, hexadecimal word | hexadecimal digits of the same case |
/// | date (`2023-03-08`, `08.03.2023 21:26`, see `DateInText`) | a valid date by ``dates``: shifted by ``dateShift``, truncated or kept |
struct PseudonymRenderer {
  /// What happens to dates written in text; the same policy as for date values.
  var dates: DatePolicy = .shift
  /// The run's shift in seconds, for `DatePolicy.shift`.
  var dateShift: Double = 0
  /// The alphabets of letters from scripts `ReplacementAlphabet` does not know, by block and category.
  private var blockAlphabets: [UInt32: ReplacementAlphabet] = [:]

  /// How deep URLs may nest inside URLs before the rest is written as plain text.
  private static let maximumURLDepth = 2

  /// Whether a text has a letter or digit, so that its pseudonym can differ from it.
  static func hasReplaceableCharacter(_ text: some Sequence<Unicode.Scalar>) -> Bool {
    text.contains { scalar in
      if scalar.isASCII { return scalar.isASCIIAlphanumeric }
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .decimalNumber:
        return true
      default:
        return false
      }
    }
  }

  /// The pseudonym of a whole text: a URL as a URL, otherwise plain text with its spans.
  mutating func render(_ text: [Unicode.Scalar], stream: inout KeyedStream) -> [Unicode.Scalar] {
    if let url = URLShape(text[...], wholeText: true) {
      return urlForm(url, in: text[...], stream: &stream, depth: 1)
    }
    return plain(text[...], stream: &stream, depth: 0)
  }

  /// The pseudonym of text that may hold spans: each span in its own shape, the rest character by character.
  mutating func plain(
    _ text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream, depth: Int
  ) -> [Unicode.Scalar] {
    let base = text.startIndex
    let local = Array(text)
    let spans = TextDetector.shapes(in: local, includingURLs: depth < Self.maximumURLDepth)
    var output: [Unicode.Scalar] = []
    output.reserveCapacity(local.count)
    var position = 0
    for span in spans {
      output += characters(local[position..<span.range.lowerBound], stream: &stream)
      let piece = text[(base + span.range.lowerBound)..<(base + span.range.upperBound)]
      output += form(of: span.kind, piece, stream: &stream, depth: depth)
      position = span.range.upperBound
    }
    output += characters(local[position...], stream: &stream)
    return output
  }

  /// The pseudonym of one span, in the shape of its kind.
  private mutating func form(
    of kind: DetectedSpan.Kind, _ piece: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream,
    depth: Int
  ) -> [Unicode.Scalar] {
    switch kind {
    case .email:
      return emailForm(piece, stream: &stream)
    case .url:
      guard let url = URLShape(piece, wholeText: false) else {
        return characters(piece, stream: &stream)
      }
      return urlForm(url, in: piece, stream: &stream, depth: depth + 1)
    case .ipv4:
      return ipv4Form(piece, stream: &stream)
    case .ipv6:
      return ipv6Form(piece, stream: &stream)
    case .phone:
      return phoneForm(piece, stream: &stream)
    case .jwt, .token:
      return lowEntropy(piece, stream: &stream)
    case .bearer:
      let keyword = piece.prefix(6)
      let rest = piece.dropFirst(6)
      let space = rest.prefix { $0 == " " || $0 == "\t" }
      return Array(keyword) + Array(space)
        + lowEntropy(rest.dropFirst(space.count), stream: &stream)
    case .uuid, .hexWord:
      return hexadecimal(piece, stream: &stream)
    case .iban, .card:
      return characters(piece, stream: &stream)
    case .date:
      guard let date = DateInText(Array(piece), at: 0)?.applying(dates, shift: dateShift) else {
        return characters(piece, stream: &stream)
      }
      return date.scalars
    }
  }

  // MARK: - Character by character

  /// Each letter and digit replaced within its class; everything else kept.
  mutating func characters(
    _ text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream
  ) -> [Unicode.Scalar] {
    var output: [Unicode.Scalar] = []
    output.reserveCapacity(text.count)
    for scalar in text { output.append(replacement(for: scalar, stream: &stream)) }
    return output
  }

  /// One character's replacement: a letter of its case and script class, a digit of its block, or itself.
  mutating func replacement(for scalar: Unicode.Scalar, stream: inout KeyedStream)
    -> Unicode.Scalar
  {
    let alphabet: ReplacementAlphabet?
    if scalar.isASCII {
      if scalar.isASCIIUppercase {
        alphabet = .asciiUppercase
      } else if scalar.isASCIILowercase {
        alphabet = .asciiLowercase
      } else if scalar.isASCIIDigit {
        alphabet = .asciiDigits
      } else {
        return scalar
      }
    } else {
      let category = scalar.properties.generalCategory
      switch category {
      case .uppercaseLetter, .titlecaseLetter:
        alphabet = letters(like: scalar, isUppercase: true, category: category)
      case .lowercaseLetter, .otherLetter:
        alphabet = letters(like: scalar, isUppercase: false, category: category)
      case .decimalNumber:
        alphabet = ReplacementAlphabet.digits(of: scalar)
      default:
        return scalar
      }
    }
    return choose(from: alphabet, stream: &stream) ?? scalar
  }

  private func choose(from alphabet: ReplacementAlphabet?, stream: inout KeyedStream)
    -> Unicode.Scalar?
  {
    guard let alphabet, alphabet.count > 1 else { return nil }
    return alphabet.scalar(at: stream.next(below: alphabet.count))
  }

  private mutating func letters(
    like scalar: Unicode.Scalar, isUppercase: Bool, category: Unicode.GeneralCategory
  ) -> ReplacementAlphabet {
    if let known = ReplacementAlphabet.knownScript(of: scalar, isUppercase: isUppercase) {
      return known
    }
    let categoryCode: UInt32
    switch category {
    case .uppercaseLetter: categoryCode = 0
    case .titlecaseLetter: categoryCode = 1
    case .lowercaseLetter: categoryCode = 2
    default: categoryCode = 3
    }
    let key = (scalar.value >> 7) << 2 | categoryCode
    if let cached = blockAlphabets[key] { return cached }
    let alphabet = ReplacementAlphabet.block(of: scalar, category: category)
    blockAlphabets[key] = alphabet
    return alphabet
  }

  /// Two letters per case and two digits, other characters kept: the classes of a token without its entropy.
  func lowEntropy(_ text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream)
    -> [Unicode.Scalar]
  {
    text.map { scalar in
      let alphabet: ReplacementAlphabet
      if scalar.isASCIIUppercase {
        alphabet = .lowEntropyUppercase
      } else if scalar.isASCIILowercase {
        alphabet = .lowEntropyLowercase
      } else if scalar.isASCIIDigit {
        alphabet = .lowEntropyDigits
      } else {
        return scalar
      }
      return choose(from: alphabet, stream: &stream) ?? scalar
    }
  }

  /// Hexadecimal digits replaced by hexadecimal digits, in the text's case; other characters kept.
  func hexadecimal(_ text: ArraySlice<Unicode.Scalar>, stream: inout KeyedStream)
    -> [Unicode.Scalar]
  {
    let uppercase = text.contains { $0.isASCIIUppercase }
    let alphabet: ReplacementAlphabet = uppercase ? .uppercaseHexadecimal : .lowercaseHexadecimal
    return text.map { scalar in
      scalar.isASCIIHexDigit ? choose(from: alphabet, stream: &stream) ?? scalar : scalar
    }
  }
}
