import ArchiveCoder
import ArchiveFormat
import Foundation
import _ArchiveHarnessSystem

/// Where decode paths run: a worker process the harness outlives, or this process.
///
/// App code runs while decoding (`init?(coder:)`), and so does Foundation's
/// unarchiver, which traps on some archives on Linux. In a worker, a trap is a
/// `crashed` outcome for that archive; in process, it ends the caller.
///
/// A worker is a harness executable (one whose `main` calls
/// `ArchiveHarnessCommand.main` or `HarnessWorker/run(registries:)`),
/// re-executed with `HarnessWorker/modeArgument`. A test runner is
/// never one, so tests name the team's harness executable among the build products:
///
/// ```swift
/// let worker = DecodeWorker.buildProduct(named: "notes-harness")
/// let runner = worker.runner(registry: ClassRegistry(modelClasses: [Note.self]))
/// ```
///
/// When no worker can be had, every path the runner is asked for throws
/// `WorkerProtocolError` of kind `WorkerProtocolError.Kind.unavailable` with the
/// reason, which reports print as `not-run [worker-unavailable]`.
///
/// iOS, tvOS, watchOS and visionOS start no child processes, so there every choice but
/// ``inProcess`` is unavailable, with the reason `no child processes on iOS: use
/// DecodeWorker.inProcess`. Teams choose ``inProcess`` there; reports then say
/// `containment: off`.
public struct DecodeWorker: Sendable, Hashable, CustomStringConvertible {
  private enum Kind: Sendable, Hashable {
    case runningExecutable
    case buildProduct(String)
    case executable(URL)
    case inProcess
  }

  private let kind: Kind

  private init(_ kind: Kind) {
    self.kind = kind
  }

  /// The running executable, re-executed: what the `archive-harness` command and a team's own
  /// harness executable use.
  public static let runningExecutable = DecodeWorker(.runningExecutable)

  /// An executable product of the package being built, found beside the binary that links
  /// this library (a test bundle in `.build/debug`, say).
  ///
  /// ```swift
  /// let worker = DecodeWorker.buildProduct(named: "notes-harness")
  /// ```
  ///
  /// - Parameter name: The executable product's name, as in `Package.swift`.
  /// - Returns: The worker.
  public static func buildProduct(named name: String) -> DecodeWorker {
    DecodeWorker(.buildProduct(name))
  }

  /// A harness executable at a known location.
  ///
  /// ```swift
  /// let worker = DecodeWorker.executable(at: URL(fileURLWithPath: "/usr/local/bin/my-harness"))
  /// ```
  ///
  /// - Parameter url: The executable.
  /// - Returns: The worker.
  public static func executable(at url: URL) -> DecodeWorker {
    DecodeWorker(.executable(url))
  }

  /// No worker: the harness paths run in this process and the Foundation paths do not run.
  ///
  /// For model code the caller trusts, and the only choice on iOS, where no child process
  /// can be started. Containment is off: an `init?(coder:)` that traps ends the process (the
  /// test host), and reports say so with `Containment.inProcess`. The Foundation paths are
  /// reported as not run.
  ///
  /// ```swift
  /// #if os(iOS)
  ///   let worker = DecodeWorker.inProcess
  /// #else
  ///   let worker = DecodeWorker.buildProduct(named: "notes-harness")
  /// #endif
  /// let configuration = HarnessConfiguration(modelClasses: [Note.self], worker: worker)
  /// ```
  ///
  /// Archives are found from the test's `#filePath` (``HarnessConfiguration`` with
  /// `HarnessProject`). In the iOS simulator that works as it does on the Mac: the simulator
  /// reads the Mac's files, so the package's `manifests/` and `LegacyArchives/` are read where
  /// they are. A device has no such path: the test target copies the folders into its bundle,
  /// `resources: [.copy("manifests"), .copy("LegacyArchives")]`, and the project is given
  /// `root: Bundle.module.resourceURL`.
  public static let inProcess = DecodeWorker(.inProcess)

  /// Whether this worker choice decodes in a child process: every choice but ``inProcess``.
  package var containment: Containment {
    kind == .inProcess ? .inProcess : .workerProcess
  }

  /// Whether this platform can start a worker process: not iOS, tvOS, watchOS or visionOS.
  static var canStartWorkers: Bool {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      false
    #else
      true
    #endif
  }

  /// Why a worker choice that needs a child process is unavailable on this platform.
  static let noChildProcesses = WorkerProtocolError(
    "no child processes on iOS: use DecodeWorker.inProcess (the harness paths run in the "
      + "test process, the Foundation paths do not run, and containment is off)",
    kind: .unavailable)

