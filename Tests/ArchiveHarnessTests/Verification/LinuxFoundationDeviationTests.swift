import ArchiveCoder
import ArchiveFormat
import ArchiveHarness
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Linux Foundation deviations are named, and nothing else is")
struct LinuxFoundationDeviationTests {
  /// A note archive whose root has `title` and no `attachment`.
  private let noteWithoutAttachment: KeyedArchive = {
    var builder = KeyedArchiveBuilder()
    builder.setRoot(builder.object("NotesKit.Note", [("title", builder.string("Groceries"))]))
    return (try? KeyedArchive(bytes: builder.bytes()))
      ?? KeyedArchive(top: [:], objects: [])
  }()

  private let decodedNote = DecodeOutcome.decoded(
    .object(className: "NotesKit.Note", fields: []))

  private func absentKey(_ key: String) -> DecodeOutcome {
    .rejected(
      DecodeRejection(
        category: .missingField, keyPath: "root",
        message:
          "foundation-secure: root: No value found for key Optional(\"\(key)\"). The data may be corrupt."
      ))
  }

  private func rejected(_ category: RejectionCategory) -> DecodeOutcome {
    .rejected(DecodeRejection(category: category, keyPath: "root", message: "secure: root: …"))
  }

  private let unexpectedClassTrap = DecodeOutcome.crashed(
    CrashReport(
      signal: SIGILL,
      detail: "Foundation/NSKeyedUnarchiver.swift:289: Fatal error: Value was of unexpected class X"
    ))

  @Test(
    "Foundation failing on a key the archive lacks, where the harness decodes, is absent-key-fails")
  func absentKeyIsRecognized() {
    let deviation = LinuxFoundationDeviation.recognize(
      harness: decodedNote, foundation: absentKey("attachment"), archive: noteWithoutAttachment,
      foundationIsCorelibs: true)
    #expect(deviation == .absentKeyFails)
    let note = deviation?.note(
      path: .foundationSecure, harness: decodedNote, foundation: absentKey("attachment"))
    #expect(
      note?.hasPrefix("Linux Foundation deviation [absent-key-fails]: foundation-secure") == true)
    #expect(note?.contains("returns nil 'if key does not exist'") == true)
  }

  @Test("The same failure for a key every app object holds stays a disagreement")
  func presentKeyStaysADisagreement() {
    #expect(
      LinuxFoundationDeviation.recognize(
        harness: decodedNote, foundation: absentKey("title"), archive: noteWithoutAttachment,
        foundationIsCorelibs: true) == nil)
  }

  @Test("An absent-key failure without the archive to check stays a disagreement")
  func absentKeyNeedsTheArchive() {
    #expect(
      LinuxFoundationDeviation.recognize(
        harness: decodedNote, foundation: absentKey("attachment"), archive: nil,
        foundationIsCorelibs: true) == nil)
  }

  @Test(
    "A trap on an unexpected class, where the harness refused the class, is disallowed-class-traps",
    arguments: [RejectionCategory.classNotAllowed, .wrongRootClass, .unmappedClass])
  func disallowedClassTrapIsRecognized(category: RejectionCategory) {
    #expect(
      LinuxFoundationDeviation.recognize(
        harness: rejected(category), foundation: unexpectedClassTrap, archive: nil,
        foundationIsCorelibs: true) == .disallowedClassTraps)
  }

  @Test("A SIGILL without corelibs' unexpected-class message stays a disagreement")
  func otherTrapStaysADisagreement() {
    let trap = DecodeOutcome.crashed(CrashReport(signal: SIGILL, detail: "Fatal error: index out"))
    #expect(
      LinuxFoundationDeviation.recognize(
        harness: rejected(.classNotAllowed), foundation: trap, archive: nil,
        foundationIsCorelibs: true) == nil)
  }

  @Test("A trap where the harness decoded the object stays a disagreement")
  func trapAfterHarnessDecodedStaysADisagreement() {
    #expect(
      LinuxFoundationDeviation.recognize(
        harness: decodedNote, foundation: unexpectedClassTrap, archive: nil,
        foundationIsCorelibs: true) == nil)
  }

  @Test("A SIGSEGV where the harness refused a cycle is cycle-overflows-stack")
  func cycleCrashIsRecognized() {
    #expect(
      LinuxFoundationDeviation.recognize(
        harness: rejected(.cycle), foundation: .crashed(CrashReport(signal: SIGSEGV)),
        archive: nil, foundationIsCorelibs: true) == .cycleOverflowsStack)
  }

  @Test("A SIGSEGV where the harness refused something else than a cycle stays a disagreement")
  func otherSegfaultStaysADisagreement() {
    #expect(
      LinuxFoundationDeviation.recognize(
        harness: rejected(.limitExceeded), foundation: .crashed(CrashReport(signal: SIGSEGV)),
        archive: nil, foundationIsCorelibs: true) == nil)
  }

  @Test("Where Foundation is Apple's, no disagreement is a deviation")
  func applesFoundationHasNoDeviations() {
    #expect(
      LinuxFoundationDeviation.recognize(
        harness: rejected(.cycle), foundation: .crashed(CrashReport(signal: SIGSEGV)),
        archive: nil, foundationIsCorelibs: false) == nil)
  }

  #if os(Linux)
    @Test("verify names the cycle deviation of the shipped cyclic archive, not a disagreement")
    func verifyReportsTheCycleDeviation() throws {
      try #require(ManifestCase.verifier.paths.contains(.foundationSecure))
      let result = try ManifestCase(
        manifest: "ProfilesApp-1.0.xml", archive: "ProfilesApp-1.0/profiles-list-cyclic.archive"
      ).run()
      #expect(
        result.notes.contains {
          $0.hasPrefix("Linux Foundation deviation [cycle-overflows-stack]: foundation-secure")
        }, "\(result.notes)")
      #expect(!result.notes.contains { $0.contains("disagree") }, "\(result.notes)")
    }

    @Test("verify names the disallowed-class trap of the shipped substituted-address archive")
    func verifyReportsTheTrapDeviation() throws {
      try #require(ManifestCase.verifier.paths.contains(.foundationSecure))
      let result = try ManifestCase(
        manifest: "ProfilesApp-1.0.xml",
        archive: "ProfilesApp-1.0/profile-address-substituted.archive"
      ).run()
      #expect(
        result.notes.contains {
          $0.hasPrefix("Linux Foundation deviation [disallowed-class-traps]: foundation-secure")
        }, "\(result.notes)")
    }
  #endif
}
