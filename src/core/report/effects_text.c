/*
 * Effects by factor, for people. With two factors the table of every arm
 * against one baseline arm mixes the factors up (scheduler=mq-deadline
 * jobs=2 against scheduler=none jobs=1 changes both); this groups the
 * comparisons by the factor they change, one line per combination of the
 * others, and then says in a sentence whether a factor's effect depends
 * on another: the answer to "does the scheduler help, and everywhere?".
 */
#include <math.h>
#include <string.h>
#include "fmt.h"
#include "effects_text.h"
#include "expjson.h"
#include "p_note.h"
#include "suspect.h"
#include "../../util/banned.h"

static void add_p(struct strbuf *out, double p)
{
	strbuf_addf(out, p < 0.001 ? "%.1e" : "%.3f", p);
}

/* "a=1 b=2": the levels of an effect's "within" object. */
static void add_within(struct strbuf *out, struct json_object *x)
{
	struct json_object *w = expjson_get_type(x, "within", json_type_object);
	int first = 1;

	if (!w)
		return;
	json_object_object_foreach(w, key, val)
	{
		strbuf_addf(out, "%s%s=%s", first ? "" : " ", key,
			    json_object_is_type(val, json_type_string)
				? json_object_get_string(val)
				: "?");
		first = 0;
	}
}

/* True when effects a and b are of the same factor and level. */
static int same_group(struct json_object *a, struct json_object *b)
{
	return !strcmp(expjson_str(a, "factor"), expjson_str(b, "factor")) &&
	       !strcmp(expjson_str(a, "level"), expjson_str(b, "level"));
}

void report_effect_heading(struct json_object *e, struct strbuf *out)
{
	struct json_object *w = expjson_get_type(e, "within", json_type_object);

	strbuf_addf(out, "%s=%s vs %s=%s", expjson_str(e, "factor"),
		    expjson_str(e, "level"), expjson_str(e, "factor"),
		    expjson_str(e, "baseline_level"));
	if (w && json_object_object_length(w)) {
		strbuf_addstr(out, " at ");
		add_within(out, e);
	}
}

static void effect_line(struct strbuf *out, struct json_object *exp,
			struct json_object *e, size_t width)
{
	size_t start = out->len;

	strbuf_addstr(out, "  at ");
	add_within(out, e);
	report_pad(out, start, width);
	start = out->len;
	if (isfinite(expjson_num(e, "ratio")))
		strbuf_addf(out, "%.3f [%.3f, %.3f]", expjson_num(e, "ratio"),
			    expjson_num(e, "ci_low"),
			    expjson_num(e, "ci_high"));
	report_pad(out, start, 22);
	start = out->len;
	if (isfinite(expjson_num(e, "p_adjusted")))
		add_p(out, expjson_num(e, "p_adjusted"));
	report_pad(out, start, 7);
	strbuf_addf(out, "%s%s\n", expjson_str(e, "verdict"),
		    suspect_is(exp, e) ? "*" : "");
}

/*
 * "* HEADING: why" for each marked object of exp's array key, headed by
 * heading(); how many were said.
 */
static size_t notes(struct json_object *exp, const char *key,
		    void (*heading)(struct json_object *, struct strbuf *),
		    struct strbuf *out)
{
	struct json_object *xs = expjson_get_type(exp, key, json_type_array);
	size_t i, n = xs ? json_object_array_length(xs) : 0, said = 0;
	struct strbuf h = STRBUF_INIT;

	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(xs, i);

		if (!suspect_is(exp, x))
			continue;
		strbuf_reset(&h);
		heading(x, &h);
		strbuf_addstr(out, "* ");
		suspect_note(exp, x, h.buf, out);
		strbuf_addch(out, '\n');
		said++;
	}
	strbuf_release(&h);
	return said;
}

