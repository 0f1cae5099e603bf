import ArchiveFormat
import Testing

/// An `NSString` whose `NS.string` refers to another object, as hostile archives write it.
///
/// Apple's archiver writes `NS.string` inline; the reader follows references
/// anyway, so it must end on cycles and long chains.
@Suite("NSString references")
struct StringReferenceTests {
  /// Adds an `NSString` instance whose `NS.string` is the given value, in a reserved slot.
  private func nsString(
    _ builder: inout KeyedArchiveBuilder, in slot: PropertyListValue, text: PropertyListValue
  ) {
    builder.fill(slot, with: builder.instanceValue("NSString", [("NS.string", text)]))
  }

  @Test("An NSString whose NS.string refers to itself holds no string")
  func selfReference() throws {
    var builder = KeyedArchiveBuilder()
    let slot = builder.reserve()
    nsString(&builder, in: slot, text: slot)
    builder.setRoot(slot)
    let archive = try KeyedArchive(bytes: builder.bytes())
    #expect(archive.stringValue(of: slot) == nil)
    let instance = try #require(archive.instance(at: 1))
    #expect(archive.foundationForm(of: instance) == nil)
  }

  @Test("Two NSStrings that refer to each other hold no string")
  func mutualReference() throws {
    var builder = KeyedArchiveBuilder()
    let first = builder.reserve()
    let second = builder.reserve()
    nsString(&builder, in: first, text: second)
    nsString(&builder, in: second, text: first)
    builder.setRoot(first)
    let archive = try KeyedArchive(bytes: builder.bytes())
    #expect(archive.stringValue(of: first) == nil)
    #expect(archive.stringValue(of: second) == nil)
  }

  @Test("A chain of 100,000 NSStrings is followed to its text without recursion")
  func longChain() throws {
    var builder = KeyedArchiveBuilder()
    var next = builder.string("end of the chain")
    for _ in 0..<100_000 {
      let slot = builder.reserve()
      nsString(&builder, in: slot, text: next)
      next = slot
    }
    builder.setRoot(next)
    let archive = try KeyedArchive(bytes: builder.bytes())
    #expect(archive.stringValue(of: next) == "end of the chain")
    guard case .uid(let index) = next else {
      Issue.record("the chain's head is not a reference")
      return
    }
    let head = try #require(archive.instance(at: Int(index)))
    #expect(archive.foundationForm(of: head) == .string("end of the chain"))
    _ = ArchiveTreePrinter().render(archive)
  }

  @Test("An NSString that refers to a non-string instance holds no string")
  func referenceToArray() throws {
    var builder = KeyedArchiveBuilder()
    let array = builder.array([builder.string("a")])
    let slot = builder.reserve()
    nsString(&builder, in: slot, text: array)
    builder.setRoot(slot)
    let archive = try KeyedArchive(bytes: builder.bytes())
    #expect(archive.stringValue(of: slot) == nil)
  }
}
