import Foundation
import HarnessTestSupport
import Testing

@testable import ArchiveHarnessCLI

@Suite("verify finds the manifests from a subfolder")
struct ManifestFolderTests {
  /// A fresh temporary folder, its symbolic links resolved as the current folder's would be.
  private func temporaryTree(_ folders: [String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("locator-\(UUID().uuidString)").resolvingSymlinksInPath()
    for folder in folders {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    return root
  }

  @Test("manifests/ in the current folder is found with LegacyArchives beside it")
  func inCurrentFolder() throws {
    let root = try temporaryTree(["manifests"])
    defer { try? FileManager.default.removeItem(at: root) }
    let found = try ManifestFolder.locateForCommand(from: root)
    #expect(found.manifests == "manifests")
    #expect(found.archives == "LegacyArchives")
  }

  @Test("From a nested subfolder the nearest manifests/ above is found, by a relative path")
  func fromSubfolder() throws {
    let root = try temporaryTree(["manifests", "LegacyArchives/App-1.0/deeper"])
    defer { try? FileManager.default.removeItem(at: root) }
    let start = root.appendingPathComponent("LegacyArchives/App-1.0/deeper")
    let found = try ManifestFolder.locateForCommand(from: start)
    #expect(found.manifests == "../../../manifests")
    #expect(found.archives == "../../../LegacyArchives")
    #expect(
      start.appendingPathComponent(found.manifests).standardizedFileURL.path
        == root.appendingPathComponent("manifests").path)
  }

  @Test("The nearest manifests/ wins over one further up")
  func nearestWins() throws {
    let root = try temporaryTree(["manifests", "inner/manifests", "inner/sub"])
    defer { try? FileManager.default.removeItem(at: root) }
    let found = try ManifestFolder.locateForCommand(from: root.appendingPathComponent("inner/sub"))
    #expect(found.manifests == "../manifests")
  }

  @Test("A file named manifests is not a manifests folder")
  func fileIsNotAFolder() throws {
    let root = try temporaryTree(["manifests", "inner"])
    defer { try? FileManager.default.removeItem(at: root) }
    try Data().write(to: root.appendingPathComponent("inner/manifests"))
    let found = try ManifestFolder.locateForCommand(from: root.appendingPathComponent("inner"))
    #expect(found.manifests == "../manifests")
  }

  @Test("Without manifests/ anywhere above, the error names every folder it looked in")
  func notFound() throws {
    let root = try temporaryTree(["a/b"])
    defer { try? FileManager.default.removeItem(at: root) }
    let start = root.appendingPathComponent("a/b")
    let error = #expect(throws: CommandFailure.self) {
      try ManifestFolder.locateForCommand(from: start)
    }
    let message = try #require(error?.message)
    let tried = "\(start.path), \(root.appendingPathComponent("a").path), \(root.path), "
    #expect(message.contains("looked in " + tried))
    #expect(message.hasSuffix(", / (give --manifests DIR)"))
  }

  @Test("A given manifests folder takes LegacyArchives beside it")
  func givenManifests() {
    #expect(ManifestFolder.Location(manifests: "manifests").archives == "LegacyArchives")
    #expect(
      ManifestFolder.Location(manifests: "/repo/manifests").archives
        == "/repo/LegacyArchives")
  }

  @Test("verify run from a subfolder of the repository finds manifests/ and passes")
  func verifyFromSubfolder() throws {
    let subfolder = Corpus.packageRoot.appendingPathComponent("LegacyArchives/ProfilesApp-1.0")
    let result = try CommandRunner.run(["verify"], in: subfolder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("24 archive entries: 24 passed, 0 failed, 0 unexpected-pass"))
  }

  @Test("verify where no folder above has manifests/ exits 2 and says where it looked")
  func verifyWithoutManifests() throws {
    let root = try temporaryTree(["a/b"])
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try CommandRunner.run(["verify"], in: root.appendingPathComponent("a/b"))
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.hasPrefix("manifests: error: [unreadable] no manifests folder here or above"))
    #expect(result.stderr.contains(root.appendingPathComponent("a/b").path))
  }
}
