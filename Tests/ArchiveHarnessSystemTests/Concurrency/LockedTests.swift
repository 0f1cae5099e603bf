import Dispatch
import Testing
import _ArchiveHarnessSystem

@Suite("The lock type")
struct LockedTests {
  @Test("Increments from many threads at once are all kept")
  func concurrentIncrementsAreKept() {
    let counter = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
    }
    #expect(counter.withLock { $0 } == 80_000)
  }

  @Test("The body's result and error come back to the caller")
  func resultsAndErrorsPassThrough() {
    struct Refused: Error {}
    let names = Locked<[String]>([])
    let count = names.withLock { names -> Int in
      names.append("NSString")
      return names.count
    }
    #expect(count == 1)
    #expect(throws: Refused.self) { try names.withLock { _ in throw Refused() } }
    #expect(names.withLock { $0 } == ["NSString"])
  }
}
