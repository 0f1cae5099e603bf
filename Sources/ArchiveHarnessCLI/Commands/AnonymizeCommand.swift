import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import _ArchiveHarnessSystem

/// `archive-harness anonymize IN OUT`: archives fit to commit, one file or a whole folder, with one set of pseudonyms.
enum AnonymizeCommand {
  static let spec = CommandSpec(
    name: "anonymize",
    abstract: "Replace an archive's personal data with format-keeping pseudonyms.",
    discussion: """
        IN and OUT are two files, or two folders: every file below IN is written
        to the same relative path below OUT. The structure, class names, keys and
        numbers stay. A letter becomes a letter of the same case and script, a
        digit a digit; punctuation, white space and the UTF-16 length stay.
        Emails become LOCAL@example.com-shaped, URLs keep their scheme and path,
        IP addresses and phone numbers keep their shape in reserved ranges, and
        tokens keep their character classes without their entropy. Equal values
        get equal pseudonyms across the whole run, different values different
        ones, keyed by a secret salt: --salt-file, or a random one never written
        down. Data keeps its length, UUIDs become random UUIDs, dates move by one
        offset per run, and so do dates written in strings (2023-03-08,
        08.03.2023 21:26). Dictionary keys stay as structure unless they look like
        personal data or are under --pseudonymize-keys. A file that is not a keyed archive is reported and not
        written.
      """,
    arguments: [input, output],
    options: [
      keep, scrub, pseudonymizeKeys, dates, saltFile, updateManifest, SharedOptions.archives,
    ],
    flags: [keepMagic, verbose],
    exitStatus: """
        0  every archive was written
        2  the run could not proceed (bad arguments, an unreadable or malformed
           input, a --keep, --scrub or --pseudonymize-keys path that matches
           nothing); the archives that could be read are still written
      """)

  static let input = Argument.single("input", help: "The archive, or a folder of archives.")
  static let output = Argument.single(
    "output", help: "Where to write: a file (binary plist), or a folder for a folder.")
  static let keep = Option<[ArchiveKeyPath]>.repeating(
    "keep", valueName: "KEYPATH", help: "A key path whose values, of any kind, stay as they are.",
    convert: keyPath)
  static let scrub = Option<[ArchiveKeyPath]>.repeating(
    "scrub", valueName: "KEYPATH",
    help: "A key path under which numbers become numbers of the same width.", convert: keyPath)
  static let pseudonymizeKeys = Option<[ArchiveKeyPath]>.repeating(
    "pseudonymize-keys", valueName: "KEYPATH",
    help:
      "A dictionary whose keys get pseudonyms like strings (words counted from personal text).",
    convert: keyPath)
  static let dates = Option.defaulted(
    "dates", valueName: "POLICY", help: "What happens to dates.", default: DatePolicy.shift)
  static let saltFile = Option<String?>.optional(
    "salt-file", valueName: "FILE",
    help:
      "Key the pseudonyms with this file's bytes (16 or more), for the same output on every run.",
    defaultDescription: "a random salt, never written down")
  static let updateManifest = Option<String?>.optional(
    "update-manifest", valueName: "FILE",
    help: "Rewrite the sha256 of this manifest's entries for the archives written.")
  static let keepMagic = Flag(
    name: "keep-magic",
    help: "Keep a known file signature (PNG, JPEG, GIF, PDF, HEIC…) at the start of data.")
  static let verbose = Flag(name: "verbose", help: "List every value replaced or kept.")

  /// Converts a `--keep` or `--scrub` value.
  static let keyPath: ArgumentConverter<ArchiveKeyPath> = { text throws(ArgumentValueError) in
    do throws(KeyPathError) {
      return try ArchiveKeyPath(text)
    } catch {
      throw ArgumentValueError("\(error)")
    }
  }

  /// The largest archive the command reads.
  static let inputLimit = 64 << 20

  /// One file to anonymize and where its result goes.
  struct Job {
    /// The input file.
    var input: String
    /// The output file.
    var output: String
  }

