// The project's cryptography, behind harness_crypto.h: OpenSSL's libcrypto on Linux,
// CommonCrypto on Darwin. Every function checks its sizes and returns 0
// rather than touching memory it was not given.

#include "harness_crypto.h"

#include <string.h>

#if defined(__APPLE__)
#include <CommonCrypto/CommonCrypto.h>
#include <CommonCrypto/CommonKeyDerivation.h>
#include <CommonCrypto/CommonRandom.h>
#include <stdlib.h>
#else
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <pthread.h>
#endif

// libcrypto and CommonCrypto are not instrumented. Under AddressSanitizer (the fuzz targets,
// `swift build --sanitize=address`) every buffer handed to them is checked first, so that a
// wrong pointer or length from a caller is reported here instead of read or written unseen.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HARNESS_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(HARNESS_ADDRESS_SANITIZER)
#define HARNESS_ADDRESS_SANITIZER 1
#endif

#if defined(HARNESS_ADDRESS_SANITIZER)
#include <sanitizer/asan_interface.h>
#include <stdio.h>
#include <stdlib.h>

static void harness_check_region(const void *bytes, size_t count, const char *what) {
  if (bytes == NULL || count == 0) return;
  void *bad = __asan_region_is_poisoned((void *)bytes, count);
  if (bad == NULL) return;
  fprintf(stderr, "harness_crypto: %s: %zu bytes at %p reach unaddressable memory at %p\n", what,
          count, bytes, bad);
  __asan_describe_address(bad);
  abort();
}
#else
#define harness_check_region(bytes, count, what) ((void)0)
#endif

size_t harness_hash_size(harness_hash hash) {
  switch (hash) {
  case HARNESS_HASH_SHA1: return 20;
  case HARNESS_HASH_SHA256: return 32;
  case HARNESS_HASH_SHA512: return 64;
  }
  return 0;
}

void harness_secure_zero(void *bytes, size_t count) {
  if (bytes == NULL || count == 0) return;
#if defined(__APPLE__)
  volatile unsigned char *cursor = (volatile unsigned char *)bytes;
  while (count--) *cursor++ = 0;
#else
  OPENSSL_cleanse(bytes, count);
#endif
}

int harness_constant_time_equal(const void *first, const void *second, size_t count) {
  const unsigned char *a = (const unsigned char *)first;
  const unsigned char *b = (const unsigned char *)second;
  unsigned char difference = 0;
  for (size_t index = 0; index < count; index++) difference |= (unsigned char)(a[index] ^ b[index]);
  return difference == 0;
}

#if defined(__APPLE__)

struct harness_sha256_context {
  CC_SHA256_CTX state;
};

harness_sha256_context *harness_sha256_new(void) {
  harness_sha256_context *context = calloc(1, sizeof(harness_sha256_context));
  if (context != NULL) CC_SHA256_Init(&context->state);
  return context;
}

int harness_sha256_update(harness_sha256_context *context, const void *bytes, size_t count) {
  if (context == NULL) return 0;
  harness_check_region(bytes, count, "sha256 input");
  const unsigned char *cursor = (const unsigned char *)bytes;
  while (count > 0) {
    CC_LONG part = count > 0x40000000u ? 0x40000000u : (CC_LONG)count;
    CC_SHA256_Update(&context->state, cursor, part);
    cursor += part;
    count -= part;
  }
  return 1;
}

int harness_sha256_final(harness_sha256_context *context, uint8_t digest[32]) {
  if (context == NULL) return 0;
  CC_SHA256_Final(digest, &context->state);
  CC_SHA256_Init(&context->state);
  return 1;
}

harness_sha256_context *harness_sha256_copy(const harness_sha256_context *context) {
  if (context == NULL) return NULL;
  harness_sha256_context *copy = malloc(sizeof(harness_sha256_context));
  // CC_SHA256_CTX is plain data (state words, counts, the pending block): a struct copy is a copy.
  if (copy != NULL) *copy = *context;
  return copy;
}

void harness_sha256_free(harness_sha256_context *context) {
  if (context == NULL) return;
  harness_secure_zero(context, sizeof(*context));
  free(context);
}

static CCHmacAlgorithm harness_hmac_algorithm(harness_hash hash) {
  switch (hash) {
  case HARNESS_HASH_SHA1: return kCCHmacAlgSHA1;
  case HARNESS_HASH_SHA256: return kCCHmacAlgSHA256;
  default: return kCCHmacAlgSHA512;
  }
}

int harness_digest(harness_hash hash, const void *bytes, size_t count, uint8_t *digest) {
  if (harness_hash_size(hash) == 0 || count > 0xFFFFFFFFu) return 0;
  harness_check_region(bytes, count, "digest input");
  harness_check_region(digest, harness_hash_size(hash), "digest output");
  switch (hash) {
  case HARNESS_HASH_SHA1: CC_SHA1(bytes, (CC_LONG)count, digest); return 1;
  case HARNESS_HASH_SHA256: CC_SHA256(bytes, (CC_LONG)count, digest); return 1;
  case HARNESS_HASH_SHA512: CC_SHA512(bytes, (CC_LONG)count, digest); return 1;
  }
  return 0;
}

