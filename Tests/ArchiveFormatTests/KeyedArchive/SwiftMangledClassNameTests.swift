import ArchiveFormat
import Testing

@Suite("Swift mangled class names")
struct SwiftMangledClassNameTests {
  @Test(
    "Mangling writes the form demangling reads back",
    arguments: ["NotesV1.Note", "ProfilesApp.UserProfile", "App.Outer.Inner", "Swift._SwiftObject"])
  func mangleIsDemangleInverse(name: String) throws {
    let mangled = try #require(SwiftMangledClassName.mangle(name))
    #expect(SwiftMangledClassName.demangle(mangled) == name)
  }

  @Test("A top-level class mangles with its module and name lengths")
  func mangledForm() {
    #expect(SwiftMangledClassName.mangle("NotesV1.Note") == "_TtC7NotesV14Note")
    #expect(SwiftMangledClassName.mangle("App.Outer.Inner") == "_TtCC3App5Outer5Inner")
  }

  @Test("A name without a module, or with an empty component, does not mangle")
  func unmangleableNames() {
    #expect(SwiftMangledClassName.mangle("NSArray") == nil)
    #expect(SwiftMangledClassName.mangle("App..Note") == nil)
    #expect(SwiftMangledClassName.mangle(".Note") == nil)
  }
}