  static let command = Command(spec: spec) { arguments, context in
    let console = context.console
    let jobs = try jobs(input: arguments[input], output: arguments[output])
    var options = Anonymizer.Options()
    options.kept = arguments[keep]
    options.scrubbedNumbers = arguments[scrub]
    options.pseudonymizedKeys = arguments[pseudonymizeKeys]
    options.dates = arguments[dates]
    options.keepsFileSignatures = arguments[keepMagic]
    let key = try arguments[saltFile].map(salt) ?? .random()

    var readable: [(job: Job, archive: KeyedArchive)] = []
    var failed = false
    for job in jobs {
      do {
        let bytes = try FileReading.bytes(at: job.input, limit: inputLimit)
        readable.append((job, try KeyedArchive(bytes: bytes)))
      } catch let error as KeyedArchiveError {
        failed = true
        console.diagnose(
          .error, place: error.place.in(job.input),
          category: DiagnosticCategory(rawValue: error.code.name),
          "\(error.message); not written")
      } catch let failure as CommandFailure {
        failed = true
        console.diagnose(
          .error, place: failure.place,
          category: failure.category, failure.message)
      }
    }

    let outputs: [Anonymizer.Output]
    do throws(AnonymizationError) {
      outputs = try Anonymizer(options: options, key: key).anonymize(readable.map(\.archive))
    } catch {
      throw CommandFailure(
        file: arguments[input], category: DiagnosticCategory(rawValue: error.code.name),
        message: error.message)
    }

    var text = ""
    var checksums: [String: String] = [:]
    for ((job, _), output) in zip(readable, outputs) {
      let bytes = output.bytes
      try write(bytes, to: job.output)
      checksums[job.output] = SHA256Checksum.hash(bytes).hexadecimal
      text += summary(of: output.report, file: job.output, verbose: arguments[verbose])
      if output.report.collisions > 0 {
        console.diagnose(
          .warning, file: job.output, category: .collision,
          "\(output.report.collisions) values could not be kept apart from others "
            + "(their class is too small, such as one-letter strings)")
      }
      if output.report.flagged > 0 {
        console.diagnose(
          .warning, file: job.output, category: .privacy,
          "\(output.report.flagged) pseudonyms still look like personal data; run privacy-scan")
      }
    }
    console.output(text)

    if let manifest = arguments[updateManifest] {
      try updateChecksums(
        in: manifest, checksums: checksums, archivesDirectory: arguments[SharedOptions.archives],
        console: console)
    }
    return failed ? .unusable : .success
  }

