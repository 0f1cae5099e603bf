// libFuzzer entry point for the property-list readers (binary and XML).
//
// Built by scripts/fuzz with -sanitize=fuzzer,address against the
// PropertyList and JSONOutput sources; never part of `swift build`.

import ArchiveFormat

/// Small limits, so that the fuzzer also reaches every limit check cheaply.
private let tightLimits: PropertyListLimits = {
  var limits = PropertyListLimits()
  limits.maximumDepth = 16
  limits.maximumObjectCount = 512
  limits.maximumContainerCount = 64
  limits.maximumStringLength = 256
  return limits
}()

/// The JSON `writeJSON(_:to:)` streams from the bytes, or its error with whatever it wrote first.
private func streamedJSON(
  _ bytes: [UInt8], limits: PropertyListLimits
) -> (text: String, error: PropertyListError?) {
  var writer = JSONWriter(sortedKeys: false)
  do throws(PropertyListError) {
    try PropertyListReader(limits: limits).writeJSON(bytes, to: &writer)
    return (writer.text(), nil)
  } catch {
    return (writer.text(), error)
  }
}

/// Checks the streamed JSON against the tree's text, or the reader's error, under `limits`.
private func checkStreamedJSON(_ bytes: [UInt8], limits: PropertyListLimits) {
  let streamed = streamedJSON(bytes, limits: limits)
  do throws(PropertyListError) {
    var writer = JSONWriter(sortedKeys: false)
    try PropertyListReader(limits: limits).read(bytes).writeJSON(to: &writer)
    if streamed.error != nil || streamed.text != writer.text() {
      fatalError("streamed JSON differs from the tree's")
    }
  } catch {
    guard let streamedError = streamed.error, streamed.text.isEmpty,
      streamedError.description == error.description
    else {
      fatalError("streamed JSON was not refused as the reader refused: \(error)")
    }
  }
}

/// Checks that the binary view, read in place, gives the reader's tree or the reader's error.
private func checkView(_ bytes: [UInt8], limits: PropertyListLimits, refusesRepeatedKeys: Bool) {
  let reader = PropertyListReader(limits: limits, refusesRepeatedKeys: refusesRepeatedKeys)
  let tree = Result { () throws(PropertyListError) in try reader.read(bytes) }
  let view = Result { () throws(PropertyListError) in try reader.binaryView(bytes) }
  switch (tree, view) {
  case (_, .success(nil)):
    if PropertyListReader.format(of: bytes) == .binary {
      fatalError("a binary list has no view")
    }
  case (.success(let value), .success(let view?)):
    if view.value(view.top) != value { fatalError("the view's tree differs from the reader's") }
  case (.failure(let treeError), .failure(let viewError)):
    if treeError != viewError {
      fatalError("the view refused with \(viewError), the reader with \(treeError)")
    }
  case (.success, .failure(let viewError)):
    fatalError("the view refused what the reader read: \(viewError)")
  case (.failure(let treeError), .success):
    fatalError("the view accepted what the reader refused: \(treeError)")
  }
}

/// Rewrites a binary list at the byte level, each of its first short string objects replaced by
/// a longer one and one unreferenced string appended; what `rewritten(_:)` writes must read
/// again, hold every other object byte for byte, and hold the new strings where they were put.
private func checkRewrite(_ bytes: [UInt8]) {
  guard case .success(let view?) = Result(catching: { try PropertyListReader().binaryView(bytes) })
  else { return }
  var edit = BinaryPropertyListView.Edit()
  var replaced = [Bool](repeating: false, count: view.objectCount)
  for object in 0..<min(view.objectCount, 64) where view.kind(of: object) == .string {
    guard let text = view.string(object), text.utf8.count < 100 else { continue }
    edit.strings.append((object, text + "~é"))
    replaced[object] = true
  }
  edit.appended.append("appended")
  guard let written = view.rewritten(edit) else { return }
  let reread: BinaryPropertyListView
  do throws(PropertyListError) {
    guard let again = try PropertyListReader().binaryView(written) else {
      fatalError("a rewritten binary list is not a binary list")
    }
    reread = again
  } catch {
    fatalError("a rewritten list does not read again: \(error)")
  }
  if reread.objectCount != view.objectCount + 1 || reread.top != view.top {
    fatalError("a rewritten list has another object count or top")
  }
  if let changed = view.firstDifferentObject(in: reread, skipping: replaced) {
    fatalError("object \(changed), not named by the edit, changed its bytes")
  }
  for (object, string) in edit.strings where reread.string(object) != string {
    fatalError("object \(object) does not hold its new string")
  }
}

/// Reads the input with default and tight limits; what reads must write back and read again equal,
/// and the JSON streamed from the bytes must equal the tree's, or be refused as the reader refuses.
@_cdecl("LLVMFuzzerTestOneInput")
public func plistFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = PropertyListReader.format(of: bytes)
  _ = try? PropertyListReader(limits: tightLimits).read(bytes)
  checkStreamedJSON(bytes, limits: tightLimits)
  checkView(bytes, limits: tightLimits, refusesRepeatedKeys: false)
  checkView(bytes, limits: tightLimits, refusesRepeatedKeys: true)
  checkView(bytes, limits: PropertyListLimits(), refusesRepeatedKeys: false)
  checkStreamedJSON(bytes, limits: PropertyListLimits())
  checkRewrite(bytes)
  let value: PropertyListValue
  do {
    value = try PropertyListReader().read(bytes)
  } catch {
    // Every error must describe itself without trapping.
    _ = error.description
    return 0
  }
  _ = value.jsonValue.render()
  _ = XMLPropertyListWriter().write(value)
  let written = BinaryPropertyListWriter().write(value)
  do {
    let reread = try PropertyListReader().read(written)
    if reread != value {
      fatalError("binary round trip changed the value")
    }
  } catch {
    fatalError("the reader rejects what the writer wrote: \(error)")
  }
  return 0
}
