// The only file of the project that includes libxml2's headers; see xml_bridge.h.

#include "xml_bridge.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlversion.h>
#include <pthread.h>

// Handles are the libxml2 structures themselves, cast at this boundary.
#define AHX_DOC(document) ((xmlDocPtr)(void *)(document))
#define AHX_NODE(element) ((xmlNodePtr)(void *)(element))
#define AHX_ATTR(attribute) ((xmlAttrPtr)(void *)(attribute))
#define AHX_SCHEMA(schema) ((xmlSchemaPtr)(void *)(schema))

static pthread_once_t ahx_once = PTHREAD_ONCE_INIT;

static void ahx_initialize_once(void) { xmlInitParser(); }

void ahx_initialize(void) { pthread_once(&ahx_once, ahx_initialize_once); }

const char *ahx_libxml_version(void) { return xmlParserVersion; }

/// Where an error handler and its context travel through libxml2's single `void *`.
typedef struct {
  ahx_error_handler handler;
  void *context;
} ahx_sink;

/// Hands one libxml2 error to a sink, copying out only what the header promises.
static void ahx_deliver(const ahx_sink *sink, const xmlError *error) {
  if (sink == NULL || sink->handler == NULL || error == NULL) return;
  ahx_error copy;
  copy.message = error->message != NULL ? error->message : "unknown XML error";
  copy.line = error->line;
  copy.column = error->int2;
  copy.node = error->node;
  copy.is_warning = error->level == XML_ERR_WARNING;
  sink->handler(sink->context, &copy);
}

/// libxml2 before 2.12 passes a non-const `xmlErrorPtr`; both fit this signature after a cast.
static void ahx_sink_callback(void *data, const xmlError *error) {
  ahx_deliver((const ahx_sink *)data, error);
}

/// The state one untrusted parse shares with its SAX hooks, reached through `ctxt->_private`.
typedef struct {
  ahx_sink sink;
  ahx_parse_report *report;
  int maximum_errors;
} ahx_parse_state;

static void ahx_parser_error(void *data, const xmlError *error) {
  xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)data;
  if (ctxt == NULL || ctxt->_private == NULL) return;
  ahx_parse_state *state = (ahx_parse_state *)ctxt->_private;
  int limit = state->maximum_errors;
  if (limit > 0 && state->report->error_count >= limit) return;
  state->report->error_count++;
  ahx_deliver(&state->sink, error);
  if (limit > 0 && state->report->error_count >= limit) xmlStopParser(ctxt);
}

/// Stops the parse at a document type declaration, recording where it starts.
static void ahx_refuse_doctype(
    void *data, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
  (void)name;
  (void)external_id;
  (void)system_id;
  xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)data;
  ahx_parse_state *state = (ahx_parse_state *)ctxt->_private;
  if (state != NULL && !state->report->refused_doctype) {
    ahx_parse_report *report = state->report;
    report->refused_doctype = 1;
    report->refused_line = ctxt->input != NULL ? ctxt->input->line : 0;
    report->refused_column = ctxt->input != NULL ? ctxt->input->col : 0;
    // libxml2 reports the position after the declaration; while the whole
    // input is still in memory, walk back to its `<!` and count from the start.
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
      report->refused_line = line;
      report->refused_column = column;
    }
  }
  xmlStopParser(ctxt);
}

ahx_document *ahx_parse_untrusted(
    const char *bytes, int size, int maximum_errors, ahx_error_handler handler, void *context,
    ahx_parse_report *report) {
  if (bytes == NULL || size < 0 || report == NULL) return NULL;
  ahx_initialize();
  report->refused_doctype = 0;
  report->refused_line = 0;
  report->refused_column = 0;
  report->error_count = 0;
  xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(bytes, size);
  if (ctxt == NULL) return NULL;
  ahx_parse_state state = {{handler, context}, report, maximum_errors};
  xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_RECOVER);
  ctxt->_private = &state;
  ctxt->sax->initialized = XML_SAX2_MAGIC;
  ctxt->sax->serror = (xmlStructuredErrorFunc)ahx_parser_error;
  ctxt->sax->internalSubset = ahx_refuse_doctype;
  ctxt->loadsubset = 0;
  ctxt->replaceEntities = 0;
  ctxt->validate = 0;
  xmlParseDocument(ctxt);
  xmlDocPtr document = ctxt->myDoc;
  ctxt->myDoc = NULL;
  int usable = ctxt->wellFormed && !report->refused_doctype && document != NULL;
  ctxt->_private = NULL;
  xmlFreeParserCtxt(ctxt);
  if (!usable) {
    if (document != NULL) xmlFreeDoc(document);
    return NULL;
  }
  return (ahx_document *)(void *)document;
}

