/// An error in the structure of a keyed archive, with the place in the archive where it was found.
///
/// Property-list syntax errors arrive wrapped, with their byte offset; archive
/// structure errors carry a key path into the archive's top-level dictionary,
/// such as `$objects[3].$classes`.
public struct KeyedArchiveError: Error, Hashable, Sendable {
  /// What kind of problem this is; new codes can be added without breaking clients.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as diagnostics print it.
    public let name: String

    init(_ name: String) {
      self.name = name
    }

    /// The code's name, such as `missing-key`.
    public var description: String { name }

    /// The bytes are not a property list (see `KeyedArchiveError.propertyListError`).
    public static let propertyList = Code("property-list")
    /// The property list is not a dictionary.
    public static let notAnArchive = Code("not-an-archive")
    /// `$archiver` is missing.
    public static let missingArchiver = Code("missing-archiver")
    /// `$archiver` is not `NSKeyedArchiver`.
    public static let wrongArchiver = Code("wrong-archiver")
    /// `$version` is missing.
    public static let missingVersion = Code("missing-version")
    /// `$version` is not 100000.
    public static let unknownVersion = Code("unknown-version")
    /// `$top` is missing.
    public static let missingTop = Code("missing-top")
    /// `$objects` is missing.
    public static let missingObjects = Code("missing-objects")
    /// A value has the wrong type (`$top` not a dictionary, `$objects` not an array, …).
    public static let invalidType = Code("invalid-type")
    /// A UID points past the end of `$objects`.
    public static let uidOutOfRange = Code("uid-out-of-range")
    /// A `$class` UID points to something that is not a class description.
    public static let invalidClassReference = Code("invalid-class-reference")
    /// A class description has no `$classname`.
    public static let missingClassName = Code("missing-class-name")
    /// A `$classname` that is not a string.
    public static let invalidClassName = Code("invalid-class-name")
    /// A `$classes` that is not an array of strings.
    public static let invalidClassChain = Code("invalid-class-chain")
    /// A dictionary in `$objects` that is neither an instance (`$class`) nor a class description.
    public static let invalidObject = Code("invalid-object")
    /// A limit was passed.
    public static let limitExceeded = Code("limit-exceeded")
  }

  /// The kind of problem.
  public let code: Code
  /// The key path in the archive's top-level dictionary, such as `$objects[3].$class`.
  public let keyPath: String
  /// The index in `$objects` of the object concerned, when there is one.
  public let objectIndex: Int?
  /// A lowercase description, without the location.
  public let message: String
  /// The underlying property-list error, for code `Code.propertyList`.
  package let propertyListError: PropertyListError?

  init(_ code: Code, at keyPath: String, object: Int? = nil, _ message: String) {
    self.code = code
    self.keyPath = keyPath
    self.objectIndex = object
    self.message = message
    self.propertyListError = nil
  }

  init(_ error: PropertyListError) {
    self.code = error.code == .limitExceeded ? .limitExceeded : .propertyList
    self.keyPath = ""
    self.objectIndex = nil
    self.message = error.message
    self.propertyListError = error
  }

  /// Where the problem is, with no file: the property-list error's byte offset or line, or
  /// the ``keyPath``; name the file with ``Place/in(_:)``.
  ///
  /// ```swift
  /// print(error.place.in("note.archive"))  // note.archive:$objects[3].$class
  /// ```
  public var place: Place {
    if let propertyListError {
      return propertyListError.place
    }
    return Place(.keyPath(keyPath.isEmpty ? "$archive" : keyPath))
  }
}

extension KeyedArchiveError: CustomStringConvertible {
  /// The location, the code and the message.
  public var description: String {
    if let propertyListError {
      return "\(place): [\(propertyListError.code)] \(message)"
    }
    return "\(place): [\(code)] \(message)"
  }
}
