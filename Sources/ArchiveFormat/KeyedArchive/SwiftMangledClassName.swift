/// A reader for the Swift 4-era mangled class names that archives carry, such as
/// `_TtC11ProfilesApp7Address`.
///
/// Only the plain class forms are read: `_TtC` (a top-level class) and `_TtCC…` (classes nested
/// in classes). Generic and private forms are left unread and so stay unmapped.
///
/// ```swift
/// SwiftMangledClassName.demangle("_TtC11ProfilesApp7Address")  // "ProfilesApp.Address"
/// SwiftMangledClassName.mangle("NotesV1.Note")                 // "_TtC7NotesV14Note"
/// ```
package enum SwiftMangledClassName {
  /// Reads a mangled class name into its dotted form.
  ///
  /// - Parameter name: An archived class name.
  /// - Returns: The dotted name, such as `ProfilesApp.Address`, or `nil` when `name` is not a
  ///   mangled class name this reader understands.
  package static func demangle(_ name: String) -> String? {
    let bytes = Array(name.utf8)
    guard bytes.count > 4, bytes[0] == UInt8(ascii: "_"), bytes[1] == UInt8(ascii: "T"),
      bytes[2] == UInt8(ascii: "t")
    else { return nil }
    var index = 3
    var nesting = 0
    while index < bytes.count, bytes[index] == UInt8(ascii: "C") {
      nesting += 1
      index += 1
    }
    guard nesting > 0 else { return nil }
    var components: [String] = []
    if index < bytes.count, bytes[index] == UInt8(ascii: "s") {
      components.append("Swift")
      index += 1
    }
    while index < bytes.count {
      guard let component = readIdentifier(bytes, at: &index) else { return nil }
      components.append(component)
    }
    guard components.count == nesting + 1 else { return nil }
    return components.joined(separator: ".")
  }

  /// Writes a dotted class name in the mangled form an archive carries, the inverse of
  /// ``demangle(_:)``.
  ///
  /// - Parameter name: A module-qualified class name, such as `NotesV1.Note` or
  ///   `App.Outer.Inner`.
  /// - Returns: The mangled name, such as `_TtC7NotesV14Note`, or `nil` when `name` has no
  ///   module or an empty component.
  package static func mangle(_ name: String) -> String? {
    let components = name.split(separator: ".", omittingEmptySubsequences: false)
    guard components.count >= 2, components.allSatisfy({ !$0.isEmpty }) else { return nil }
    var text = "_Tt" + String(repeating: "C", count: components.count - 1)
    for (index, component) in components.enumerated() {
      if index == 0, component == "Swift" {
        text += "s"
      } else {
        text += "\(component.utf8.count)\(component)"
      }
    }
    return text
  }

  private static func readIdentifier(_ bytes: [UInt8], at index: inout Int) -> String? {
    var length = 0
    var digits = 0
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9")
    {
      length = length * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      digits += 1
      index += 1
      if digits > 4 { return nil }
    }
    guard digits > 0, length > 0, index + length <= bytes.count else { return nil }
    let slice = bytes[index..<(index + length)]
    index += length
    return String(decoding: slice, as: UTF8.self)
  }
}
