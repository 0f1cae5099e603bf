import HarnessDecoding
import HarnessVerification
import HarnessVocabulary

/// A runner with no worker: every path throws the reason, so reports list it as not run.
struct UnavailablePathRunner: DecodePathRunner {
  /// Why no worker could be had.
  let error: WorkerProtocolError

  /// What the worker choice asked for; nothing decodes here at all.
  var containment: Containment { .workerProcess }

  func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    throw error
  }

  func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    throws(WorkerProtocolError) -> String
  {
    throw error
  }
}
