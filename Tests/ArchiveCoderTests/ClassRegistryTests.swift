import ArchiveCoder
import ArchiveFormat
import Foundation
import ProfileKit
import Testing

@Suite("Class registry")
struct ClassRegistryTests {
  let registry = ClassRegistry(modelClasses: ProfileModel.classes)

  @Test("Registers the sample app's classes by their runtime names")
  func registersModelClassesByRuntimeName() throws {
    let profile = try #require(registry.registeredClass(named: "ProfileKit.UserProfile"))
    #expect(profile.supportsSecureCoding)
    #expect(profile.conformsToCoding)
    #expect(profile.superclassNames == ["NSObject"])
    #expect(profile.foundationKind == nil)
    #expect(registry.modelClasses.map(\.name).contains("ProfileKit.Memo"))
  }

  @Test("Foundation classes keep plain names and their real hierarchy")
  func foundationClassesHaveRealHierarchy() throws {
    let mutableString = try #require(registry.registeredClass(named: "NSMutableString"))
    #expect(mutableString.superclassNames == ["NSString", "NSObject"])
    #expect(mutableString.isKind(of: "NSString"))
    #expect(!mutableString.isKind(of: "NSArray"))
    let number = try #require(registry.registeredClass(named: "NSNumber"))
    #expect(number.isKind(of: "NSValue"))
    let object = try #require(registry.registeredClass(named: "NSObject"))
    #expect(!object.conformsToCoding)
    #expect(!object.supportsSecureCoding)
  }

  @Test("Every Foundation value class is registered")
  func everyFoundationValueClassIsRegistered() {
    for kind in FoundationValueKind.allCases {
      #expect(registry.registeredClass(named: kind.className)?.foundationKind == kind)
    }
  }

  @Test("Containers are marked as containers")
  func containersAreMarked() {
    #expect(registry.registeredClass(named: "NSMutableArray")?.isContainer == true)
    #expect(registry.registeredClass(named: "NSString")?.isContainer == false)
  }

  @Test("Looks up a class object by its runtime name")
  func looksUpClassObject() {
    #expect(registry.registeredClass(for: ProfileKit.Address.self)?.name == "ProfileKit.Address")
    #expect(registry.registeredClass(for: NSPredicate.self) == nil)
  }
}

@Suite("Class name map")
struct ClassNameMapTests {
  let registry = ClassRegistry(modelClasses: ProfileModel.classes)

  @Test("A registered name maps to itself")
  func registeredNameMapsToItself() {
    let resolution = ClassNameMap.empty.resolve(className: "NSString", in: registry)
    #expect(resolution?.registeredName == "NSString")
    #expect(resolution?.rule == .identity)
  }

  @Test("A module rename maps ProfilesApp classes to ProfileKit")
  func moduleRenameMaps() throws {
    let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
    let resolution = map.resolve(className: "ProfilesApp.UserProfile", in: registry)
    #expect(resolution?.registeredName == "ProfileKit.UserProfile")
    #expect(resolution?.rule == .moduleRename)
    #expect(
      resolution?.description == "'ProfilesApp.UserProfile' (mapped to 'ProfileKit.UserProfile')")
  }

  @Test("A mangled Swift name is read and then mapped")
  func mangledNameMaps() throws {
    let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
    let resolution = map.resolve(className: "_TtC11ProfilesApp7Address", in: registry)
    #expect(resolution?.registeredName == "ProfileKit.Address")
    #expect(resolution?.rule == .mangledName)
  }

  @Test("An Objective-C name maps through an explicit entry")
  func objectiveCNameMaps() throws {
    let map = try ClassNameMap(parsing: "PAMemo=ProfileKit.Memo")
    #expect(map.resolve(className: "PAMemo", in: registry)?.rule == .explicitEntry)
  }

  @Test("A name found only in the superclass chain resolves through the chain")
  func chainOnlyNameResolves() throws {
    let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
    let resolution = map.resolve(
      className: "ProfilesApp.PremiumProfile",
      superclassNames: ["ProfilesApp.UserProfile", "NSObject"], in: registry)
    #expect(resolution?.registeredName == "ProfileKit.UserProfile")
    #expect(resolution?.isFromSuperclassChain == true)
  }

  @Test("An unmapped name stays unmapped even when the runtime knows the class")
  func unmappedNameStaysUnmapped() {
    #expect(ClassNameMap.empty.resolve(className: "ProfilesApp.UserProfile", in: registry) == nil)
    #expect(ClassNameMap.empty.resolve(className: "NSPredicate", in: registry) == nil)
    #expect(ClassNameMap.empty.resolve(className: "Foundation.Process", in: registry) == nil)
  }

  @Test("NSObject is never a superclass fallback")
  func objectIsNeverAFallback() {
    let resolution = ClassNameMap.empty.resolve(
      className: "Evil", superclassNames: ["NSObject"], in: registry)
    #expect(resolution == nil)
  }

  @Test("An explicit entry to an unregistered class does not match")
  func explicitEntryToUnregisteredClassFails() throws {
    let map = try ClassNameMap(parsing: "Old=Foundation.Process")
    #expect(map.resolve(className: "Old", in: registry) == nil)
  }

  @Test("Rejects an entry without '='")
  func rejectsEntryWithoutEquals() {
    #expect(throws: ClassNameMapError.self) { try ClassNameMap(parsing: "A=B,Broken") }
  }

  @Test("Rejects a module rename with '.*' on one side")
  func rejectsHalfModuleRename() {
    #expect(throws: ClassNameMapError.self) { try ClassNameMap(parsing: "ProfilesApp.*=Kit") }
  }

  @Test("Demangles nested and standard-library classes")
  func demanglesNestedClasses() {
    #expect(SwiftMangledClassName.demangle("_TtCC3App5Outer5Inner") == "App.Outer.Inner")
    #expect(SwiftMangledClassName.demangle("_TtCs12_SwiftObject") == "Swift._SwiftObject")
    #expect(SwiftMangledClassName.demangle("_TtC3App") == nil)
    #expect(SwiftMangledClassName.demangle("_TtC99App") == nil)
    #expect(SwiftMangledClassName.demangle("UserProfile") == nil)
  }
}

@Suite("Class name map validation")
struct ClassNameMapValidationTests {
  let registry = ClassRegistry(modelClasses: ProfileModel.classes)

  @Test("Reports an entry whose target is not registered")
  func reportsUnregisteredEntryTarget() throws {
    let map = try ClassNameMap(parsing: "Old=ProfileKit.Gone,PAMemo=ProfileKit.Memo")
    #expect(
      map.unregisteredTargets(in: registry) == [
        "class map entry 'Old=ProfileKit.Gone': 'ProfileKit.Gone' is not a registered class"
      ])
  }

  @Test("Reports a module rename into a module with no registered class")
  func reportsUnknownTargetModule() throws {
    let map = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKot.*")
    #expect(map.unregisteredTargets(in: registry).count == 1)
    #expect(
      try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*").unregisteredTargets(in: registry)
        .isEmpty)
  }

  @Test("A parse error names the entry and its position")
  func parseErrorNamesEntry() {
    do {
      _ = try ClassNameMap(parsing: "A=B, Broken")
      Issue.record("expected an error")
    } catch {
      #expect(error.description == "class map entry 2 'Broken': expected OLD=NEW")
      #expect(error.localizedDescription == error.description)
    }
  }
}
