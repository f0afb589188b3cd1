/*
 * The list of `iotrial log` (log_text.h): a table whose columns are as
 * wide as their longest value, or a JSON array of the same entries.
 */
#include <stdio.h>
#include <string.h>
#include "log_text.h"
#include "report.h"
#include "../model/model_json.h"
#include "../../version.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
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

void log_columns_of_doc(const struct experiment_doc *exp, struct log_columns *c)
{
	strbuf_init(&c->arms, 0);
	strbuf_init(&c->verdicts, 0);
	report_doc_arm_labels(exp, &c->arms);
	report_doc_verdict_summary(exp, &c->verdicts);
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
	struct strbuf v = STRBUF_INIT;
	struct log_doc doc;
	size_t i;

	log_doc_init(&doc);
	doc.schema = xstrdup(IOTRIAL_SCHEMA);
	doc.experiments = xcalloc(nr + 1, sizeof(*doc.experiments));
	doc.nr_experiments = nr;
	for (i = 0; i < nr; i++) {
		struct log_entry_doc *o = &doc.experiments[i];

		o->id = xstrdup(l[i].id);
		o->created = xstrdup(l[i].created);
		o->workload = xstrdup(l[i].workload);
		o->target = xstrdup(l[i].target);
		o->metric = xstrdup(l[i].metric);
		o->arms = xstrdup(l[i].arms);
		o->host = xstrdup(l[i].host);
		o->kernel = xstrdup(l[i].kernel);
		o->result = xstrdup(verdicts_of(&l[i], &v));
		o->origin =
		    xstrdup(l[i].origin ? l[i].origin : EXP_ORIGIN_LOCAL);
	}
	i = out->len;
	if (bare)
		log_doc_encode_array(&doc, out);
	else
		log_doc_encode(&doc, 0, out);
	/* json-c writes a string's bytes as they are, UTF-8 or not */
	text_json_safe(out, i);
	log_doc_release(&doc);
	strbuf_release(&v);
}
