import Testing

@testable import ArchiveHarnessCLI

/// A command declared for the parser's tests only.
private enum Sample {
  enum Mode: String, CaseIterable, ArgumentValue {
    case fast
    case slow
  }

  static let name = Option<String>.required(
    "name", short: "n", valueName: "NAME", help: "A required name.")
  static let key = Option<String?>.optional("key", valueName: "VALUE", help: "An optional value.")
  static let count = Option.defaulted(
    "count", valueName: "N", help: "A small number.", default: 3,
    convert: ArgumentConversion.integer(in: 1...9))
  static let mode = Option.defaulted("mode", valueName: "MODE", help: "A mode.", default: Mode.fast)
  static let tag = Option<[String]>.repeating("tag", valueName: "TAG", help: "A tag; repeatable.")
  static let verbose = Flag(name: "verbose", help: "Say more.")
  static let files = Argument.repeating("file", help: "Files.", optional: true)

  static let spec = CommandSpec(
    name: "sample", abstract: "A sample command.", arguments: [files],
    options: [name, key, count, mode, tag], flags: [verbose])

  static func parse(_ arguments: [String]) throws -> ParsedArguments {
    try ArgumentParser(spec: spec).parse(arguments)
  }
}

/// A command with two required positional arguments.
private enum Pair {
  static let input = Argument.single("input", help: "Read from here.")
  static let output = Argument.single("output", help: "Write here.")
  static let spec = CommandSpec(
    name: "pair", abstract: "Two arguments.", arguments: [input, output])
}

/// A command with a standalone option and a set of which exactly one must be given.
private enum Modes {
  static let store = Option<String>.required("store", valueName: "PATH", help: "The store.")
  static let backup = Option<String?>.optional("backup", valueName: "DIR", help: "Keep originals.")
  static let undo = Option<String?>.optional(
    "undo", valueName: "JOURNAL", help: "Undo a run.", standalone: true)
  static let noBackup = Flag(name: "no-backup", help: "Keep nothing.")
  static let spec = CommandSpec(
    name: "modes", abstract: "Modes.", options: [store, backup, undo], flags: [noBackup],
    exactlyOneOf: [[backup.name, noBackup.name]])

  static func parse(_ arguments: [String]) throws -> ParsedArguments {
    try ArgumentParser(spec: spec).parse(arguments)
  }
}

@Suite("The command-line parser")
struct ArgumentParserTests {
  // MARK: What it accepts

  @Test("--opt=value gives the option its value")
  func inlineValue() throws {
    let parsed = try Sample.parse(["--name=alpha", "--key=a=b"])
    #expect(parsed[Sample.name] == "alpha")
    #expect(parsed[Sample.key] == "a=b")
  }

  @Test("A short name takes the next argument as its value")
  func shortName() throws {
    let parsed = try Sample.parse(["-n", "alpha"])
    #expect(parsed[Sample.name] == "alpha")
  }

  @Test("-- ends the options: every argument after it is positional")
  func doubleDashEndsOptions() throws {
    let parsed = try Sample.parse(["--name", "a", "--", "--verbose", "-n", "--help"])
    #expect(parsed[Sample.files] == ["--verbose", "-n", "--help"])
    #expect(parsed[Sample.verbose] == false)
  }

  @Test("A value that starts with '-' is the option's value: --key -1")
  func dashValue() throws {
    let parsed = try Sample.parse(["--name", "-x", "--key", "-1"])
    #expect(parsed[Sample.name] == "-x")
    #expect(parsed[Sample.key] == "-1")
  }

  @Test("A repeatable option keeps every value, in order")
  func repeatableAccumulates() throws {
    let parsed = try Sample.parse(["--tag", "b", "--name", "a", "--tag=a", "--tag", "b"])
    #expect(parsed[Sample.tag] == ["b", "a", "b"])
  }

  @Test("Options not given have their declared defaults, typed")
  func defaults() throws {
    let parsed = try Sample.parse(["--name", "a"])
    #expect(parsed[Sample.count] == 3)
    #expect(parsed[Sample.mode] == .fast)
    #expect(parsed[Sample.key] == nil)
    #expect(parsed[Sample.tag].isEmpty)
    #expect(parsed[Sample.verbose] == false)
    #expect(parsed[Sample.files].isEmpty)
  }

