#ifndef HARNESS_CSQLITE_SHIM_H
#define HARNESS_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import; this returns it.
static inline sqlite3_destructor_type harness_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

#endif
