@_exported import ArchiveCoder
// The modules a team's code uses, re-exported so that `import ArchiveHarness` is the one import:
// reading (PropertyList, KeyedArchive), decoding (Decoding), manifests (the model in Manifest, its XML in ManifestXML, writing them
// from archives in ManifestAuthoring), verification
// (Verification), migration, typed migration included (Migration), and anonymizing archives
// before they are committed (Anonymization); the vocabulary they share
// (HarnessVocabulary: decode paths, outcomes, categories, steps, severities) and SHA-256
// (Checksum), which manifests pin archives with. JSONOutput's value type appears in the report
// writers' API, and `TimeSpan` (_ArchiveHarnessSystem) its timeouts and measured times. Every
// other module is internal to the package.
@_exported import ArchiveFormat
@_exported import ArchiveManifest
@_exported import _ArchiveHarnessSystem