  /// The paths this worker can run: every path, or only the harness paths in process.
  public var paths: [DecodePath] {
    kind == .inProcess ? [.legacy, .secure] : DecodePath.allCases
  }

  /// Where decoding runs, such as `build product 'notes-harness'`.
  public var description: String {
    switch kind {
    case .runningExecutable: "the running executable"
    case .buildProduct(let name): "build product '\(name)'"
    case .executable(let url): "'\(url.path)'"
    case .inProcess: "this process"
    }
  }

  /// The worker executable, or nil when decoding runs in process.
  ///
  /// - Returns: The executable to re-execute as a worker.
  /// - Throws: `WorkerProtocolError` of kind `WorkerProtocolError.Kind.unavailable` when
  ///   there is none: a build product that is not built, a running executable that is a
  ///   test runner, or any worker on iOS.
  package func executableURL() throws(WorkerProtocolError) -> URL? {
    if kind != .inProcess, !Self.canStartWorkers {
      throw Self.noChildProcesses
    }
    switch kind {
    case .inProcess:
      return nil
    case .executable(let url):
      return url
    case .runningExecutable:
      let url = Self.runningExecutableURL
      if Self.isTestRunner(url) {
        throw WorkerProtocolError(
          "'\(url.path)' is a test runner, not a harness executable; from a test, set "
            + "HarnessConfiguration.worker to .buildProduct(named:) with the package's "
            + "harness executable", kind: .unavailable)
      }
      return url
    case .buildProduct(let name):
      let image = Self.imageURL
      var folder = image.deletingLastPathComponent()
      var looked: [String] = []
      // A test binary sits in the products folder on Linux and four levels down a bundle
      // (Name.xctest/Contents/MacOS/Name) on macOS.
      for _ in 0..<4 {
        let candidate = folder.appendingPathComponent(name)
        looked.append(folder.path)
        if Self.isExecutableFile(candidate) { return candidate }
        let parent = folder.deletingLastPathComponent()
        if parent.path == folder.path { break }
        folder = parent
      }
      throw WorkerProtocolError(
        "no executable '\(name)' among the build products beside '\(image.path)' (looked in "
          + "\(looked.joined(separator: ", "))); `swift build` builds it, and `swift test` "
          + "builds it when it is a product of the package under test", kind: .unavailable)
    }
  }

  /// A runner that decodes with this worker.
  ///
  /// - Parameters:
  ///   - registry: The classes an in-process runner decodes with.
  ///   - registryName: The worker registry to decode with.
  ///   - timeout: The longest one archive may take in a worker.
  ///   - workers: How many worker processes may decode at once, for callers on several threads.
  /// - Returns: A runner; when no executable can be had, one whose every path throws the reason.
  package func runner(
    registry: ClassRegistry, registryName: String = ClassRegistry.defaultName,
    timeout: TimeSpan = .seconds(20), workers: Int = 1
  ) -> any DecodePathRunner {
    do {
      guard let executable = try executableURL() else {
        return InProcessPathRunner(registry: registry)
      }
      #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        // Not reached: executableURL() refuses every worker here.
        _ = executable
        return UnavailablePathRunner(error: Self.noChildProcesses)
      #else
        return WorkerPathRunner(
          executable: executable, registryName: registryName, timeout: timeout, workers: workers)
      #endif
    } catch {
      return UnavailablePathRunner(error: error)
    }
  }

  /// The running executable, resolved through `/proc/self/exe` on Linux.
  static var runningExecutableURL: URL {
    #if os(Linux)
      if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
      {
        return URL(fileURLWithPath: resolved)
      }
    #endif
    if let url = Bundle.main.executableURL { return url }
    return URL(fileURLWithPath: CommandLine.arguments.first ?? "archive-harness")
  }

  /// Whether an executable is a test runner: a SwiftPM test binary or bundle, or the tools that
  /// load bundles on macOS.
  static func isTestRunner(_ url: URL) -> Bool {
    let name = url.lastPathComponent
    return name.hasSuffix(".xctest") || url.path.contains(".xctest/") || name == "xctest"
      || name == "swiftpm-testing-helper"
  }

  /// The binary this library is linked into: the executable, or a test bundle's binary.
  ///
  /// SwiftPM links libraries statically, so on Linux this is the running executable; on macOS
  /// a test bundle is loaded by another tool, and the bundle is found from a class of this module.
  static var imageURL: URL {
    #if canImport(Darwin)
      if let url = Bundle(for: ImageAnchor.self).executableURL {
        return url.resolvingSymlinksInPath()
      }
    #endif
    return runningExecutableURL
  }

  private static func isExecutableFile(_ url: URL) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
      && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: url.path)
  }
}

/// A class whose bundle is the binary this module is linked into.
private final class ImageAnchor {}