  @Test("Values are converted to the option's type")
  func typedValues() throws {
    let parsed = try Sample.parse(["--name", "a", "--count", "9", "--mode", "slow", "--verbose"])
    #expect(parsed[Sample.count] == 9)
    #expect(parsed[Sample.mode] == .slow)
    #expect(parsed[Sample.verbose])
  }

  @Test("A lone '-' is a positional argument")
  func loneDash() throws {
    let parsed = try Sample.parse(["--name", "a", "-", "file"])
    #expect(parsed[Sample.files] == ["-", "file"])
  }

  @Test("-h or --help anywhere before -- asks for help, even beside an error")
  func helpAnywhere() {
    #expect(throws: HelpRequest.self) { try Sample.parse(["--bogus", "-h"]) }
    #expect(throws: HelpRequest.self) { try Sample.parse(["x", "--help"]) }
  }

  @Test("A standalone option needs none of the required options")
  func standaloneAlone() throws {
    let parsed = try Modes.parse(["--undo", "journal.jsonl"])
    #expect(parsed[Modes.undo] == "journal.jsonl")
  }

  @Test("Exactly one of a set is accepted, either one")
  func exactlyOneGiven() throws {
    #expect(try Modes.parse(["--store", "s", "--backup", "b"])[Modes.backup] == "b")
    #expect(try Modes.parse(["--store", "s", "--no-backup"])[Modes.noBackup])
  }

  // MARK: What it refuses, one test each

  @Test("An unknown option is a usage error naming it")
  func unknownOption() {
    let error = #expect(throws: UsageError.self) { try Sample.parse(["--name", "a", "--colour"]) }
    #expect(error?.message == "Unknown option '--colour'")
  }

  @Test("An unknown option given with =value is named without the value")
  func unknownInlineOption() {
    let error = #expect(throws: UsageError.self) { try Sample.parse(["--colour=red"]) }
    #expect(error?.message == "Unknown option '--colour'")
  }

  @Test("An unknown short option is a usage error naming it")
  func unknownShortOption() {
    let error = #expect(throws: UsageError.self) { try Sample.parse(["-q"]) }
    #expect(error?.message == "Unknown option '-q'")
  }

  @Test("An option at the end without its value is a usage error")
  func missingValueAtEnd() {
    let error = #expect(throws: UsageError.self) { try Sample.parse(["--name"]) }
    #expect(error?.message == "Missing value for '--name <name>'")
  }

  @Test("An option followed by another of the command's options is missing its value")
  func missingValueBeforeOption() {
    let error = #expect(throws: UsageError.self) { try Sample.parse(["--key", "--name", "a"]) }
    #expect(error?.message == "Missing value for '--key <value>'")
  }

  @Test("An option followed by -- is missing its value")
  func missingValueBeforeDoubleDash() {
    let error = #expect(throws: UsageError.self) { try Sample.parse(["--name", "--", "x"]) }
    #expect(error?.message == "Missing value for '--name <name>'")
  }

