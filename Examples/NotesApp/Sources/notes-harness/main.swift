// notes-harness: the archive harness with the Notes app's classes registered. Every command
// of archive-harness (inspect, decode, verify, manifest author/validate, migrate-dry-run,
// migrate) decodes into version 2's classes, module NotesKit.

import HarnessCLI
import NotesKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let configuration = HarnessConfiguration(modelClasses: NotesModel.classes)
exit(ArchiveHarnessCommand.main(CommandLine.arguments, configuration: configuration))
