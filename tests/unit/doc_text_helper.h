/*
 * Experiment documents from JSON text, for the tests. A test writes the
 * members of an experiment it is about; doc_text_decode() puts the
 * "schema" and "type" every stored experiment has first when the text
 * does not begin with them, and decodes it as `show` does; doc_text()
 * fails the test when it does not decode. doc_text_page() renders
 * sections of a document as text.
 */
#ifndef DOC_TEXT_HELPER_H
#define DOC_TEXT_HELPER_H

#include <string.h>
#include "core/model/model_json.h"
#include "core/report/page.h"

/* text as a document into doc (release it, also after an error): 0, or
 * decode's -EINVAL with err set. */
static inline int doc_text_decode(const char *text, struct experiment_doc *doc,
				  struct strbuf *err)
{
	struct strbuf full = STRBUF_INIT;
	const char *p = text;
	int ret;

	while (*p == ' ' || *p == '\n')
		p++;
	if (*p == '{' && strncmp(p + 1, "\"schema\"", 8)) {
		p++;
		while (*p == ' ' || *p == '\n')
			p++;
		strbuf_addf(&full,
			    "{\"schema\": \"iotrial/1\", \"type\": "
			    "\"experiment\"%s%s",
			    *p == '}' ? "" : ", ", p);
	} else {
		strbuf_addstr(&full, text);
	}
	ret = experiment_doc_decode(full.buf, full.len, doc, 0, err);
	strbuf_release(&full);
	return ret;
}

/* The same, failing the test when text does not decode. */
static inline void doc_text(const char *text, struct experiment_doc *doc)
{
	struct strbuf err = STRBUF_INIT;

	if (doc_text_decode(text, doc, &err))
		fail_msg("not a document: %s", err.buf);
	strbuf_release(&err);
}

/* The text of doc's sections (page.h's REPORT_SEC()s), onto out: 0, or
 * report_page()'s -EINVAL with err set. */
static inline int doc_text_page(const struct experiment_doc *doc,
				unsigned sections, struct strbuf *out,
				struct strbuf *err)
{
	return report_page(doc, &emit_text_ops, sections, out, err);
}

#endif