  @Test("A single-valued option given twice is a usage error")
  func repeatedSingleValuedOption() {
    let error = #expect(throws: UsageError.self) {
      try Sample.parse(["--name", "a", "--name", "b"])
    }
    #expect(error?.message == "The option '--name' was given more than once")
  }

  @Test("A value that is not an integer is a usage error")
  func notAnInteger() {
    let error = #expect(throws: UsageError.self) {
      try Sample.parse(["--name", "a", "--count", "many"])
    }
    #expect(
      error?.message
        == "The value 'many' is invalid for '--count <n>'; expected an integer from 1 to 9")
  }

  @Test("An integer out of range is a usage error")
  func integerOutOfRange() {
    let error = #expect(throws: UsageError.self) {
      try Sample.parse(["--name", "a", "--count", "12"])
    }
    #expect(
      error?.message
        == "The value '12' is invalid for '--count <n>'; expected an integer from 1 to 9")
  }

  @Test("A value outside a closed set is a usage error listing the values")
  func valueOutsideSet() {
    let error = #expect(throws: UsageError.self) {
      try Sample.parse(["--name", "a", "--mode", "medium"])
    }
    #expect(
      error?.message
        == "The value 'medium' is invalid for '--mode <mode>'; expected one of: fast, slow")
  }

  @Test("A flag given a value is a usage error")
  func flagWithValue() {
    let error = #expect(throws: UsageError.self) {
      try Sample.parse(["--name", "a", "--verbose=yes"])
    }
    #expect(error?.message == "The flag '--verbose' does not take a value")
  }

  @Test("A required option left out is a usage error naming it")
  func missingRequiredOption() {
    let error = #expect(throws: UsageError.self) { try Sample.parse(["--key", "k"]) }
    #expect(error?.message == "Missing expected option '--name <name>'")
  }

  @Test("A required argument left out is a usage error naming that argument")
  func missingRequiredArgument() {
    let error = #expect(throws: UsageError.self) {
      try ArgumentParser(spec: Pair.spec).parse(["in.archive"])
    }
    #expect(error?.message == "Missing expected argument '<output>'")
  }

  @Test("An argument beyond those declared is a usage error")
  func unexpectedArgument() {
    let error = #expect(throws: UsageError.self) {
      try ArgumentParser(spec: Pair.spec).parse(["a", "b", "c"])
    }
    #expect(error?.message == "Unexpected argument 'c'")
  }

  @Test("A standalone option beside another option is a usage error")
  func standaloneWithOther() {
    let error = #expect(throws: UsageError.self) {
      try Modes.parse(["--store", "s", "--undo", "journal.jsonl"])
    }
    #expect(error?.message == "'--undo' cannot be used with '--store'")
  }

  @Test("Neither of a set of which exactly one is needed is a usage error naming both")
  func exactlyOneMissing() {
    let error = #expect(throws: UsageError.self) { try Modes.parse(["--store", "s"]) }
    #expect(error?.message == "Missing expected option '--backup <dir>' (or pass --no-backup)")
  }

  @Test("Both of a set of which exactly one is allowed is a usage error")
  func exactlyOneBoth() {
    let error = #expect(throws: UsageError.self) {
      try Modes.parse(["--store", "s", "--no-backup", "--backup", "b"])
    }
    #expect(error?.message == "'--backup' and '--no-backup' cannot be used together")
  }

  // MARK: Usage and help from the declarations

  @Test("Usage shows required options bare and the others in brackets")
  func usageMarksRequired() {
    let usage = HelpFormatter.usage(Sample.spec, tool: "my-harness", prefix: "USAGE: ")
    #expect(
      usage == """
        USAGE: my-harness sample --name <name> [--key <value>] [--count <n>]
                                 [--mode <mode>] [--tag <tag> ...] [--verbose]
                                 [<file> ...]
        """)
  }

  @Test("Usage shows an exactly-one set as a choice and a standalone option on its own line")
  func usageShowsChoiceAndStandalone() {
    let usage = HelpFormatter.usage(Modes.spec, tool: "my-harness", prefix: "USAGE: ")
    #expect(
      usage == """
        USAGE: my-harness modes --store <path> (--backup <dir> | --no-backup)
               my-harness modes --undo <journal>
        """)
  }

  @Test("An error's usage stands [<options>] for the optional ones when the full usage would wrap")
  func compactUsage() {
    let usage = HelpFormatter.usage(
      Sample.spec, tool: "my-harness", prefix: "Usage: ", compact: true)
    #expect(usage == "Usage: my-harness sample --name <name> [<options>] [<file> ...]")
  }

  @Test("Help shows each default once, from the declaration")
  func helpShowsDefaults() {
    let help = HelpFormatter.help(Sample.spec, tool: "my-harness")
    #expect(help.contains("A small number. (default: 3)"))
    #expect(help.contains("A mode. (values: fast, slow; default: fast)"))
    #expect(help.contains("-n, --name <name>"))
  }

  @Test(
    "migrate's usage shows --store as required and --backup or --no-backup as a required choice")
  func migrateUsage() {
    let usage = HelpFormatter.usage(MigrateCommand.spec, tool: "archive-harness", prefix: "USAGE: ")
    #expect(usage.hasPrefix("USAGE: archive-harness migrate --store <path> [--manifest <file>]"))
    #expect(usage.contains("(--backup <dir> | --no-backup)"))
    #expect(!usage.contains("[--store"))
    #expect(usage.hasSuffix("\n       archive-harness migrate --rollback <journal>"))
  }

  @Test("--schema's default is the built-in schema, in a few words")
  func schemaDefault() {
    for spec in [VerifyCommand.spec, DecodeCommand.spec, MigrateCommand.spec] {
      #expect(
        HelpFormatter.help(spec, tool: "h").contains(
          "--schema <file>         Validate against this XSD file instead. (default: the built-in schema)\n"
        ))
    }
  }
}