  /// The files to anonymize: one file, or every regular file below a folder, with their outputs.
  ///
  /// - Throws: `CommandFailure` when the input is missing or empty, or an output would replace an input.
  static func jobs(input: String, output: String) throws -> [Job] {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: input, isDirectory: &isDirectory) else {
      throw CommandFailure(file: input, category: .unreadable, message: "no such file or folder")
    }
    var jobs: [Job] = []
    if isDirectory.boolValue {
      let inputRoot = URL(fileURLWithPath: input).standardizedFileURL.path
      let outputRoot = URL(fileURLWithPath: output).standardizedFileURL.path
      guard outputRoot != inputRoot, !outputRoot.hasPrefix(inputRoot + "/") else {
        throw CommandFailure(
          file: output, category: .usage, message: "the output folder is inside the input folder")
      }
      for relative in ArchiveFolderListing.listing(of: input).files {
        jobs.append(
          Job(
            input: (input as NSString).appendingPathComponent(relative),
            output: (output as NSString).appendingPathComponent(relative)))
      }
      guard !jobs.isEmpty else {
        throw CommandFailure(
          file: input, category: .unreadable, message: "no files in this folder")
      }
    } else {
      var outputIsDirectory: ObjCBool = false
      let target =
        manager.fileExists(atPath: output, isDirectory: &outputIsDirectory)
          && outputIsDirectory.boolValue
        ? (output as NSString).appendingPathComponent((input as NSString).lastPathComponent)
        : output
      jobs.append(Job(input: input, output: target))
    }
    let inputs = Set(jobs.map { URL(fileURLWithPath: $0.input).standardizedFileURL.path })
    if let clash = jobs.first(where: {
      inputs.contains(URL(fileURLWithPath: $0.output).standardizedFileURL.path)
    }) {
      throw CommandFailure(
        file: clash.output, category: .usage, message: "the output would replace an input")
    }
    return jobs.sorted { $0.input < $1.input }
  }

  /// The key from a salt file.
  private static func salt(_ path: String) throws -> AnonymizationKey {
    let bytes = try FileReading.bytes(at: path, limit: 1 << 20)
    do throws(AnonymizationError) {
      return try AnonymizationKey(salt: bytes)
    } catch {
      throw CommandFailure(
        file: path, category: DiagnosticCategory(rawValue: error.code.name), message: error.message
      )
    }
  }

  /// Writes an archive or the manifest by the one write rule (`OutputDestination`), creating
  /// its folder: a device or FIFO is written through, a link followed, a folder refused.
  private static func write(_ bytes: [UInt8], to path: String) throws {
    do {
      try FileManager.default.createDirectory(
        at: URL(fileURLWithPath: path).deletingLastPathComponent(),
        withIntermediateDirectories: true)
    } catch {
      throw CommandFailure(
        file: path, category: .unwritable, message: "cannot create the folder for it")
    }
    do throws(FileOutputError) {
      try SafeFileWriter.write(bytes, to: path)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// One line for an archive, and with `verbose` one line per value.
  static func summary(of report: Anonymizer.Report, file: String, verbose: Bool) -> String {
    var text = ""
    if verbose {
      for value in report.replaced { text += "replaced \(value)\n" }
      for value in report.kept { text += "kept \(value)\n" }
    }
    let kinds: [(Anonymizer.Value.Kind, String, String)] = [
      (.string, "string", "strings"), (.data, "data value", "data values"),
      (.date, "date", "dates"), (.uuid, "UUID", "UUIDs"), (.number, "number", "numbers"),
      (.dictionaryKey, "dictionary key", "dictionary keys"),
    ]
    let counts = kinds.compactMap { kind, one, many -> String? in
      let count = report.replacedCount(of: kind)
      return count == 0 ? nil : "\(count) \(count == 1 ? one : many)"
    }
    let replaced =
      counts.isEmpty ? "nothing replaced" : counts.joined(separator: ", ") + " replaced"
    text += "\(file): \(replaced); \(report.kept.count) kept\n"
    return text
  }

  /// Rewrites the manifest's sha256 values for the archives written.
  private static func updateChecksums(
    in manifest: String, checksums: [String: String], archivesDirectory: String, console: Console
  ) throws {
    var relativeChecksums: [String: String] = [:]
    for (path, digest) in checksums {
      guard
        let relative = ManifestAuthor.relativePath(of: path, archivesDirectory: archivesDirectory)
      else {
        console.diagnose(
          .warning, file: path, category: .updateManifest,
          "not below the archives folder '\(archivesDirectory)'; give --archives")
        continue
      }
      relativeChecksums[relative] = digest
    }
    guard let data = FileManager.default.contents(atPath: manifest) else {
      throw CommandFailure(
        file: manifest, category: .unreadable, message: "cannot read the manifest")
    }
    let update = ManifestAuthor().updateChecksums(
      existingText: String(decoding: data, as: UTF8.self), file: manifest,
      checksums: relativeChecksums)
    ManifestDiagnosticsPrinter.print(update.diagnostics, to: console)
    guard !update.text.isEmpty else {
      throw CommandFailure(
        file: manifest, category: .invalid, message: "the manifest was not changed")
    }
    try write(Array(update.text.utf8), to: manifest)
    for path in update.unlisted {
      console.diagnose(
        .note, file: manifest, category: .updateManifest,
        "'\(path)' has no entry; add one with 'manifest author \(path) --update \(manifest)'")
    }
    console.output(
      "\(manifest): \(update.updated.count) sha256 updated, \(update.unchanged.count) unchanged, "
        + "\(update.unlisted.count) archives not listed\n")
  }
}

extension DatePolicy: ArgumentValue {
  init(argument: String) throws(ArgumentValueError) {
    do throws(AnonymizationError) {
      try self.init(argument)
    } catch {
      throw ArgumentValueError(
        "expected one of: \(DatePolicy.allArguments.joined(separator: ", "))")
    }
  }

  var argumentText: String { description }

  static var allowedValues: [String]? { allArguments }
}
