/// An error reading a property list, with the byte offset (binary) or line and column (XML) where it happened.
package struct PropertyListError: Error, Hashable, Sendable {
  /// What kind of problem this is; new codes can be added without breaking clients.
  package struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as diagnostics print it.
    package let name: String

    init(_ name: String) {
      self.name = name
    }

    /// The code's name, such as `truncated`.
    package var description: String { name }

    /// The bytes are neither a binary nor an XML property list.
    package static let notAPropertyList = Code("not-a-property-list")
    /// The input ends before a structure it declares.
    package static let truncated = Code("truncated")
    /// The binary trailer is inconsistent (sizes, counts or offsets).
    package static let invalidTrailer = Code("invalid-trailer")
    /// An offset-table entry or object reference points outside the objects.
    package static let invalidOffset = Code("invalid-offset")
    /// A binary object marker that is unknown or not allowed here.
    package static let invalidMarker = Code("invalid-marker")
    /// An object contains itself.
    package static let cyclicReference = Code("cyclic-reference")
    /// A string that is not valid ASCII, UTF-8 or UTF-16.
    package static let invalidString = Code("invalid-string")
    /// A number that cannot be represented.
    package static let invalidNumber = Code("invalid-number")
    /// A dictionary key that is not a string.
    package static let invalidKey = Code("invalid-key")
    /// XML that is not well formed, or not a property list.
    package static let invalidXML = Code("invalid-xml")
    /// A value of a type the format allows but this reader does not (sets, null, fill).
    package static let unsupported = Code("unsupported")
    /// A dictionary holds a key twice, which a reader asked to refuse it reports
    /// (`PropertyListReader.refusesRepeatedKeys`).
    package static let repeatedKey = Code("repeated-key")
    /// A `PropertyListLimits` bound was passed.
    package static let limitExceeded = Code("limit-exceeded")
  }

  /// The kind of problem.
  package let code: Code
  /// The byte offset in the input where the problem was found.
  package let offset: Int
  /// The line (1-based) for XML input, or `nil` for binary input.
  package let line: Int?
  /// The column (1-based, in bytes) for XML input, or `nil` for binary input.
  package let column: Int?
  /// A lowercase description, without the location.
  package let message: String

  /// Creates an error at a byte offset.
  package init(_ code: Code, at offset: Int, _ message: String) {
    self.code = code
    self.offset = offset
    self.line = nil
    self.column = nil
    self.message = message
  }

  /// Creates an error at a line and column of an XML document.
  package init(_ code: Code, at offset: Int, line: Int, column: Int, _ message: String) {
    self.code = code
    self.offset = offset
    self.line = line
    self.column = column
    self.message = message
  }

  /// Where the problem is, with no file: a ``Place/Position/byteOffset(_:)`` for binary
  /// input, a ``Place/Position/line(_:column:)`` for XML; name the file with ``Place/in(_:)``.
  ///
  /// ```swift
  /// print(error.place.in("note.archive"))  // note.archive:offset 120
  /// ```
  package var place: Place {
    if let line, let column {
      return Place(.line(line, column: column))
    }
    return Place(.byteOffset(offset))
  }
}

extension PropertyListError: CustomStringConvertible {
  /// The place, the code and the message, such as `offset 120: [truncated] …`.
  package var description: String { "\(place): [\(code)] \(message)" }
}
