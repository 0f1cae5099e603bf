import ArchiveCoder
import ArchiveFormat
import HarnessTestSupport
import ProfileKit
import Testing

/// Object substitution: archives that put another class where the app's read expects one.
@Suite("Object substitution")
struct ObjectSubstitutionTests {
  /// The shipped harness's decoder: the v2 model, with v1's module renamed to v2's.
  let decoder: HarnessDecoder

  static let profileRead = ["ProfileKit.UserProfile", "ProfileKit.Address"]
  static let listRead = ["NSArray", "ProfileKit.UserProfile", "ProfileKit.Address"]

  init() throws {
    decoder = HarnessDecoder(
      registry: ClassRegistry(modelClasses: ProfileModel.classes),
      classMap: try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*"))
  }

  /// A v2 profile whose name and address fields are whatever the test gives.
  static func profile(
    _ builder: inout ArchiveBuilder, name: PropertyListValue? = nil,
    address: PropertyListValue? = nil
  ) -> PropertyListValue {
    let nameValue = name ?? builder.string("Ada")
    let addressValue =
      address
      ?? builder.object(
        "ProfileKit.Address",
        [("street", builder.string("1 Way")), ("city", builder.string("Town"))]
      )
    return builder.object(
      "ProfileKit.UserProfile",
      [
        ("id", .integer(1)), ("name", nameValue), ("isActive", .bool(true)),
        ("address", addressValue),
      ]
    )
  }

  /// Decodes securely and returns the rejection, recording an issue when the archive decodes.
  private func rejection(
    _ builder: ArchiveBuilder, root: PropertyListValue, allowed: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> (DecodeRejection?, [String]) {
    var builder = builder
    builder.setRoot(root)
    let result = decoder.decode(builder.bytes(), secure: true, allowedClasses: allowed)
    if result.outcome.rejection == nil {
      Issue.record("expected a rejection, got \(result.outcome)", sourceLocation: sourceLocation)
    }
    return (result.outcome.rejection, result.instantiatedClassNames)
  }

  /// Foundation objects an attacker can put in place of another.
  static func substitutes(_ builder: inout ArchiveBuilder) -> [(String, PropertyListValue)] {
    [
      (
        "NSDictionary",
        builder.dictionary(keys: [builder.string("street")], values: [builder.string("x")])
      ),
      ("NSData", builder.object("NSData", [("NS.data", .data([1, 2, 3]))])),
      ("NSArray", builder.array([builder.string("x")])),
      ("NSDate", builder.object("NSDate", [("NS.time", .real(0))])),
      ("NSUUID", builder.object("NSUUID", [("NS.uuidbytes", .data(Array(0..<16)))])),
      ("inline data", .data([0x41])), ("inline integer", .integer(7)),
    ]
  }

  @Test("An NSDictionary, NSData or other object where an Address is expected is refused")
  func substituteForAddress() throws {
    var builder = ArchiveBuilder()
    for (name, substitute) in Self.substitutes(&builder) {
      var copy = builder
      let root = Self.profile(&copy, address: substitute)
      let (rejection, instantiated) = self.rejection(copy, root: root, allowed: Self.profileRead)
      #expect(
        rejection?.category == .classNotAllowed || rejection?.category == .typeMismatch, "\(name)")
      // Objects are refused at the field; inline values fail the profile's init at its root.
      #expect(["root.address", "root"].contains(rejection?.keyPath), "\(name)")
      #expect(!instantiated.contains("ProfileKit.Address"), "\(name)")
    }
  }

  @Test("An NSDictionary, NSData or other object where an NSString is expected is refused")
  func substituteForString() throws {
    var builder = ArchiveBuilder()
    for (name, substitute) in Self.substitutes(&builder) {
      var copy = builder
      let root = Self.profile(&copy, name: substitute)
      let (rejection, _) = self.rejection(copy, root: root, allowed: Self.profileRead)
      #expect(
        rejection?.category == .classNotAllowed || rejection?.category == .typeMismatch, "\(name)")
      #expect(["root.name", "root"].contains(rejection?.keyPath), "\(name)")
    }
  }

