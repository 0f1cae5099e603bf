import ArchiveCoder
import ArchiveFormat
import Foundation

/// Runs one archive through one decode path and returns what the app would see.
///
/// `WorkerPathRunner` (HarnessContainment) runs every path in a child process, so that a trap in
/// Foundation or in an app's `init?(coder:)` becomes a `crashed` outcome
/// rather than the end of the harness. `InProcessPathRunner` (HarnessContainment) runs only the
/// harness paths, in this process, for callers that trust the model code.
///
/// A runner that cannot run a path at all (no worker could be had) throws, and
/// the path is reported as not run, with the reason; it is never an outcome.
///
/// ```swift
/// let runner: any DecodePathRunner = WorkerPathRunner(executable: harness)
/// let outcome = try runner.outcome(bytes, path: .secure, allowedClasses: ["NSArray"], classMap: .empty)
/// ```
package protocol DecodePathRunner: Sendable {
  /// The outcome of one path.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - path: The decode path to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads; one decodes to its object, several to a
  ///     `DecodedValue.topLevel(_:)` value.
  /// - Returns: What the app would see on that path.
  /// - Throws: `WorkerProtocolError` when the path could not be run.
  func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) throws(WorkerProtocolError) -> DecodeOutcome

  /// The outcomes of several paths of one archive, each as ``outcome(_:path:allowedClasses:classMap:topKeys:)``
  /// gives it alone, in the order asked; a runner may run them in one request.
  ///
  /// ```swift
  /// let results = runner.outcomes(
  ///   bytes, paths: DecodePath.allCases, allowedClasses: [], classMap: .empty, topKeys: ["root"])
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - paths: The decode paths to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads.
  /// - Returns: One result per path: its outcome, or why it could not run.
  func outcomes(
    _ bytes: [UInt8], paths: [DecodePath], allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> [Result<DecodeOutcome, WorkerProtocolError>]

  /// The outcomes of several paths of one archive, as
  /// ``outcomes(_:paths:allowedClasses:classMap:topKeys:)`` gives them, each with the
  /// strictness findings its decode recorded (the secure path's; `PathOutcome`).
  ///
  /// A runner that does not implement it gives every outcome with no findings.
  ///
  /// ```swift
  /// let results = runner.pathOutcomes(
  ///   bytes, paths: DecodePath.allCases, allowedClasses: [], classMap: .empty, topKeys: ["root"])
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - paths: The decode paths to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  ///   - topKeys: The `$top` keys the app reads.
  /// - Returns: One result per path: its outcome and findings, or why it could not run.
  func pathOutcomes(
    _ bytes: [UInt8], paths: [DecodePath], allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> [Result<PathOutcome, WorkerProtocolError>]

  /// The `allowedClasses` that would make the secure read succeed where legacy decodes.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: `DifferentialAdvice/message`, or why there is none.
  /// - Throws: `WorkerProtocolError` when the advice could not be run.
  func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    throws(WorkerProtocolError) -> String

  /// Whether a trap while decoding is contained, which reports state.
  var containment: Containment { get }
}

extension DecodePathRunner {
  /// Off: a runner that does not say where it decodes is taken to decode in this process.
  package var containment: Containment { .inProcess }
}

extension DecodePathRunner {
  /// No advice: a runner that does not implement it says so rather than running app code here.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - allowedClasses: Runtime names of the classes the secure read declares.
  ///   - classMap: The class-name map.
  /// - Returns: Nothing; it always throws.
  /// - Throws: `WorkerProtocolError` of kind `WorkerProtocolError.Kind.unavailable`.
  package func advice(_ bytes: [UInt8], allowedClasses: [String], classMap: ClassNameMap)
    throws(WorkerProtocolError) -> String
  {
    throw WorkerProtocolError("\(Self.self) gives no allowedClasses advice", kind: .unavailable)
  }
}

extension DecodePathRunner {
  /// The outcome of one path over the object under `$top.root`.
  ///
  /// - Parameters:
  ///   - bytes: The archive.
  ///   - path: The decode path to run.
  ///   - allowedClasses: Runtime names of the classes a secure read allows.
  ///   - classMap: The class-name map.
  /// - Returns: What the app would see on that path.
  /// - Throws: `WorkerProtocolError` when the path could not be run.
  package func outcome(
    _ bytes: [UInt8], path: DecodePath, allowedClasses: [String], classMap: ClassNameMap
  ) throws(WorkerProtocolError) -> DecodeOutcome {
    try outcome(
      bytes, path: path, allowedClasses: allowedClasses, classMap: classMap, topKeys: ["root"])
  }
}

extension DecodePathRunner {
  /// Each path's outcome from ``outcomes(_:paths:allowedClasses:classMap:topKeys:)``, with no
  /// strictness findings.
  package func pathOutcomes(
    _ bytes: [UInt8], paths: [DecodePath], allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> [Result<PathOutcome, WorkerProtocolError>] {
    outcomes(
      bytes, paths: paths, allowedClasses: allowedClasses, classMap: classMap, topKeys: topKeys
    ).map { $0.map { PathOutcome($0) } }
  }
}

extension DecodePathRunner {
  /// Runs each path on its own, through ``outcome(_:path:allowedClasses:classMap:topKeys:)``.
  package func outcomes(
    _ bytes: [UInt8], paths: [DecodePath], allowedClasses: [String], classMap: ClassNameMap,
    topKeys: [String]
  ) -> [Result<DecodeOutcome, WorkerProtocolError>] {
    paths.map { path in
      Result { () throws(WorkerProtocolError) in
        try outcome(
          bytes, path: path, allowedClasses: allowedClasses, classMap: classMap, topKeys: topKeys)
      }
    }
  }
}
