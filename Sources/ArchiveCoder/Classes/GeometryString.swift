/// Reads the string forms Foundation archives points, sizes and rects in: `{x, y}` and
/// `{{x, y}, {width, height}}`, as `NSStringFromPoint` and `NSStringFromRect` write them.
///
/// The reader is strict: braces, commas and numbers only, with optional spaces, and at most
/// ``maximumLength`` characters, so a malformed or oversized string is refused, not guessed at.
///
/// ```swift
/// GeometryString.pair("{400, 300}")  // (400.0, 300.0)
/// GeometryString.rect("{{0, 0}, {320, 480}}")  // (0.0, 0.0, 320.0, 480.0)
/// ```
package enum GeometryString {
  /// The longest string read.
  package static let maximumLength = 256

  /// Reads `{a, b}`.
  ///
  /// - Parameter text: The archived string.
  /// - Returns: The two numbers, or `nil` when the text is not of that form.
  package static func pair(_ text: String) -> (Double, Double)? {
    guard text.utf8.count <= maximumLength else { return nil }
    var scanner = Scanner(Array(text.utf8))
    guard let pair = scanner.pair(), scanner.atEnd() else { return nil }
    return pair
  }

  /// Reads `{{x, y}, {width, height}}`.
  ///
  /// - Parameter text: The archived string.
  /// - Returns: The four numbers, or `nil` when the text is not of that form.
  package static func rect(_ text: String) -> (Double, Double, Double, Double)? {
    guard text.utf8.count <= maximumLength else { return nil }
    var scanner = Scanner(Array(text.utf8))
    guard scanner.take(UInt8(ascii: "{")), let origin = scanner.pair(),
      scanner.take(UInt8(ascii: ",")), let size = scanner.pair(), scanner.take(UInt8(ascii: "}")),
      scanner.atEnd()
    else { return nil }
    return (origin.0, origin.1, size.0, size.1)
  }

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSpaces() {
      while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      skipSpaces()
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func atEnd() -> Bool {
      skipSpaces()
      return index == bytes.count
    }

    mutating func number() -> Double? {
      skipSpaces()
      let start = index
      let allowed = Set("0123456789+-.eE".utf8)
      while index < bytes.count, allowed.contains(bytes[index]) { index += 1 }
      guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self))
      else { return nil }
      return value
    }

    mutating func pair() -> (Double, Double)? {
      guard take(UInt8(ascii: "{")), let first = number(), take(UInt8(ascii: ",")),
        let second = number(), take(UInt8(ascii: "}"))
      else { return nil }
      return (first, second)
    }
  }
}
