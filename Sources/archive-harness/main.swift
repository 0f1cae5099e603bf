import Decoding
import HarnessCLI
import ProfileKit
import ProfilesApp

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Worker mode for the decode paths: the sample app's v2 classes by default, and v1 under
// "ProfilesApp-1" (to run its trapping `as!` decoder where a trap is contained).
// The lead may move this into HarnessCLI; until then it lives here.
if CommandLine.arguments.dropFirst().first == FoundationReferenceWorker.modeArgument {
  exit(
    FoundationReferenceWorker.run(registries: [
      FoundationReferenceWorker.defaultRegistryName: ClassRegistry(
        modelClasses: ProfileModel.classes),
      "ProfilesApp-1": ClassRegistry(modelClasses: ProfilesAppModel.classes),
    ]))
}
exit(ArchiveHarnessCommand.main(CommandLine.arguments))
