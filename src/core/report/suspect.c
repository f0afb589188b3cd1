/*
 * Suspect verdicts (suspect.h). A run's warnings say what went wrong in
 * that run; a verdict is built from many runs of two arms, so its
 * reasons count, per kind of warning, how many runs of the arm and of
 * the baseline carried one. Only the kinds that mean the numbers may
 * not describe the device count: other I/O on the device and warnings
 * of no known kind are left to the warnings list (observe, which
 * measures a shared device, adds its own other_io reasons: the table
 * has a phrase for them that it does not count here).
 */
#include <math.h>
#include <string.h>
#include "suspect.h"
#include "expjson.h"
#include "suspect-int.h"
#include "../result/result.h"
#include "../../util/banned.h"

/* The kinds that make a verdict suspect, in the order reasons list them;
 * SUSPECT_DRIFT is the arm's drift, not a run's warning. */
#define SUSPECT_DRIFT RUN_WARN_KINDS

const struct suspect_kind suspect_kinds_table[] = {
    {RUN_WARN_PAGE_CACHE, "page_cache", "reads measured the page cache", 1},
    {RUN_WARN_ABSORBED, "absorbed", "the page cache absorbed the writes", 1},
    {RUN_WARN_SHORT, "short", "runs too short to trust", 1},
    {RUN_WARN_CPU_BOUND, "cpu_bound", "workers CPU-bound", 1},
    {RUN_WARN_INTERRUPTED, "interrupted", "runs cut short by a signal", 1},
    {RUN_WARN_UNREACHED, "unreached", "the I/O never reached the disk", 1},
    {RUN_WARN_FIDELITY, "fidelity", "replays unfaithful to their trace", 1},
    {SUSPECT_DRIFT, "drift", "the metric drifted across blocks", 1},
    /* observe's reason: not counted from compare's runs */
    {RUN_WARN_OTHER_IO, "other_io",
     "other processes' I/O on the device during the windows", 0},
};

const size_t nr_suspect_kinds =
    sizeof(suspect_kinds_table) / sizeof(*suspect_kinds_table);
#define NR_SUSPECT_KINDS nr_suspect_kinds

unsigned suspect_drift_kind(void)
{
	return SUSPECT_DRIFT;
}

unsigned suspect_warn_mask(char *const *w, size_t n, char *const *kinds,
			   size_t nr_kinds)
{
	unsigned mask = 0;
	size_t i;

	/* kinds that do not pair with the texts are not trusted */
	for (i = 0; i < n; i++)
		mask |= 1u << (nr_kinds == n ? run_warn_kind_parse(kinds[i])
					     : run_warn_kind_of_text(w[i]));
	return mask;
}

/* The warning kinds of a run object, as a bit mask of 1 << kind. */
static unsigned run_flags(struct json_object *run)
{
	struct json_object *w =
	    expjson_get_type(run, "warnings", json_type_array);
	struct json_object *k =
	    expjson_get_type(run, "warning_kinds", json_type_array);
	size_t i, n = w ? json_object_array_length(w) : 0;
	unsigned mask = 0;

	/* kinds that do not pair with the texts are not trusted */
	if (k && json_object_array_length(k) != n)
		k = NULL;
	for (i = 0; i < n; i++) {
		enum run_warn_kind kind;

		if (k)
			kind = run_warn_kind_parse(json_object_get_string(
			    json_object_array_get_idx(k, i)));
		else
			kind = run_warn_kind_of_text(json_object_get_string(
			    json_object_array_get_idx(w, i)));
		mask |= 1u << kind;
	}
	return mask;
}

/* The arm index member key of o, or -1 when it is none (missing, not a
 * number, out of range: a stored object is not trusted). */
static int index_of(struct json_object *o, const char *key)
{
	double v = expjson_num(o, key);

	return v >= 0 && v < 1e9 ? (int)v : -1;
}

/* The arm object of index arm in exp's "arms", or NULL. */
static struct json_object *arm_object(struct json_object *exp, int arm)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t i, n = arms ? json_object_array_length(arms) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);

		if (isnan(expjson_num(a, "arm")) ? (int)i == arm
						 : index_of(a, "arm") == arm)
			return a;
	}
	return NULL;
}

static void add_reason(struct json_object *reasons, const char *role,
		       const char *label, const char *kind, int runs, int of)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "arm", json_object_new_string(role));
	json_object_object_add(o, "label", json_object_new_string(label));
	json_object_object_add(o, "kind", json_object_new_string(kind));
	json_object_object_add(o, "runs", json_object_new_int(runs));
	json_object_object_add(o, "of", json_object_new_int(of));
	json_object_array_add(reasons, o);
}

void suspect_arm_reasons(struct json_object *exp, int arm, const char *role,
			 struct json_object *reasons)
{
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);
	struct json_object *a = arm_object(exp, arm);
	struct json_object *drifting = expjson_get(a, "drifting");
	int counts[RUN_WARN_KINDS + 1] = {0}, n = 0;
	size_t i, nr = runs ? json_object_array_length(runs) : 0;
	unsigned k;

	for (i = 0; i < nr; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		unsigned mask;

		if (index_of(r, "arm") != arm)
			continue;
		n++;
		mask = run_flags(expjson_get(r, "run"));
		for (k = 0; k < RUN_WARN_KINDS; k++)
			counts[k] += (mask >> k) & 1;
	}
	if (drifting && json_object_get_boolean(drifting))
		counts[SUSPECT_DRIFT] = n;
	for (k = 0; k < NR_SUSPECT_KINDS; k++)
		if (suspect_kinds_table[k].counted &&
		    counts[suspect_kinds_table[k].kind])
			add_reason(reasons, role, expjson_str(a, "label"),
				   suspect_kinds_table[k].name,
				   counts[suspect_kinds_table[k].kind], n);
}