int harness_hmac(
  harness_hash hash, const void *key, size_t key_count, const void *first, size_t first_count,
  const void *second, size_t second_count, uint8_t *mac) {
  if (harness_hash_size(hash) == 0) return 0;
  harness_check_region(key, key_count, "HMAC key");
  harness_check_region(first, first_count, "HMAC input");
  harness_check_region(second, second_count, "HMAC input");
  harness_check_region(mac, harness_hash_size(hash), "HMAC output");
  CCHmacContext context;
  CCHmacInit(&context, harness_hmac_algorithm(hash), key, key_count);
  if (first_count > 0) CCHmacUpdate(&context, first, first_count);
  if (second_count > 0) CCHmacUpdate(&context, second, second_count);
  CCHmacFinal(&context, mac);
  harness_secure_zero(&context, sizeof(context));
  return 1;
}

int harness_pbkdf2(
  harness_hash hash, const void *password, size_t password_count, const void *salt,
  size_t salt_count, uint32_t iterations, uint8_t *key, size_t key_count) {
  if (harness_hash_size(hash) == 0 || iterations == 0) return 0;
  harness_check_region(password, password_count, "PBKDF2 password");
  harness_check_region(salt, salt_count, "PBKDF2 salt");
  harness_check_region(key, key_count, "PBKDF2 output");
  CCPseudoRandomAlgorithm prf = hash == HARNESS_HASH_SHA1     ? kCCPRFHmacAlgSHA1
                                : hash == HARNESS_HASH_SHA256 ? kCCPRFHmacAlgSHA256
                                                              : kCCPRFHmacAlgSHA512;
  return CCKeyDerivationPBKDF(
           kCCPBKDF2, (const char *)password, password_count, (const uint8_t *)salt, salt_count,
           prf, iterations, key, key_count) == kCCSuccess;
}

int harness_aes256_cbc(
  int encrypt, const uint8_t key[32], const uint8_t iv[16], const uint8_t *input,
  uint8_t *output, size_t count) {
  if (count % 16 != 0) return 0;
  harness_check_region(key, 32, "AES key");
  harness_check_region(iv, 16, "AES IV");
  harness_check_region(input, count, "AES input");
  harness_check_region(output, count, "AES output");
  size_t moved = 0;
  CCCryptorStatus status = CCCrypt(
    encrypt ? kCCEncrypt : kCCDecrypt, kCCAlgorithmAES, 0, key, kCCKeySizeAES256, iv, input, count,
    output, count, &moved);
  return status == kCCSuccess && moved == count;
}

int harness_random_bytes(uint8_t *bytes, size_t count) {
  harness_check_region(bytes, count, "random bytes");
  return CCRandomGenerateBytes(bytes, count) == kCCSuccess;
}

#else

struct harness_sha256_context {
  EVP_MD_CTX *state;
};

static const EVP_MD *harness_md(harness_hash hash) {
  switch (hash) {
  case HARNESS_HASH_SHA1: return EVP_sha1();
  case HARNESS_HASH_SHA256: return EVP_sha256();
  case HARNESS_HASH_SHA512: return EVP_sha512();
  }
  return NULL;
}

harness_sha256_context *harness_sha256_new(void) {
  harness_sha256_context *context = OPENSSL_zalloc(sizeof(harness_sha256_context));
  if (context == NULL) return NULL;
  context->state = EVP_MD_CTX_new();
  if (context->state == NULL || EVP_DigestInit_ex(context->state, EVP_sha256(), NULL) != 1) {
    EVP_MD_CTX_free(context->state);
    OPENSSL_free(context);
    return NULL;
  }
  return context;
}

int harness_sha256_update(harness_sha256_context *context, const void *bytes, size_t count) {
  if (context == NULL) return 0;
  harness_check_region(bytes, count, "sha256 input");
  if (count == 0) return 1;
  return EVP_DigestUpdate(context->state, bytes, count) == 1;
}

int harness_sha256_final(harness_sha256_context *context, uint8_t digest[32]) {
  if (context == NULL) return 0;
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context->state, digest, &length) != 1 || length != 32) return 0;
  return EVP_DigestInit_ex(context->state, EVP_sha256(), NULL) == 1;
}

harness_sha256_context *harness_sha256_copy(const harness_sha256_context *context) {
  if (context == NULL) return NULL;
  harness_sha256_context *copy = OPENSSL_zalloc(sizeof(harness_sha256_context));
  if (copy == NULL) return NULL;
  copy->state = EVP_MD_CTX_new();
  if (copy->state == NULL || EVP_MD_CTX_copy_ex(copy->state, context->state) != 1) {
    EVP_MD_CTX_free(copy->state);
    OPENSSL_free(copy);
    return NULL;
  }
  return copy;
}

void harness_sha256_free(harness_sha256_context *context) {
  if (context == NULL) return;
  EVP_MD_CTX_free(context->state);
  OPENSSL_free(context);
}

