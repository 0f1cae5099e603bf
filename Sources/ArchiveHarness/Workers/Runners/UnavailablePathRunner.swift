import ArchiveCoder
import ArchiveFormat

/// A runner with no worker: every path throws the reason, so reports list it as not run.
package struct UnavailablePathRunner: DecodePathRunner {
  /// Why no worker could be had.
  package let error: WorkerProtocolError

  /// Creates a runner that throws `error` for every path.
  package init(error: WorkerProtocolError) {
    self.error = error
  }

  /// What the worker choice asked for; nothing decodes here at all.
  package var containment: Containment { .workerProcess }

  package func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    throw error
  }

  package func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    throws(WorkerProtocolError) -> String
  {
    throw error
  }
}
