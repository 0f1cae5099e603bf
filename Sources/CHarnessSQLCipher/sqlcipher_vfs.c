// A VFS over SQLite's default one that keeps a database in SQLCipher's format: the main
// database's pages, its rollback journal's page images and its WAL's frames are decrypted on
// read; the database's pages and the journal's page images are encrypted on write. Memory
// mapping is off (it would bypass xRead), and every other file (temporary databases,
// sub-journals, super-journals) is refused, so no plaintext page can reach a disk.

#include "harness_sqlcipher.h"

#include "harness_crypto.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

struct harness_cipher_vfs {
  sqlite3_vfs base;
  sqlite3_vfs *root;
  const harness_cipher_codec *codec;
  int read_only;
  char *name;
  harness_cipher_status failure;
  uint32_t failed_page;
  int failed_kind;
};

enum file_kind { KIND_MAIN = 0, KIND_WAL = 1, KIND_JOURNAL = 2, KIND_OTHER = 3 };

typedef struct cipher_file {
  sqlite3_file base;
  struct harness_cipher_vfs *vfs;
  int kind;
  int lock;
  uint32_t page_size;
  uint8_t *cipher;
  uint8_t *plain;
  // The journal's last 4-byte access: the page number of the record whose page follows.
  sqlite3_int64 number_offset;
  uint32_t number;
  // The journal's last page image: where it was, and the difference between SQLite's checksum
  // sum over it in the clear and SQLCipher's over it encrypted (see journal_checksum_delta).
  sqlite3_int64 image_offset;
  uint32_t checksum_delta;
  // A read-only connection's WAL that does not exist: an empty file that is never made.
  int absent;
  sqlite3_file *real;
} cipher_file;

static void record_failure(cipher_file *file, harness_cipher_status status, uint32_t page) {
  struct harness_cipher_vfs *vfs = file->vfs;
  if (vfs->failure != HARNESS_CIPHER_OK) return;
  vfs->failure = status;
  vfs->failed_page = page;
  vfs->failed_kind = file->kind == KIND_MAIN ? 0 : file->kind;
}

static int coded(const cipher_file *file) {
  return file->vfs->codec != NULL && file->kind != KIND_OTHER;
}

static uint32_t big_endian32(const uint8_t *bytes) {
  return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8)
         | bytes[3];
}

/// SQLite's journal checksum adds every 200th byte of a page image (from the end) to a nonce.
/// SQLite under this VFS sums the plaintext it holds; SQLCipher sums the encrypted image it
/// writes. The journal on disk carries SQLCipher's sum, so either can roll it back: a checksum
/// is translated by the difference of the two sums as it is written and as it is read.
static uint32_t image_sum(const uint8_t *image, uint32_t page_size) {
  uint32_t sum = 0;
  for (int64_t index = (int64_t)page_size - 200; index > 0; index -= 200) sum += image[index];
  return sum;
}

static void put_big_endian32(uint8_t *bytes, uint32_t value) {
  bytes[0] = (uint8_t)(value >> 24);
  bytes[1] = (uint8_t)(value >> 16);
  bytes[2] = (uint8_t)(value >> 8);
  bytes[3] = (uint8_t)value;
}

static int file_close(sqlite3_file *base) {
  cipher_file *file = (cipher_file *)base;
  int status = SQLITE_OK;
  if (file->real->pMethods != NULL) status = file->real->pMethods->xClose(file->real);
  if (file->plain != NULL) {
    harness_secure_zero(file->plain, file->page_size);
    sqlite3_free(file->plain);
  }
  if (file->cipher != NULL) sqlite3_free(file->cipher);
  file->plain = NULL;
  file->cipher = NULL;
  return status;
}

/// Decrypts the page `page_number` of the main database, held at `offset` in the real file.
static int read_database_page(cipher_file *file, uint32_t page_number, sqlite3_int64 offset) {
  int status = file->real->pMethods->xRead(file->real, file->cipher, (int)file->page_size, offset);
  if (status != SQLITE_OK) return status;
  harness_cipher_status result =
    harness_cipher_decrypt_page(file->vfs->codec, page_number, file->cipher, file->plain);
  if (result != HARNESS_CIPHER_OK) {
    record_failure(file, result, page_number);
    return result == HARNESS_CIPHER_NO_MEMORY ? SQLITE_NOMEM : SQLITE_IOERR_DATA;
  }
  return SQLITE_OK;
}

