import Decoding
import Foundation
import ProfileKit
import ProfilesApp

// Worker mode for the decode paths: the sample app's v2 classes by default, and v1 under
// "ProfilesApp-1" (to run its trapping `as!` decoder where a trap is contained).
if CommandLine.arguments.dropFirst().first == FoundationReferenceWorker.modeArgument {
  exit(
    FoundationReferenceWorker.run(registries: [
      FoundationReferenceWorker.defaultRegistryName: ClassRegistry(
        modelClasses: ProfileModel.classes),
      "ProfilesApp-1": ClassRegistry(modelClasses: ProfilesAppModel.classes),
    ]))
}
print("archive-harness")
