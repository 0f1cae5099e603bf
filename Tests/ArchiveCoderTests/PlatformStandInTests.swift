import ArchiveCoder
import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// Whether this process registers the platform stand-ins, for the suite's condition.
enum PlatformStandIns {
  /// Whether every platform class registers as its stand-in: always on Linux; on Darwin only
  /// while the process has none of the real AppKit, UIKit or Core Location classes loaded.
  static let areRegistered = PlatformClass.allCases.allSatisfy {
    $0.registeredType == $0.standInType
  }
}

/// Stand-ins for Apple-platform classes: registered under the real class's name, read from the
/// real archived form, counted as the real class by secure coding, and marked in descriptions.
@Suite(
  "Apple-platform stand-ins",
  .enabled(
    if: PlatformStandIns.areRegistered,
    "the real AppKit, UIKit or Core Location class replaces its stand-in in this process"))
struct PlatformStandInTests {
  static let registry = ClassRegistry(platformClasses: PlatformClass.allCases)
  static let decoder = HarnessDecoder(registry: registry)

  @Test("Each stand-in is registered under its platform class's name with NSObject as superclass")
  func standInsAreRegisteredAsThePlatformClass() throws {
    for platformClass in PlatformClass.allCases {
      let registered = try #require(Self.registry.registeredClass(named: platformClass.className))
      #expect(registered.isStandIn)
      #expect(registered.superclassNames == ["NSObject"])
      #expect(registered.supportsSecureCoding)
    }
    #expect(ClassRegistry.foundation.registeredClass(named: "UIColor") == nil)
  }

  @Test("The UIColor of a compiled iOS nib reads as its components")
  func uiColorFromRealNib() throws {
    let nib = try KeyedArchive(
      bytes: Corpus.bytes("michaelwright235-nskeyedunarchiver/MainWindow.nib"))
    var colorFields: [(String, PropertyListValue)] = []
    for index in nib.objects.indices {
      guard case .instance(let instance)? = nib.object(at: index), instance.className == "UIColor"
      else { continue }
      colorFields = instance.fields.entries.filter { $0.key != "$class" }.map { ($0.key, $0.value) }
    }
    #expect(!colorFields.isEmpty)
    var archive = TestArchive()
    let root = archive.object(["UIColor", "NSObject"], colorFields)
    let bytes = archive.bytes(root: root)
    for secure in [false, true] {
      let result = Self.decoder.decode(bytes, secure: secure, allowedClasses: ["UIColor"])
      let color = try #require(result.object as? UIColorStandIn, "\(result.outcome)")
      #expect(color.componentCount == 4)
      #expect([color.red, color.green, color.blue] == [1, 1, 1])
      #expect(color.alpha == 1)
      let value = try #require(result.outcome.decodedValue)
      #expect(value.className == "UIColor")
      #expect(value[field: "red"] == .double(1))
      #expect(value[field: ObjectDescriber.standInMarker] == .bool(true))
    }
  }

  @Test("An NSColor attribute in a macOS attributed string reads as an NSColor stand-in")
  func nsColorFromRealAttributedString() throws {
    let bytes = try Corpus.bytes(
      "michaelwright235-nskeyedunarchiver/NSMutableAttributedString.plist")
    let result = Self.decoder.decode(
      bytes, secure: true, allowedClasses: ["NSMutableAttributedString", "NSColor"])
    let string = try #require(result.object as? NSAttributedString, "\(result.outcome)")
    let color = try #require(
      string.attributes(at: 0, effectiveRange: nil)[NSAttributedString.Key("NSColor")]
        as? NSColorStandIn)
    #expect(color.colorSpace == 1)
    #expect(color.components.first == 0.9859541655)
    #expect(color.customColorSpace?.identifier == 7)
  }

  @Test("Secure coding refuses a stand-in its read does not allow, as it would the real class")
  func standInNeedsItsClassAllowed() throws {
    var archive = TestArchive()
    let color = archive.object(
      ["UIColor", "NSObject"],
      [("UIColorComponentCount", .integer(2)), ("UIWhite", .real(0.5)), ("UIAlpha", .real(1))])
    let root = archive.array([color])
    let bytes = archive.bytes(root: root)
    let refused = Self.decoder.decode(bytes, secure: true, allowedClasses: ["NSArray"])
    #expect(refused.outcome.rejection?.category == .classNotAllowed)
    #expect(refused.outcome.rejection?.keyPath == "root[0]")
    let allowed = Self.decoder.decode(bytes, secure: true, allowedClasses: ["NSArray", "UIColor"])
    #expect(allowed.outcome.decodedValue != nil)
  }

  @Test("A CLLocation reads its coordinate, measurements and timestamp")
  func locationFields() throws {
    var archive = TestArchive()
    let prefix = "kCLLocationCodingKey"
    let root = archive.object(
      ["CLLocation", "NSObject"],
      [
        (prefix + "CoordinateLatitude", .real(51.5)),
        (prefix + "CoordinateLongitude", .real(-0.12)),
        (prefix + "Altitude", .real(11)), (prefix + "Timestamp", .real(700_000_000)),
      ])
    let result = Self.decoder.decode(
      archive.bytes(root: root), secure: true, allowedClasses: ["CLLocation"])
    let value = try #require(result.outcome.decodedValue, "\(result.outcome)")
    #expect(value[field: "latitude"] == .double(51.5))
    #expect(value[field: "altitude"] == .double(11))
    #expect(value[field: "timestamp"] == .date(700_000_000))
  }

  @Test("A font, an image and a named color read their archived fields")
  func fontImageAndNamedColorFields() throws {
    var archive = TestArchive()
    let font = archive.object(
      ["UIFont", "NSObject"],
      [("UIFontName", archive.string("Helvetica")), ("UIFontPointSize", .real(17))])
    let image = archive.object(
      ["UIImage", "NSObject"],
      [("UIImageData", .data([0x89, 0x50, 0x4E, 0x47, 0, 0])), ("UIScale", .real(2))])
    let named = archive.object(
      ["NSColor", "NSObject"],
      [
        ("NSColorSpace", .integer(6)), ("NSCatalogName", archive.string("System")),
        ("NSColorName", archive.string("controlColor")),
      ])
    let root = archive.array([font, image, named])
    let result = Self.decoder.decode(
      archive.bytes(root: root), secure: true,
      allowedClasses: ["NSArray", "UIFont", "UIImage", "NSColor"])
    guard case .array(_, let elements)? = result.outcome.decodedValue else {
      Issue.record("not decoded: \(result.outcome)")
      return
    }
    #expect(elements[0][field: "pointSize"] == .double(17))
    #expect(elements[1][field: "format"] == .string("png"))
    #expect(elements[2][field: "colorName"] == .string("controlColor"))
  }
}