static int read_main(cipher_file *file, uint8_t *out, int amount, sqlite3_int64 offset) {
  sqlite3_int64 size = 0;
  int status = file->real->pMethods->xFileSize(file->real, &size);
  if (status != SQLITE_OK) return status;
  sqlite3_int64 page_size = file->page_size;
  int short_read = 0;
  sqlite3_int64 position = offset;
  sqlite3_int64 end = offset + amount;
  while (position < end) {
    sqlite3_int64 page_start = position / page_size * page_size;
    sqlite3_int64 take_end = page_start + page_size < end ? page_start + page_size : end;
    uint8_t *target = out + (position - offset);
    size_t count = (size_t)(take_end - position);
    if (page_start >= size) {
      memset(target, 0, count);
      short_read = 1;
    } else if (page_start + page_size > size) {
      // A torn last page: SQLCipher never writes one.
      record_failure(file, HARNESS_CIPHER_HMAC_MISMATCH, (uint32_t)(page_start / page_size) + 1);
      return SQLITE_IOERR_DATA;
    } else {
      uint32_t page_number = (uint32_t)(page_start / page_size) + 1;
      status = read_database_page(file, page_number, page_start);
      if (status != SQLITE_OK) return status;
      memcpy(target, file->plain + (position - page_start), count);
    }
    position = take_end;
  }
  return short_read ? SQLITE_IOERR_SHORT_READ : SQLITE_OK;
}

static int file_read(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
  cipher_file *file = (cipher_file *)base;
  if (!coded(file) || amount <= 0) return file->real->pMethods->xRead(file->real, buffer, amount, offset);
  if (file->kind == KIND_MAIN) return read_main(file, buffer, amount, offset);
  int status = file->real->pMethods->xRead(file->real, buffer, amount, offset);
  uint32_t page_size = file->page_size;
  if (file->kind == KIND_JOURNAL) {
    if (amount == 4 && status == SQLITE_OK && offset == file->image_offset + page_size) {
      // The checksum after a page image: SQLCipher's sum, given to SQLite as its own.
      put_big_endian32(buffer, big_endian32(buffer) - file->checksum_delta);
      return status;
    }
    if (amount == 4) {
      if (status == SQLITE_OK) {
        file->number_offset = offset;
        file->number = big_endian32(buffer);
      }
      return status;
    }
    if (status != SQLITE_OK || (uint32_t)amount != page_size || offset != file->number_offset + 4)
      return status;
    harness_cipher_status result =
      harness_cipher_decrypt_page(file->vfs->codec, file->number, buffer, file->plain);
    if (result != HARNESS_CIPHER_OK) {
      record_failure(file, result, file->number);
      return SQLITE_IOERR_DATA;
    }
    file->image_offset = offset;
    file->checksum_delta = image_sum(buffer, page_size) - image_sum(file->plain, page_size);
    memcpy(buffer, file->plain, page_size);
    return SQLITE_OK;
  }
  // The WAL: a frame is a 24-byte header (the page number first) and the page. Reads of a
  // whole frame (recovery checks SQLCipher's checksums over the ciphertext) stay as they are.
  sqlite3_int64 frame = (sqlite3_int64)page_size + 24;
  if (status != SQLITE_OK || (uint32_t)amount != page_size || offset < 56
      || (offset - 56) % frame != 0)
    return status;
  uint8_t header[4];
  int read = file->real->pMethods->xRead(file->real, header, 4, offset - 24);
  if (read != SQLITE_OK) return read;
  uint32_t page_number = big_endian32(header);
  harness_cipher_status result =
    harness_cipher_decrypt_page(file->vfs->codec, page_number, buffer, file->plain);
  if (result != HARNESS_CIPHER_OK) {
    record_failure(file, result, page_number);
    return SQLITE_IOERR_DATA;
  }
  memcpy(buffer, file->plain, page_size);
  return SQLITE_OK;
}

static int refuse(cipher_file *file, uint32_t page_number) {
  record_failure(file, HARNESS_CIPHER_REFUSED_WRITE, page_number);
  return SQLITE_IOERR_WRITE;
}

