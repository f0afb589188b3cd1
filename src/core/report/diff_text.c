/*
 * What `iotrial diff` prints (diff_text.h): the before/after table, then
 * every difference between the two recorded environments and between
 * the parameters, because a result is only as good as the knowledge of
 * what else changed.
 */
#include "diff_text.h"
#include "emit.h"
#include "page.h"
#include "../model/model_json.h"
#include "../../util/text.h"
#include "../../util/banned.h"

/* "not like for like" and its lines, first: before any verdict. */
static void unlike_text(const struct diff_doc *doc, struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "not like for like: the two arms ran differently\n");
	for (i = 0; i < doc->nr_unlike; i++)
		strbuf_addf(out, "  %s\n", doc->unlike[i]);
	if (!doc->experiment)
		strbuf_addstr(out, "no verdict: a difference would be as much "
				   "theirs as the change's; --force compares "
				   "them anyway\n");
	else
		strbuf_addstr(out, "compared anyway (--force): the verdict "
				   "covers these differences too\n\n");
}

void report_diff_text(const struct diff_doc *doc, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;

	strbuf_addf(out, "before: %s arm '%s'; after: %s arm '%s'\n",
		    doc->before ? doc->before : "",
		    doc->arm_before ? doc->arm_before : "",
		    doc->after ? doc->after : "",
		    doc->arm_after ? doc->arm_after : "");
	if (doc->nr_unlike)
		unlike_text(doc, out);
	if (doc->experiment)
		report_page(doc->experiment, &emit_text_ops,
			    REPORT_PAGE_VERDICTS, out, &err);
	strbuf_addch(out, '\n');
	for (i = 0; i < doc->nr_differences; i++)
		strbuf_addf(out, "%s\n", doc->differences[i]);
	if (!doc->nr_differences)
		strbuf_addstr(out, "no differences in the recorded "
				   "environments\n");
	strbuf_release(&err);
}

void report_diff_json(const struct diff_doc *doc, struct strbuf *out)
{
	size_t from = out->len;

	diff_doc_encode(doc, 0, out);
	/* json-c writes a string's bytes as they are, UTF-8 or not */
	text_json_safe(out, from);
}
