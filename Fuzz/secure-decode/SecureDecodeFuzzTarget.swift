// libFuzzer entry point for the harness's coder decoding into the sample app's
// v2 types (module ProfileKit), in secure mode, with the allowed classes the
// app's reads declare.
//
// Built by scripts/fuzz with -sanitize=fuzzer,address against the Decoding,
// ProfileKit, KeyedArchive, PropertyList and JSONOutput sources; never part of
// `swift build`.

import ArchiveCoder
import Foundation
import ArchiveFormat
import ProfileKit

/// The decoder the shipped harness uses: the v2 model, with v1's module renamed to v2's.
private let decoder: HarnessDecoder = {
  let classMap = (try? ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")) ?? .empty
  return HarnessDecoder(
    registry: ClassRegistry(modelClasses: ProfileModel.classes), classMap: classMap)
}()

/// The allowed classes of the app's three reads: a profile, a profile list, a memo; and a
/// fourth read of a value stored as any Foundation value class (a formatter, a regular
/// expression or its match, a generic NSValue, …), so that the corpus's seeds of those forms
/// reach their readers under secure coding, where no model class may appear.
private let reads: [[String]] =
  [
    ProfileModel.profileAllowedClasses, ProfileModel.profileListAllowedClasses,
    ProfileModel.memoAllowedClasses,
  ].map { classes in classes.map { ClassRegistry.runtimeName(of: $0) } }
  // NSObject is left out: allowing it admits every class that adopts NSSecureCoding.
  + [FoundationValueKind.allCases.filter { $0 != .object }.map(\.className)]

/// The model classes a read may instantiate: those it allows, and Address under a profile.
private func permitsModelClass(_ name: String, read: [String]) -> Bool {
  guard name.hasPrefix("ProfileKit.") else { return true }
  return read.contains(name)
}

/// Decodes the input securely for each read; a secure decode must never instantiate a
/// model class its read does not allow.
///
/// Legacy decodes are left out: they admit every Foundation class, and corelibs traps while
/// bridging some of them (Regressions/legacy-decode-dictionary-with-array-key-crash.bplist),
/// which the worker process contains.
@_cdecl("LLVMFuzzerTestOneInput")
public func secureDecodeFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let archive = try? KeyedArchive(bytes: bytes) else { return 0 }
  for read in reads {
    let result = decoder.decode(archive, secure: true, allowedClasses: read)
    _ = "\(result.outcome)"
    for name in result.instantiatedClassNames where !permitsModelClass(name, read: read) {
      fatalError("secure decode of \(read) instantiated \(name)")
    }
  }
  return 0
}
