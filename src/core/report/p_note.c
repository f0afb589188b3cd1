/*
 * The sentences that say what each table's p is (p_note.h): the same
 * raw p adjusted over two families reads as a contradiction unless the
 * page says which family each number belongs to.
 */
#include <math.h>
#include <string.h>
#include "p_note.h"
#include "report_doc.h"
#include "../../util/banned.h"

/* How many verdicts, or effects, have a p_adjusted. */
static size_t nr_tested_verdicts(const struct experiment_doc *doc)
{
	size_t i, k = 0;

	for (i = 0; i < doc->nr_verdicts; i++)
		k += isfinite(CMP_NUM(&doc->verdicts[i], p_adjusted));
	return k;
}

static size_t nr_tested_effects(const struct experiment_doc *doc)
{
	size_t i, k = 0;

	for (i = 0; i < doc->nr_effects; i++)
		k += isfinite(CMP_NUM(&doc->effects[i], p_adjusted));
	return k;
}

void report_p_note_arms(const struct experiment_doc *doc, struct strbuf *out)
{
	size_t k = nr_tested_verdicts(doc);

	if (k == 1)
		strbuf_addstr(out, "p is the test's own: one comparison with "
				   "the baseline, nothing to adjust");
	else if (k > 1)
		strbuf_addf(out,
			    "p is Holm-adjusted over the %zu comparisons with "
			    "the baseline",
			    k);
}

/* "read_ahead_kb: 2, scheduler: 2": each factor's tested effects. */
static void per_factor(const struct experiment_doc *doc, struct strbuf *out)
{
	size_t i, j, n = doc->nr_effects, said = 0;

	for (i = 0; i < n; i++) {
		const char *f = rd_s(doc->effects[i].factor);
		size_t k = 0;

		for (j = 0; j < i; j++)
			if (!strcmp(f, rd_s(doc->effects[j].factor)))
				break;
		if (j < i)
			continue; /* counted at its first effect */
		for (j = i; j < n; j++)
			k += !strcmp(f, rd_s(doc->effects[j].factor)) &&
			     isfinite(CMP_NUM(&doc->effects[j], p_adjusted));
		strbuf_addf(out, "%s%s: %zu", said++ ? ", " : "", f, k);
	}
}

/* The verdict of the arm table that compares effect e's arms, or NULL. */
static const struct exp_verdict *same_pair(const struct experiment_doc *doc,
					   const struct exp_effect *e)
{
	const struct exp_verdict *v;
	int base = doc->has_baseline == MODEL_SET ? rd_count(doc->baseline) : 0;

	if (rd_count(e->baseline_arm) != base)
		return NULL;
	v = report_verdict(doc, e->arm);
	return v && isfinite(CMP_NUM(v, p_adjusted)) ? v : NULL;
}

void report_p_note_effects(const struct experiment_doc *doc,
			   void (*heading)(const struct exp_effect *e,
					   struct strbuf *out),
			   struct strbuf *out)
{
	size_t i, said = 0;
	struct strbuf h = STRBUF_INIT, here = STRBUF_INIT, there = STRBUF_INIT;

	if (!nr_tested_effects(doc))
		return;
	strbuf_addstr(out, "p is Holm-adjusted within each factor, over its "
			   "own effects (");
	per_factor(doc, out);
	strbuf_addch(out, ')');
	for (i = 0; i < doc->nr_effects; i++) {
		const struct exp_effect *e = &doc->effects[i];
		const struct exp_verdict *v = same_pair(doc, e);
		double pe = CMP_NUM(e, p_adjusted);

		/* the same pair: the same raw p, two adjustments; only
		 * those that print differently need saying */
		if (!v || !isfinite(pe))
			continue;
		strbuf_reset(&here);
		strbuf_reset(&there);
		report_add_p(&here, pe);
		report_add_p(&there, v->cmp->p_adjusted);
		if (!strcmp(here.buf, there.buf))
			continue;
		if (!said++)
			strbuf_addf(out,
				    "; the arm table adjusts over its %zu "
				    "comparisons with the baseline, so a pair "
				    "of arms compared in both tables has two "
				    "p values: ",
				    nr_tested_verdicts(doc));
		else
			strbuf_addstr(out, "; ");
		strbuf_reset(&h);
		heading(e, &h);
		strbuf_addf(out, "%s (raw p ", h.buf);
		report_add_p(out, e->cmp->p);
		strbuf_addf(out, "): %s here, %s in the arm table", here.buf,
			    there.buf);
	}
	strbuf_release(&h);
	strbuf_release(&here);
	strbuf_release(&there);
}
