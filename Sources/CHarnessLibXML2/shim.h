#ifndef HARNESS_CLIBXML2_SHIM_H
#define HARNESS_CLIBXML2_SHIM_H

// This system-library target exists only to find and link libxml2 through
// pkg-config. It deliberately exposes no libxml2 header to Swift: Debian's
// libxml2 headers include ICU's, which clash with Foundation's own ICU module
// in any Swift module that sees both. Swift reaches libxml2 only through the
// CHarnessXMLBridge target, whose header includes nothing of libxml2.

#endif
