import ArchiveCoder
import ArchiveHarness
import Foundation
import HarnessTestSupport
import Testing

#if canImport(Darwin)
  /// Apple Foundation's documented behaviour where it differs from what
  /// CorelibsBehaviourTests and FoundationReferenceTests pin for corelibs.
  ///
  /// Unverified here: no Mac. Written from Apple's documentation; the first macOS run confirms
  /// or corrects each expectation.
  @Suite("Apple Foundation behaviours, documented")
  struct DarwinFoundationExpectationTests {
    @Test("init(forReadingFrom:) sets requiresSecureCoding to true")
    func requiresSecureCodingDefaultsTrue() throws {
      // Apple's documentation: this initializer enables requiresSecureCoding.
      let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(SampleArchives.memoArchive()))
      #expect(unarchiver.requiresSecureCoding)
      unarchiver.finishDecoding()
    }

    @Test("A root outside the allowed classes is refused or aborts (SIGABRT), never traps")
    func disallowedRootIsRefusedOrAborts() throws {
      let url = try #require(CommandRunner.executable, "build the archive-harness product first")
      let renames = try ClassNameMap(parsing: "ProfilesApp.*=ProfileKit.*")
      let outcome = try WorkerSupervisor(executableURL: url).decode(
        SampleArchives.profileArchive(), path: .foundationSecure,
        allowedClasses: ["ProfileKit.Memo"], classMap: renames)
      if let crash = outcome.crash {
        #expect(crash.signal == SIGABRT, "an Objective-C exception aborts")
      } else {
        #expect(outcome.rejection != nil, "\(outcome)")
      }
    }
  }
#endif
