import ArchiveCoder
import Foundation
import HarnessTestSupport
import ProfileKit
import Testing

@Suite("Differential advice")
struct DifferentialAdviceTests {
  let decoder: HarnessDecoder

  init() throws {
    decoder = HarnessDecoder(
      registry: ClassRegistry(modelClasses: TestModels.classes),
      classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
  }

  private func profileList() -> [UInt8] {
    var archive = TestArchive()
    let first = SampleArchives.profile(&archive)
    let second = SampleArchives.profile(&archive, id: 43, name: "Grace")
    let list = archive.array([first, second])
    return archive.bytes(root: list)
  }

  @Test("A list read without NSArray: add NSArray, and SAP's guide adds the nested Address")
  func listMissingContainerClass() {
    let advice = decoder.differentialAdvice(
      profileList(), allowedClasses: ["ProfileKit.UserProfile"])
    #expect(advice.verdict == .fixableByAllowedClasses)
    #expect(advice.requiredAdditions == ["NSArray"])
    #expect(advice.recommendedAdditions == ["NSArray", "ProfileKit.Address"])
    #expect(
      advice.suggestedAllowedClasses == ["ProfileKit.UserProfile", "NSArray", "ProfileKit.Address"])
    #expect(
      advice.message.hasPrefix(
        "legacy decodes, secure rejects: add NSArray, ProfileKit.Address to allowedClasses"))
    let fixed = decoder.decode(
      profileList(), secure: true, allowedClasses: advice.suggestedAllowedClasses)
    #expect(fixed.outcome.decodedValue != nil)
  }

  @Test("A root of the wrong class: add the root class")
  func wrongRootClass() {
    let advice = decoder.differentialAdvice(
      SampleArchives.profileArchive(), allowedClasses: ["ProfileKit.Memo"])
    #expect(advice.verdict == .fixableByAllowedClasses)
    #expect(advice.requiredAdditions == ["ProfileKit.UserProfile"])
    #expect(advice.recommendedAdditions == ["ProfileKit.UserProfile", "ProfileKit.Address"])
  }

  @Test("A class without secure coding cannot be fixed by allowedClasses")
  func notFixable() {
    var archive = TestArchive()
    let note = archive.object(
      ["ArchiveCoderTests.PlainNote", "NSObject"], [("text", archive.string("t"))])
    let advice = decoder.differentialAdvice(
      archive.bytes(root: note), allowedClasses: ["ArchiveCoderTests.PlainNote"])
    #expect(advice.verdict == .notFixableByAllowedClasses)
    #expect(advice.message.contains("[not-secure-coding]"))
  }

  @Test("Both paths decode a well-declared read")
  func bothDecode() {
    let advice = decoder.differentialAdvice(
      SampleArchives.profileArchive(),
      allowedClasses: ["ProfileKit.UserProfile", "ProfileKit.Address"])
    #expect(advice.verdict == .bothDecode)
  }

  @Test("Both paths reject a memo of an unknown schema")
  func bothReject() {
    let advice = decoder.differentialAdvice(
      SampleArchives.memoArchive(schema: 2), allowedClasses: ["ProfileKit.Memo"])
    #expect(advice.verdict == .bothReject)
  }
}

@Suite("Differential advice for mutable containers")
struct DifferentialAdviceMutableTests {
  @Test("A mutable array is advised as NSArray, which admits it")
  func mutableArrayAdvisedAsArray() throws {
    let decoder = HarnessDecoder(
      registry: ClassRegistry(modelClasses: ProfileModel.classes),
      classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
    var archive = TestArchive()
    let profile = SampleArchives.profile(&archive)
    let list = archive.array([profile], className: "NSMutableArray")
    let advice = decoder.differentialAdvice(
      archive.bytes(root: list), allowedClasses: ["ProfileKit.UserProfile", "ProfileKit.Address"])
    #expect(advice.requiredAdditions == ["NSArray"])
    #expect(
      advice.message
        == "legacy decodes, secure rejects: add NSArray to allowedClasses; allowedClasses: "
        + "[ProfileKit.UserProfile, ProfileKit.Address, NSArray]")
  }
}
