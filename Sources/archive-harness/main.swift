import HarnessCLI
import HarnessCoder
import ProfileKit
import ProfilesApp

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The shipped harness decodes into the sample app's v2 classes (module ProfileKit). Its decode
// worker also serves v1 (module ProfilesApp) as "ProfilesApp-1", to run v1's own trapping
// `as!` decoder where a trap is contained.
// It also reads every Apple-platform class it has a stand-in for (UIColor, CLLocation, …).
let configuration = HarnessConfiguration(
  modelClasses: ProfileModel.classes, platformClasses: PlatformClass.allCases,
  additionalRegistries: ["ProfilesApp-1": ClassRegistry(modelClasses: ProfilesAppModel.classes)])
exit(ArchiveHarnessCommand.main(CommandLine.arguments, configuration: configuration))
