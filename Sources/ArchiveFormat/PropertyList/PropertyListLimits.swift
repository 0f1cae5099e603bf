/// Bounds on what a reader accepts, so that hostile input cannot exhaust memory, time or stack.
///
/// Every limit has a safe default. Passing one is a `PropertyListError` with
/// code `PropertyListError.Code.limitExceeded`, naming the limit.
///
/// ```swift
/// var limits = PropertyListLimits()
/// limits.maximumInputSize = 256 << 20
/// let value = try PropertyListReader(limits: limits).read(bytes)
/// ```
package struct PropertyListLimits: Hashable, Sendable {
  /// The largest input accepted, in bytes (default 64 MiB).
  package var maximumInputSize: Int = 64 << 20
  /// The deepest nesting of containers accepted (default 512).
  package var maximumDepth: Int = 512
  /// The most objects a binary list may declare, and the most values any list may hold (default 4,194,304).
  package var maximumObjectCount: Int = 1 << 22
  /// The most elements one array or dictionary may hold (default 1,048,576).
  package var maximumContainerCount: Int = 1 << 20
  /// The longest string accepted, in UTF-16 units or bytes (default 16,777,216).
  package var maximumStringLength: Int = 1 << 24

  /// Creates the default limits.
  package init() {}

  /// The default limits.
  package static let `default` = PropertyListLimits()
}
