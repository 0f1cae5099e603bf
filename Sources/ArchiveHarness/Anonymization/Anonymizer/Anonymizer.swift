import ArchiveFormat

/// Turns real archives into ones fit to commit: every string, data value, date and UUID gets a format-keeping pseudonym.
///
/// The structure stays: every object keeps its place in `$objects`, its
/// class, its field keys and its references, so the archive decodes as
/// before. What changes:
///
/// - **Strings** keep their format: a letter becomes a letter of the same case
///   and script class, a digit a digit, and punctuation, white space and the
///   length in UTF-16 units stay. Emails, URLs, IP addresses, phone numbers
///   and tokens keep their shape (see `PseudonymRenderer`).
/// - **Equal values get equal pseudonyms**, within an archive and across a
///   batch, and different values different ones, keyed by a secret salt
///   (HMAC-SHA-256), so a pseudonym cannot be reversed by a dictionary attack.
/// - **Data** keeps its length, and with `Options.keepsFileSignatures` a
///   known file signature (a PNG or JPEG header).
/// - **Dates** follow `Options.dates`: one shift per run by default.
/// - **UUIDs** (`NSUUID`) become random version-4 UUIDs, consistently.
/// - **Numbers** stay, except under `Options.scrubbedNumbers`, where they get
///   the same sign and number of digits.
/// - **Dictionary keys** are structure and stay, unless they look like personal data
///   or their dictionary is under `Options.pseudonymizedKeys` (keys made from
///   personal text, such as counted words), where they get the pseudonyms strings get.
/// - Values under `Options.kept` stay as they are, whatever their kind.
///
/// ```swift
/// var options = Anonymizer.Options()
/// options.kept = [try ArchiveKeyPath("schema")]
/// let anonymizer = Anonymizer(options: options, key: .random())
/// let output = try anonymizer.anonymize(bytes)
/// for value in output.report.replaced { print(value) }
/// ```
///
/// ## Topics
package struct Anonymizer: Sendable {
  /// What the anonymizer keeps and how it treats dates and data.
  package struct Options: Sendable {
    /// Key paths whose values, and everything under them, stay as they are.
    package var kept: [ArchiveKeyPath] = []
    /// Key paths under which numbers are replaced by numbers of the same width.
    package var scrubbedNumbers: [ArchiveKeyPath] = []
    /// Key paths of dictionaries whose keys get pseudonyms, as equal strings do, instead of staying as structure.
    package var pseudonymizedKeys: [ArchiveKeyPath] = []
    /// What happens to dates.
    package var dates: DatePolicy = .shift
    /// Whether data keeps a known file signature (PNG, JPEG, GIF, PDF, HEIC, …) at its start.
    package var keepsFileSignatures = false
    /// The bounds used to read inputs.
    package var limits: ArchiveLimits = .default

    /// Creates options with the defaults: nothing kept, numbers kept, dates shifted.
    package init() {}
  }

  /// An anonymized archive and its report.
  package struct Output: Sendable {
    /// The archive.
    package var archive: KeyedArchive
    /// The archive as a binary property list.
    package var bytes: [UInt8] { BinaryPropertyListWriter().write(archive.propertyList) }
    /// What was replaced and kept.
    package var report: Report
  }

  /// What the anonymizer keeps and how it treats dates and data.
  package var options: Options
  /// The salt that keys the pseudonyms and the date shift.
  package let key: AnonymizationKey

  /// Creates an anonymizer.
  ///
  /// - Parameters:
  ///   - options: What to keep, and how to treat dates and data.
  ///   - key: The salt; a random one, never written down, unless given.
  package init(options: Options = Options(), key: AnonymizationKey = .random()) {
    self.options = options
    self.key = key
  }

  /// Reads one archive and anonymizes it.
  ///
  /// - Throws: `AnonymizationError`: the input is not a keyed archive, or a
  ///   kept or scrubbed key path matches nothing in it.
  package func anonymize(_ bytes: [UInt8]) throws(AnonymizationError) -> Output {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes, limits: options.limits)
    } catch {
      throw AnonymizationError(input: "", archiveError: error)
    }
    let outputs = try anonymize([archive])
    guard let output = outputs.first else {
      throw AnonymizationError(.malformedArchive, "the archive gave no output")
    }
    return output
  }

  /// Anonymizes a batch with one set of pseudonyms, so a value shared by two archives gets one pseudonym.
  ///
  /// No pseudonym equals an original string or data value of any archive in the batch.
  ///
  /// - Parameter archives: The archives, in order.
  /// - Returns: One output per archive, in the same order.
  /// - Throws: `AnonymizationError` when a kept or scrubbed key path matches
  ///   no value in any of the archives.
  package func anonymize(_ archives: [KeyedArchive]) throws(AnonymizationError) -> [Output] {
    try checkPatternsMatch(in: archives)
    var pseudonymizer = Pseudonymizer(key: key, dates: options.dates)
    var strings: Set<String> = []
    var data: Set<[UInt8]> = []
    for archive in archives {
      OriginalValues.collect(from: archive, strings: &strings, data: &data)
    }
    pseudonymizer.reserve(strings: strings, data: data)
    let shift = DatePolicy.shift(for: key)
    var outputs: [Output] = []
    for archive in archives {
      var rewriter = ArchiveRewriter(
        archive: archive, options: options, dateShift: shift, pseudonymizer: pseudonymizer)
      let rewritten = rewriter.run()
      pseudonymizer = rewriter.pseudonymizer
      outputs.append(Output(archive: rewritten, report: rewriter.report))
    }
    return outputs
  }

  /// Throws for the first kept or scrubbed pattern that matches no value in any archive.
  private func checkPatternsMatch(in archives: [KeyedArchive]) throws(AnonymizationError) {
    let named =
      options.kept.map { ("kept", $0) } + options.scrubbedNumbers.map { ("scrubbed", $0) }
      + options.pseudonymizedKeys.map { ("pseudonymized-keys", $0) }
    for (role, pattern) in named {
      let matched = archives.contains { archive in
        do {
          return try !archive.evaluate(pattern, limits: options.limits).isEmpty
        } catch {
          // More matches than the limit allows is a match.
          return true
        }
      }
      if !matched {
        let place = archives.count == 1 ? "the archive" : "any of the \(archives.count) archives"
        throw AnonymizationError(
          .unmatchedKeyPath, "the \(role) key path '\(pattern)' matches no value in \(place)")
      }
    }
  }
}
