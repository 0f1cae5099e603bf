// libFuzzer entry point for SQLCipher's page codec (Sources/CHarnessSQLCipher/sqlcipher_codec.c):
// settings, a key, a salt and a page number come from the input's first bytes, the rest is a
// page. Each input is decrypted as it is; then the same bytes, as a plaintext page, must come
// back unchanged from encrypt and decrypt, and, when the settings have an HMAC, a flipped bit
// or another page number must be refused. A wrong round trip traps: it is a finding.
//
// Input layout (missing bytes read as 0):
//   0     page size: the low 4 bits pick one of `pageSizes` (valid and invalid ones);
//         bit 4: the plaintext header's size is 4 bytes of the input (any 32-bit value),
//         else bits 5-7 pick one of `headerSizes`
//   1     bit 0 HMAC on; bits 1-2 the KDF's hash, bits 3-4 the HMAC's (0 is no hash, invalid);
//         bit 5 raw key; bit 6 a round trip of page 1 gets a valid SQLite header;
//         bit 7 also decrypt with a variant (byte 5) of the codec
//   2     KDF iterations, 0 to 3 (0 is invalid; kept tiny so a run stays fast)
//   3     page number: 0x00-0x3f page 1, 0x40-0x7f page 2 + (b & 0x3f), else 4 bytes follow
//   4     key length: 0 to 63 bytes of the input (a raw key is 32 unless b >= 0xf0)
//   5     the variant: page size index (bits 0-3), HMAC flipped (bit 4), its hash (bits 5-6),
//         a KDF change that must be refused (bit 7)
//   6-7   where the tamper check flips a bit (little-endian, taken modulo the covered bytes)
//   then  the page number (4 bytes, when byte 3 says so), the header size (4 bytes, when
//         byte 0 says so), the key, the 16-byte salt, and the page (zero-padded or cut to
//         the page size)
//
// Built by scripts/fuzz with -sanitize=fuzzer,address against CHarnessCrypto and CHarnessSQLCipher (their C
// compiled with clang and the same sanitizers, libcrypto and libsqlite3 linked); never part of
// `swift build`. Every buffer the codec sees is allocated at its exact size, so that a read
// or write past a page is AddressSanitizer's to report.

import CHarnessSQLCipher

/// Page sizes: every valid one, then sizes the codec must refuse.
private let pageSizes: [UInt32] = [
  512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
  0, 256, 496, 1000, 4095, 4097, 131_072, 0x8000_0000,
]

/// Plaintext header sizes: none (most often), valid ones, and ones the codec must refuse
/// (not a multiple of 16; the largest multiple of 16, which wraps when the reserve is added).
private let headerSizes: [UInt32] = [0, 0, 0, 16, 32, 432, 8, 0xFFFF_FFF0]

/// SQLite's header string, as page 1 starts in the clear.
private let sqliteHeader: [UInt8] = Array("SQLite format 3\0".utf8)

/// The input, read front to back; bytes past its end read as 0.
private struct Reader {
  let base: UnsafePointer<UInt8>
  let count: Int
  var offset = 0

  mutating func byte() -> UInt8 {
    defer { offset += 1 }
    return offset < count ? base[offset] : 0
  }

  mutating func word() -> UInt32 {
    var value: UInt32 = 0
    for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(byte()) << UInt32(shift) }
    return value
  }

  mutating func bytes(_ wanted: Int) -> [UInt8] {
    (0..<wanted).map { _ in byte() }
  }

  /// The rest of the input, zero-padded or cut to `size` bytes, in a buffer of exactly `size`.
  mutating func page(size: Int) -> UnsafeMutablePointer<UInt8> {
    let page = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
    page.initialize(repeating: 0, count: size)
    let available = max(0, min(size, count - offset))
    if available > 0 { page.update(from: base + offset, count: available) }
    offset = count
    return page
  }
}

private func hashSize(_ hash: harness_cipher_hash) -> Int {
  switch hash {
  case 1: return 20
  case 2: return 32
  default: return 64
  }
}

private func fail(_ message: String) -> Never {
  fatalError("page-codec: \(message)")
}