static void effects_table(struct strbuf *out, struct json_object *exp,
			  struct json_object *effects)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = json_object_array_length(effects), width = 6;

	for (i = 0; i < n; i++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "  at ");
		add_within(&sb, json_object_array_get_idx(effects, i));
		if (sb.len > width)
			width = sb.len;
	}
	strbuf_addstr(out, "effect");
	report_pad(out, out->len - 6, width);
	strbuf_addstr(out, "ratio [95% CI]         p       verdict\n");
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(effects, i);

		if (!i ||
		    !same_group(e, json_object_array_get_idx(effects, i - 1)))
			strbuf_addf(
			    out, "%s=%s vs %s=%s\n", expjson_str(e, "factor"),
			    expjson_str(e, "level"), expjson_str(e, "factor"),
			    expjson_str(e, "baseline_level"));
		effect_line(out, exp, e, width);
	}
	strbuf_release(&sb);
}

/* The number of levels of factor name, from exp's "factors". */
static size_t nr_levels(struct json_object *exp, const char *name)
{
	struct json_object *fs =
	    expjson_get_type(exp, "factors", json_type_array);
	size_t i, n = fs ? json_object_array_length(fs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);
		struct json_object *vals =
		    expjson_get_type(f, "values", json_type_array);

		if (!strcmp(expjson_str(f, "name"), name))
			return vals ? json_object_array_length(vals) : 0;
	}
	return 0;
}

/* "scheduler's effect", or "scheduler=bfq's effect" with 3+ levels. */
static void subject(struct strbuf *out, struct json_object *exp,
		    struct json_object *x)
{
	strbuf_addstr(out, expjson_str(x, "factor"));
	if (nr_levels(exp, expjson_str(x, "factor")) > 2)
		strbuf_addf(out, "=%s", expjson_str(x, "level"));
	strbuf_addstr(out, "'s effect");
}

/* ": 1.10x at jobs=1, 0.97x at jobs=2 (interaction p 0.004)" */
static void interaction_numbers(struct strbuf *out, struct json_object *x)
{
	double ra = expjson_num(x, "ratio_at_baseline");
	double rb = expjson_num(x, "ratio_at_level");

	if (isfinite(ra) && isfinite(rb))
		strbuf_addf(out, ": %.2fx at %s=%s, %.2fx at %s=%s", ra,
			    expjson_str(x, "by"),
			    expjson_str(x, "by_baseline_level"), rb,
			    expjson_str(x, "by"), expjson_str(x, "by_level"));
	if (isfinite(expjson_num(x, "p_adjusted"))) {
		strbuf_addstr(out, " (interaction p ");
		add_p(out, expjson_num(x, "p_adjusted"));
		strbuf_addch(out, ')');
	}
}

/* One sentence on one interaction. */
static void interaction_line(struct strbuf *out, struct json_object *exp,
			     struct json_object *x)
{
	const char *v = expjson_str(x, "verdict");
	struct json_object *within =
	    expjson_get_type(x, "within", json_type_object);
	struct strbuf subj = STRBUF_INIT;
	double margin = expjson_num(exp, "equivalence");

	if (within && json_object_object_length(within)) {
		strbuf_addstr(out, "with ");
		add_within(out, x);
		strbuf_addstr(out, ", ");
	}
	subject(&subj, exp, x);
	if (!strcmp(v, "interaction"))
		strbuf_addf(out, "%s depends on %s", subj.buf,
			    expjson_str(x, "by"));
	else if (!strcmp(v, "no interaction") && isfinite(margin))
		strbuf_addf(out,
			    "%s does not depend on %s (the same within "
			    "%g%%)",
			    subj.buf, expjson_str(x, "by"), 100 * margin);
	else if (!strcmp(v, "no verdict"))
		strbuf_addf(out,
			    "too few runs to tell whether %s depends on %s",
			    subj.buf, expjson_str(x, "by"));
	else
		strbuf_addf(out, "no evidence that %s depends on %s", subj.buf,
			    expjson_str(x, "by"));
	interaction_numbers(out, x);
	strbuf_addstr(out, suspect_is(exp, x) ? "*\n" : "\n");
	strbuf_release(&subj);
}

void report_interaction_heading(struct json_object *x, struct strbuf *out)
{
	struct json_object *w = expjson_get_type(x, "within", json_type_object);

	strbuf_addf(out, "%s=%s's effect at %s=%s vs at %s=%s",
		    expjson_str(x, "factor"), expjson_str(x, "level"),
		    expjson_str(x, "by"), expjson_str(x, "by_level"),
		    expjson_str(x, "by"), expjson_str(x, "by_baseline_level"));
	if (w && json_object_object_length(w)) {
		strbuf_addstr(out, " with ");
		add_within(out, x);
	}
}

