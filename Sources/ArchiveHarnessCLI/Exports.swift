// A harness executable needs only `import HarnessCLI`: the library comes with it.
@_exported import ArchiveHarness
