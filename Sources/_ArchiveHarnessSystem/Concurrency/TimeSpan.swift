#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A span of time in whole nanoseconds, as timeouts and measured times take it.
///
/// It is the part of Swift's `Duration` the harness uses, which Apple platforms have only from
/// macOS 13 and iOS 16. Arithmetic saturates at the bounds rather than trapping, so a huge
/// timeout given on the command line means "no practical limit", never a crash.
///
/// ```swift
/// let configuration = HarnessConfiguration(modelClasses: NotesModel.classes)
/// let runner = configuration.runner(timeout: .seconds(30))
/// print(TimeSpan.milliseconds(1_500).seconds)  // 1.5
/// ```
package struct TimeSpan: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The span in nanoseconds; negative for a span that points back in time.
  package var nanoseconds: Int64

  /// A span of the given number of nanoseconds.
  package init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// No time at all.
  package static let zero = TimeSpan(nanoseconds: 0)

  /// A span of whole seconds.
  package static func seconds<Count: BinaryInteger>(_ seconds: Count) -> TimeSpan {
    scaled(seconds, by: 1_000_000_000)
  }

  /// A span of seconds with a fraction, rounded to the nearest nanosecond.
  package static func seconds(_ seconds: Double) -> TimeSpan {
    let nanoseconds = (seconds * 1_000_000_000).rounded()
    guard !nanoseconds.isNaN else { return .zero }
    if nanoseconds >= Double(Int64.max) { return TimeSpan(nanoseconds: .max) }
    if nanoseconds <= Double(Int64.min) { return TimeSpan(nanoseconds: .min) }
    return TimeSpan(nanoseconds: Int64(nanoseconds))
  }

  /// A span of whole minutes.
  package static func minutes<Count: BinaryInteger>(_ minutes: Count) -> TimeSpan {
    scaled(minutes, by: 60_000_000_000)
  }

  /// A span of whole milliseconds.
  package static func milliseconds<Count: BinaryInteger>(_ milliseconds: Count) -> TimeSpan {
    scaled(milliseconds, by: 1_000_000)
  }

  /// A span of whole microseconds.
  package static func microseconds<Count: BinaryInteger>(_ microseconds: Count) -> TimeSpan {
    scaled(microseconds, by: 1_000)
  }

  /// The span in seconds, with a fraction.
  package var seconds: Double { Double(nanoseconds) / 1_000_000_000 }

  /// The span in whole milliseconds, rounded half up, as reports write it.
  package var roundedMilliseconds: Int64 {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(500_000)
    return (overflow ? nanoseconds : sum) / 1_000_000
  }

  /// As Swift's `Duration` prints: `1.5 seconds`.
  package var description: String { "\(seconds) seconds" }

  /// Whether the left span is the shorter.
  package static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  /// The sum, saturating at the bounds.
  package static func + (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan {
    let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
    guard overflow else { return TimeSpan(nanoseconds: sum) }
    return TimeSpan(nanoseconds: rhs.nanoseconds > 0 ? .max : .min)
  }

  /// The difference, saturating at the bounds.
  package static func - (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan {
    let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
    guard overflow else { return TimeSpan(nanoseconds: difference) }
    return TimeSpan(nanoseconds: rhs.nanoseconds < 0 ? .max : .min)
  }

  /// The span times a count, saturating at the bounds.
  package static func * <Count: BinaryInteger>(lhs: TimeSpan, rhs: Count) -> TimeSpan {
    scaled(rhs, by: lhs.nanoseconds)
  }

  /// How many times `rhs` fits in `lhs`, with a fraction.
  package static func / (lhs: TimeSpan, rhs: TimeSpan) -> Double {
    Double(lhs.nanoseconds) / Double(rhs.nanoseconds)
  }

  private static func scaled<Count: BinaryInteger>(_ count: Count, by unit: Int64) -> TimeSpan {
    let (product, overflow) = Int64(clamping: count).multipliedReportingOverflow(by: unit)
    guard overflow else { return TimeSpan(nanoseconds: product) }
    return TimeSpan(nanoseconds: (count < 0) == (unit < 0) ? .max : .min)
  }
}

/// A reading of the system's monotonic clock, for deadlines and measured times.
///
/// `CLOCK_MONOTONIC` on Linux and on Apple platforms, where it keeps counting while the machine
/// sleeps, as `ContinuousClock` does (which needs macOS 13 and iOS 16).
///
/// ```swift
/// let deadline = MonotonicInstant.now.advanced(by: .seconds(20))
/// if MonotonicInstant.now >= deadline { print("timed out") }
/// ```
package struct MonotonicInstant: Sendable, Hashable, Comparable {
  /// Nanoseconds since an unspecified start, which stays fixed while the system runs.
  package var nanoseconds: Int64

  /// The clock's reading now.
  package static var now: MonotonicInstant {
    var reading = timespec()
    clock_gettime(CLOCK_MONOTONIC, &reading)
    return MonotonicInstant(
      nanoseconds: Int64(reading.tv_sec) * 1_000_000_000 + Int64(reading.tv_nsec))
  }

  /// The instant a span after this one (before it, for a negative span).
  package func advanced(by span: TimeSpan) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: (TimeSpan(nanoseconds: nanoseconds) + span).nanoseconds)
  }

  /// The span from this instant to another: negative when the other is earlier.
  package func duration(to other: MonotonicInstant) -> TimeSpan {
    TimeSpan(nanoseconds: other.nanoseconds) - TimeSpan(nanoseconds: nanoseconds)
  }

  /// How long `body` took to run.
  package static func measure(_ body: () throws -> Void) rethrows -> TimeSpan {
    let start = now
    try body()
    return start.duration(to: now)
  }

  /// Whether the left instant is the earlier.
  package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  /// The span between two instants.
  package static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> TimeSpan {
    rhs.duration(to: lhs)
  }
}
