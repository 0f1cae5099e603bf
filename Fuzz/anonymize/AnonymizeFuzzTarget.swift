// libFuzzer entry point for the anonymizer and the privacy scan: every input is
// scanned, then anonymized with every date policy and a kept and a scrubbed
// path, and the output must read back as an archive with nothing to report.
//
// Built by scripts/fuzz with -sanitize=fuzzer,address against the Anonymization
// sources and the modules below them; never part of `swift build`.

import ArchiveHarness
import ArchiveFormat

/// A fixed salt, so that a crash replays.
private let key: AnonymizationKey? = try? AnonymizationKey(
  salt: Array("archive-harness fuzz salt".utf8))

/// Small walk limits, so that the fuzzer reaches the depth and fan-out bounds.
private let options: [Anonymizer.Options] = [DatePolicy.shift, .keep, .truncate(.month)].map {
  var options = Anonymizer.Options()
  options.dates = $0
  options.keepsFileSignatures = true
  options.limits.maximumWalkDepth = 16
  options.limits.maximumKeyPathMatches = 256
  return options
}

@_cdecl("LLVMFuzzerTestOneInput")
public func anonymizeFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for finding in PrivacyScanner().scan(bytes, file: "fuzz.archive") {
    _ = finding.description
  }
  guard let key else { return 0 }
  for option in options {
    let output: Anonymizer.Output
    do {
      output = try Anonymizer(options: option, key: key).anonymize(bytes)
    } catch {
      _ = error.description
      return 0
    }
    let written = output.bytes
    guard (try? KeyedArchive(bytes: written)) != nil else {
      fatalError("an anonymized archive does not read back")
    }
    let findings = PrivacyScanner().scan(written, file: "anonymized.archive")
    if output.report.flagged == 0, let finding = findings.first {
      fatalError("an anonymized archive still looks personal: \(finding)")
    }
  }
  return 0
}
