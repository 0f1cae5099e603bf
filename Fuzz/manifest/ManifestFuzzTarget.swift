// libFuzzer entry point for the manifest reader: libxml2 parse, XSD validation,
// model building and the semantic checks.
//
// Built by scripts/fuzz with -sanitize=fuzzer,address against the Manifest,
// KeyedArchive, PropertyList and JSONOutput sources and the system libxml2;
// never part of `swift build`.

import Foundation
import ArchiveManifest

/// The package root, found from this file's path (Fuzz/manifest/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// An empty folder for `classMapFile` references, so inputs read no file but the schema.
private let emptyDirectory: String = {
  let path = NSTemporaryDirectory() + "/fuzz-manifest-empty-\(getpid())"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}()

/// Loads the input as a manifest; every outcome must be a result with diagnostics.
@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let result = ManifestLoader.load(
    bytes: bytes, file: "fuzz.xml", baseDirectory: emptyDirectory,
    archivesDirectory: emptyDirectory,
    registeredClasses: ["ProfileKit.UserProfile", "ProfileKit.Address", "ProfileKit.Memo"])
  for diagnostic in result.diagnostics {
    _ = "\(diagnostic)"
  }
  return 0
}
