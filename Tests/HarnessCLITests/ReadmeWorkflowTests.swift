import Foundation
import HarnessTestSupport
import Testing

/// The sharded GitHub Actions workflow of the `ShardedCI` article, parsed by Python's yaml module.
@Suite("The sharded CI article's workflow")
struct ReadmeWorkflowTests {
  /// Runs python3 with a program and its arguments; `nil` when python3 cannot be started.
  static func python(_ program: String, _ arguments: [String] = []) -> (
    status: Int32?, output: String
  )? {
    guard
      let result = try? CommandRunner.run(
        program: "/usr/bin/env", ["python3", "-c", program] + arguments)
    else { return nil }
    return (result.status, result.stdout + result.stderr)
  }

  /// Whether python3 and its yaml module are here.
  static let hasYAML = python("import yaml")?.status == 0

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

  @Test(
    "The workflow is YAML with N shard jobs and a merge job that publishes merged HTML and JUnit",
    .enabled(if: hasYAML, "python3 with the yaml module is not installed"))
  func workflowParses() throws {
    let program = """
      import sys, yaml
      workflow = yaml.safe_load(sys.argv[1])
      jobs = workflow["jobs"]
      shards = jobs["shard"]["strategy"]["matrix"]["shard"]
      assert shards == list(range(1, len(shards) + 1)), shards
      steps = " ".join(str(step.get("run", "")) for step in jobs["shard"]["steps"])
      assert "--shard ${{ matrix.shard }}/%d" % len(shards) in steps, steps
      assert jobs["merge"]["needs"] == "shard"
      merge = " ".join(str(step.get("run", "")) for step in jobs["merge"]["steps"])
      assert "report merge shard-*.json" in merge, merge
      assert "for format in html junit json" in merge, merge
      assert "--format $format --output verify.$format" in merge, merge
      published = jobs["merge"]["steps"][-1]["with"]["path"].split()
      assert "verify.html" in published and "verify.junit" in published, published
      print("ok")
      """
    let result = try #require(Self.python(program, [try Self.workflow()]))
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output == "ok\n")
  }
}
