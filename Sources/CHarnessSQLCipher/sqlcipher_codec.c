// SQLCipher's page format. A page of `page_size` bytes ends with `reserve` bytes: a 16-byte
// IV, then the HMAC (none in version 1), then padding to a multiple of 16. The bytes before
// the reserve are AES-256-CBC ciphertext, from byte 0 on every page but the first, which
// starts after the salt (16 bytes) or the plaintext header. The HMAC covers the ciphertext
// and the IV, then the page number as 4 little-endian bytes.

#include "harness_sqlcipher.h"

#include "harness_crypto.h"

#include <stdlib.h>
#include <string.h>

struct harness_cipher_codec {
  harness_cipher_settings settings;
  uint32_t reserve;
  uint8_t salt[16];
  uint8_t key[32];
  uint8_t hmac_key[32];
};

static const uint8_t sqlite_header[16] = "SQLite format 3";

static int valid_hash(harness_cipher_hash hash) {
  return hash == HARNESS_HASH_SHA1 || hash == HARNESS_HASH_SHA256 || hash == HARNESS_HASH_SHA512;
}

static uint32_t reserve_for(const harness_cipher_settings *settings) {
  uint32_t needed = 16;
  if (settings->use_hmac) needed += (uint32_t)harness_hash_size((harness_hash)settings->hmac_hash);
  return (needed + 15) / 16 * 16;
}

static int valid_settings(const harness_cipher_settings *settings) {
  uint32_t size = settings->page_size;
  if (size < 512 || size > 65536 || (size & (size - 1)) != 0) return 0;
  if (!valid_hash(settings->kdf_hash)) return 0;
  if (settings->use_hmac && !valid_hash(settings->hmac_hash)) return 0;
  if (settings->kdf_iterations == 0) return 0;
  uint32_t header = settings->plaintext_header_size;
  uint32_t reserve = reserve_for(settings);
  // header < size first: header + reserve must not wrap (0xFFFFFFF0 + 80 is 64).
  if (header % 16 != 0 || header >= size || header + reserve >= size) return 0;
  // SQLite's own limit: the usable size of a page is at least 480 bytes.
  if (size - reserve < 480) return 0;
  return 1;
}

static harness_cipher_codec *derive_hmac_key(harness_cipher_codec *codec,
                                             harness_cipher_status *status) {
  uint8_t mask[16];
  for (int index = 0; index < 16; index++) mask[index] = codec->salt[index] ^ 0x3a;
  if (!harness_pbkdf2((harness_hash)codec->settings.kdf_hash, codec->key, 32, mask, 16, 2,
                      codec->hmac_key, 32)) {
    harness_cipher_codec_free(codec);
    *status = HARNESS_CIPHER_CRYPTO_FAILED;
    return NULL;
  }
  *status = HARNESS_CIPHER_OK;
  return codec;
}

harness_cipher_codec *harness_cipher_codec_new(
  const harness_cipher_settings *settings, const uint8_t *key, size_t key_count, int raw,
  const uint8_t salt[16], harness_cipher_status *status) {
  harness_cipher_status ignored;
  if (status == NULL) status = &ignored;
  if (settings == NULL || salt == NULL || (key == NULL && key_count > 0)
      || !valid_settings(settings) || (raw && key_count != 32)) {
    *status = HARNESS_CIPHER_BAD_SETTINGS;
    return NULL;
  }
  harness_cipher_codec *codec = calloc(1, sizeof(harness_cipher_codec));
  if (codec == NULL) {
    *status = HARNESS_CIPHER_NO_MEMORY;
    return NULL;
  }
  codec->settings = *settings;
  codec->reserve = reserve_for(settings);
  memcpy(codec->salt, salt, 16);
  if (raw) {
    memcpy(codec->key, key, 32);
  } else if (!harness_pbkdf2((harness_hash)settings->kdf_hash, key, key_count, salt, 16,
                             settings->kdf_iterations, codec->key, 32)) {
    harness_cipher_codec_free(codec);
    *status = HARNESS_CIPHER_CRYPTO_FAILED;
    return NULL;
  }
  return derive_hmac_key(codec, status);
}

harness_cipher_codec *harness_cipher_codec_variant(
  const harness_cipher_codec *codec, const harness_cipher_settings *settings,
  harness_cipher_status *status) {
  harness_cipher_status ignored;
  if (status == NULL) status = &ignored;
  if (codec == NULL || settings == NULL || !valid_settings(settings)
      || settings->kdf_hash != codec->settings.kdf_hash
      || settings->kdf_iterations != codec->settings.kdf_iterations
      || settings->plaintext_header_size != codec->settings.plaintext_header_size) {
    *status = HARNESS_CIPHER_BAD_SETTINGS;
    return NULL;
  }
  harness_cipher_codec *copy = malloc(sizeof(harness_cipher_codec));
  if (copy == NULL) {
    *status = HARNESS_CIPHER_NO_MEMORY;
    return NULL;
  }
  memcpy(copy, codec, sizeof(harness_cipher_codec));
  copy->settings = *settings;
  copy->reserve = reserve_for(settings);
  *status = HARNESS_CIPHER_OK;
  return copy;
}

