#ifndef HARNESS_CLIBXML2_SHIM_H
#define HARNESS_CLIBXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlversion.h>

/// Receives one structured libxml2 error.
///
/// libxml2 before 2.12 passes `xmlErrorPtr`, later versions `const xmlError *`;
/// the shim casts at registration so Swift sees one signature on both.
typedef void (*harness_xml_error_handler)(void *context, const xmlError *error);

/// Sends the errors of a schema parser context to `handler`.
static inline void harness_xml_schema_parser_set_errors(
    xmlSchemaParserCtxtPtr ctxt, harness_xml_error_handler handler, void *context) {
  xmlSchemaSetParserStructuredErrors(ctxt, (xmlStructuredErrorFunc)handler, context);
}

/// Sends the errors of a schema validation context to `handler`.
static inline void harness_xml_schema_valid_set_errors(
    xmlSchemaValidCtxtPtr ctxt, harness_xml_error_handler handler, void *context) {
  xmlSchemaSetValidStructuredErrors(ctxt, (xmlStructuredErrorFunc)handler, context);
}

/// Sends errors raised outside any context on this thread to `handler`; NULL restores stderr.
static inline void harness_xml_set_thread_errors(harness_xml_error_handler handler, void *context) {
  xmlSetStructuredErrorFunc(context, (xmlStructuredErrorFunc)handler);
}

/// Frees memory libxml2 allocated; `xmlFree` itself is a mutable global that Swift 6 refuses.
static inline void harness_xml_free(void *pointer) { xmlFree(pointer); }

/// The state one untrusted parse shares with its SAX hooks.
typedef struct {
  harness_xml_error_handler handler;
  void *context;
  /// Non-zero once a document type declaration was seen and refused.
  int refusedDoctype;
  /// The 1-based line and column of the refused `<!DOCTYPE`.
  int refusedLine;
  int refusedColumn;
  /// The errors reported so far, and how many stop the parse (0: no limit).
  int errorCount;
  int maximumErrors;
} harness_xml_parse_state;

static inline void harness_xml_forward_parser_error(void *data, const xmlError *error) {
  xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)data;
  if (ctxt == NULL || ctxt->_private == NULL) return;
  harness_xml_parse_state *state = (harness_xml_parse_state *)ctxt->_private;
  if (state->maximumErrors > 0 && state->errorCount >= state->maximumErrors) return;
  state->errorCount++;
  if (state->handler != NULL) state->handler(state->context, error);
  if (state->maximumErrors > 0 && state->errorCount >= state->maximumErrors) xmlStopParser(ctxt);
}

/// Stops the parse at a document type declaration, recording where it starts.
static inline void harness_xml_refuse_doctype(
    void *data, const xmlChar *name, const xmlChar *externalID, const xmlChar *systemID) {
  (void)name;
  (void)externalID;
  (void)systemID;
  xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)data;
  harness_xml_parse_state *state = (harness_xml_parse_state *)ctxt->_private;
  if (state != NULL && !state->refusedDoctype) {
    state->refusedDoctype = 1;
    state->refusedLine = ctxt->input != NULL ? ctxt->input->line : 0;
    state->refusedColumn = ctxt->input != NULL ? ctxt->input->col : 0;
    if (ctxt->input != NULL && ctxt->input->base != NULL && ctxt->input->cur != NULL
        && ctxt->input->consumed == 0) {
      const xmlChar *start = ctxt->input->base;
      const xmlChar *at = ctxt->input->cur;
      while (at > start && !(at[0] == '<' && at[1] == '!')) at--;
      int line = 1;
      int column = 1;
      for (const xmlChar *p = start; p < at; p++) {
        if (*p == '\n') {
          line++;
          column = 1;
        } else if ((*p & 0xC0) != 0x80) {
          column++;
        }
      }
      state->refusedLine = line;
      state->refusedColumn = column;
    }
  }
  xmlStopParser(ctxt);
}

/// Parses an untrusted document held in memory.
///
/// The parser never touches the network, never loads or reads a DTD and never
/// substitutes entities: any `<!DOCTYPE` stops the parse at once (so XXE and
/// billion-laughs documents end there), with `state->refusedDoctype` set.
/// It parses in recovery mode only so that every well-formedness error is
/// reported, not just the first; a document with any error is still refused.
/// Errors go to `state->handler`. Returns the document only when it is
/// well formed and had no DOCTYPE; the caller frees it with `xmlFreeDoc`.
static inline xmlDocPtr harness_xml_parse_untrusted(
    const char *buffer, int size, harness_xml_parse_state *state) {
  xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(buffer, size);
  if (ctxt == NULL) return NULL;
  xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_RECOVER);
  ctxt->_private = state;
  ctxt->sax->initialized = XML_SAX2_MAGIC;
  ctxt->sax->serror = (xmlStructuredErrorFunc)harness_xml_forward_parser_error;
  ctxt->sax->internalSubset = harness_xml_refuse_doctype;
  ctxt->loadsubset = 0;
  ctxt->replaceEntities = 0;
  ctxt->validate = 0;
  xmlParseDocument(ctxt);
  xmlDocPtr document = ctxt->myDoc;
  ctxt->myDoc = NULL;
  int usable = ctxt->wellFormed && !state->refusedDoctype && document != NULL;
  xmlFreeParserCtxt(ctxt);
  if (!usable) {
    if (document != NULL) xmlFreeDoc(document);
    return NULL;
  }
  return document;
}

#endif
