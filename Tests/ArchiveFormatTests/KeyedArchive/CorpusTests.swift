import ArchiveFormat
import HarnessTestSupport
import Testing

@Suite("Real archives from Tests/Fixtures/RealArchives")
struct CorpusTests {
  @Test(
    "Reads as a keyed archive, and read → write → read gives an equal value",
    arguments: Corpus.validFiles)
  func readsAndRoundTrips(file: String) throws {
    let bytes = try Corpus.bytes(file)
    let value = try PropertyListReader().read(bytes)
    let archive = try KeyedArchive(propertyList: value)
    #expect(!archive.objects.isEmpty)
    #expect(!archive.top.entries.isEmpty)

    let rewritten = BinaryPropertyListWriter().write(value)
    #expect(try PropertyListReader().read(rewritten) == value)

    // The graph writes back to an equal archive too.
    let fromGraph = BinaryPropertyListWriter().write(archive.propertyList)
    #expect(try KeyedArchive(bytes: fromGraph) == archive)

    // Printing visits every object at most once, so it always finishes.
    let tree = ArchiveTreePrinter().render(archive)
    #expect(tree.hasPrefix("NSKeyedArchiver 100000"))
  }

  /// Each broken corpus file with the error it must give, or `nil` for the three that are valid archives.
  static let brokenExpectations: [String: KeyedArchiveError.Code?] = [
    "bpylist2/broken/invalid_type_archive.plist": .wrongArchiver,
    "bpylist2/broken/invalid_uid_archive.plist": .uidOutOfRange,
    "bpylist2/broken/invalid_version_archive.plist": .unknownVersion,
    "bpylist2/broken/missing_uid_archive.plist": .invalidObject,
    "bpylist2/broken/no_class_meta_archive.plist": .invalidClassReference,
    "bpylist2/broken/no_class_name_archive.plist": .missingClassName,
    "bpylist2/broken/no_objects_archive.plist": .missingObjects,
    "bpylist2/broken/no_root_archive.plist": nil,
    "bpylist2/broken/no_top_archive.plist": .missingTop,
    "danielpaulus-nskeyedarchiver/broken/broken_plist.xml": .propertyList,
    "danielpaulus-nskeyedarchiver/broken/missing_archiver.xml": .missingArchiver,
    "danielpaulus-nskeyedarchiver/broken/missing_objects.xml": .missingObjects,
    "danielpaulus-nskeyedarchiver/broken/missing_top.xml": .missingTop,
    "danielpaulus-nskeyedarchiver/broken/missing_version.xml": .missingVersion,
    "danielpaulus-nskeyedarchiver/broken/wrong_archiver.xml": .wrongArchiver,
    "danielpaulus-nskeyedarchiver/broken/wrong_version.xml": .unknownVersion,
    "kiler129-NSKeyedUnarchiver/broken/invalidContainer.bin.plist": .invalidType,
    "kiler129-NSKeyedUnarchiver/broken/invalidContainer.xml.plist": .invalidType,
    "kiler129-NSKeyedUnarchiver/broken/invalidObjectDeclarationContainer.bin.plist":
      .invalidClassReference,
    "kiler129-NSKeyedUnarchiver/broken/invalidObjectDeclarationContainer.xml.plist":
      .invalidClassReference,
    "kiler129-NSKeyedUnarchiver/broken/invalidReference.bin.plist": .uidOutOfRange,
    "kiler129-NSKeyedUnarchiver/broken/invalidReference.xml.plist": .uidOutOfRange,
    "kiler129-NSKeyedUnarchiver/broken/missingRoot.bin.plist": nil,
    "kiler129-NSKeyedUnarchiver/broken/missingRoot.xml.plist": nil,
    "kiler129-NSKeyedUnarchiver/broken/objectWithNoClassName.bin.plist": .missingClassName,
    "kiler129-NSKeyedUnarchiver/broken/objectWithNoClassName.xml.plist": .missingClassName,
    "kiler129-NSKeyedUnarchiver/broken/objectWithNonArrayClassChain.bin.plist": .invalidClassChain,
    "kiler129-NSKeyedUnarchiver/broken/objectWithNonArrayClassChain.xml.plist": .invalidClassChain,
    "kiler129-NSKeyedUnarchiver/broken/objectWithNonStringClassName.bin.plist": .invalidClassName,
    "kiler129-NSKeyedUnarchiver/broken/objectWithNonStringClassName.xml.plist": .invalidClassName,
  ]

  @Test(
    "A broken archive is rejected with its specific error",
    arguments: Corpus.brokenFiles)
  func brokenArchiveIsRejected(file: String) throws {
    let expected = try #require(
      Self.brokenExpectations[file], "no expectation recorded for \(file)")
    let bytes = try Corpus.bytes(file)
    if let code = expected {
      #expect {
        _ = try KeyedArchive(bytes: bytes)
      } throws: { error in
        (error as? KeyedArchiveError)?.code == code
      }
    } else {
      // Valid archives whose $top names keys other than root.
      let archive = try KeyedArchive(bytes: bytes)
      #expect(archive.root == nil)
      #expect(!archive.top.entries.isEmpty)
    }
  }

  @Test(
    "Every broken corpus file has a recorded expectation", )
  func everyBrokenFileIsCovered() {
    #expect(Set(Corpus.brokenFiles) == Set(Self.brokenExpectations.keys))
  }
}