/// Writes page 1's header fields the codec and SQLite check, so that a round trip must succeed.
private func makeValidFirstPage(
  _ plain: UnsafeMutablePointer<UInt8>, pageSize: UInt32, reserve: UInt32
) {
  for index in 0..<16 { plain[index] = sqliteHeader[index] }
  let stored = pageSize == 65536 ? 1 : pageSize
  plain[16] = UInt8(truncatingIfNeeded: stored >> 8)
  plain[17] = UInt8(truncatingIfNeeded: stored)
  plain[20] = max(plain[20], UInt8(reserve))
  plain[21] = 64
  plain[22] = 32
  plain[23] = 32
}

@_cdecl("LLVMFuzzerTestOneInput")
public func pageCodecFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = Reader(base: data, count: size)
  let sizeByte = input.byte()
  let flags = input.byte()
  let iterations = UInt32(input.byte() % 4)
  let numberByte = input.byte()
  let keyByte = input.byte()
  let variantByte = input.byte()
  let tamper = Int(input.byte()) | Int(input.byte()) << 8

  var settings = harness_cipher_settings()
  settings.page_size = pageSizes[Int(sizeByte & 0x0f)]
  settings.use_hmac = Int32(flags & 1)
  settings.kdf_hash = harness_cipher_hash((flags >> 1) & 3)
  settings.hmac_hash = harness_cipher_hash((flags >> 3) & 3)
  settings.kdf_iterations = iterations
  let raw = flags & 0x20 != 0
  let pageNumber: UInt32
  switch numberByte {
  case 0..<0x40: pageNumber = 1
  case 0x40..<0x80: pageNumber = 2 + UInt32(numberByte & 0x3f)
  default: pageNumber = input.word()
  }
  settings.plaintext_header_size =
    sizeByte & 0x10 != 0 ? input.word() : headerSizes[Int(sizeByte >> 5)]
  let keyCount = raw && keyByte < 0xf0 ? 32 : Int(keyByte % 64)
  var key = input.bytes(keyCount)
  let salt = input.bytes(16)

  var status = HARNESS_CIPHER_OK
  let made = key.withUnsafeBufferPointer { keyBytes in
    salt.withUnsafeBufferPointer { saltBytes in
      harness_cipher_codec_new(
        &settings, keyBytes.baseAddress, keyBytes.count, raw ? 1 : 0, saltBytes.baseAddress, &status
      )
    }
  }
  for index in key.indices { key[index] = 0 }
  guard let codec = made else {
    if status == HARNESS_CIPHER_OK { fail("no codec, yet status OK") }
    return 0
  }
  defer { harness_cipher_codec_free(codec) }
  if status != HARNESS_CIPHER_OK { fail("a codec with status \(status.rawValue)") }

  // What the codec accepted must be a layout a page can hold.
  let kept = harness_cipher_codec_settings(codec)
  let reserve = harness_cipher_codec_reserve(codec)
  let pageSize = kept.page_size
  guard kept.page_size == settings.page_size, kept.use_hmac == settings.use_hmac,
    kept.plaintext_header_size == settings.plaintext_header_size
  else { fail("the codec changed its settings") }
  guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
    fail("accepted page size \(pageSize)")
  }
  let header = kept.plaintext_header_size
  guard reserve >= 16, reserve % 16 == 0, UInt64(header) + UInt64(reserve) < UInt64(pageSize),
    pageSize - reserve >= 480
  else { fail("accepted reserve \(reserve) with header \(header) in a \(pageSize)-byte page") }
  if kept.use_hmac != 0, UInt32(16 + hashSize(kept.hmac_hash)) > reserve {
    fail("the reserve \(reserve) cannot hold the IV and the HMAC")
  }

  let count = Int(pageSize)
  let end = count - Int(reserve)
  let start = pageNumber == 1 ? (header > 0 ? Int(header) : 16) : 0
  let page = input.page(size: count)
  let plain = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
  let cipher = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
  let back = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
  defer {
    for buffer in [page, plain, cipher, back] { buffer.deallocate() }
  }
  plain.initialize(repeating: 0, count: count)
  cipher.initialize(repeating: 0, count: count)
  back.initialize(repeating: 0, count: count)

  // 1. The input as a stored page: any status, no crash.
  _ = harness_cipher_decrypt_page(codec, pageNumber, page, plain)

  // 2. The input as a plaintext page: encrypt, then decrypt, must give it back.
  plain.update(from: page, count: count)
  let fixHeader = flags & 0x40 != 0
  if pageNumber == 1, fixHeader { makeValidFirstPage(plain, pageSize: pageSize, reserve: reserve) }
  let encrypted = harness_cipher_encrypt_page(codec, pageNumber, plain, cipher)
  if pageNumber == 0 {
    if encrypted != HARNESS_CIPHER_BAD_SETTINGS { fail("page 0 encrypted (\(encrypted.rawValue))") }
    return 0
  }
  if encrypted != HARNESS_CIPHER_OK {
    // Only page 1 with a header that does not match the settings may be refused.
    if pageNumber == 1, !fixHeader, encrypted == HARNESS_CIPHER_REFUSED_WRITE { return 0 }
    fail("encrypting page \(pageNumber) failed with \(encrypted.rawValue)")
  }
  let decrypted = harness_cipher_decrypt_page(codec, pageNumber, cipher, back)
  if decrypted != HARNESS_CIPHER_OK {
    // An unfixed page 1 may pass encrypt's checks (page size, reserve) but not decrypt's.
    if pageNumber == 1, !fixHeader, decrypted == HARNESS_CIPHER_BAD_HEADER { return 0 }
    fail("page \(pageNumber) did not decrypt after encrypting (\(decrypted.rawValue))")
  }
  // Page 1 without a plaintext header gets SQLite's header back in its first 16 bytes.
  let compared = pageNumber == 1 && header == 0 ? 16 : 0
  for index in compared..<end where back[index] != plain[index] {
    fail("round trip of page \(pageNumber) changed byte \(index) of \(count)")
  }
  if pageNumber == 1 {
    if header > 0 {
      for index in 0..<Int(header) where cipher[index] != plain[index] {
        fail("the plaintext header changed at byte \(index)")
      }
    } else {
      for index in 0..<16 where cipher[index] != salt[index] {
        fail("page 1 does not start with the salt")
      }
      for index in 0..<16 where back[index] != sqliteHeader[index] {
        fail("page 1 did not get SQLite's header back")
      }
    }
  }

  // 3. With an HMAC, any flipped bit it covers, or another page number, is refused.
  if kept.use_hmac != 0 {
    let covered = end + 16 + hashSize(kept.hmac_hash) - start
    let at = start + tamper % covered
    cipher[at] ^= UInt8(1) << UInt8(tamper >> 13)
    let tampered = harness_cipher_decrypt_page(codec, pageNumber, cipher, back)
    if tampered != HARNESS_CIPHER_HMAC_MISMATCH {
      fail("a flipped bit at byte \(at) of page \(pageNumber) gave \(tampered.rawValue)")
    }
    cipher[at] ^= UInt8(1) << UInt8(tamper >> 13)
    if pageNumber != UInt32.max {
      let moved = harness_cipher_decrypt_page(codec, pageNumber + 1, cipher, back)
      if moved != HARNESS_CIPHER_HMAC_MISMATCH {
        fail("page \(pageNumber) decrypted as page \(pageNumber + 1) gave \(moved.rawValue)")
      }
    }
  }

  // 4. A variant of the codec: other page size and HMAC, same keys; a KDF change is refused.
  if flags & 0x80 != 0 {
    var other = kept
    other.page_size = pageSizes[Int(variantByte & 0x0f)]
    if variantByte & 0x10 != 0 { other.use_hmac = other.use_hmac == 0 ? 1 : 0 }
    other.hmac_hash = harness_cipher_hash((variantByte >> 5) & 3)
    if variantByte & 0x80 != 0 { other.kdf_iterations &+= 1 }
    var variantStatus = HARNESS_CIPHER_OK
    let variant = harness_cipher_codec_variant(codec, &other, &variantStatus)
    if variantByte & 0x80 != 0, variant != nil { fail("a variant changed the key derivation") }
    if let variant {
      defer { harness_cipher_codec_free(variant) }
      let variantSize = Int(harness_cipher_codec_settings(variant).page_size)
      let stored = UnsafeMutablePointer<UInt8>.allocate(capacity: variantSize)
      let out = UnsafeMutablePointer<UInt8>.allocate(capacity: variantSize)
      defer {
        stored.deallocate()
        out.deallocate()
      }
      stored.initialize(repeating: 0, count: variantSize)
      stored.update(from: cipher, count: min(count, variantSize))
      _ = harness_cipher_decrypt_page(variant, pageNumber, stored, out)
    } else if variantStatus == HARNESS_CIPHER_OK {
      fail("no variant, yet status OK")
    }
  }
  return 0
}
