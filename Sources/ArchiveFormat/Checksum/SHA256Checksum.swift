import CHarnessCrypto

/// The SHA-256 digest of FIPS 180-4, for fixture checksums and `dataDigest` expectations.
///
/// The digest is the system's: OpenSSL's libcrypto on Linux, CommonCrypto on Darwin, both
/// through the package's CHarnessCrypto target, the project's one interface to cryptography. It is
/// checked against the FIPS test vectors and `sha256sum`.
///
/// A hasher is a value: a copy hashes on independently of the one it was copied from.
///
/// ```swift
/// var hasher = SHA256Checksum()
/// hasher.update(Array("abc".utf8))
/// let hex = hasher.finalize().hexadecimal
/// ```
public struct SHA256Checksum: Sendable {
  /// A finished digest: 32 bytes.
  public struct Digest: Sendable, Hashable, CustomStringConvertible {
    /// The digest's bytes.
    public var bytes: [UInt8]
    /// The digest as 64 lowercase hexadecimal digits.
    public var hexadecimal: String { Hex.encode(bytes) }
    /// The digest in hexadecimal.
    public var description: String { hexadecimal }
  }

  /// The digest size of SHA-256, in bytes.
  private static let digestSize = 32

  /// The C context, shared by copies of a hasher until one of them changes it.
  private var context: Context

  /// Creates a hasher with nothing hashed yet.
  public init() { context = Context() }

  /// Returns the digest of `bytes`.
  public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> Digest where Bytes.Element == UInt8 {
    if let digest = bytes.withContiguousStorageIfAvailable({
      digest(of: UnsafeRawBufferPointer($0))
    }) {
      return digest
    }
    return Array(bytes).withUnsafeBytes { digest(of: $0) }
  }

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    makeContextUnique()
    let status = bytes.withUnsafeBytes {
      harness_sha256_update(context.pointer, $0.baseAddress, $0.count)
    }
    precondition(status == 1, "SHA-256: the system's cryptography library failed to hash")
  }

  /// Pads the message and returns its digest; the hasher then starts over with nothing hashed.
  public mutating func finalize() -> Digest {
    makeContextUnique()
    let pointer = context.pointer
    return Digest(
      bytes: Self.digestBytes { harness_sha256_final(pointer, $0) })
  }

  /// Gives this hasher a context of its own before it changes one that copies share.
  private mutating func makeContextUnique() {
    if !isKnownUniquelyReferenced(&context) { context = Context(copying: context) }
  }

  /// The one-shot digest of a buffer.
  private static func digest(of buffer: UnsafeRawBufferPointer) -> Digest {
    // CommonCrypto's one-shot digest takes a 32-bit length; the context takes any.
    guard buffer.count <= Int(UInt32.max) else {
      var hasher = SHA256Checksum()
      let status = harness_sha256_update(hasher.context.pointer, buffer.baseAddress, buffer.count)
      precondition(status == 1, "SHA-256: the system's cryptography library failed to hash")
      return hasher.finalize()
    }
    return Digest(
      bytes: digestBytes {
        harness_digest(HARNESS_HASH_SHA256, buffer.baseAddress, buffer.count, $0)
      })
  }

  /// Calls `write` with room for a digest and returns the digest it wrote.
  private static func digestBytes(
    _ write: (UnsafeMutablePointer<UInt8>?) -> Int32
  ) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: digestSize) { buffer, count in
      let status = write(buffer.baseAddress)
      precondition(status == 1, "SHA-256: the system's cryptography library failed to hash")
      count = digestSize
    }
  }

  /// The C context behind a hasher: made by `harness_sha256_new`, freed with the box.
  ///
  /// `@unchecked Sendable` because the box holds a mutable C context, yet is safe to send: it is
  /// copy-on-write. `SHA256Checksum` changes the context only in its `mutating` methods, and only after
  /// `isKnownUniquelyReferenced` has shown that the value being mutated (held exclusively, as
  /// every `inout` value is) holds the one reference to the box. A box that copies share is
  /// only ever read (`harness_sha256_copy` takes a `const` context), never mutated, so no
  /// thread can see a box change that another can reach: Array's rule for its storage.
  private final class Context: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A fresh context with nothing hashed.
    init() {
      guard let pointer = harness_sha256_new() else {
        fatalError("SHA-256: the system's cryptography library gave no context (out of memory?)")
      }
      self.pointer = pointer
    }

    /// A context in the same state as `other`, which is left as it is.
    init(copying other: Context) {
      guard let pointer = harness_sha256_copy(other.pointer) else {
        fatalError("SHA-256: the system's cryptography library could not copy a context")
      }
      self.pointer = pointer
    }

    deinit { harness_sha256_free(pointer) }
  }
}
