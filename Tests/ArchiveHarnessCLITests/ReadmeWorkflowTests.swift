import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// The sharded GitHub Actions workflow of the `ShardedCI` article, read by PyYAML
/// (``WorkflowYAML``).
@Suite("The sharded CI article's workflow")
struct ReadmeWorkflowTests {
  /// The article that holds the workflow, relative to the package root.
  static let article = "Sources/ArchiveHarness/ArchiveHarness.docc/ShardedCI.md"

  /// The YAML between the article's `<!-- shard-workflow -->` markers, without its fence.
  static func workflow() throws -> String {
    let text = try String(
      contentsOf: Corpus.packageRoot.appendingPathComponent(article), encoding: .utf8)
    let start = try #require(text.range(of: "<!-- shard-workflow -->\n```yaml\n"))
    let end = try #require(text.range(of: "```\n<!-- /shard-workflow -->"))
    return String(text[start.upperBound..<end.lowerBound])
  }

  /// A job's `run` commands, joined by spaces.
  static func runs(_ job: JSONDocument?) -> String {
    (job?["steps"]?.elements ?? []).compactMap { $0["run"]?.text }.joined(separator: " ")
  }

  @Test(
    "The workflow is YAML with N shard jobs and a merge job that publishes merged HTML and JUnit")
  func workflowParses() throws {
    let jobs = try #require(WorkflowYAML.parse(try Self.workflow())["jobs"])
    let shards = try #require(jobs["shard"]?["strategy"]?["matrix"]?["shard"]?.elements)
    #expect(!shards.isEmpty && shards == shards.indices.map { .number(Double($0 + 1)) })
    let shard = Self.runs(jobs["shard"])
    #expect(shard.contains("--shard ${{ matrix.shard }}/\(shards.count)"), "\(shard)")
    #expect(jobs["merge"]?["needs"] == .string("shard"))
    let merge = Self.runs(jobs["merge"])
    #expect(merge.contains("report merge shard-*.json"), "\(merge)")
    #expect(merge.contains("for format in html junit json"), "\(merge)")
    #expect(merge.contains("--format $format --output verify.$format"), "\(merge)")
    let published = try #require(jobs["merge"]?["steps"]?.elements?.last?["with"]?["path"]?.text)
      .split(whereSeparator: \.isWhitespace)
    #expect(published.contains("verify.html") && published.contains("verify.junit"), "\(published)")
  }
}
