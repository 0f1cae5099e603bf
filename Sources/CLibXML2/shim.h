#ifndef HARNESS_CLIBXML2_SHIM_H
#define HARNESS_CLIBXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlversion.h>

#endif
