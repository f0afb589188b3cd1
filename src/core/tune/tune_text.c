/*
 * tune_text(): the winner, the settings equivalent to it, the smallest
 * change, the knobs that made no difference, what was not tried and
 * why, and the runs against a full grid; or, for a bisection, the
 * settings that carry the difference, their share, and those that
 * carry none. Strings from the object are made printable first: a
 * stored object may come from elsewhere.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tune_text.h"
#include "../../util/text.h"
#include "../../util/banned.h"

/* Append s to out, every control character made a '?'. */
static void text_add_printable(struct strbuf *out, const char *s)
{
	size_t at = out->len;

	strbuf_addstr(out, s ? s : "?");
	text_make_printable(out->buf + at);
	strbuf_setlen(out, strlen(out->buf));
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

/* A member as printable text ("?" when absent). */
static void put_str(struct strbuf *out, struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);
	const char *s = v && json_object_is_type(v, json_type_string)
			    ? json_object_get_string(v)
			    : "?";

	text_add_printable(out, s);
}

static double num(struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);

	if (!v || !(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

/* "read_ahead_kb=1024 scheduler=none", or what no change is called. */
static void put_changes(struct strbuf *out, struct json_object *o,
			const char *none)
{
	struct json_object *c = get(o, "changes");
	int n = 0;

	if (c && json_object_is_type(c, json_type_object)) {
		json_object_object_foreach(c, k, v)
		{
			strbuf_addstr(out, n++ ? " " : "");
			text_add_printable(out, k);
			strbuf_addch(out, '=');
			text_add_printable(
			    out, json_object_is_type(v, json_type_string)
				     ? json_object_get_string(v)
				     : "?");
		}
	}
	if (!n)
		strbuf_addstr(out, none);
}

/* "2.62x (95% CI 2.60-2.65, better)" */
static void put_ratio(struct strbuf *out, struct json_object *o)
{
	double r = num(o, "ratio"), lo = num(o, "ci_low"),
	       hi = num(o, "ci_high");

	if (!isfinite(r)) {
		strbuf_addstr(out, "no ratio (too few runs)");
		return;
	}
	strbuf_addf(out, "%.3fx", r);
	if (isfinite(lo) && isfinite(hi))
		strbuf_addf(out, " (95%% CI %.3f-%.3f, ", lo, hi);
	else
		strbuf_addstr(out, " (");
	put_str(out, o, "call");
	strbuf_addch(out, ')');
}

/* The candidate of arm in a tune's "candidates", or NULL. */
static struct json_object *cand_of_arm(struct json_object *cands,
				       struct json_object *arm)
{
	size_t i, n = cands ? json_object_array_length(cands) : 0;

	for (i = 0; arm && i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cands, i);
		struct json_object *a = get(c, "arm");

		if (a && json_object_get_int(a) == json_object_get_int(arm))
			return c;
	}
	return NULL;
}

static void race_text(struct json_object *t, struct strbuf *out)
{
	struct json_object *space = get(t, "space"),
			   *cands = get(t, "candidates");
	struct json_object *a, *x;
	const char *f;
	size_t i, k, n;
	int said = 0;

	strbuf_addstr(out, "space (* the current value):\n");
	n = space ? json_object_array_length(space) : 0;
	for (i = 0; i < n; i++) {
		struct json_object *vals;
		const char *cur;

		x = json_object_array_get_idx(space, i);
		vals = get(x, "values");
		cur = get(x, "current")
			  ? json_object_get_string(get(x, "current"))
			  : "";
		strbuf_addstr(out, "  ");
		put_str(out, x, "knob");
		strbuf_addch(out, ' ');
		for (k = 0; vals && k < json_object_array_length(vals); k++) {
			const char *v = json_object_get_string(
			    json_object_array_get_idx(vals, k));

			strbuf_addstr(out, k ? "," : "");
			text_add_printable(out, v ? v : "?");
			if (v && !strcmp(v, cur))
				strbuf_addch(out, '*');
		}
		strbuf_addstr(out, ": ");
		put_str(out, x, "finding");
		strbuf_addstr(out, ", leader ");
		put_str(out, x, "leader");
		strbuf_addch(out, '\n');
	}
	a = get(t, "left_out");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		x = json_object_array_get_idx(a, i);
		strbuf_addstr(out, i ? "; " : "left out: ");
		put_str(out, x, "knob");
		strbuf_addstr(out, " (");
		put_str(out, x, "why");
		strbuf_addch(out, ')');
	}
	if (a && json_object_array_length(a))
		strbuf_addch(out, '\n');
	a = get(t, "refused");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		strbuf_addstr(out, i ? "; " : "not tried: ");
		text_add_printable(out, json_object_get_string(
					    json_object_array_get_idx(a, i)));
	}
	if (a && json_object_array_length(a))
		strbuf_addch(out, '\n');
	x = get(t, "winner");
	strbuf_addstr(out, "winner:      ");
	if (!get(x, "changes") ||
	    !json_object_is_type(get(x, "changes"), json_type_object) ||
	    !json_object_object_length(get(x, "changes"))) {
		strbuf_addstr(out, "the current settings (no candidate "
				   "beat them)\n");
	} else {
		put_changes(out, x, "?");
		strbuf_addstr(out, ": ");
		put_ratio(out, x);
		strbuf_addstr(out, " against the current settings\n");
	}
	a = get(t, "equivalent");
	strbuf_addstr(out, "equivalent:  ");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		strbuf_addstr(out, i ? "; " : "");
		put_changes(out,
			    cand_of_arm(cands, json_object_array_get_idx(a, i)),
			    "the current settings");
	}
	if (!a || !json_object_array_length(a))
		strbuf_addstr(out, "none shown within the margin");
	strbuf_addch(out, '\n');
	x = get(t, "recommended");
	strbuf_addstr(out, "recommended: ");
	if (!get(x, "changes") ||
	    !json_object_is_type(get(x, "changes"), json_type_object) ||
	    !json_object_object_length(get(x, "changes"))) {
		strbuf_addstr(out, "keep the current settings (no candidate "
				   "was shown better than them)\n");
	} else {
		put_changes(out, x, "?");
		strbuf_addstr(out, ": ");
		put_ratio(out, x);
		strbuf_addstr(out, "\n             (the fewest knobs changed "
				   "among the winner and its equivalents)\n");
	}
	for (i = 0; i < n; i++) {
		x = json_object_array_get_idx(space, i);
		if (!get(x, "finding") ||
		    strcmp(json_object_get_string(get(x, "finding")),
			   "no difference"))
			continue;
		strbuf_addstr(out, said++ ? ", " : "no difference: ");
		put_str(out, x, "knob");
	}
	if (said)
		strbuf_addstr(out, " (every value within the margin of the "
				   "current one)\n");
	for (i = 0; i < n; i++) {
		x = json_object_array_get_idx(space, i);
		if (!get(x, "irrelevant_why") ||
		    !json_object_is_type(get(x, "irrelevant_why"),
					 json_type_string))
			continue;
		f = get(x, "finding")
			? json_object_get_string(get(x, "finding"))
			: NULL;
		strbuf_addstr(out, f && !strcmp(f, "irrelevant")
				       ? "irrelevant: "
				       : "no run reached what it acts on, "
					 "though its values differed: ");
		put_str(out, x, "knob");
		strbuf_addstr(out, ": ");
		put_str(out, x, "irrelevant_why");
		strbuf_addch(out, '\n');
	}
	a = get(t, "interactions");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		struct json_object *kn;

		x = json_object_array_get_idx(a, i);
		kn = get(x, "knobs");
		strbuf_addstr(out, "interaction: ");
		text_add_printable(out, json_object_get_string(
					    json_object_array_get_idx(kn, 0)));
		strbuf_addstr(out, " x ");
		text_add_printable(out, json_object_get_string(
					    json_object_array_get_idx(kn, 1)));
		strbuf_addstr(out, ": both over the product of each alone ");
		put_ratio(out, x);
		strbuf_addch(out, '\n');
	}
	if (get(t, "combined")) {
		strbuf_addstr(out, "combinations: ");
		put_str(out, t, "combined");
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out,
		    "runs: %.0f; a full grid of %.0f combinations with the "
		    "winner's %.0f runs each: %.0f",
		    num(t, "runs"), num(t, "grid_arms"), num(t, "winner_runs"),
		    num(t, "grid_runs"));
	if (num(t, "grid_runs") > 0)
		strbuf_addf(out, " (the race used %.0f%%)",
			    100 * num(t, "runs") / num(t, "grid_runs"));
	strbuf_addstr(out, "\nstopped: ");
	put_str(out, t, "stopped");
	strbuf_addch(out, '\n');
}

