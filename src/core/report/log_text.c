/*
 * The list of `iotrial log` (log_text.h): a table whose columns are as
 * wide as their longest value, or a JSON array of the same entries.
 */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include "expjson.h"
#include "log_text.h"
#include "report.h"
#include "../model/model_json.h"
#include "../model/model_tree.h"
#include "../../version.h"
#include "../../util/text.h"
#include "../../util/banned.h"

/* "2026-11-29T22:58:00Z" as "2026-11-29 22:58". */
static void fmt_date(char out[17], const char *created)
{
	snprintf(out, 17, "%s", created);
	if (out[10] == 'T')
		out[10] = ' ';
}

/* Widen *w to hold s. */
static void widen(int *w, const char *s)
{
	int n = (int)strlen(s);

	if (n > *w)
		*w = n;
}

void log_columns_of(struct json_object *exp, struct log_columns *c)
{
	struct experiment_doc doc;
	struct strbuf err = STRBUF_INIT;

	strbuf_init(&c->arms, 0);
	strbuf_init(&c->verdicts, 0);
	/* what is not an experiment has no arms and no verdicts */
	if (!experiment_doc_from_tree(exp, &doc, 0, &err)) {
		report_doc_arm_labels(&doc, &c->arms);
		report_doc_verdict_summary(&doc, &c->verdicts);
	}
	experiment_doc_release(&doc);
	strbuf_release(&err);
}

void log_columns_release(struct log_columns *c)
{
	strbuf_release(&c->arms);
	strbuf_release(&c->verdicts);
}

/*
 * e's verdicts: the stored text, or, for an entry with its object (one
 * stored before verdicts could be suspect), rendered again from it so
 * that it is marked as a new one is, made printable as the store makes
 * what it reads (the object may have been edited). An object that does
 * not parse keeps the stored text. tmp holds what is returned.
 */
static const char *verdicts_of(const struct exp_summary *e, struct strbuf *tmp)
{
	struct experiment_doc doc;
	struct strbuf err = STRBUF_INIT;
	const char *ret = e->verdicts;

	if (!e->json)
		return ret;
	if (!experiment_doc_decode(e->json, strlen(e->json), &doc, 0, &err)) {
		strbuf_reset(tmp);
		report_doc_verdict_summary(&doc, tmp);
		text_make_printable(tmp->buf);
		ret = tmp->buf;
	}
	experiment_doc_release(&doc);
	strbuf_release(&err);
	return ret;
}

void report_log_text(const struct exp_summary *l, size_t nr, struct strbuf *out)
{
	struct strbuf v = STRBUF_INIT;
	int ww = 8, tw = 6, mw = 6;
	char date[17];
	size_t i;

	for (i = 0; i < nr; i++) {
		widen(&ww, l[i].workload);
		widen(&tw, l[i].target);
		widen(&mw, l[i].metric);
	}
	strbuf_addf(out, "%-8s  %-16s  %-*s  %-*s  %-*s  %s\n", "id",
		    "date (UTC)", ww, "workload", tw, "target", mw, "metric",
		    "result");
	for (i = 0; i < nr; i++) {
		fmt_date(date, l[i].created);
		strbuf_addf(out, "%-8s  %-16s  %-*s  %-*s  %-*s  ", l[i].id,
			    date, ww, l[i].workload, tw, l[i].target, mw,
			    l[i].metric);
		if (l[i].origin && strcmp(l[i].origin, EXP_ORIGIN_LOCAL))
			strbuf_addf(out, "(%s) ", l[i].origin);
		strbuf_addf(out, "%s\n", verdicts_of(&l[i], &v));
	}
	strbuf_release(&v);
}

void report_log_json(const struct exp_summary *l, size_t nr, int bare,
		     struct strbuf *out)
{
	struct json_object *arr = json_object_new_array(), *top;
	struct strbuf v = STRBUF_INIT;
	size_t i;

	for (i = 0; i < nr; i++) {
		struct json_object *o = json_object_new_object();

#define ADD(key, v) json_object_object_add(o, key, json_object_new_string(v))
		ADD("id", l[i].id);
		ADD("created", l[i].created);
		ADD("workload", l[i].workload);
		ADD("target", l[i].target);
		ADD("metric", l[i].metric);
		ADD("arms", l[i].arms);
		ADD("host", l[i].host);
		ADD("kernel", l[i].kernel);
		ADD("result", verdicts_of(&l[i], &v));
		ADD("origin", l[i].origin ? l[i].origin : EXP_ORIGIN_LOCAL);
#undef ADD
		json_object_array_add(arr, o);
	}
	if (bare) {
		top = arr;
	} else {
		top = json_object_new_object();
		json_object_object_add(top, "schema",
				       json_object_new_string(IOTRIAL_SCHEMA));
		json_object_object_add(top, "experiments", arr);
	}
	report_json_string(top, out);
	json_object_put(top);
	strbuf_release(&v);
}
