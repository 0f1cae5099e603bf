// libFuzzer entry point for the harness coder's Foundation value forms and Apple-platform
// stand-ins: every input is decoded in secure mode with every value class and stand-in
// allowed, and in legacy mode, on every top key the archive has.
//
// Built by scripts/fuzz with -sanitize=fuzzer,address against the Decoding, KeyedArchive,
// ArchiveFormat sources; never part of
// `swift build`.

import ArchiveCoder
import Foundation
import ArchiveFormat

/// The registry: Foundation's value classes and every stand-in.
private let registry = ClassRegistry(platformClasses: PlatformClass.allCases)

/// The decoder, without describing what it decodes: describing walks dictionaries through
/// corelibs' bridging, which traps on some keys (an NSURL, an NSArray), as
/// Regressions/legacy-decode-dictionary-with-array-key-crash.bplist records; the worker
/// process contains that trap, and this target fuzzes the forms' readers.
private let decoder: HarnessDecoder = {
  var decoder = HarnessDecoder(registry: registry)
  decoder.describesObjects = false
  return decoder
}()

/// Every registered class, so that a secure read reaches every form.
private let everyClass = registry.classNames

/// Decodes the input on both harness paths; a trap or a sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func valueFormsFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let archive = try? KeyedArchive(bytes: bytes) else { return 0 }
  let keys = HarnessDecoder.defaultTopKeys(of: archive)
  for secure in [true, false] {
    let result = decoder.decode(
      archive, secure: secure, allowedClasses: secure ? everyClass : [], topKeys: keys)
    _ = "\(result.outcome)"
  }
  return 0
}
