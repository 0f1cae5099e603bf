// The modules a team's code uses, re-exported so that `import ArchiveHarness` is the one import:
// reading (PropertyList, KeyedArchive), decoding (Decoding), manifests (the model in Manifest, its XML in ManifestXML, writing them
// from archives in ManifestAuthoring), verification
// (Verification), migration, typed migration included (Migration), and anonymizing archives
// before they are committed (Anonymization); the vocabulary they share
// (HarnessVocabulary: decode paths, outcomes, categories, steps, severities) and SHA-256
// (Checksum), which manifests pin archives with. JSONOutput's value type appears in the report
// writers' API, and `TimeSpan` (_ArchiveHarnessSystem) its timeouts and measured times. Every
// other module is internal to the package.
@_exported import HarnessAnonymization
@_exported import HarnessChecksum
@_exported import HarnessCoder
@_exported import HarnessJSONOutput
@_exported import HarnessKeyedArchive
@_exported import HarnessManifest
@_exported import HarnessManifestAuthoring
@_exported import HarnessManifestXML
@_exported import HarnessMigration
@_exported import HarnessPropertyList
@_exported import HarnessVerification
@_exported import HarnessVocabulary
@_exported import _ArchiveHarnessSystem
