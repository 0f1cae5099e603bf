extension RejectionCategory {
  /// The category every decode path rejects an archive with when its bytes do not parse:
  /// `truncated`, `unknown-schema-version`, `limit-exceeded`, or else `malformed`.
  ///
  /// ```swift
  /// do { _ = try KeyedArchive(bytes: Array(bytes.prefix(12))) } catch {
  ///   RejectionCategory(structural: error)  // .truncated
  /// }
  /// ```
  ///
  /// - Parameter error: The structural error.
  public init(structural error: KeyedArchiveError) {
    if error.code == .limitExceeded {
      self = .limitExceeded
    } else if error.propertyListError?.code == .truncated {
      self = .truncated
    } else if error.code == .unknownVersion {
      self = .unknownSchemaVersion
    } else {
      self = .malformed
    }
  }
}