static int file_write(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
  cipher_file *file = (cipher_file *)base;
  if (file->vfs->read_only) return SQLITE_READONLY;
  if (!coded(file)) return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
  uint32_t page_size = file->page_size;
  if (file->kind == KIND_WAL) return refuse(file, 0);
  if (file->kind == KIND_JOURNAL) {
    if (amount == 4 && offset == file->image_offset + page_size) {
      // The checksum after a page image: written as SQLCipher would, over the encrypted image.
      uint8_t checksum[4];
      put_big_endian32(checksum, big_endian32(buffer) + file->checksum_delta);
      return file->real->pMethods->xWrite(file->real, checksum, 4, offset);
    }
    if (amount == 4) {
      file->number_offset = offset;
      file->number = big_endian32(buffer);
      return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    }
    if ((uint32_t)amount != page_size || offset != file->number_offset + 4) {
      // Headers and checksums pass as they are. A header can be a page long, but it starts
      // a sector (512 bytes at least); a page-long write anywhere else would be a page image
      // without its number, so it is refused rather than written in the clear.
      if ((uint32_t)amount == page_size && offset % 512 != 0) return refuse(file, 0);
      return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    }
    harness_cipher_status result =
      harness_cipher_encrypt_page(file->vfs->codec, file->number, buffer, file->cipher);
    if (result != HARNESS_CIPHER_OK) return refuse(file, file->number);
    file->image_offset = offset;
    file->checksum_delta = image_sum(file->cipher, page_size) - image_sum(buffer, page_size);
    return file->real->pMethods->xWrite(file->real, file->cipher, amount, offset);
  }
  if ((uint32_t)amount != page_size || offset % page_size != 0) return refuse(file, 0);
  uint32_t page_number = (uint32_t)(offset / page_size) + 1;
  harness_cipher_status result =
    harness_cipher_encrypt_page(file->vfs->codec, page_number, buffer, file->cipher);
  if (result != HARNESS_CIPHER_OK) return refuse(file, page_number);
  return file->real->pMethods->xWrite(file->real, file->cipher, amount, offset);
}

static int file_truncate(sqlite3_file *base, sqlite3_int64 size) {
  cipher_file *file = (cipher_file *)base;
  if (file->vfs->read_only) return SQLITE_READONLY;
  return file->real->pMethods->xTruncate(file->real, size);
}

static int file_sync(sqlite3_file *base, int flags) {
  cipher_file *file = (cipher_file *)base;
  if (file->vfs->read_only) return SQLITE_OK;
  return file->real->pMethods->xSync(file->real, flags);
}

static int file_size(sqlite3_file *base, sqlite3_int64 *size) {
  cipher_file *file = (cipher_file *)base;
  return file->real->pMethods->xFileSize(file->real, size);
}

static int file_lock(sqlite3_file *base, int level) {
  cipher_file *file = (cipher_file *)base;
  if (file->vfs->read_only && level > SQLITE_LOCK_SHARED) {
    // A reader in exclusive locking mode asks for EXCLUSIVE before it reads a WAL into heap
    // memory; the file is open read-only, so SHARED is what it holds.
    int status = SQLITE_OK;
    if (file->lock < SQLITE_LOCK_SHARED) status = file->real->pMethods->xLock(file->real, SQLITE_LOCK_SHARED);
    if (status == SQLITE_OK) file->lock = level;
    return status;
  }
  int status = file->real->pMethods->xLock(file->real, level);
  if (status == SQLITE_OK) file->lock = level;
  return status;
}

static int file_unlock(sqlite3_file *base, int level) {
  cipher_file *file = (cipher_file *)base;
  int real_level = level;
  if (file->vfs->read_only && real_level > SQLITE_LOCK_SHARED) real_level = SQLITE_LOCK_SHARED;
  int status = file->real->pMethods->xUnlock(file->real, real_level);
  if (status == SQLITE_OK) file->lock = level;
  return status;
}

static int file_check_reserved(sqlite3_file *base, int *reserved) {
  cipher_file *file = (cipher_file *)base;
  return file->real->pMethods->xCheckReservedLock(file->real, reserved);
}

static int file_control(sqlite3_file *base, int operation, void *argument) {
  cipher_file *file = (cipher_file *)base;
  if (operation == SQLITE_FCNTL_MMAP_SIZE && coded(file) && argument != NULL) {
    // Memory-mapped reads would hand SQLite the ciphertext.
    *(sqlite3_int64 *)argument = 0;
    return SQLITE_OK;
  }
  if (operation == SQLITE_FCNTL_VFSNAME && argument != NULL) {
    *(char **)argument = sqlite3_mprintf("%s", file->vfs->name);
    return SQLITE_OK;
  }
  return file->real->pMethods->xFileControl(file->real, operation, argument);
}

