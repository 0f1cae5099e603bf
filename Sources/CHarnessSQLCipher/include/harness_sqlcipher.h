#ifndef HARNESS_SQLCIPHER_H
#define HARNESS_SQLCIPHER_H

// SQLCipher's page format (versions 1 to 4) and a SQLite VFS that applies it, over the
// system's unmodified libsqlite3. Pages are decrypted and checked as SQLite reads them and
// encrypted as it writes them; the rollback journal is encrypted too, a WAL is read, and
// nothing else (temporary files, sub-journals) may be opened through it. The header names
// no OpenSSL or SQLite type, so Swift sees only these.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The hash a setting names, as harness_crypto.h numbers them (1 SHA-1, 2 SHA-256, 3 SHA-512).
typedef int harness_cipher_hash;

/// How a database is encrypted. Nothing here is secret.
typedef struct harness_cipher_settings {
  /// The page size in bytes: a power of two from 512 to 65,536.
  uint32_t page_size;
  /// PBKDF2 iterations for a passphrase (a raw key skips them).
  uint32_t kdf_iterations;
  /// The hash of both key derivations (the passphrase's and the HMAC key's).
  harness_cipher_hash kdf_hash;
  /// The hash of the page HMAC; ignored when use_hmac is 0.
  harness_cipher_hash hmac_hash;
  /// 0 for SQLCipher 1, which has no page HMAC.
  int use_hmac;
  /// Bytes of page 1 left in the clear (0, or a multiple of 16); the salt is then not in the file.
  uint32_t plaintext_header_size;
} harness_cipher_settings;

/// What a codec call found.
typedef enum harness_cipher_status {
  HARNESS_CIPHER_OK = 0,
  /// The settings are out of range (page size, header size, hashes).
  HARNESS_CIPHER_BAD_SETTINGS = 1,
  /// The cryptographic library failed.
  HARNESS_CIPHER_CRYPTO_FAILED = 2,
  /// A page's HMAC does not match: a wrong key or settings, or a damaged page.
  HARNESS_CIPHER_HMAC_MISMATCH = 3,
  /// Page 1 decrypted to something that is not an SQLite header (SQLCipher 1's only key check).
  HARNESS_CIPHER_BAD_HEADER = 4,
  /// Memory ran out.
  HARNESS_CIPHER_NO_MEMORY = 5,
  /// A write SQLite asked for that would not keep the file SQLCipher's (a partial page, a
  /// changed page size or reserve, a WAL frame, a temporary file).
  HARNESS_CIPHER_REFUSED_WRITE = 6,
} harness_cipher_status;

/// A database's keys and settings. Immutable once made, so connections may share it.
typedef struct harness_cipher_codec harness_cipher_codec;

/// Derives the keys: the encryption key (PBKDF2 over a passphrase, or `key` itself when `raw`
/// is 1 and `key_count` is 32) and the HMAC key (from the encryption key and the salt).
///
/// `salt` is the file's first 16 bytes, or the salt given separately for a plaintext header.
/// Returns NULL with `*status` set on failure. The caller clears its own copy of the key.
harness_cipher_codec *harness_cipher_codec_new(
  const harness_cipher_settings *settings, const uint8_t *key, size_t key_count, int raw,
  const uint8_t salt[16], harness_cipher_status *status);

/// A codec with the same keys and other settings: those may differ from the codec's in
/// anything but the key derivation (hash and iterations) and the plaintext header.
harness_cipher_codec *harness_cipher_codec_variant(
  const harness_cipher_codec *codec, const harness_cipher_settings *settings,
  harness_cipher_status *status);

/// Clears the keys and frees the codec (NULL is allowed).
void harness_cipher_codec_free(harness_cipher_codec *codec);

/// The settings the codec was made with.
harness_cipher_settings harness_cipher_codec_settings(const harness_cipher_codec *codec);

/// The bytes reserved at the end of every page: the IV and the HMAC, rounded up to 16.
uint32_t harness_cipher_codec_reserve(const harness_cipher_codec *codec);

/// Checks and decrypts one page of `page_size` bytes into `plain` (which may not overlap).
/// Page 1 gets SQLite's header back in its first 16 bytes (or keeps its plaintext header).
harness_cipher_status harness_cipher_decrypt_page(
  const harness_cipher_codec *codec, uint32_t page_number, const uint8_t *page, uint8_t *plain);

/// Encrypts one page of `page_size` bytes into `page` with a fresh random IV and its HMAC.
harness_cipher_status harness_cipher_encrypt_page(
  const harness_cipher_codec *codec, uint32_t page_number, const uint8_t *plain, uint8_t *page);

/// A VFS registered with SQLite under its own name, over the default VFS.
typedef struct harness_cipher_vfs harness_cipher_vfs;

/// Registers a VFS named `name` (copied). With a codec, the main database, its rollback
/// journal and its WAL go through it; without one, files pass through unchanged.
/// `read_only` 1 refuses every write, create and delete, and takes no lock above SHARED,
/// so that a connection in exclusive locking mode reads a WAL database with no -shm file.
/// The codec is borrowed: it must outlive the VFS. Returns NULL on failure.
harness_cipher_vfs *harness_cipher_vfs_register(
  const char *name, const harness_cipher_codec *codec, int read_only);

/// The name to pass to sqlite3_open_v2.
const char *harness_cipher_vfs_name(const harness_cipher_vfs *vfs);

/// Unregisters and frees the VFS; every connection that used it must be closed first.
void harness_cipher_vfs_unregister(harness_cipher_vfs *vfs);

/// The first failure a file of this VFS met: its status (HARNESS_CIPHER_OK when none), the
/// page number and whether it was in the WAL (1) or the journal (2), else 0.
harness_cipher_status harness_cipher_vfs_failure(
  const harness_cipher_vfs *vfs, uint32_t *page_number, int *file_kind);

/// Clears the recorded failure.
void harness_cipher_vfs_clear_failure(harness_cipher_vfs *vfs);

#ifdef __cplusplus
}
#endif

#endif
