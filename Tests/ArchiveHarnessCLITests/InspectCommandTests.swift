import Foundation
import HarnessTestSupport
import Testing

@Suite("archive-harness inspect, run as a user would")
struct InspectCommandTests {
  private let sample = "LegacyArchives/ProfilesApp-1.0/profile-valid.archive"

  @Test("Prints the tree of a valid archive and exits 0")
  func printsTree() throws {
    let result = try CommandRunner.run(["inspect", sample])
    #expect(result.status == 0)
    #expect(result.stdout.contains("root = ProfilesApp.UserProfile #1"))
    #expect(result.stdout.contains("address.city = \"Walldorf\""))
    #expect(result.stderr.isEmpty)
  }

  @Test("--format json prints the graph with serializationVersion")
  func printsGraphJSON() throws {
    let result = try CommandRunner.run(["inspect", "--format", "json", sample])
    #expect(result.status == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["serializationVersion"] as? Int == 1)
    #expect((json["objects"] as? [Any])?.isEmpty == false)
  }

  @Test("--raw --format json prints the property list with $uid references")
  func printsRawJSON() throws {
    let result = try CommandRunner.run(["inspect", "--raw", "--format=json", sample])
    #expect(result.status == 0)
    #expect(result.stdout.contains(#""$uid": 1"#))
  }

  @Test("A truncated archive exits 2 with one error line naming the file and offset")
  func truncatedArchive() throws {
    let path = "LegacyArchives/ProfilesApp-1.0/memo-truncated.archive"
    let result = try CommandRunner.run(["inspect", path])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("\(path):offset 12: error: [truncated]") == true)
  }

  @Test("A missing file exits 2 with an error naming it")
  func missingFile() throws {
    let result = try CommandRunner.run(["inspect", "no/such/file.archive"])
    #expect(result.status == 2)
    #expect(result.stderr == "no/such/file.archive: error: [unreadable] no such file\n")
  }

  @Test(
    "A broken corpus archive exits 2 with its key path, never a signal")
  func brokenCorpusArchive() throws {
    let path = Corpus.directory.appendingPathComponent(
      "kiler129-NSKeyedUnarchiver/broken/objectWithNonArrayClassChain.bin.plist"
    ).path
    let result = try CommandRunner.run(["inspect", path])
    #expect(result.signal == nil)
    #expect(result.status == 2)
    #expect(result.stderr.contains(":$objects[2].$classes: error: [invalid-class-chain]"))
  }

  @Test("An unknown option is a usage error that exits 2")
  func unknownOption() throws {
    let result = try CommandRunner.run(
      ["inspect", "--colour", sample], executableName: "archive-harness")
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("Error: Unknown option '--colour'\nUsage: archive-harness inspect"))
    #expect(result.stderr.contains("See 'archive-harness inspect --help' for more information."))
  }

  @Test("--help prints OVERVIEW, USAGE and the allowed values, and exits 0")
  func help() throws {
    let result = try CommandRunner.run(["inspect", "--help"], executableName: "archive-harness")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("OVERVIEW: "))
    #expect(result.stdout.contains("USAGE: archive-harness inspect"))
    #expect(result.stdout.contains("(values: text, json; default: text)"))
    #expect(result.stdout.contains("EXIT STATUS:"))
  }
}