static int file_sector_size(sqlite3_file *base) {
  cipher_file *file = (cipher_file *)base;
  return file->real->pMethods->xSectorSize(file->real);
}

static int file_device_characteristics(sqlite3_file *base) {
  cipher_file *file = (cipher_file *)base;
  int flags = file->real->pMethods->xDeviceCharacteristics(file->real);
  if (coded(file)) {
    // Atomic writes of any kind would let SQLite skip the (encrypted) journal.
    flags &= ~(SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_ATOMIC512 | SQLITE_IOCAP_ATOMIC1K
               | SQLITE_IOCAP_ATOMIC2K | SQLITE_IOCAP_ATOMIC4K | SQLITE_IOCAP_ATOMIC8K
               | SQLITE_IOCAP_ATOMIC16K | SQLITE_IOCAP_ATOMIC32K | SQLITE_IOCAP_ATOMIC64K
               | SQLITE_IOCAP_BATCH_ATOMIC);
  }
  return flags;
}

static int file_shm_map(sqlite3_file *base, int region, int size, int extend, void volatile **out) {
  cipher_file *file = (cipher_file *)base;
  if (file->vfs->read_only) {
    // Exclusive locking mode keeps the WAL index in heap memory; a -shm is never made.
    *out = NULL;
    return SQLITE_READONLY_CANTINIT;
  }
  return file->real->pMethods->xShmMap(file->real, region, size, extend, out);
}

static int file_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
  cipher_file *file = (cipher_file *)base;
  return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void file_shm_barrier(sqlite3_file *base) {
  cipher_file *file = (cipher_file *)base;
  file->real->pMethods->xShmBarrier(file->real);
}

static int file_shm_unmap(sqlite3_file *base, int delete_flag) {
  cipher_file *file = (cipher_file *)base;
  if (file->vfs->read_only) return SQLITE_OK;
  return file->real->pMethods->xShmUnmap(file->real, delete_flag);
}

static int file_fetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **out) {
  cipher_file *file = (cipher_file *)base;
  if (coded(file)) {
    *out = NULL;
    return SQLITE_OK;
  }
  return file->real->pMethods->xFetch(file->real, offset, amount, out);
}

static int file_unfetch(sqlite3_file *base, sqlite3_int64 offset, void *page) {
  cipher_file *file = (cipher_file *)base;
  if (coded(file) && page != NULL) return SQLITE_OK;
  return file->real->pMethods->xUnfetch(file->real, offset, page);
}

static const sqlite3_io_methods cipher_methods = {
  3,
  file_close,
  file_read,
  file_write,
  file_truncate,
  file_sync,
  file_size,
  file_lock,
  file_unlock,
  file_check_reserved,
  file_control,
  file_sector_size,
  file_device_characteristics,
  file_shm_map,
  file_shm_lock,
  file_shm_barrier,
  file_shm_unmap,
  file_fetch,
  file_unfetch,
};

static int absent_close(sqlite3_file *base) {
  cipher_file *file = (cipher_file *)base;
  sqlite3_free(file->cipher);
  if (file->plain != NULL) sqlite3_free(file->plain);
  file->cipher = NULL;
  file->plain = NULL;
  return SQLITE_OK;
}

static int absent_read(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
  (void)base;
  (void)offset;
  memset(buffer, 0, (size_t)amount);
  return SQLITE_IOERR_SHORT_READ;
}

static int absent_write(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
  (void)base;
  (void)buffer;
  (void)amount;
  (void)offset;
  return SQLITE_READONLY;
}

static int absent_truncate(sqlite3_file *base, sqlite3_int64 size) {
  (void)base;
  (void)size;
  return SQLITE_READONLY;
}

static int absent_sync(sqlite3_file *base, int flags) {
  (void)base;
  (void)flags;
  return SQLITE_OK;
}

static int absent_size(sqlite3_file *base, sqlite3_int64 *size) {
  (void)base;
  *size = 0;
  return SQLITE_OK;
}

static int absent_lock(sqlite3_file *base, int level) {
  (void)base;
  (void)level;
  return SQLITE_OK;
}

