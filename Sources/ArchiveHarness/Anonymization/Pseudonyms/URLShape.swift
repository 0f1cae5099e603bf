/// The parts of a URL, as positions in its text: scheme, authority (user, host, port) and the rest.
///
/// Only the structure is read; nothing is resolved or normalised.
struct URLShape {
  /// Schemes that take no `//` authority but are still URLs as a whole text.
  static let schemesWithoutAuthority: Set<String> = [
    "mailto", "tel", "sms", "file", "urn", "data", "geo", "facetime", "maps",
  ]

  /// The scheme, without its `:`.
  var scheme: Range<Int>
  /// The user information before `@` in the authority, if any.
  var userInfo: Range<Int>?
  /// The host (with brackets for IPv6), when the URL has an authority.
  var host: Range<Int>?
  /// The port's digits, if any.
  var port: Range<Int>?
  /// The path, query and fragment.
  var rest: Range<Int>

  /// Reads a URL's parts, or fails when the text has no scheme.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - wholeText: Whether the text must be a URL as a whole; then a scheme
  ///     without `//` counts only when it is one of ``schemesWithoutAuthority``.
  init?(_ text: ArraySlice<Unicode.Scalar>, wholeText: Bool) {
    let start = text.startIndex
    guard let first = text.first, first.isASCIILetter else { return nil }
    var colon = start + 1
    while colon < text.endIndex, colon - start <= 32, TextDetector.isSchemeCharacter(text[colon]) {
      colon += 1
    }
    guard colon < text.endIndex, text[colon] == ":" else { return nil }
    scheme = start..<colon
    let hasAuthority =
      colon + 2 < text.endIndex && text[colon + 1] == "/" && text[colon + 2] == "/"
    guard hasAuthority else {
      guard wholeText else { return nil }
      var name = ""
      name.unicodeScalars.append(contentsOf: text[start..<colon])
      guard Self.schemesWithoutAuthority.contains(name.lowercased()) else { return nil }
      rest = colon + 1..<text.endIndex
      return
    }
    let authorityStart = colon + 3
    var authorityEnd = authorityStart
    while authorityEnd < text.endIndex, !"/?#".unicodeScalars.contains(text[authorityEnd]) {
      authorityEnd += 1
    }
    var hostStart = authorityStart
    if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") {
      userInfo = authorityStart..<at
      hostStart = at + 1
    }
    var hostEnd = authorityEnd
    if hostStart < authorityEnd, text[hostStart] == "[" {
      if let close = text[hostStart..<authorityEnd].firstIndex(of: "]") { hostEnd = close + 1 }
    } else if let portColon = text[hostStart..<authorityEnd].lastIndex(of: ":") {
      hostEnd = portColon
    }
    if hostEnd < authorityEnd, text[hostEnd] == ":" {
      port = hostEnd + 1..<authorityEnd
    }
    host = hostStart..<hostEnd
    rest = authorityEnd..<text.endIndex
  }
}
