// A test file needs only `import ArchiveHarnessTesting` (and `import Testing`): the library
// comes with it, for HarnessConfiguration, reports and the rest.
@_exported import ArchiveHarness
