import ArchiveCoder
import ArchiveHarnessCLI
import ProfileKit
import ProfilesApp

// The repository's own harness, built as a team builds theirs: every archive-harness command,
// decoding into the sample app's v2 classes (module ProfileKit). Its decode worker also serves
// v1 (module ProfilesApp) as "ProfilesApp-1", to run v1's own trapping `as!` decoder where a
// trap is contained. It also reads every Apple-platform class it has a stand-in for.
// The shipped manifests/ and LegacyArchives/ are this app's; `swift run profiles-harness verify`
// is the repository's main job. The archive-harness teams install links no sample app.
let configuration = HarnessConfiguration(
  modelClasses: ProfileModel.classes, platformClasses: PlatformClass.allCases,
  additionalRegistries: ["ProfilesApp-1": ClassRegistry(modelClasses: ProfilesAppModel.classes)])
ArchiveHarnessCommand.main(configuration: configuration)
