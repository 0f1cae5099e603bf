extension Anonymizer {
  /// One value the anonymizer replaced or kept.
  package struct Value: Sendable, Hashable, CustomStringConvertible {
    /// What kind of leaf it is.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
      /// A string (an `NSString`, an `NSURL`'s text, or a string in the property list).
      case string
      /// Bytes.
      case data
      /// A date.
      case date
      /// An `NSUUID`.
      case uuid
      /// A number.
      case number
      /// A Boolean.
      case bool
      /// A dictionary key that looked like personal data.
      case dictionaryKey = "dictionary key"
    }

    /// The first key path that reaches the value, or `$objects[N]` when none does.
    package var keyPath: String
    /// What kind of leaf it is.
    package var kind: Kind
    /// Its length: UTF-16 units for a string or key, bytes for data; nil for the other kinds.
    package var length: Int?

    /// The value as `keyPath: string of 12 UTF-16 units`, `keyPath: date`.
    package var description: String {
      guard let length else { return "\(keyPath): \(kind.rawValue)" }
      let unit = kind == .data ? "bytes" : "UTF-16 units"
      return "\(keyPath): \(kind.rawValue) of \(length) \(unit)"
    }
  }

  /// What the anonymizer did to one archive.
  package struct Report: Sendable, Hashable {
    /// The values replaced, in `$objects` order.
    package var replaced: [Value] = []
    /// The values kept because a kept key path named them.
    package var kept: [Value] = []
    /// How many dictionary keys were kept as structure.
    package var dictionaryKeysKept = 0
    /// Values whose pseudonym equals another value's or their own, because their
    /// class was too small to keep them apart (such as 27 different one-letter strings).
    package var collisions = 0
    /// Pseudonyms the privacy scan would still report (none is expected; each is a bug to report).
    package var flagged = 0

    /// How many values of a kind were replaced.
    package func replacedCount(of kind: Value.Kind) -> Int {
      replaced.count { $0.kind == kind }
    }
  }
}
