import ArchiveFormat

/// One difference between two archives' graphs, at a key path of the old one.
///
/// `ArchiveComparison` gives these, and the conservation check (`ConservationCheck`) reads
/// its findings from them. A value is *added* where only the new archive holds one, *removed*
/// where only the old one does, *changed* where both hold a value of one type and the values
/// differ, and *changed in type* where the stored types differ (`1` became `"1"`, `true` became
/// `1`, or an object's class is another one).
///
/// ```swift
/// for difference in try ArchiveComparison().differences(old, new) {
///   switch difference {
///   case .removed(let path, let value): print("removed \(path.displayText): \(value)")
///   default: print(difference)
///   }
/// }
/// ```
package enum ArchiveDifference: Hashable, Sendable, CustomStringConvertible {
  /// What kind of difference it is, without the values.
  package enum Kind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Only the new archive holds a value there.
    case added
    /// Only the old archive holds a value there.
    case removed
    /// Both hold a value of one type, and the values differ.
    case changed
    /// The values' stored types differ, or the objects' classes do.
    case typeChanged = "type-changed"

    /// The kind's name, such as `type-changed`.
    package var description: String { rawValue }
  }

  /// A value only the new archive holds.
  case added(ArchiveKeyPath, ComparedValue)
  /// A value only the old archive holds.
  case removed(ArchiveKeyPath, ComparedValue)
  /// The old value and the new one, of one type.
  case changed(ArchiveKeyPath, old: ComparedValue, new: ComparedValue)
  /// The old value and the new one, of different types or classes.
  case typeChanged(ArchiveKeyPath, old: ComparedValue, new: ComparedValue)

  /// The kind of difference.
  package var kind: Kind {
    switch self {
    case .added: return .added
    case .removed: return .removed
    case .changed: return .changed
    case .typeChanged: return .typeChanged
    }
  }

  /// Where the difference is: a key path of the old archive (of the new one for an addition).
  package var keyPath: ArchiveKeyPath {
    switch self {
    case .added(let path, _), .removed(let path, _), .changed(let path, _, _),
      .typeChanged(let path, _, _):
      return path
    }
  }

  /// What the old archive holds there; `nil` for an addition.
  package var old: ComparedValue? {
    switch self {
    case .added: return nil
    case .removed(_, let value), .changed(_, let value, _), .typeChanged(_, let value, _):
      return value
    }
  }

  /// What the new archive holds there; `nil` for a removal.
  package var new: ComparedValue? {
    switch self {
    case .removed: return nil
    case .added(_, let value), .changed(_, _, let value), .typeChanged(_, _, let value):
      return value
    }
  }

  /// The difference in one line: `removed isActive: true (bool)`,
  /// `changed name: "Ann" (string) → "Anne" (string)`.
  package var description: String {
    let head = "\(kind) \(keyPath.displayText): "
    switch (old, new) {
    case (let old?, let new?): return head + "\(old) → \(new)"
    case (let old?, nil): return head + old.description
    case (nil, let new?): return head + new.description
    case (nil, nil): return head
    }
  }
}

extension ArchiveDifference {
  /// The difference with its text values masked (``ComparedValue/maskingText``): for an
  /// archive whose strings may be secrets, such as a Keychain item's.
  ///
  /// ```swift
  /// ArchiveDifference.changed(path, old: .leaf(.string("t0k3n")), new: .leaf(.string("n3wt0k")))
  ///   .maskingText  // changed: ‹5 characters, masked› → ‹6 characters, masked›
  /// ```
  package var maskingText: ArchiveDifference {
    switch self {
    case .added(let path, let value): .added(path, value.maskingText)
    case .removed(let path, let value): .removed(path, value.maskingText)
    case .changed(let path, let old, let new):
      .changed(path, old: old.maskingText, new: new.maskingText)
    case .typeChanged(let path, let old, let new):
      .typeChanged(path, old: old.maskingText, new: new.maskingText)
    }
  }
}
