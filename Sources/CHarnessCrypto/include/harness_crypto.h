#ifndef HARNESS_CRYPTO_H
#define HARNESS_CRYPTO_H

// The project's one interface to cryptography: SHA-1/256/512 digests, HMAC,
// PBKDF2, AES-256-CBC without padding, random bytes and a zeroing that the
// compiler keeps. On Linux it is OpenSSL's libcrypto; on Darwin, CommonCrypto.
// This header includes neither, so Swift sees only these names.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The hash functions the project uses.
typedef enum harness_hash {
  HARNESS_HASH_SHA1 = 1,
  HARNESS_HASH_SHA256 = 2,
  HARNESS_HASH_SHA512 = 3,
} harness_hash;

/// The digest size of a hash in bytes (20, 32 or 64), or 0 for an unknown one.
size_t harness_hash_size(harness_hash hash);

/// An incremental SHA-256. Opaque; make with harness_sha256_new, free with harness_sha256_free.
typedef struct harness_sha256_context harness_sha256_context;

/// A new SHA-256 context, or NULL when memory runs out.
harness_sha256_context *harness_sha256_new(void);
/// Adds bytes. Returns 1 on success, 0 on failure.
int harness_sha256_update(harness_sha256_context *context, const void *bytes, size_t count);
/// Writes the 32-byte digest and resets the context for reuse. Returns 1 on success.
int harness_sha256_final(harness_sha256_context *context, uint8_t digest[32]);
/// A new context in the same state as `context`, which is not changed: hashing more into
/// either leaves the other as it was. NULL when memory runs out or `context` is NULL.
harness_sha256_context *harness_sha256_copy(const harness_sha256_context *context);
/// Frees a context (NULL is allowed).
void harness_sha256_free(harness_sha256_context *context);

/// A one-shot digest into `digest` (harness_hash_size(hash) bytes). Returns 1 on success.
int harness_digest(harness_hash hash, const void *bytes, size_t count, uint8_t *digest);

/// HMAC over the concatenation of up to two parts (either may be empty), into `mac`
/// (harness_hash_size(hash) bytes). Returns 1 on success.
int harness_hmac(
  harness_hash hash, const void *key, size_t key_count, const void *first, size_t first_count,
  const void *second, size_t second_count, uint8_t *mac);

/// PBKDF2-HMAC with `hash`. Returns 1 on success.
int harness_pbkdf2(
  harness_hash hash, const void *password, size_t password_count, const void *salt,
  size_t salt_count, uint32_t iterations, uint8_t *key, size_t key_count);

/// AES-256-CBC without padding over `count` bytes (a multiple of 16); `input` and `output`
/// may not overlap. `encrypt` is 1 to encrypt, 0 to decrypt. Returns 1 on success.
int harness_aes256_cbc(
  int encrypt, const uint8_t key[32], const uint8_t iv[16], const uint8_t *input,
  uint8_t *output, size_t count);

/// Fills `bytes` from the system's cryptographic random source. Returns 1 on success.
int harness_random_bytes(uint8_t *bytes, size_t count);

/// Sets `count` bytes to zero in a way the compiler does not remove.
void harness_secure_zero(void *bytes, size_t count);

/// Compares in time that depends only on `count`. Returns 1 when equal.
int harness_constant_time_equal(const void *first, const void *second, size_t count);

#ifdef __cplusplus
}
#endif

#endif
