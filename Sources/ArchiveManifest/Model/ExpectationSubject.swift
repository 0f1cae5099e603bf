import ArchiveFormat

/// Something field expectations can be checked against: an archive's graph, or a decoded object.
///
/// ``KeyedArchive`` conforms directly. A decoded object is converted into an
/// `ExpectationTree`, which conforms too.
package protocol ExpectationSubject {
  /// Returns the values a key path reaches, wildcards expanded; empty when it leads nowhere.
  ///
  /// - Throws: `ExpectationSubjectError` when wildcards fan out past
  ///   ``ArchiveLimits/maximumKeyPathMatches``.
  func expectationValues(at keyPath: ArchiveKeyPath, limits: ArchiveLimits)
    throws(ExpectationSubjectError) -> [ExpectationValue]
}

extension KeyedArchive: ExpectationSubject {
  /// Returns the values a key path reaches in the archive's graph, as ``KeyedArchive/evaluate(_:limits:)`` finds them.
  package func expectationValues(at keyPath: ArchiveKeyPath, limits: ArchiveLimits)
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