  @Test("A $classes chain that claims an allowed superclass does not admit a disallowed class")
  func spoofedClassChain() throws {
    // Classes the harness knows (a registered model class, Foundation classes), each
    // claiming to be an Address: the real class decides, not the archived chain.
    for className in ["ProfileKit.Memo", "ProfilesApp.Memo", "NSDictionary", "NSData"] {
      var builder = ArchiveBuilder()
      let spoof = builder.object(
        className, chain: [className, "ProfileKit.Address", "NSObject"],
        [
          ("schema", .integer(1)), ("text", builder.string("t")), ("street", builder.string("s")),
          ("city", builder.string("c")),
        ])
      let root = Self.profile(&builder, address: spoof)
      let (rejection, instantiated) = self.rejection(builder, root: root, allowed: Self.profileRead)
      #expect(rejection?.category == .classNotAllowed, "\(className)")
      #expect(rejection?.keyPath == "root.address", "\(className)")
      #expect(!instantiated.contains("ProfileKit.Memo"), "\(className)")
      // The same spoof as the root is refused by the root check.
      var rootBuilder = ArchiveBuilder()
      let rootSpoof = rootBuilder.object(
        className, chain: [className, "ProfileKit.UserProfile", "NSObject"],
        [("schema", .integer(1)), ("text", rootBuilder.string("t"))])
      let (rootRejection, rootInstantiated) = self.rejection(
        rootBuilder, root: rootSpoof, allowed: Self.profileRead)
      #expect(rootRejection?.category == .wrongRootClass, "\(className)")
      #expect(!rootInstantiated.contains("ProfileKit.Memo"), "\(className)")
    }
  }

  @Test("A class unknown to the harness is only ever built as the allowed class its chain names")
  func unknownClassWithAllowedChain() throws {
    var builder = ArchiveBuilder()
    let spoof = builder.object(
      "Evil.Payload", chain: ["Evil.Payload", "ProfileKit.Address", "NSObject"],
      [("street", builder.string("s")), ("city", builder.string("c"))])
    let root = Self.profile(&builder, address: spoof)
    builder.setRoot(root)
    let result = decoder.decode(builder.bytes(), secure: true, allowedClasses: Self.profileRead)
    // Decoded as a real Address (what Apple's unarchiver does too), with a warning.
    #expect(Set(result.instantiatedClassNames).isSubset(of: Set(Self.profileRead)))
    #expect(result.warnings.contains { $0.contains("Evil.Payload") })
  }

  @Test("A container element of a disallowed class under an allowed container is refused")
  func disallowedContainerElement() throws {
    var builder = ArchiveBuilder()
    let profile = Self.profile(&builder)
    let memo = builder.object(
      "ProfileKit.Memo", [("schema", .integer(1)), ("text", builder.string("t"))])
    for (name, element) in [("a Memo", memo)]
      + Self.substitutes(&builder).filter({ $0.0 != "NSArray" && !$0.0.hasPrefix("inline") })
    {
      var copy = builder
      let list = copy.array([profile, element])
      let (rejection, instantiated) = self.rejection(copy, root: list, allowed: Self.listRead)
      #expect(rejection?.category == .classNotAllowed, "\(name)")
      #expect(rejection?.keyPath == "root[1]", "\(name)")
      #expect(!instantiated.contains("ProfileKit.Memo"), "\(name)")
    }
  }

  @Test("A class name that maps to a registered class outside the read's set is refused")
  func mappedNameOutsideTheRead() throws {
    // ProfilesApp.Memo maps to ProfileKit.Memo, registered but not in a profile read.
    var builder = ArchiveBuilder()
    let memo = builder.object(
      "ProfilesApp.Memo", [("schema", .integer(1)), ("text", builder.string("t"))])
    let root = Self.profile(&builder, address: memo)
    let (rejection, instantiated) = self.rejection(builder, root: root, allowed: Self.profileRead)
    #expect(rejection?.category == .classNotAllowed)
    #expect(rejection?.keyPath == "root.address")
    #expect(!instantiated.contains("ProfileKit.Memo"))
    // As the root of a profile read, too.
    var rootBuilder = ArchiveBuilder()
    let rootMemo = rootBuilder.object(
      "ProfilesApp.Memo", [("schema", .integer(1)), ("text", rootBuilder.string("t"))])
    let (rootRejection, rootInstantiated) = self.rejection(
      rootBuilder, root: rootMemo, allowed: Self.profileRead)
    #expect(rootRejection?.category == .wrongRootClass)
    #expect(!rootInstantiated.contains("ProfileKit.Memo"))
  }
}
