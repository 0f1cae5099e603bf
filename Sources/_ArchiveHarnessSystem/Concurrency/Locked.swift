#if canImport(Darwin)
  import os
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value that threads share, reached only while its lock is held.
///
/// The lock is `os_unfair_lock` on Apple platforms and a `pthread_mutex_t` elsewhere, so it
/// needs neither the Synchronization module (macOS 15, iOS 18) nor Foundation. It is not
/// recursive: a body that calls `withLock` on the same value again deadlocks.
///
/// ```swift
/// let names = Locked<[ObjectIdentifier: String]>([:])
/// names.withLock { $0[ObjectIdentifier(NSString.self)] = "NSString" }
/// let count = names.withLock { $0.count }
/// ```
package final class Locked<Value>: @unchecked Sendable {
  #if canImport(Darwin)
    private typealias Primitive = os_unfair_lock
  #else
    private typealias Primitive = pthread_mutex_t
  #endif

  // The lock lives at a fixed address of its own: neither kind may move while it is used.
  private let primitive: UnsafeMutablePointer<Primitive>
  private var value: Value

  /// Makes a lock that guards `value`.
  package init(_ value: Value) {
    self.value = value
    primitive = UnsafeMutablePointer<Primitive>.allocate(capacity: 1)
    #if canImport(Darwin)
      primitive.initialize(to: os_unfair_lock())
    #else
      primitive.initialize(to: pthread_mutex_t())
      pthread_mutex_init(primitive, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(primitive)
    #endif
    primitive.deinitialize(count: 1)
    primitive.deallocate()
  }

  /// Runs `body` with the value while the lock is held, and returns what it returns.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    #if canImport(Darwin)
      os_unfair_lock_lock(primitive)
      defer { os_unfair_lock_unlock(primitive) }
    #else
      pthread_mutex_lock(primitive)
      defer { pthread_mutex_unlock(primitive) }
    #endif
    return try body(&value)
  }
}
