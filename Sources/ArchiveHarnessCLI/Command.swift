import ArchiveFormat
import Foundation

/// A command: its spec and what it does.
struct Command: Sendable {
  var spec: CommandSpec
  var run: @Sendable (ParsedArguments, CommandContext) throws -> ExitStatus
}