void harness_cipher_codec_free(harness_cipher_codec *codec) {
  if (codec == NULL) return;
  harness_secure_zero(codec, sizeof(harness_cipher_codec));
  free(codec);
}

harness_cipher_settings harness_cipher_codec_settings(const harness_cipher_codec *codec) {
  return codec->settings;
}

uint32_t harness_cipher_codec_reserve(const harness_cipher_codec *codec) {
  return codec->reserve;
}

/// Where encryption starts on a page.
static uint32_t start_of(const harness_cipher_codec *codec, uint32_t page_number) {
  if (page_number != 1) return 0;
  return codec->settings.plaintext_header_size > 0 ? codec->settings.plaintext_header_size : 16;
}

static int page_mac(const harness_cipher_codec *codec, uint32_t page_number, const uint8_t *page,
                    uint8_t mac[64]) {
  uint32_t start = start_of(codec, page_number);
  uint32_t end = codec->settings.page_size - codec->reserve;
  uint8_t number[4] = {
    (uint8_t)page_number, (uint8_t)(page_number >> 8), (uint8_t)(page_number >> 16),
    (uint8_t)(page_number >> 24)};
  // The ciphertext and the IV are contiguous.
  return harness_hmac((harness_hash)codec->settings.hmac_hash, codec->hmac_key, 32, page + start,
                      (end - start) + 16, number, 4, mac);
}

harness_cipher_status harness_cipher_decrypt_page(
  const harness_cipher_codec *codec, uint32_t page_number, const uint8_t *page, uint8_t *plain) {
  if (codec == NULL || page == NULL || plain == NULL || page_number == 0)
    return HARNESS_CIPHER_BAD_SETTINGS;
  uint32_t size = codec->settings.page_size;
  uint32_t start = start_of(codec, page_number);
  uint32_t end = size - codec->reserve;
  const uint8_t *iv = page + end;
  if (codec->settings.use_hmac) {
    uint8_t mac[64];
    size_t count = harness_hash_size((harness_hash)codec->settings.hmac_hash);
    if (!page_mac(codec, page_number, page, mac)) return HARNESS_CIPHER_CRYPTO_FAILED;
    int equal = harness_constant_time_equal(mac, iv + 16, count);
    harness_secure_zero(mac, sizeof(mac));
    if (!equal) return HARNESS_CIPHER_HMAC_MISMATCH;
  }
  if (!harness_aes256_cbc(0, codec->key, iv, page + start, plain + start, end - start))
    return HARNESS_CIPHER_CRYPTO_FAILED;
  memcpy(plain + end, page + end, codec->reserve);
  if (page_number == 1) {
    if (codec->settings.plaintext_header_size > 0) {
      memcpy(plain, page, start);
    } else {
      memcpy(plain, sqlite_header, 16);
    }
    // What SQLite itself checks of a header: the page size, the reserve, and the fixed
    // payload fractions. For SQLCipher 1 this is the only sign of a right key.
    uint32_t stored = ((uint32_t)plain[16] << 8) | plain[17];
    if (stored == 1) stored = 65536;
    // SQLite's reserve may exceed the cipher's (SQLCipher 4.x writing a version 1 to 3 file
    // keeps version 4's 80 bytes), never fall short of it.
    if (memcmp(plain, sqlite_header, 16) != 0 || stored != size || plain[20] < codec->reserve
        || plain[21] != 64 || plain[22] != 32 || plain[23] != 32)
      return HARNESS_CIPHER_BAD_HEADER;
  }
  return HARNESS_CIPHER_OK;
}

harness_cipher_status harness_cipher_encrypt_page(
  const harness_cipher_codec *codec, uint32_t page_number, const uint8_t *plain, uint8_t *page) {
  if (codec == NULL || page == NULL || plain == NULL || page_number == 0)
    return HARNESS_CIPHER_BAD_SETTINGS;
  uint32_t size = codec->settings.page_size;
  uint32_t start = start_of(codec, page_number);
  uint32_t end = size - codec->reserve;
  if (page_number == 1) {
    uint32_t stored = ((uint32_t)plain[16] << 8) | plain[17];
    if (stored == 1) stored = 65536;
    if (stored != size || plain[20] < codec->reserve) return HARNESS_CIPHER_REFUSED_WRITE;
  }
  uint8_t *iv = page + end;
  if (!harness_random_bytes(iv, codec->reserve)) return HARNESS_CIPHER_CRYPTO_FAILED;
  if (!harness_aes256_cbc(1, codec->key, iv, plain + start, page + start, end - start))
    return HARNESS_CIPHER_CRYPTO_FAILED;
  if (page_number == 1) {
    if (codec->settings.plaintext_header_size > 0) {
      memcpy(page, plain, start);
    } else {
      memcpy(page, codec->salt, 16);
    }
  }
  if (codec->settings.use_hmac) {
    uint8_t mac[64];
    size_t count = harness_hash_size((harness_hash)codec->settings.hmac_hash);
    if (!page_mac(codec, page_number, page, mac)) return HARNESS_CIPHER_CRYPTO_FAILED;
    memcpy(iv + 16, mac, count);
    harness_secure_zero(mac, sizeof(mac));
  }
  return HARNESS_CIPHER_OK;
}