static void bisect_text(struct json_object *t, struct strbuf *out)
{
	struct json_object *a = get(t, "settings"), *x, *m;
	size_t i, n = a ? json_object_array_length(a) : 0;
	static const char *const roles[] = {"carries", "none", "undecided",
					    "not reached"};
	static const char *const heads[] = {
	    "carry the difference: ",
	    "carry none of it (each share under the margin): ",
	    "could not tell (neither good nor bad): ", "not reached: "};
	unsigned r;

	strbuf_addstr(out, "the sets differ in: ");
	for (i = 0; i < n; i++) {
		x = json_object_array_get_idx(a, i);
		strbuf_addstr(out, i ? ", " : "");
		put_str(out, x, "knob");
		strbuf_addch(out, ' ');
		put_str(out, x, "from");
		strbuf_addstr(out, " -> ");
		put_str(out, x, "to");
	}
	strbuf_addstr(out, "\nto against from: ");
	put_ratio(out, get(t, "to_vs_from"));
	strbuf_addch(out, '\n');
	for (r = 0; r < 4; r++) {
		int k = 0;

		for (i = 0; i < n; i++) {
			x = json_object_array_get_idx(a, i);
			if (!get(x, "role") ||
			    strcmp(json_object_get_string(get(x, "role")),
				   roles[r]))
				continue;
			strbuf_addstr(out, k++ ? ", " : heads[r]);
			put_str(out, x, "knob");
		}
		if (k)
			strbuf_addch(out, '\n');
	}
	m = get(t, "minimal");
	if (m && isfinite(num(m, "share"))) {
		strbuf_addf(out,
			    "share of the effect: %.0f%% (95%% CI "
			    "%.0f%%-%.0f%%); alone it gives ",
			    100 * num(m, "share"), 100 * num(m, "share_low"),
			    100 * num(m, "share_high"));
		put_ratio(out, m);
		strbuf_addch(out, '\n');
	}
	a = get(t, "steps");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		x = json_object_array_get_idx(a, i);
		strbuf_addf(out, "step %zu: ", i + 1);
		put_changes(out, x, "-");
		strbuf_addstr(out, ": carries ");
		put_str(out, x, "carries");
		strbuf_addf(out, " (%.0f blocks; against from ",
			    num(x, "blocks"));
		put_ratio(out, get(x, "vs_from"));
		strbuf_addstr(out, ")\n");
	}
	strbuf_addf(out,
		    "steps: %.0f (testing each setting alone: %zu); "
		    "runs: %.0f\nstopped: ",
		    num(t, "nr_steps"), n, num(t, "runs"));
	put_str(out, t, "stopped");
	strbuf_addch(out, '\n');
}

void tune_text(struct json_object *exp, struct strbuf *out)
{
	struct json_object *t;

	if ((t = get(exp, "tune")) && json_object_is_type(t, json_type_object))
		race_text(t, out);
	else if ((t = get(exp, "bisect")) &&
		 json_object_is_type(t, json_type_object))
		bisect_text(t, out);
}
