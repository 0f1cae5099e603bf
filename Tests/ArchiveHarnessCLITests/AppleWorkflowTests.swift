import ArchiveFormat
import Foundation
import HarnessTestSupport
import Testing

/// What `.github/workflows/apple.yml` must do: a macOS job that builds and tests the package
/// with a chosen Xcode, and a job that tests the Notes example on the iOS simulator.
enum AppleWorkflow {
  /// The runner both jobs run on.
  static let runner = "macos-15"
  /// The simulator the iOS job tests on.
  static let destination = "'platform=iOS Simulator,name=iPhone 16'"
  /// The example the iOS job tests.
  static let example = "Examples/NotesApp"

  /// The workflow file's text.
  static func text() throws -> String {
    try String(
      contentsOf: Corpus.packageRoot.appendingPathComponent(".github/workflows/apple.yml"),
      encoding: .utf8)
  }

  /// The example package's name, from `Package(name:)` in its manifest; its Xcode scheme with
  /// every target is `<name>-Package`.
  static func examplePackageName() throws -> String {
    let manifest = try String(
      contentsOf: Corpus.packageRoot.appendingPathComponent(example + "/Package.swift"),
      encoding: .utf8)
    let start = try #require(manifest.range(of: "Package(\n  name: \""))
    let rest = manifest[start.upperBound...]
    let end = try #require(rest.firstIndex(of: "\""))
    return String(rest[..<end])
  }

  /// A job's `run` commands, one string per step.
  static func commands(_ job: JSONDocument) -> [String] {
    (job["steps"]?.elements ?? []).compactMap { $0["run"]?.text }
  }

  /// Every way a workflow falls short, one line each; empty when it does what it must.
  ///
  /// - Parameters:
  ///   - text: The workflow's YAML.
  ///   - scheme: The Xcode scheme the iOS job must test.
  /// - Returns: The problems.
  static func problems(_ text: String, scheme: String) -> [String] {
    let workflow: JSONDocument
    do {
      workflow = try WorkflowYAML.parse(text)
    } catch {
      return ["not YAML: \(error)"]
    }
    var problems: [String] = []
    if workflow["name"]?.text == nil { problems.append("the workflow has no name") }
    if workflow["on"] == nil { problems.append("the workflow has no 'on' triggers") }
    // By name: the jobs' order in the file means nothing to GitHub, and JSON objects keep none.
    guard let jobs = workflow["jobs"]?.members?.sorted(by: { $0.key < $1.key }), !jobs.isEmpty
    else {
      return problems + ["the workflow has no jobs"]
    }
    for job in jobs {
      if job.value["runs-on"]?.text == nil {
        problems.append("job '\(job.key)' names no runs-on label")
      } else if job.value["runs-on"]?.text != runner {
        problems.append(
          "job '\(job.key)' runs on '\(job.value["runs-on"]?.text ?? "")', not '\(runner)'")
      }
      guard let steps = job.value["steps"]?.elements, !steps.isEmpty else {
        problems.append("job '\(job.key)' has no steps")
        continue
      }
      for (number, step) in steps.enumerated()
      where step["run"]?.text == nil && step["uses"]?.text == nil {
        problems.append("job '\(job.key)' step \(number + 1) neither runs nor uses anything")
      }
      if !commands(job.value).contains(where: {
        $0.contains("sudo xcode-select -s /Applications/Xcode_")
      }) {
        problems.append("job '\(job.key)' selects no Xcode")
      }
    }

    let macOS = jobs.first { job in
      commands(job.value).contains { $0.contains("swift build") }
    }
    if let macOS {
      let commands = commands(macOS.value)
      if !commands.contains(where: { $0.hasPrefix("swift test") }) {
        problems.append("the macOS job '\(macOS.key)' runs no swift test")
      }
    } else {
      problems.append("no job runs swift build")
    }

    let iOS = jobs.first { job in
      commands(job.value).contains { $0.contains("xcodebuild test") }
    }
    if let iOS {
      let steps = iOS.value["steps"]?.elements ?? []
      guard
        let test = steps.first(where: { $0["run"]?.text?.contains("xcodebuild test") == true }),
        let command = test["run"]?.text
      else { return problems }
      if !command.contains("-scheme \(scheme)") {
        problems.append("the iOS job '\(iOS.key)' tests no scheme '\(scheme)'")
      }
      if !command.contains("-destination \(destination)") {
        problems.append("the iOS job '\(iOS.key)' tests on no \(destination)")
      }
      if test["working-directory"]?.text != example {
        problems.append("the iOS job '\(iOS.key)' does not run in \(example)")
      }
    } else {
      problems.append("no job runs xcodebuild test on the iOS simulator")
    }
    return problems
  }
}

