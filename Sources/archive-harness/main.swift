import HarnessCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(ArchiveHarnessCommand.main(CommandLine.arguments))