int harness_digest(harness_hash hash, const void *bytes, size_t count, uint8_t *digest) {
  const EVP_MD *md = harness_md(hash);
  if (md == NULL) return 0;
  harness_check_region(bytes, count, "digest input");
  harness_check_region(digest, harness_hash_size(hash), "digest output");
  unsigned int length = 0;
  return EVP_Digest(count > 0 ? bytes : "", count, digest, &length, md, NULL) == 1
         && length == harness_hash_size(hash);
}

static pthread_once_t harness_hmac_once = PTHREAD_ONCE_INIT;
static EVP_MAC *harness_hmac_fetched = NULL;

static void harness_fetch_hmac(void) {
  harness_hmac_fetched = EVP_MAC_fetch(NULL, "HMAC", NULL);
}

/// OpenSSL's HMAC implementation, fetched once per process.
static EVP_MAC *harness_hmac_algorithm(void) {
  pthread_once(&harness_hmac_once, harness_fetch_hmac);
  return harness_hmac_fetched;
}

int harness_hmac(
  harness_hash hash, const void *key, size_t key_count, const void *first, size_t first_count,
  const void *second, size_t second_count, uint8_t *mac) {
  const EVP_MD *md = harness_md(hash);
  if (md == NULL || key_count > 0x7FFFFFFF) return 0;
  harness_check_region(key, key_count, "HMAC key");
  harness_check_region(first, first_count, "HMAC input");
  harness_check_region(second, second_count, "HMAC input");
  harness_check_region(mac, harness_hash_size(hash), "HMAC output");
  EVP_MAC *algorithm = harness_hmac_algorithm();
  if (algorithm == NULL) return 0;
  EVP_MAC_CTX *context = EVP_MAC_CTX_new(algorithm);
  if (context == NULL) return 0;
  // OpenSSL 3's EVP_MAC interface (HMAC_CTX is deprecated there).
  char *digest = (char *)(hash == HARNESS_HASH_SHA1     ? "SHA1"
                          : hash == HARNESS_HASH_SHA256 ? "SHA256"
                                                        : "SHA512");
  OSSL_PARAM parameters[2] = {
    OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_construct_end()};
  static const unsigned char empty = 0;
  size_t length = 0;
  int ok = EVP_MAC_init(context, key_count > 0 ? key : &empty, key_count, parameters) == 1
           && (first_count == 0 || EVP_MAC_update(context, first, first_count) == 1)
           && (second_count == 0 || EVP_MAC_update(context, second, second_count) == 1)
           && EVP_MAC_final(context, mac, &length, harness_hash_size(hash)) == 1
           && length == harness_hash_size(hash);
  EVP_MAC_CTX_free(context);
  return ok;
}

int harness_pbkdf2(
  harness_hash hash, const void *password, size_t password_count, const void *salt,
  size_t salt_count, uint32_t iterations, uint8_t *key, size_t key_count) {
  const EVP_MD *md = harness_md(hash);
  if (md == NULL || iterations == 0 || iterations > 0x7FFFFFFF || password_count > 0x7FFFFFFF
      || salt_count > 0x7FFFFFFF || key_count > 0x7FFFFFFF)
    return 0;
  harness_check_region(password, password_count, "PBKDF2 password");
  harness_check_region(salt, salt_count, "PBKDF2 salt");
  harness_check_region(key, key_count, "PBKDF2 output");
  static const unsigned char empty = 0;
  return PKCS5_PBKDF2_HMAC(
           password_count > 0 ? password : (const void *)&empty, (int)password_count,
           salt_count > 0 ? salt : &empty, (int)salt_count, (int)iterations, md, (int)key_count,
           key) == 1;
}

int harness_aes256_cbc(
  int encrypt, const uint8_t key[32], const uint8_t iv[16], const uint8_t *input,
  uint8_t *output, size_t count) {
  if (count % 16 != 0 || count > 0x7FFFFFFF) return 0;
  if (count == 0) return 1;
  harness_check_region(key, 32, "AES key");
  harness_check_region(iv, 16, "AES IV");
  harness_check_region(input, count, "AES input");
  harness_check_region(output, count, "AES output");
  EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
  if (context == NULL) return 0;
  int written = 0, final = 0;
  int ok = EVP_CipherInit_ex(context, EVP_aes_256_cbc(), NULL, key, iv, encrypt ? 1 : 0) == 1
           && EVP_CIPHER_CTX_set_padding(context, 0) == 1
           && EVP_CipherUpdate(context, output, &written, input, (int)count) == 1
           && EVP_CipherFinal_ex(context, output + written, &final) == 1
           && (size_t)(written + final) == count;
  EVP_CIPHER_CTX_free(context);
  return ok;
}

int harness_random_bytes(uint8_t *bytes, size_t count) {
  harness_check_region(bytes, count, "random bytes");
  if (count > 0x7FFFFFFF) return 0;
  return RAND_bytes(bytes, (int)count) == 1;
}

#endif
