import Foundation
import KeyedArchive
import Manifest
import PropertyList
import Testing

@Suite("Anonymizer")
struct AnonymizerTests {
  /// Every non-empty string leaf of an archive (string objects and `NSString` forms), without dictionary keys.
  static func stringLeaves(of archive: KeyedArchive) -> Set<String> {
    var keys: Set<String> = []
    var leaves: Set<String> = []
    for (index, object) in archive.objects.enumerated() {
      switch object {
      case .value(.string(let string)):
        leaves.insert(string)
      case .instance(let instance):
        if case .dictionary(let dictionaryKeys, _)? = archive.foundationForm(of: instance) {
          keys.formUnion(dictionaryKeys.compactMap { archive.stringValue(of: $0) })
        }
        if case .string(let string) = archive.leaf(of: .object(index)) { leaves.insert(string) }
        for field in instance.fields.entries {
          if case .string(let string) = field.value { leaves.insert(string) }
        }
      default:
        break
      }
    }
    return leaves.subtracting(keys).filter { !$0.isEmpty }
  }

  /// The shape of an archive: per object, its kind, class name and field keys.
  static func shape(of archive: KeyedArchive) -> [String] {
    archive.objects.map { object in
      switch object {
      case .null: return "null"
      case .value(let value): return "value \(value.typeName)"
      case .classDescription(let description):
        return "class \(description.name) \(description.chain)"
      case .instance(let instance):
        let fields = instance.fields.entries.map { entry in
          if case .uid(let uid) = entry.value { return "\(entry.key)→\(uid)" }
          return "\(entry.key):\(entry.value.typeName)"
        }
        return "instance \(instance.className) \(fields)"
      }
    }
  }

  @Test("Strings and data are replaced; structure, classes and numbers stay")
  func scrubsLeavesKeepsStructure() throws {
    let original = SampleArchive.archive()
    let output = try Anonymizer().anonymize(SampleArchive.bytes())
    let anonymized = try KeyedArchive(bytes: output.bytes)
    #expect(Self.shape(of: anonymized) == Self.shape(of: original))
    #expect(Self.stringLeaves(of: anonymized).isDisjoint(with: Self.stringLeaves(of: original)))
    let name = try anonymized.evaluate(ArchiveKeyPath("name"))
    #expect(name.map { anonymized.leaf(of: $0.node) } == [.string("xxxxx")])
    let age = try anonymized.evaluate(ArchiveKeyPath("age"))
    #expect(age.map { anonymized.leaf(of: $0.node) } == [.integer(42)])
    let photo = try anonymized.evaluate(ArchiveKeyPath("photo"))
    #expect(photo.map { anonymized.leaf(of: $0.node) } == [.data([0, 0, 0])])
    let created = try anonymized.evaluate(ArchiveKeyPath("created"))
    #expect(created.map { anonymized.leaf(of: $0.node) } == [.date(631_152_000.5)])
    let paths = Set(output.report.scrubbed.map(\.keyPath))
    #expect(paths == ["name", "tags[0]", "tags[1]", "address.city", "photo"])
    #expect(output.report.kept.isEmpty)
  }

  @Test("Values under a kept key path stay as they are")
  func keepsNamedKeyPaths() throws {
    let output = try Anonymizer(keep: [ArchiveKeyPath("address"), ArchiveKeyPath("tags[1]")])
      .anonymize(SampleArchive.bytes())
    let anonymized = try KeyedArchive(bytes: output.bytes)
    let leaves = Self.stringLeaves(of: anonymized)
    #expect(leaves.contains("Berlin"))
    #expect(leaves.contains("archives"))
    #expect(!leaves.contains("Alice"))
    #expect(!leaves.contains("swift"))
    #expect(Set(output.report.kept) == ["address.city", "tags[1]"])
  }

  @Test("A string keeps its UTF-16 length")
  func placeholdersKeepUTF16Length() throws {
    let output = try Anonymizer().anonymize(SampleArchive.bytes(city: "Zürich 🇨🇭"))
    let anonymized = try KeyedArchive(bytes: output.bytes)
    let city = try anonymized.evaluate(ArchiveKeyPath("address.city"))
    guard case .string(let value)? = city.first.map({ anonymized.leaf(of: $0.node) }) else {
      Issue.record("address.city is not a string")
      return
    }
    #expect(value.utf16.count == "Zürich 🇨🇭".utf16.count)
  }

  @Test("Input that is not a keyed archive is an error")
  func rejectsNonArchive() {
    #expect(throws: KeyedArchiveError.self) { try Anonymizer().anonymize([0, 1, 2]) }
  }

  @Test(
    "Anonymized corpus archives read back with the same shape and no original strings",
    arguments: CorpusFile.all)
  func anonymizesCorpusArchive(file: CorpusFile) throws {
    let path = "\(ManifestTestSupport.corpusPath)/\(file.path)"
    let bytes = try #require(FileManager.default.contents(atPath: path).map(Array.init))
    let original = try KeyedArchive(bytes: bytes)
    let output = try Anonymizer().anonymize(bytes)
    let anonymized = try KeyedArchive(bytes: output.bytes)
    #expect(Self.shape(of: anonymized) == Self.shape(of: original))
    #expect(anonymized.top.keys == original.top.keys)
    let leftovers = Self.stringLeaves(of: anonymized).intersection(Self.stringLeaves(of: original))
    #expect(leftovers.isEmpty, "\(leftovers.prefix(5))")
  }
}
