// notes-harness: the archive harness with the Notes app's classes registered. Every command
// of archive-harness (inspect, decode, verify, manifest author/validate, migrate-dry-run,
// migrate) decodes into version 2's classes, module NotesKit. Version 1's own classes (module
// NotesV1) are served too, as the registry "v1": a manifest entry with registry="v1" decodes
// with them, to pin what 1.0's own code did with a record (`manifest author --registry v1`).

import ArchiveHarnessCLI
import NotesKit
import NotesV1

let configuration = HarnessConfiguration(
  modelClasses: NotesModel.classes,
  additionalRegistries: ["v1": ClassRegistry(modelClasses: NotesV1Model.classes)])
ArchiveHarnessCommand.main(configuration: configuration)
