// libFuzzer entry point for the keyed-archive graph: validation, key paths,
// the tree printer and the JSON document, read in place and through the tree.
//
// Built by scripts/fuzz with -sanitize=fuzzer,address against the
// KeyedArchive, PropertyList and JSONOutput sources; never part of `swift build`.

import ArchiveFormat

/// Key paths that fan out, index, count and follow fields, as manifests write them.
private let keyPathTexts: [String] = [
  "name", "address.city", "tags[2]", "tags.@count", "items[*].id", "[*]", "[*][*]", "[0][0][0]",
  "[*].@count", "NS.objects[*]", "$top.root", "$top.root.name", "@count", "[\"a.b\"]",
  "$top.object[*]",
]

private let keyPaths: [ArchiveKeyPath] = keyPathTexts.compactMap { try? ArchiveKeyPath($0) }

/// Small walk limits, so that the fuzzer reaches the elision and fan-out checks.
private let tightLimits: ArchiveLimits = {
  var limits = ArchiveLimits()
  limits.maximumWalkDepth = 8
  limits.maximumKeyPathMatches = 64
  return limits
}()

/// Small property-list limits, so that the fuzzer reaches each limit of the in-place path cheaply.
private let tightListLimits: ArchiveLimits = {
  var limits = ArchiveLimits()
  limits.propertyList.maximumDepth = 8
  limits.propertyList.maximumObjectCount = 256
  limits.propertyList.maximumContainerCount = 32
  limits.propertyList.maximumStringLength = 64
  return limits
}()

/// Reads the input in place (the binary view) and through the whole tree, which must agree:
/// equal archives, or errors with the same code, key path, object index and message.
private func readBothWays(_ bytes: [UInt8], limits: ArchiveLimits) -> KeyedArchive? {
  let inPlace = Result { () throws(KeyedArchiveError) in
    try KeyedArchive(readingInPlace: bytes, limits: limits)
  }
  let throughTree = Result { () throws(KeyedArchiveError) in
    try KeyedArchive(readingTree: bytes, limits: limits)
  }
  switch (inPlace, throughTree) {
  case (.success(let archive), .success(let treeArchive)):
    if archive != treeArchive { fatalError("the in-place archive differs from the tree's") }
    return archive
  case (.failure(let error), .failure(let treeError)):
    if error != treeError {
      fatalError("the in-place path refused with \(error), the tree path with \(treeError)")
    }
    _ = error.description
    _ = error.place.description
    return nil
  case (.success, .failure(let treeError)):
    fatalError("the in-place path read what the tree path refused: \(treeError)")
  case (.failure(let error), .success):
    fatalError("the in-place path refused what the tree path read: \(error)")
  }
}

/// The graph JSON `inspect --format json` writes from a binary archive read in place must be
/// the tree path's text, byte for byte, and its refusal the tree path's error.
private func checkJSONInPlace(_ bytes: [UInt8], limits: ArchiveLimits) {
  let checked = Result { () throws(KeyedArchiveError) in
    try CheckedArchiveView(bytes: bytes, limits: limits)
  }
  let tree = Result { () throws(KeyedArchiveError) in
    try KeyedArchive(readingTree: bytes, limits: limits)
  }
  switch (checked, tree) {
  case (.success(nil), _):
    return
  case (.success(let archive?), .success(let treeArchive)):
    var writer = JSONWriter(sortedKeys: false, pretty: false)
    ArchiveJSON.write(archive, to: &writer)
    var treeWriter = JSONWriter(sortedKeys: false, pretty: false)
    ArchiveJSON.write(treeArchive, to: &treeWriter)
    if writer.text() != treeWriter.text() {
      fatalError("the graph JSON written in place differs from the tree's")
    }
  case (.failure(let error), .failure(let treeError)):
    if error != treeError {
      fatalError("the JSON check refused with \(error), the tree path with \(treeError)")
    }
  case (.success, .failure(let treeError)):
    fatalError("the JSON check passed what the tree path refused: \(treeError)")
  case (.failure(let error), .success):
    fatalError("the JSON check refused what the tree path read: \(error)")
  }
}

/// Reads the input as a keyed archive and walks it every way a client can.
@_cdecl("LLVMFuzzerTestOneInput")
public func archiveFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = readBothWays(bytes, limits: tightListLimits)
  checkJSONInPlace(bytes, limits: tightListLimits)
  checkJSONInPlace(bytes, limits: .default)
  guard let archive = readBothWays(bytes, limits: .default) else { return 0 }
  _ = ArchiveTreePrinter().render(archive)
  _ = ArchiveTreePrinter(limits: tightLimits).render(archive)
  _ = ArchiveJSON.text(for: archive)
  for path in keyPaths {
    guard let matches = try? archive.evaluate(path, limits: tightLimits) else { continue }
    for match in matches {
      _ = archive.leaf(of: match.node)
      _ = archive.elementCount(of: match.node)
      _ = match.path.description
    }
  }
  for index in archive.objects.indices {
    _ = archive.leaf(of: .object(index))
    _ = archive.children(of: .object(index))
  }
  // Re-encoding must give an archive that reads back equal.
  let written = BinaryPropertyListWriter().write(archive.propertyList)
  do {
    let reread = try KeyedArchive(bytes: written)
    if reread != archive {
      fatalError("re-encoding changed the archive")
    }
  } catch {
    fatalError("the archive does not read back after re-encoding: \(error)")
  }
  return 0
}