/* True when interactions a and b ask about the same two factors. */
static int same_pair(struct json_object *a, struct json_object *b)
{
	return !strcmp(expjson_str(a, "factor"), expjson_str(b, "factor")) &&
	       !strcmp(expjson_str(a, "by"), expjson_str(b, "by"));
}

/*
 * The interactions of one pair of factors, xs[from..to): each one that
 * is significant, or when none is, one line for the pair (the whole
 * sentence when there is one test).
 */
static void pair_lines(struct strbuf *out, struct json_object *exp,
		       struct json_object *xs, size_t from, size_t to)
{
	size_t i, shown = 0, nr_equivalent = 0;
	double least_p = NAN;

	for (i = from; i < to; i++) {
		struct json_object *x = json_object_array_get_idx(xs, i);
		double p = expjson_num(x, "p_adjusted");

		if (!strcmp(expjson_str(x, "verdict"), "interaction")) {
			interaction_line(out, exp, x);
			shown++;
		}
		if (!strcmp(expjson_str(x, "verdict"), "no interaction"))
			nr_equivalent++;
		if (isfinite(p) && !(p >= least_p))
			least_p = p;
	}
	if (shown)
		return;
	if (to - from == 1) {
		interaction_line(out, exp, json_object_array_get_idx(xs, from));
		return;
	}
	{
		struct json_object *x = json_object_array_get_idx(xs, from);

		if (nr_equivalent == to - from)
			strbuf_addf(
			    out,
			    "%s's effect does not depend on %s "
			    "(the same within %g%% in all %zu tests",
			    expjson_str(x, "factor"), expjson_str(x, "by"),
			    100 * expjson_num(exp, "equivalence"), to - from);
		else
			strbuf_addf(out,
				    "no evidence that %s's effect depends on "
				    "%s (%zu tests",
				    expjson_str(x, "factor"),
				    expjson_str(x, "by"), to - from);
		if (isfinite(least_p)) {
			strbuf_addstr(out, ", smallest interaction p ");
			add_p(out, least_p);
		}
		strbuf_addstr(out, ")\n");
	}
}

bool report_interactions_text(struct json_object *exp, struct strbuf *out)
{
	struct json_object *xs =
	    expjson_get_type(exp, "interactions", json_type_array);
	size_t i, from, n = xs ? json_object_array_length(xs) : 0;

	for (from = 0, i = 1; i <= n; i++)
		if (i == n || !same_pair(json_object_array_get_idx(xs, i),
					 json_object_array_get_idx(xs, from))) {
			pair_lines(out, exp, xs, from, i);
			from = i;
		}
	return n > 0;
}

bool report_effects_text(struct json_object *exp, struct strbuf *out)
{
	struct json_object *effects =
	    expjson_get_type(exp, "effects", json_type_array);
	struct json_object *xs =
	    expjson_get_type(exp, "interactions", json_type_array);

	if (!effects || !json_object_array_length(effects))
		return false;
	effects_table(out, exp, effects);
	{
		struct strbuf note = STRBUF_INIT;

		report_p_note_effects(exp, report_effect_heading, &note);
		if (note.len)
			strbuf_addf(out, "%s\n", note.buf);
		strbuf_release(&note);
	}
	if (notes(exp, "effects", report_effect_heading, out))
		strbuf_addstr(out, "* suspect: the runs iotrial flagged may "
				   "describe the flaw, not the setting; see "
				   "the warnings\n");
	if (xs && json_object_array_length(xs))
		strbuf_addch(out, '\n');
	report_interactions_text(exp, out);
	report_interaction_notes(exp, out);
	return true;
}

size_t report_interaction_notes(struct json_object *exp, struct strbuf *out)
{
	return notes(exp, "interactions", report_interaction_heading, out);
}

size_t report_effect_notes(struct json_object *exp, struct strbuf *out)
{
	return notes(exp, "effects", report_effect_heading, out);
}
