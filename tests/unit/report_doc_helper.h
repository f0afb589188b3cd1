/*
 * Experiment documents for the report tests. A test writes the members
 * of an experiment it is about as JSON; doc_of() adds "schema" and
 * "type" when the object lacks them (what every stored experiment has),
 * decodes its text as `show` does, and fails the test when it does not
 * decode. page_of() renders sections of it as text.
 */
#ifndef REPORT_DOC_HELPER_H
#define REPORT_DOC_HELPER_H

#include <string.h>
#include <json-c/json.h>
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "core/report/report_formats.h"

/* o as a document, into doc (release it). */
static inline void doc_of(struct json_object *o, struct experiment_doc *doc)
{
	struct strbuf err = STRBUF_INIT;
	const char *text;
	int ret;

	if (!json_object_object_get_ex(o, "schema", NULL))
		json_object_object_add(o, "schema",
				       json_object_new_string("iotrial/1"));
	if (!json_object_object_get_ex(o, "type", NULL))
		json_object_object_add(o, "type",
				       json_object_new_string("experiment"));
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	ret = experiment_doc_decode(text, strlen(text), doc, 0, &err);
	if (ret)
		fail_msg("not a document: %s", err.buf);
	strbuf_release(&err);
}

/* The text of the sections of o (page.h's REPORT_SEC()s), onto out. */
static inline void page_of(struct json_object *o, unsigned sections,
			   struct strbuf *out)
{
	struct experiment_doc doc;
	struct strbuf err = STRBUF_INIT;

	doc_of(o, &doc);
	assert_int_equal(report_page(&doc, &emit_text_ops, sections, out, &err),
			 0);
	experiment_doc_release(&doc);
	strbuf_release(&err);
}

/* o in format (report --format): report_render()'s answer. */
static inline int render_of(struct json_object *o, const char *format,
			    struct strbuf *out, struct strbuf *err)
{
	struct experiment_doc doc;
	int ret;

	doc_of(o, &doc);
	ret = report_render(&doc, format, out, err);
	experiment_doc_release(&doc);
	return ret;
}

#endif
