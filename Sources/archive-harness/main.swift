import ArchiveCoder
import ArchiveHarnessCLI

// The archive-harness teams install: every command, reading every Apple-platform class it has
// a stand-in for (UIColor, CLLocation, …) and no app's own classes. Inspecting, surveying,
// authoring manifests and rename-only migrations need none; to decode an app's classes, a team
// builds its own harness executable over HarnessCLI with them registered, as
// Sources/profiles-harness does for the sample app.
let configuration = HarnessConfiguration(modelClasses: [], platformClasses: PlatformClass.allCases)
ArchiveHarnessCommand.main(configuration: configuration)
