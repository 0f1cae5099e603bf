/// Writes XML property lists in Apple's layout (tab indentation, the standard DOCTYPE).
///
/// XML dates have whole-second precision, so a fractional date does not
/// survive a trip through XML; use `BinaryPropertyListWriter` to keep it.
package struct XMLPropertyListWriter: Sendable {
  /// Creates a writer.
  package init() {}

  /// Returns the XML document for a value.
  package func write(_ value: PropertyListValue) -> String {
    var output = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """
    append(value, indent: 0, to: &output)
    output += "</plist>\n"
    return output
  }

  private func append(_ value: PropertyListValue, indent: Int, to output: inout String) {
    let tabs = String(repeating: "\t", count: indent)
    switch value {
    case .dictionary(let dictionary):
      if dictionary.count == 0 {
        output += tabs + "<dict/>\n"
        return
      }
      output += tabs + "<dict>\n"
      for entry in dictionary.entries {
        output += tabs + "\t<key>" + escape(entry.key) + "</key>\n"
        append(entry.value, indent: indent + 1, to: &output)
      }
      output += tabs + "</dict>\n"
    case .array(let elements):
      if elements.isEmpty {
        output += tabs + "<array/>\n"
        return
      }
      output += tabs + "<array>\n"
      for element in elements {
        append(element, indent: indent + 1, to: &output)
      }
      output += tabs + "</array>\n"
    case .string(let string):
      output += tabs + "<string>" + escape(string) + "</string>\n"
    case .integer(let number):
      output += tabs + "<integer>\(number)</integer>\n"
    case .unsignedInteger(let number):
      output += tabs + "<integer>\(number)</integer>\n"
    case .real(let number):
      output += tabs + "<real>" + realText(number) + "</real>\n"
    case .bool(let flag):
      output += tabs + (flag ? "<true/>\n" : "<false/>\n")
    case .date(let seconds):
      output += tabs + "<date>" + (ISO8601.format(seconds) ?? "0001-01-01T00:00:00Z") + "</date>\n"
    case .data(let bytes):
      output += tabs + "<data>" + Base64.encode(bytes) + "</data>\n"
    case .uid(let number):
      output +=
        tabs + "<dict>\n" + tabs + "\t<key>CF$UID</key>\n" + tabs
        + "\t<integer>\(number)</integer>\n" + tabs + "</dict>\n"
    }
  }

  private func realText(_ number: Double) -> String {
    if number.isNaN { return "nan" }
    if number.isInfinite { return number < 0 ? "-inf" : "+inf" }
    if number == number.rounded(), abs(number) < 1e15 {
      return String(Int64(number))
    }
    return "\(number)"
  }

  /// Escapes the markup characters only; a property list keeps every other character as it is.
  private func escape(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else {
      return text
    }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    ScalarEscaping.append(text, to: &result) { scalar in
      switch scalar {
      case "&": "&amp;"
      case "<": "&lt;"
      case ">": "&gt;"
      default: nil
      }
    }
    return result
  }
}
