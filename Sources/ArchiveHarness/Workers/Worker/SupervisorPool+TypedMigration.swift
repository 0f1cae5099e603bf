import ArchiveCoder

extension SupervisorPool: TypedMigrationRunner {
  /// Migrates a batch in one of the pool's workers, one frame there and back.
  ///
  /// - Parameters:
  ///   - archives: The archives' bytes.
  ///   - classMap: Archived name → current name, for the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  /// - Returns: One result per archive.
  /// - Throws: `WorkerProtocolError` when the worker machinery failed.
  package func migrate(_ archives: [[UInt8]], classMap: ClassNameMap, allowedClasses: [String])
    throws(WorkerProtocolError) -> [TypedMigrationResult]
  {
    try withSupervisor { supervisor throws(WorkerProtocolError) in
      try supervisor.migrate(archives, classMap: classMap, allowedClasses: allowedClasses)
    }
  }
}

extension TypedTransform {
  /// A typed migration whose decoders run in a pool's decode workers.
  ///
  /// ```swift
  /// let pool = SupervisorPool(count: 2) { WorkerSupervisor(executableURL: harness) }
  /// let transform = TypedTransform(pool: pool, classMap: map, allowedClasses: allowed)
  /// ```
  ///
  /// - Parameters:
  ///   - pool: The workers, one per verifying thread.
  ///   - classMap: Archived name → current name, for the legacy decode.
  ///   - allowedClasses: The classes the app's secure read declares.
  package init(pool: SupervisorPool, classMap: ClassNameMap, allowedClasses: [String]) {
    self.init(runner: pool, classMap: classMap, allowedClasses: allowedClasses)
  }
}