static int absent_check_reserved(sqlite3_file *base, int *reserved) {
  (void)base;
  *reserved = 0;
  return SQLITE_OK;
}

static int absent_control(sqlite3_file *base, int operation, void *argument) {
  (void)base;
  (void)operation;
  (void)argument;
  return SQLITE_NOTFOUND;
}

static int absent_sector_size(sqlite3_file *base) {
  (void)base;
  return 4096;
}

static int absent_device_characteristics(sqlite3_file *base) {
  (void)base;
  return 0;
}

static const sqlite3_io_methods absent_methods = {
  1,
  absent_close,
  absent_read,
  absent_write,
  absent_truncate,
  absent_sync,
  absent_size,
  absent_lock,
  absent_lock,
  absent_check_reserved,
  absent_control,
  absent_sector_size,
  absent_device_characteristics,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
};

static int vfs_open(sqlite3_vfs *base, sqlite3_filename name, sqlite3_file *out, int flags,
                    int *out_flags) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  cipher_file *file = (cipher_file *)out;
  memset(file, 0, sizeof(cipher_file));
  file->real = (sqlite3_file *)(file + 1);
  file->vfs = vfs;
  if (flags & SQLITE_OPEN_MAIN_DB) {
    file->kind = KIND_MAIN;
  } else if (flags & SQLITE_OPEN_WAL) {
    file->kind = KIND_WAL;
  } else if (flags & SQLITE_OPEN_MAIN_JOURNAL) {
    file->kind = KIND_JOURNAL;
  } else {
    file->kind = KIND_OTHER;
  }
  if (vfs->read_only) {
    // Existing files only, opened read-only: a WAL is asked for read-write and created when
    // missing, which a reader that writes nothing must not do.
    if (name == NULL || (flags & SQLITE_OPEN_DELETEONCLOSE)) return SQLITE_CANTOPEN;
    flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE))
            | SQLITE_OPEN_READONLY;
  }
  if (vfs->codec != NULL && file->kind == KIND_OTHER) {
    // A temporary database, a sub-journal or a super-journal would hold plaintext pages.
    record_failure(file, HARNESS_CIPHER_REFUSED_WRITE, 0);
    return SQLITE_CANTOPEN;
  }
  if (vfs->codec != NULL) {
    file->page_size = harness_cipher_codec_settings(vfs->codec).page_size;
    file->cipher = sqlite3_malloc((int)file->page_size);
    file->plain = sqlite3_malloc((int)file->page_size);
    if (file->cipher == NULL || file->plain == NULL) {
      sqlite3_free(file->cipher);
      sqlite3_free(file->plain);
      return SQLITE_NOMEM;
    }
  }
  file->number_offset = -8;
  file->image_offset = -(1LL << 40);
  if (vfs->read_only && file->kind == KIND_WAL) {
    int exists = 0;
    if (vfs->root->xAccess(vfs->root, name, SQLITE_ACCESS_EXISTS, &exists) == SQLITE_OK && !exists) {
      // A WAL database whose last connection checkpointed and removed its WAL: read as
      // empty, as SQLite would after creating it, but nothing is created.
      file->absent = 1;
      if (out_flags != NULL) *out_flags = flags;
      out->pMethods = &absent_methods;
      return SQLITE_OK;
    }
  }
  int status = vfs->root->xOpen(vfs->root, name, file->real, flags, out_flags);
  if (status != SQLITE_OK) {
    sqlite3_free(file->cipher);
    sqlite3_free(file->plain);
    file->cipher = NULL;
    file->plain = NULL;
    return status;
  }
  out->pMethods = &cipher_methods;
  return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *base, const char *name, int sync_directory) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  if (vfs->read_only) return SQLITE_READONLY;
  return vfs->root->xDelete(vfs->root, name, sync_directory);
}

static int vfs_access(sqlite3_vfs *base, const char *name, int flags, int *result) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  return vfs->root->xAccess(vfs->root, name, flags, result);
}

static int vfs_full_pathname(sqlite3_vfs *base, const char *name, int count, char *out) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  return vfs->root->xFullPathname(vfs->root, name, count, out);
}

static void *vfs_dl_open(sqlite3_vfs *base, const char *name) {
  (void)base;
  (void)name;
  return NULL;
}

static void vfs_dl_error(sqlite3_vfs *base, int count, char *out) {
  (void)base;
  if (count > 0) sqlite3_snprintf(count, out, "extensions are not loaded through this VFS");
}

