/*
 * The sentences that say what each table's p is (p_note.h): the same
 * raw p adjusted over two families reads as a contradiction unless the
 * page says which family each number belongs to.
 */
#include <math.h>
#include <string.h>
#include "p_note.h"
#include "expjson.h"
#include "../../util/banned.h"

/* A p value as the tables print it. */
static void add_p(struct strbuf *out, double p)
{
	strbuf_addf(out, p < 0.001 ? "%.1e" : "%.3f", p);
}

/* How many objects of exp's array key have a p_adjusted. */
static size_t nr_tested(struct json_object *exp, const char *key)
{
	struct json_object *xs = expjson_get_type(exp, key, json_type_array);
	size_t i, n = xs ? json_object_array_length(xs) : 0, k = 0;

	for (i = 0; i < n; i++)
		k += isfinite(expjson_num(json_object_array_get_idx(xs, i),
					  "p_adjusted"));
	return k;
}

void report_p_note_arms(struct json_object *exp, struct strbuf *out)
{
	size_t k = nr_tested(exp, "verdicts");

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
static void per_factor(struct json_object *es, struct strbuf *out)
{
	size_t i, j, n = json_object_array_length(es), said = 0;

	for (i = 0; i < n; i++) {
		const char *f =
		    expjson_str(json_object_array_get_idx(es, i), "factor");
		size_t k = 0;

		for (j = 0; j < i; j++)
			if (!strcmp(
				f, expjson_str(json_object_array_get_idx(es, j),
					       "factor")))
				break;
		if (j < i)
			continue; /* counted at its first effect */
		for (j = i; j < n; j++) {
			struct json_object *e =
			    json_object_array_get_idx(es, j);

			k += !strcmp(f, expjson_str(e, "factor")) &&
			     isfinite(expjson_num(e, "p_adjusted"));
		}
		strbuf_addf(out, "%s%s: %zu", said++ ? ", " : "", f, k);
	}
}

/* The verdict of the arm table that compares arm e's arms, or NULL. */
static struct json_object *same_pair(struct json_object *exp,
				     struct json_object *e)
{
	struct json_object *v;

	if (!expjson_get(e, "baseline_arm") ||
	    expjson_count(e, "baseline_arm") != expjson_count(exp, "baseline"))
		return NULL;
	v = expjson_verdict(exp, expjson_count(e, "arm"));
	return v && isfinite(expjson_num(v, "p_adjusted")) ? v : NULL;
}

void report_p_note_effects(struct json_object *exp,
			   void (*heading)(struct json_object *e,
					   struct strbuf *out),
			   struct strbuf *out)
{
	struct json_object *es =
	    expjson_get_type(exp, "effects", json_type_array);
	size_t i, n = es ? json_object_array_length(es) : 0, said = 0;
	struct strbuf h = STRBUF_INIT, here = STRBUF_INIT, there = STRBUF_INIT;

	if (!nr_tested(exp, "effects"))
		return;
	strbuf_addstr(out, "p is Holm-adjusted within each factor, over its "
			   "own effects (");
	per_factor(es, out);
	strbuf_addch(out, ')');
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(es, i);
		struct json_object *v = same_pair(exp, e);
		double pe = expjson_num(e, "p_adjusted");

		/* the same pair: the same raw p, two adjustments; only
		 * those that print differently need saying */
		if (!v || !isfinite(pe))
			continue;
		strbuf_reset(&here);
		strbuf_reset(&there);
		add_p(&here, pe);
		add_p(&there, expjson_num(v, "p_adjusted"));
		if (!strcmp(here.buf, there.buf))
			continue;
		if (!said++)
			strbuf_addf(out,
				    "; the arm table adjusts over its %zu "
				    "comparisons with the baseline, so a pair "
				    "of arms compared in both tables has two "
				    "p values: ",
				    nr_tested(exp, "verdicts"));
		else
			strbuf_addstr(out, "; ");
		strbuf_reset(&h);
		heading(e, &h);
		strbuf_addf(out, "%s (raw p ", h.buf);
		add_p(out, expjson_num(e, "p"));
		strbuf_addf(out, "): %s here, %s in the arm table", here.buf,
			    there.buf);
	}
	strbuf_release(&h);
	strbuf_release(&here);
	strbuf_release(&there);
}