void ahx_document_free(ahx_document *document) {
  if (document != NULL) xmlFreeDoc(AHX_DOC(document));
}

ahx_element *ahx_document_root(ahx_document *document) {
  if (document == NULL) return NULL;
  return (ahx_element *)(void *)xmlDocGetRootElement(AHX_DOC(document));
}

/// The first element node at or after `node` among its siblings.
static ahx_element *ahx_element_from(xmlNodePtr node) {
  while (node != NULL && node->type != XML_ELEMENT_NODE) node = node->next;
  return (ahx_element *)(void *)node;
}

ahx_element *ahx_element_first_child(ahx_element *element) {
  return element == NULL ? NULL : ahx_element_from(AHX_NODE(element)->children);
}

ahx_element *ahx_element_next_sibling(ahx_element *element) {
  return element == NULL ? NULL : ahx_element_from(AHX_NODE(element)->next);
}

const char *ahx_element_name(ahx_element *element) {
  return (const char *)AHX_NODE(element)->name;
}

const char *ahx_element_namespace(ahx_element *element) {
  xmlNsPtr ns = AHX_NODE(element)->ns;
  return ns != NULL ? (const char *)ns->href : NULL;
}

long ahx_element_line(ahx_element *element) { return xmlGetLineNo(AHX_NODE(element)); }

char *ahx_element_text(ahx_element *element) {
  return (char *)xmlNodeGetContent(AHX_NODE(element));
}

ahx_attribute *ahx_element_first_attribute(ahx_element *element) {
  return element == NULL ? NULL : (ahx_attribute *)(void *)AHX_NODE(element)->properties;
}

ahx_attribute *ahx_attribute_next(ahx_attribute *attribute) {
  return attribute == NULL ? NULL : (ahx_attribute *)(void *)AHX_ATTR(attribute)->next;
}

const char *ahx_attribute_name(ahx_attribute *attribute) {
  return (const char *)AHX_ATTR(attribute)->name;
}

char *ahx_attribute_value(ahx_attribute *attribute) {
  return (char *)xmlNodeGetContent((xmlNodePtr)(void *)AHX_ATTR(attribute));
}

void ahx_free(void *pointer) {
  if (pointer != NULL) xmlFree(pointer);
}

/// Compiles a schema from a parser context, sending every error to the sink.
static ahx_schema *ahx_schema_compile(xmlSchemaParserCtxtPtr parser, ahx_sink *sink) {
  if (parser == NULL) return NULL;
  // Some schema errors are raised outside the parser context, through the
  // thread's handler; route those to the sink for the duration as well.
  xmlSetStructuredErrorFunc(sink, (xmlStructuredErrorFunc)ahx_sink_callback);
  xmlSchemaSetParserStructuredErrors(parser, (xmlStructuredErrorFunc)ahx_sink_callback, sink);
  xmlSchemaPtr schema = xmlSchemaParse(parser);
  xmlSchemaFreeParserCtxt(parser);
  xmlSetStructuredErrorFunc(NULL, NULL);
  return (ahx_schema *)(void *)schema;
}

ahx_schema *ahx_schema_compile_memory(
    const char *bytes, int size, ahx_error_handler handler, void *context) {
  if (bytes == NULL || size < 0) return NULL;
  ahx_initialize();
  ahx_sink sink = {handler, context};
  return ahx_schema_compile(xmlSchemaNewMemParserCtxt(bytes, size), &sink);
}

ahx_schema *ahx_schema_compile_file(const char *path, ahx_error_handler handler, void *context) {
  if (path == NULL) return NULL;
  ahx_initialize();
  ahx_sink sink = {handler, context};
  return ahx_schema_compile(xmlSchemaNewParserCtxt(path), &sink);
}

void ahx_schema_free(ahx_schema *schema) {
  if (schema != NULL) xmlSchemaFree(AHX_SCHEMA(schema));
}

int ahx_schema_validate(
    ahx_schema *schema, ahx_document *document, ahx_error_handler handler, void *context) {
  if (schema == NULL || document == NULL) return -1;
  ahx_sink sink = {handler, context};
  xmlSchemaValidCtxtPtr validator = xmlSchemaNewValidCtxt(AHX_SCHEMA(schema));
  if (validator == NULL) return -1;
  xmlSetStructuredErrorFunc(&sink, (xmlStructuredErrorFunc)ahx_sink_callback);
  xmlSchemaSetValidStructuredErrors(validator, (xmlStructuredErrorFunc)ahx_sink_callback, &sink);
  int result = xmlSchemaValidateDoc(validator, AHX_DOC(document));
  xmlSetStructuredErrorFunc(NULL, NULL);
  xmlSchemaFreeValidCtxt(validator);
  return result;
}
