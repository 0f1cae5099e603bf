import Testing
import _ArchiveHarnessSystem

@Suite("Time spans and the monotonic clock")
struct TimeSpanTests {
  @Test("Units convert to nanoseconds")
  func unitsConvert() {
    #expect(TimeSpan.seconds(2).nanoseconds == 2_000_000_000)
    #expect(TimeSpan.seconds(1.5).nanoseconds == 1_500_000_000)
    #expect(TimeSpan.minutes(1) == .seconds(60))
    #expect(TimeSpan.milliseconds(3).nanoseconds == 3_000_000)
    #expect(TimeSpan.microseconds(7).nanoseconds == 7_000)
    #expect(TimeSpan.milliseconds(1_500).seconds == 1.5)
    #expect(TimeSpan.seconds(3) / .milliseconds(1) == 3_000)
  }

  @Test("Milliseconds round half up, as reports write them")
  func millisecondsRound() {
    #expect(TimeSpan.microseconds(31_600).roundedMilliseconds == 32)
    #expect(TimeSpan.microseconds(31_499).roundedMilliseconds == 31)
    #expect(TimeSpan(nanoseconds: .max).roundedMilliseconds == Int64.max / 1_000_000)
  }

  @Test("A span too large for 64 bits saturates instead of trapping")
  func hugeSpansSaturate() {
    #expect(TimeSpan.seconds(Int.max).nanoseconds == .max)
    #expect(TimeSpan.seconds(Int.min).nanoseconds == .min)
    #expect(TimeSpan.seconds(1e300).nanoseconds == .max)
    #expect(TimeSpan.seconds(-Double.infinity).nanoseconds == .min)
    #expect(TimeSpan.seconds(Double.nan) == .zero)
    #expect((TimeSpan(nanoseconds: .max) + .seconds(1)).nanoseconds == .max)
    #expect((TimeSpan(nanoseconds: .min) - .seconds(1)).nanoseconds == .min)
    #expect((TimeSpan.seconds(1) * Int.max).nanoseconds == .max)
  }

  @Test("A deadline far in the future does not overflow, and the clock moves forward")
  func deadlines() {
    let start = MonotonicInstant.now
    let far = start.advanced(by: TimeSpan(nanoseconds: .max))
    #expect(far > start)
    #expect(start.advanced(by: .seconds(1)) - start == .seconds(1))
    let elapsed = MonotonicInstant.measure {}
    #expect(elapsed >= .zero)
    #expect(MonotonicInstant.now >= start)
  }
}
