import ArchiveFormat
import ArchiveManifest
import Foundation

/// Looks for personal data in archives: emails, phone numbers, IBANs, card numbers, IP addresses and secrets.
///
/// Every string, data value (text in it), dictionary key and URL of an
/// archive is scanned, and each finding carries its key path. A file that is
/// not a keyed archive is scanned as bytes (runs of printable text), with
/// byte offsets. The detectors are linear in the input, so a hostile archive
/// cannot make the scan hang. Values the anonymizer writes are never
/// reported: its pseudonyms are built to miss every detector.
///
/// ```swift
/// let scanner = PrivacyScanner()
/// let report = scanner.scan(folder: "LegacyArchives", reviews: reviews)
/// for finding in report.findings { print(finding) }
/// ```
///
/// ## Topics
/// - ``PrivacyFinding``
/// - ``PrivacyScanReport``
public struct PrivacyScanner: Sendable {
  /// The bounds used to read archives.
  public var limits: ArchiveLimits
  /// The shortest run of printable bytes looked at in data and in files that are not archives.
  public var minimumTextRun = 6

  /// Creates a scanner.
  public init(limits: ArchiveLimits = .default) {
    self.limits = limits
  }

  /// Scans a file's bytes: as a keyed archive when they are one, as bytes otherwise.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - file: The name findings give the file.
  /// - Returns: The findings, in archive order.
  public func scan(_ bytes: [UInt8], file: String) -> [PrivacyFinding] {
    guard let archive = try? KeyedArchive(bytes: bytes, limits: limits) else {
      return scanBytes(bytes, file: file)
    }
    return scan(archive, file: file)
  }

  /// Scans an archive's strings, data, dictionary keys and numbers.
  ///
  /// - Parameters:
  ///   - archive: The archive.
  ///   - file: The name findings give the archive.
  /// - Returns: The findings, in `$objects` order, then `$top`.
  public func scan(_ archive: KeyedArchive, file: String) -> [PrivacyFinding] {
    var scan = ArchiveScan(scanner: self, archive: archive, file: file)
    scan.run()
    return scan.findings
  }

  /// Scans the printable runs of a file that is not a keyed archive.
  func scanBytes(_ bytes: [UInt8], file: String) -> [PrivacyFinding] {
    var findings: [PrivacyFinding] = []
    for (offset, text) in printableRuns(bytes) {
      for found in Self.matches(in: text) {
        findings.append(
          PrivacyFinding(
            file: file, keyPath: nil, place: "offset \(offset + found.offset)", kind: found.kind,
            holder: .file, match: found.match))
      }
    }
    return findings
  }

  /// What the detectors report in a text: each kind, with its offset in scalars and the text found.
  static func matches(in text: String) -> [(kind: PersonalDataKind, offset: Int, match: String)] {
    let scalars = Array(text.unicodeScalars)
    return TextDetector.findings(in: scalars).compactMap { span in
      guard let kind = span.personalDataKind else { return nil }
      var match = ""
      match.unicodeScalars.append(contentsOf: scalars[span.range])
      return (kind, span.range.lowerBound, match)
    }
  }

  /// The text in data: all of it when it is UTF-8 text, its printable runs otherwise.
  func texts(inData bytes: [UInt8]) -> [String] {
    if let text = String(validUTF8: bytes) {
      let printable = text.unicodeScalars.count {
        $0.properties.isWhitespace || ($0.value >= 0x20 && $0.value != 0x7F)
      }
      if printable * 10 >= text.unicodeScalars.count * 9 { return [text] }
    }
    return printableRuns(bytes).map(\.text)
  }

  /// Runs of printable ASCII (and tabs) at least ``minimumTextRun`` bytes long, with their offsets.
  func printableRuns(_ bytes: [UInt8]) -> [(offset: Int, text: String)] {
    var runs: [(Int, String)] = []
    var start = 0
    var index = 0
    while index <= bytes.count {
      let isPrintable =
        index < bytes.count && (bytes[index] >= 0x20 && bytes[index] < 0x7F || bytes[index] == 0x09)
      if !isPrintable {
        if index - start >= minimumTextRun {
          runs.append((start, String(decoding: bytes[start..<index], as: UTF8.self)))
        }
        start = index + 1
      }
      index += 1
    }
    return runs
  }
}

