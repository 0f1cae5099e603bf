import ArchiveFormat
import ArchiveHarness
import ArchiveManifest
import Foundation
import HarnessTestSupport
import Testing

/// One real archive of `Tests/Fixtures/RealArchives`, named by its path there.
struct CorpusFile: Sendable, Codable, CustomTestStringConvertible {
  /// The path relative to the corpus folder.
  var path: String
  var testDescription: String { path }

  /// Every archive outside a `broken/` folder.
  static let all: [CorpusFile] = {
    guard
      let paths = try? FileManager.default.subpathsOfDirectory(
        atPath: ManifestTestSupport.corpusPath)
    else { return [] }
    return paths.sorted().filter { path in
      var isDirectory: ObjCBool = false
      let full = "\(ManifestTestSupport.corpusPath)/\(path)"
      return FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
        && !isDirectory.boolValue && !path.split(separator: "/").contains("broken")
        && Corpus.isArchive(path)
    }.map(CorpusFile.init)
  }()
}

@Suite("Manifest authoring over the real archives")
struct ManifestCorpusTests {
  @Test(
    "Authoring a corpus archive gives a manifest that validates and whose expectations pass",
    arguments: CorpusFile.all)
  func authoredManifestValidates(file: CorpusFile) throws {
    let corpus = ManifestTestSupport.corpusPath
    let (inputs, problems) = ManifestAuthor.inputs(paths: [file.path], archivesDirectory: corpus)
    #expect(problems.isEmpty)
    let authored = ManifestAuthor().author(inputs)
    #expect(authored.diagnostics.isEmpty, "\(authored.diagnostics)")
    try #require(authored.addedArchives == [file.path])

    let loaded = ManifestLoader.load(
      bytes: Array(authored.text.utf8), file: "\(file.path).manifest.xml", baseDirectory: corpus,
      archivesDirectory: corpus)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.prefix(5))")
    let manifest = try #require(loaded.manifest)
    let entry = try #require(manifest.archives.first)
    let findings = ExpectationEngine(manifest: manifest).evaluate(entry, archivesDirectory: corpus)
    let failed = findings.filter { !$0.passed }
    #expect(failed.isEmpty, "\(failed.prefix(5))")
  }

  @Test(
    "Authoring the whole corpus at once gives one manifest that validates")
  func wholeCorpusValidates() throws {
    let corpus = ManifestTestSupport.corpusPath
    let (inputs, problems) = ManifestAuthor.inputs(
      paths: CorpusFile.all.map(\.path), archivesDirectory: corpus)
    #expect(problems.isEmpty)
    let authored = ManifestAuthor().author(inputs)
    let loaded = ManifestLoader.load(
      bytes: Array(authored.text.utf8), file: "corpus.manifest.xml", baseDirectory: corpus,
      archivesDirectory: corpus)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.prefix(5))")
    #expect(loaded.manifest?.archives.count == authored.addedArchives.count)
  }
}