@Suite("The Apple platforms workflow (.github/workflows/apple.yml)")
struct AppleWorkflowTests {
  static let scheme = "NotesApp-Package"

  /// The shipped workflow with one text replaced, which must occur.
  static func shipped(replacing old: String, with new: String) throws -> String {
    let text = try AppleWorkflow.text()
    #expect(text.contains(old))
    return text.replacingOccurrences(of: old, with: new)
  }

  @Test("The shipped workflow builds and tests on macOS and tests the example on the simulator")
  func shippedWorkflowIsComplete() throws {
    #expect(AppleWorkflow.problems(try AppleWorkflow.text(), scheme: Self.scheme) == [])
  }

  @Test("The iOS job tests the example package's own scheme")
  func schemeIsTheExamplePackages() throws {
    #expect(try AppleWorkflow.examplePackageName() + "-Package" == Self.scheme)
  }

  @Test("The shipped workflow parses to the jobs, runner labels and commands it shows")
  func shippedWorkflowParses() throws {
    let workflow = try WorkflowYAML.parse(try AppleWorkflow.text())
    let jobs = try #require(workflow["jobs"]?.members)
    #expect(jobs.keys.sorted() == ["ios-simulator", "macos"])
    #expect(jobs.values.allSatisfy { $0["runs-on"] == .string("macos-15") })
    let macOS = AppleWorkflow.commands(try #require(jobs["macos"]))
    #expect(macOS.contains("swift build --build-tests"))
    #expect(macOS.contains("swift test"))
    #expect(macOS.contains("xcodebuild -version\nswift --version\n"))
    #expect(workflow["on"]?["push"]?["branches"] == .array([.string("main")]))
    #expect(workflow["on"]?["pull_request"] == .null)
    let checkout = jobs["ios-simulator"]?["steps"]?.elements?.first
    #expect(checkout?["uses"] == .string("actions/checkout@v4"))
  }

  @Test("A workflow missing the iOS job is reported")
  func missingIOSJobIsReported() throws {
    let text = try AppleWorkflow.text()
    let cut = try #require(text.range(of: "\n  ios-simulator:"))
    let problems = AppleWorkflow.problems(String(text[..<cut.lowerBound]), scheme: Self.scheme)
    #expect(problems == ["no job runs xcodebuild test on the iOS simulator"])
  }

  @Test("A macOS job that runs no swift test is reported")
  func missingSwiftTestIsReported() throws {
    let text = try Self.shipped(replacing: "run: swift test\n", with: "run: swift --version\n")
    #expect(
      AppleWorkflow.problems(text, scheme: Self.scheme) == [
        "the macOS job 'macos' runs no swift test"
      ])
  }

