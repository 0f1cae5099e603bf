import KeyedArchive
import PropertyList

/// One value a key path reached, with the concrete path that reached it (wildcards resolved).
public struct ExpectationValue: Sendable, Hashable {
  /// The concrete path, such as `items[3].id`.
  public var path: ArchiveKeyPath
  /// The value, as the engine compares it; objects and collections are `.object` leaves.
  public var leaf: ArchiveLeaf

  /// Creates a reached value.
  public init(path: ArchiveKeyPath, leaf: ArchiveLeaf) {
    self.path = path
    self.leaf = leaf
  }
}

/// Why a key path could not be followed, such as a wildcard fan-out past its limit.
public struct ExpectationSubjectError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, in lowercase words.
  public var message: String

  /// Creates an error.
  public init(message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

/// Something field expectations can be checked against: an archive's graph, or a decoded object.
///
/// ``KeyedArchive`` conforms directly. A decoded object is converted into an
/// ``ExpectationTree``, which conforms too.
public protocol ExpectationSubject {
  /// Returns the values a key path reaches, wildcards expanded; empty when it leads nowhere.
  ///
  /// - Throws: ``ExpectationSubjectError`` when wildcards fan out past
  ///   ``ArchiveLimits/maximumKeyPathMatches``.
  func expectationValues(at keyPath: ArchiveKeyPath, limits: ArchiveLimits)
    throws(ExpectationSubjectError) -> [ExpectationValue]
}

extension KeyedArchive: ExpectationSubject {
  /// Returns the values a key path reaches in the archive's graph, as ``KeyedArchive/evaluate(_:limits:)`` finds them.
  public func expectationValues(at keyPath: ArchiveKeyPath, limits: ArchiveLimits)
    throws(ExpectationSubjectError) -> [ExpectationValue]
  {
    do {
      return try evaluate(keyPath, limits: limits).map {
        ExpectationValue(path: $0.path, leaf: leaf(of: $0.node))
      }
    } catch {
      throw ExpectationSubjectError(message: error.message)
    }
  }
}
