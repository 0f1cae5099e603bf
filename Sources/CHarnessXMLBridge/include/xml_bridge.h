#ifndef ARCHIVE_HARNESS_XML_BRIDGE_H
#define ARCHIVE_HARNESS_XML_BRIDGE_H

// The narrow C interface through which Swift reaches libxml2.
//
// This header includes no libxml2 header, on purpose. Debian's libxml2 is built
// with ICU, so its headers include <unicode/ucnv.h>; Foundation carries its own
// ICU as the clang module _FoundationICU, and a Swift module that sees both
// fails to build ("'UErrorCode' has different definitions in different
// modules"). Only xml_bridge.c includes libxml2, and every libxml2 type stays
// behind the opaque handles below.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A parsed XML document, freed with `ahx_document_free`.
typedef struct ahx_document ahx_document;
/// An element node of a document; valid while its document lives.
typedef struct ahx_element ahx_element;
/// An attribute of an element; valid while its document lives.
typedef struct ahx_attribute ahx_attribute;
/// A compiled XSD, freed with `ahx_schema_free`.
typedef struct ahx_schema ahx_schema;

/// One error or warning libxml2 reported, valid only during the handler call.
typedef struct {
  /// The message, UTF-8; never NULL.
  const char *message;
  /// The 1-based line, or 0 when unknown.
  int line;
  /// The 1-based column, or 0 when unknown.
  int column;
  /// The element or attribute the error is about (an `ahx_element` or
  /// `ahx_attribute` address), or NULL.
  const void *node;
  /// Non-zero for a warning.
  int is_warning;
} ahx_error;

/// Receives one error; `context` is the pointer given with the handler.
typedef void (*ahx_error_handler)(void *context, const ahx_error *error);

/// What a parse of untrusted text found besides the document.
typedef struct {
  /// Non-zero when a document type declaration was seen and the parse stopped there.
  int refused_doctype;
  /// The 1-based line and column of the refused `<!DOCTYPE`.
  int refused_line;
  int refused_column;
  /// The well-formedness errors reported.
  int error_count;
} ahx_parse_report;

/// Initializes libxml2; safe to call more than once and from any thread.
void ahx_initialize(void);

/// The libxml2 version the bridge runs with, such as "20914".
const char *ahx_libxml_version(void);

/// Parses an untrusted document held in memory.
///
/// The parser never touches the network, never loads a DTD and never
/// substitutes entities: any `<!DOCTYPE` stops the parse at once, with
/// `report->refused_doctype` set, so external entities and entity bombs end
/// there. It parses in recovery mode only so that every well-formedness error
/// is reported (up to `maximum_errors`, 0 for no limit); a document with any
/// error is still refused. Returns the document only when it is well formed
/// and had no DOCTYPE.
ahx_document *ahx_parse_untrusted(
    const char *bytes, int size, int maximum_errors, ahx_error_handler handler, void *context,
    ahx_parse_report *report);

/// Frees a document and every handle into it.
void ahx_document_free(ahx_document *document);

/// The root element, or NULL.
ahx_element *ahx_document_root(ahx_document *document);

/// The first child that is an element, or NULL.
ahx_element *ahx_element_first_child(ahx_element *element);
/// The next sibling that is an element, or NULL.
ahx_element *ahx_element_next_sibling(ahx_element *element);
/// The element's local name.
const char *ahx_element_name(ahx_element *element);
/// The element's namespace URI, or NULL.
const char *ahx_element_namespace(ahx_element *element);
/// The line libxml2 recorded for the element.
long ahx_element_line(ahx_element *element);
/// The text of the element and its descendants, freed with `ahx_free`; NULL when there is none.
char *ahx_element_text(ahx_element *element);

/// The element's first attribute, or NULL.
ahx_attribute *ahx_element_first_attribute(ahx_element *element);
/// The next attribute, or NULL.
ahx_attribute *ahx_attribute_next(ahx_attribute *attribute);
/// The attribute's local name.
const char *ahx_attribute_name(ahx_attribute *attribute);
/// The attribute's value, freed with `ahx_free`; NULL when it has none.
char *ahx_attribute_value(ahx_attribute *attribute);

/// Frees text the bridge returned.
void ahx_free(void *pointer);

/// Compiles an XSD held in memory; errors go to `handler`. Returns NULL on failure.
ahx_schema *ahx_schema_compile_memory(
    const char *bytes, int size, ahx_error_handler handler, void *context);

/// Compiles the XSD at `path`; errors go to `handler`. Returns NULL on failure.
ahx_schema *ahx_schema_compile_file(const char *path, ahx_error_handler handler, void *context);

/// Frees a compiled schema.
void ahx_schema_free(ahx_schema *schema);

/// Validates a document; errors go to `handler`.
///
/// A compiled schema may be shared by threads; each call uses its own
/// validation context. Returns 0 when the document is valid, a positive number
/// when it is not, and a negative number when validation could not run.
int ahx_schema_validate(
    ahx_schema *schema, ahx_document *document, ahx_error_handler handler, void *context);

#ifdef __cplusplus
}
#endif

#endif