/* The arm indices x rests on: its "arms" (an interaction's four), or
 * its "arm" and "baseline_arm" (an effect, a scaling row), or its "arm"
 * and exp's baseline (a verdict). Returns how many, at most max; role
 * says which is the baseline. */
static size_t arms_of(struct json_object *exp, struct json_object *x, int *idx,
		      const char **role, size_t max)
{
	struct json_object *arms = expjson_get_type(x, "arms", json_type_array);
	size_t i, n = 0;

	if (arms) {
		for (i = 0; i < json_object_array_length(arms) && n < max;
		     i++) {
			double v = json_object_get_double(
			    json_object_array_get_idx(arms, i));

			if (v >= 0 && v < 1e9) {
				idx[n] = (int)v;
				role[n++] = "arm";
			}
		}
		return n;
	}
	if (index_of(x, "arm") < 0 || max < 2)
		return 0;
	idx[n] = index_of(x, "arm");
	role[n++] = "arm";
	if (expjson_get(x, "baseline_arm"))
		idx[n] = index_of(x, "baseline_arm");
	else if (json_object_object_get_ex(x, "ratio_to_first", NULL))
		return n; /* a scaling row stored before: its own arm only */
	else
		idx[n] = expjson_count(exp, "baseline");
	role[n] = "baseline";
	/* a scaling table's first row is its own baseline */
	if (idx[n] >= 0 && idx[n] != idx[0])
		n++;
	return n;
}

/* The reasons of x (a verdict, an effect, an interaction, a scaling
 * row) of exp, computed from its runs and arms. */
static struct json_object *compute(struct json_object *exp,
				   struct json_object *x)
{
	struct json_object *reasons = json_object_new_array();
	int idx[8];
	const char *role[8];
	size_t i, n = arms_of(exp, x, idx, role, 8);

	for (i = 0; i < n; i++)
		suspect_arm_reasons(exp, idx[i], role[i], reasons);
	return reasons;
}

/* Set "suspect" of every object of exp's array key. */
static void mark_all(struct json_object *exp, const char *key)
{
	struct json_object *xs = expjson_get_type(exp, key, json_type_array);
	size_t i, n = xs ? json_object_array_length(xs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(xs, i);

		if (json_object_is_type(x, json_type_object))
			json_object_object_add(x, "suspect", compute(exp, x));
	}
}

void suspect_mark(struct json_object *exp)
{
	mark_all(exp, "verdicts");
	mark_all(exp, "effects");
	mark_all(exp, "interactions");
	mark_all(exp, "scaling");
}

struct json_object *suspect_reasons(struct json_object *exp,
				    struct json_object *v)
{
	struct json_object *s = expjson_get_type(v, "suspect", json_type_array);

	return s ? json_object_get(s) : compute(exp, v);
}

bool suspect_is(struct json_object *exp, struct json_object *v)
{
	struct json_object *s = suspect_reasons(exp, v);
	bool yes = json_object_array_length(s) > 0;

	json_object_put(s);
	return yes;
}

bool suspect_estimate_slower(struct json_object *exp, struct json_object *v)
{
	struct json_object *hib =
	    expjson_get(expjson_get(exp, "metric"), "higher_is_better");
	double ratio = expjson_num(v, "ratio");

	if (!isfinite(ratio))
		return false;
	return !hib || json_object_get_boolean(hib) ? ratio < 1 : ratio > 1;
}

unsigned suspect_apply_strict(struct json_object *exp)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, n = vs ? json_object_array_length(vs) : 0;
	unsigned refused = 0;

	if (!json_object_is_type(exp, json_type_object))
		return 0;
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		const char *verdict = expjson_str(v, "verdict");

		if ((strcmp(verdict, "faster") && strcmp(verdict, "slower")) ||
		    !suspect_is(exp, v))
			continue;
		json_object_object_add(v, "estimate",
				       json_object_new_string(verdict));
		json_object_object_add(v, "verdict",
				       json_object_new_string(SUSPECT_VERDICT));
		refused++;
	}
	json_object_object_add(exp, "strict", json_object_new_boolean(1));
	return refused;
}

void suspect_kinds(struct json_object *exp, struct json_object *v,
		   struct strbuf *out)
{
	struct json_object *reasons = suspect_reasons(exp, v);
	size_t i, j, n = json_object_array_length(reasons), said = 0;

	for (i = 0; i < n; i++) {
		const char *kind =
		    expjson_str(json_object_array_get_idx(reasons, i), "kind");

		for (j = 0; j < i; j++)
			if (!strcmp(kind, expjson_str(json_object_array_get_idx(
							  reasons, j),
						      "kind")))
				break;
		if (j == i)
			strbuf_addf(out, "%s%s", said++ ? ", " : "", kind);
	}
	json_object_put(reasons);
}
