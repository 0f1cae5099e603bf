// libFuzzer entry point for the property-list readers (binary and XML).
//
// Built by scripts/fuzz with -sanitize=fuzzer,address against the
// PropertyList and JSONOutput sources; never part of `swift build`.

import PropertyList

/// Small limits, so that the fuzzer also reaches every limit check cheaply.
private let tightLimits: PropertyListLimits = {
  var limits = PropertyListLimits()
  limits.maximumDepth = 16
  limits.maximumObjectCount = 512
  limits.maximumContainerCount = 64
  limits.maximumStringLength = 256
  return limits
}()

/// Reads the input with default and tight limits; what reads must write back and read again equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func plistFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = PropertyListReader.format(of: bytes)
  _ = try? PropertyListReader(limits: tightLimits).read(bytes)
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
