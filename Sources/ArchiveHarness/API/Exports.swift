// `import ArchiveHarness` is the one import a team's code needs: the curated public types of
// the modules below it (ArchiveFormat: archives, property lists, the vocabulary, SHA-256;
// ArchiveCoder: the class registry and maps, what a decode gives; ArchiveManifest: the schema
// and its diagnostics) come with it. The DocC root page lists every public type.
// _ArchiveHarnessSystem is `package` only and is not re-exported.
@_exported import ArchiveCoder
@_exported import ArchiveFormat
@_exported import ArchiveManifest