/// One archive's scan: every leaf, at its key path.
private struct ArchiveScan {
  let scanner: PrivacyScanner
  let archive: KeyedArchive
  let file: String
  let walk: ArchiveLeafWalk
  private(set) var findings: [PrivacyFinding] = []

  init(scanner: PrivacyScanner, archive: KeyedArchive, file: String) {
    self.scanner = scanner
    self.archive = archive
    self.file = file
    walk = ArchiveLeafWalk(archive: archive, limits: scanner.limits)
  }

  mutating func run() {
    for (index, object) in archive.objects.enumerated() {
      switch object {
      case .value(let value):
        let holder: PrivacyFinding.Holder? =
          walk.dictionaryKeys.contains(index) ? .dictionaryKey : nil
        scan(value, at: walk.keyPath(of: index), holder: holder)
      case .instance(let instance):
        scanFields(of: instance, at: index)
      case .null, .classDescription:
        continue
      }
    }
    for entry in archive.top.entries {
      scan(entry.value, at: ArchiveKeyPath(topKey: entry.key, components: []), holder: nil)
    }
  }

  private mutating func scanFields(of instance: ArchiveInstance, at index: Int) {
    let base = walk.keyPath(of: index)
    let form = archive.foundationForm(of: instance)
    var dictionaryKeys: [PropertyListValue] = []
    if case .dictionary(let keys, _)? = form { dictionaryKeys = keys }
    for field in instance.fields.entries {
      switch ArchiveLeafWalk.role(ofField: field.key, in: form) {
      case .leaf(.date), .leaf(.uuid):
        continue
      case .leaf(.stringBytes):
        if case .data(let bytes) = field.value, let text = String(validUTF8: bytes) {
          scanText(text, at: base, holder: .string)
        }
      case .leaf(.plain):
        scan(field.value, at: base, holder: nil)
      case .dictionaryKeys:
        if case .array(let keys) = field.value {
          for key in keys { scan(key, at: base, holder: .dictionaryKey) }
        }
      case .elements:
        if case .array(let elements) = field.value {
          for (position, element) in elements.enumerated() {
            let component = walk.elementComponent(position, dictionaryKeys: dictionaryKeys)
            scan(element, at: base.appending(component), holder: nil)
          }
        }
      case .element(let position):
        scan(field.value, at: base.appending(.index(position)), holder: nil)
      case .field:
        scan(field.value, at: base.appending(.key(field.key)), holder: nil)
      }
    }
  }

  private mutating func scan(
    _ value: PropertyListValue, at path: ArchiveKeyPath, holder: PrivacyFinding.Holder?
  ) {
    switch value {
    case .string(let text):
      scanText(text, at: path, holder: holder ?? .string)
    case .data(let bytes):
      for text in scanner.texts(inData: bytes) { scanText(text, at: path, holder: .data) }
    case .integer(let number):
      scanNumber(String(number.magnitude), at: path)
    case .unsignedInteger(let number):
      scanNumber(String(number), at: path)
    case .array(let elements):
      for (position, element) in elements.enumerated() {
        scan(element, at: path.appending(.index(position)), holder: holder)
      }
    case .dictionary(let dictionary):
      for entry in dictionary.entries {
        scan(entry.value, at: path.appending(.key(entry.key)), holder: holder)
      }
    case .real, .bool, .date, .uid:
      return
    }
  }

  private mutating func scanText(
    _ text: String, at path: ArchiveKeyPath, holder: PrivacyFinding.Holder
  ) {
    for found in PrivacyScanner.matches(in: text) {
      findings.append(
        PrivacyFinding(
          file: file, keyPath: path, place: ArchiveLeafWalk.text(path), kind: found.kind,
          holder: holder, match: found.match))
    }
  }

  /// A card number stored as an integer: 13 to 19 digits that pass the card checks.
  private mutating func scanNumber(_ digits: String, at path: ArchiveKeyPath) {
    guard digits.count >= 13 else { return }
    let scalars = Array(digits.unicodeScalars)
    guard !TextDetector.cardNumbers(in: scalars).isEmpty else { return }
    findings.append(
      PrivacyFinding(
        file: file, keyPath: path, place: ArchiveLeafWalk.text(path), kind: .card,
        holder: .number, match: digits))
  }
}