static void (*vfs_dl_sym(sqlite3_vfs *base, void *handle, const char *name))(void) {
  (void)base;
  (void)handle;
  (void)name;
  return NULL;
}

static void vfs_dl_close(sqlite3_vfs *base, void *handle) {
  (void)base;
  (void)handle;
}

static int vfs_randomness(sqlite3_vfs *base, int count, char *out) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  return vfs->root->xRandomness(vfs->root, count, out);
}

static int vfs_sleep(sqlite3_vfs *base, int microseconds) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  return vfs->root->xSleep(vfs->root, microseconds);
}

static int vfs_current_time(sqlite3_vfs *base, double *out) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  return vfs->root->xCurrentTime(vfs->root, out);
}

static int vfs_last_error(sqlite3_vfs *base, int count, char *out) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  return vfs->root->xGetLastError ? vfs->root->xGetLastError(vfs->root, count, out) : 0;
}

static int vfs_current_time_int64(sqlite3_vfs *base, sqlite3_int64 *out) {
  struct harness_cipher_vfs *vfs = (struct harness_cipher_vfs *)base;
  if (vfs->root->iVersion >= 2 && vfs->root->xCurrentTimeInt64 != NULL)
    return vfs->root->xCurrentTimeInt64(vfs->root, out);
  double now = 0;
  int status = vfs->root->xCurrentTime(vfs->root, &now);
  *out = (sqlite3_int64)(now * 86400000.0);
  return status;
}

harness_cipher_vfs *harness_cipher_vfs_register(
  const char *name, const harness_cipher_codec *codec, int read_only) {
  if (name == NULL || sqlite3_initialize() != SQLITE_OK) return NULL;
  sqlite3_vfs *root = sqlite3_vfs_find(NULL);
  if (root == NULL) return NULL;
  struct harness_cipher_vfs *vfs = calloc(1, sizeof(struct harness_cipher_vfs));
  if (vfs == NULL) return NULL;
  size_t length = strlen(name);
  vfs->name = malloc(length + 1);
  if (vfs->name == NULL) {
    free(vfs);
    return NULL;
  }
  memcpy(vfs->name, name, length + 1);
  vfs->root = root;
  vfs->codec = codec;
  vfs->read_only = read_only ? 1 : 0;
  vfs->base.iVersion = 2;
  vfs->base.szOsFile = (int)sizeof(cipher_file) + root->szOsFile;
  vfs->base.mxPathname = root->mxPathname;
  vfs->base.zName = vfs->name;
  vfs->base.xOpen = vfs_open;
  vfs->base.xDelete = vfs_delete;
  vfs->base.xAccess = vfs_access;
  vfs->base.xFullPathname = vfs_full_pathname;
  vfs->base.xDlOpen = vfs_dl_open;
  vfs->base.xDlError = vfs_dl_error;
  vfs->base.xDlSym = vfs_dl_sym;
  vfs->base.xDlClose = vfs_dl_close;
  vfs->base.xRandomness = vfs_randomness;
  vfs->base.xSleep = vfs_sleep;
  vfs->base.xCurrentTime = vfs_current_time;
  vfs->base.xGetLastError = vfs_last_error;
  vfs->base.xCurrentTimeInt64 = vfs_current_time_int64;
  if (sqlite3_vfs_register(&vfs->base, 0) != SQLITE_OK) {
    free(vfs->name);
    free(vfs);
    return NULL;
  }
  return vfs;
}

const char *harness_cipher_vfs_name(const harness_cipher_vfs *vfs) {
  return vfs->name;
}

void harness_cipher_vfs_unregister(harness_cipher_vfs *vfs) {
  if (vfs == NULL) return;
  sqlite3_vfs_unregister(&vfs->base);
  free(vfs->name);
  free(vfs);
}

harness_cipher_status harness_cipher_vfs_failure(
  const harness_cipher_vfs *vfs, uint32_t *page_number, int *file_kind) {
  if (page_number != NULL) *page_number = vfs->failed_page;
  if (file_kind != NULL) *file_kind = vfs->failed_kind;
  return vfs->failure;
}

void harness_cipher_vfs_clear_failure(harness_cipher_vfs *vfs) {
  vfs->failure = HARNESS_CIPHER_OK;
  vfs->failed_page = 0;
  vfs->failed_kind = 0;
}
