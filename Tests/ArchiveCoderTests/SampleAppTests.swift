import Foundation
import ProfileKit
import ProfilesApp
import Testing

@Suite("Sample app model")
struct SampleAppTests {
  @Test("Version 2 runtime class names are module-qualified")
  func version2RuntimeClassNames() {
    #expect(NSStringFromClass(ProfileKit.UserProfile.self) == "ProfileKit.UserProfile")
    #expect(NSStringFromClass(ProfileKit.Address.self) == "ProfileKit.Address")
    #expect(NSStringFromClass(ProfileKit.Memo.self) == "ProfileKit.Memo")
  }

  @Test("Version 1 runtime class names are module-qualified")
  func version1RuntimeClassNames() {
    #expect(NSStringFromClass(ProfilesApp.UserProfile.self) == "ProfilesApp.UserProfile")
    #expect(NSStringFromClass(ProfilesApp.Address.self) == "ProfilesApp.Address")
  }

  @Test("Version 2 classes support secure coding")
  func version2SupportsSecureCoding() {
    #expect(ProfileKit.UserProfile.supportsSecureCoding)
    #expect(ProfileKit.Address.supportsSecureCoding)
    #expect(ProfileKit.Memo.supportsSecureCoding)
  }

  @Test("Version 2 profiles compare by value")
  func version2ComparesByValue() {
    let first = ProfileKit.UserProfile(
      id: 7, name: "Ada", isActive: true, address: .init(street: "1 Way", city: "Town"))
    let second = ProfileKit.UserProfile(
      id: 7, name: "Ada", isActive: true, address: .init(street: "1 Way", city: "Town"))
    #expect(first.isEqual(second))
    #expect(first.hash == second.hash)
  }
}