  @Test("A job on another runner label is reported")
  func otherRunnerIsReported() throws {
    let text = try Self.shipped(
      replacing: "name: macOS (swift build, swift test)\n    runs-on: macos-15",
      with: "name: macOS (swift build, swift test)\n    runs-on: ubuntu-latest")
    #expect(
      AppleWorkflow.problems(text, scheme: Self.scheme) == [
        "job 'macos' runs on 'ubuntu-latest', not 'macos-15'"
      ])
  }

  @Test("A job that selects no Xcode is reported")
  func missingXcodeSelectionIsReported() throws {
    let text = try Self.shipped(
      replacing: "      - name: Select Xcode 16.3\n"
        + "        run: sudo xcode-select -s /Applications/Xcode_16.3.app\n"
        + "      - name: Test the Notes example",
      with: "      - name: Test the Notes example")
    #expect(
      AppleWorkflow.problems(text, scheme: Self.scheme) == [
        "job 'ios-simulator' selects no Xcode"
      ])
  }

  @Test("An iOS job with another scheme, simulator or folder is reported")
  func wrongIOSTestIsReported() throws {
    let text = try Self.shipped(
      replacing: "working-directory: Examples/NotesApp\n"
        + "        run: xcodebuild test -scheme NotesApp-Package -destination "
        + "'platform=iOS Simulator,name=iPhone 16'",
      with: "working-directory: .\n"
        + "        run: xcodebuild test -scheme Notes -destination 'platform=macOS'")
    #expect(
      AppleWorkflow.problems(text, scheme: Self.scheme) == [
        "the iOS job 'ios-simulator' tests no scheme 'NotesApp-Package'",
        "the iOS job 'ios-simulator' tests on no 'platform=iOS Simulator,name=iPhone 16'",
        "the iOS job 'ios-simulator' does not run in Examples/NotesApp",
      ])
  }

  @Test("A step that neither runs nor uses anything is reported")
  func emptyStepIsReported() throws {
    let text = try Self.shipped(
      replacing: "      - name: Build\n        run: swift build --build-tests\n",
      with: "      - name: Build\n        with: nothing\n      - run: swift build\n")
    #expect(
      AppleWorkflow.problems(text, scheme: Self.scheme) == [
        "job 'macos' step 4 neither runs nor uses anything"
      ])
  }

  @Test("A tab in the indentation is refused with its line")
  func tabIsRefused() throws {
    let text = try Self.shipped(replacing: "    runs-on: macos-15\n", with: "\truns-on: macos-15\n")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(lines.firstIndex { $0.hasPrefix("\t") }) + 1
    let problems = AppleWorkflow.problems(text, scheme: Self.scheme)
    #expect(problems.count == 1)
    #expect(problems.first?.hasPrefix("not YAML: line \(line): ") == true, "\(problems)")
    #expect(problems.first?.contains("'\\t'") == true, "\(problems)")
  }

  @Test("A key indented off its block is refused with its line")
  func misindentedKeyIsRefused() throws {
    let text = "jobs:\n  macos:\n    runs-on: macos-15\n   steps:\n"
    let error = try #require(throws: WorkflowYAML.SyntaxError.self) {
      try WorkflowYAML.parse(text)
    }
    #expect(error.line == 4)
  }

  @Test("A repeated key is refused with its line, as GitHub refuses it")
  func repeatedKeyIsRefused() {
    let text = "jobs:\n  macos:\n    runs-on: macos-15\n    runs-on: macos-14\n"
    #expect(throws: WorkflowYAML.SyntaxError(line: 4, message: "the key 'runs-on' is repeated")) {
      try WorkflowYAML.parse(text)
    }
  }

  @Test("An unterminated quoted scalar is refused with the line it starts on")
  func unterminatedQuoteIsRefused() throws {
    let text = "steps:\n  - run: 'xcodebuild test\n"
    let error = try #require(throws: WorkflowYAML.SyntaxError.self) {
      try WorkflowYAML.parse(text)
    }
    #expect(error.message.contains("quoted scalar at line 2"), "\(error)")
  }

  @Test("A flow collection reads as the block collection it stands for")
  func flowCollectionReads() throws {
    let flow = try WorkflowYAML.parse("on:\n  push:\n    branches: [main]\n")
    let block = try WorkflowYAML.parse("on:\n  push:\n    branches:\n      - main\n")
    #expect(flow["on"]?["push"]?["branches"] == .array([.string("main")]))
    #expect(flow == block)
  }

  @Test("'on', 'yes' and 'no' are text, as GitHub reads them; only true and false are booleans")
  func onIsAKey() throws {
    let document = try WorkflowYAML.parse("on: push\nyes: no\nfail-fast: false\n")
    #expect(
      document
        == .object(["on": .string("push"), "yes": .string("no"), "fail-fast": .bool(false)]))
  }

  @Test("A line that is neither a key nor an item is refused with its line")
  func strayLineIsRefused() throws {
    let text = "jobs:\n  macos:\n    runs-on: macos-15\n    just words\n"
    let error = try #require(throws: WorkflowYAML.SyntaxError.self) {
      try WorkflowYAML.parse(text)
    }
    #expect(error.message.contains("at line 4"), "\(error)")
  }

  @Test("Quoted, commented, nested and block values parse as YAML reads them")
  func yamlParses() throws {
    let text = """
      # a comment
      a: plain text # trailing comment
      b: 'it''s: quoted # not a comment'
      c: "tab\\tand \\"quotes\\""
      d:
      - one
      - key: value
        other: 2
      e: |
        line one
          indented

        line three
      f:
        g:
          - - nested
      """
    let document = try WorkflowYAML.parse(text)
    #expect(document["a"] == .string("plain text"))
    #expect(document["b"] == .string("it's: quoted # not a comment"))
    #expect(document["c"] == .string("tab\tand \"quotes\""))
    #expect(
      document["d"]
        == .array([.string("one"), .object(["key": .string("value"), "other": .number(2)])]))
    #expect(document["e"] == .string("line one\n  indented\n\nline three\n"))
    #expect(document["f"]?["g"] == .array([.array([.string("nested")])]))
  }
}
