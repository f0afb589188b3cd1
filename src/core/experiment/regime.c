/*
 * "regimes" of an experiment object (regime.h). A knob factor gets
 * an entry only when no run reached its regime: one run that did means
 * the knob could matter, and the verdict speaks for itself. A run whose
 * regime could not be judged ("unknown") neither proves nor disproves,
 * so it is counted but does not keep the entry away. A knob whose runs
 * were all unknown gets an entry only when its family said why (a raw
 * knob: iotrial does not know what it controls), with state "unknown":
 * the reader hears it once instead of a silence that looks like
 * "reached".
 *
 * A bdflush line (bdflush='40 0 0 0 500 3000 60 0 0') is one factor
 * that sets several knobs, each judged in the run under its bdflush.*
 * name. The line is judged by the fields that differ between its
 * values (those that are alike in every arm cannot tell the arms
 * apart): a run reached the line's regime when it reached any of
 * theirs, and did not when it reached none of them. So a line whose
 * values differ in one field reaches the judgement of that field's
 * modern knob, in its words.
 */
#include <string.h>
#include "regime.h"
#include "../knob/knob.h"
#include "../report/expjson.h"
#include "../../util/strbuf.h"
#include "../../util/banned.h"

/* The run's regime entries, or NULL. */
static struct json_object *run_regime(struct json_object *run)
{
	struct json_object *inner =
	    expjson_get_type(run, "run", json_type_object);

	return expjson_get_type(inner, "regime", json_type_array);
}

/* The run's regime entry for knob, or NULL. */
static struct json_object *entry_of(struct json_object *run, const char *knob)
{
	struct json_object *list = run_regime(run);
	size_t i, n = list ? json_object_array_length(list) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(list, i);

		if (!strcmp(expjson_str(e, "knob"), knob))
			return e;
	}
	return NULL;
}

/* Does knob take the value of more than one in runs? */
static int knob_varies(struct json_object *runs, const char *knob)
{
	size_t i, n = json_object_array_length(runs);
	const char *first = NULL;

	for (i = 0; i < n; i++) {
		struct json_object *e =
		    entry_of(json_object_array_get_idx(runs, i), knob);

		if (!e)
			continue;
		if (!first)
			first = expjson_str(e, "value");
		else if (strcmp(first, expjson_str(e, "value")))
			return 1;
	}
	return 0;
}

/*
 * The knobs of a bdflush line factor that judge it, into judges: its
 * fields whose value differs between runs, or every field when none
 * does.
 */
static void line_judges(struct json_object *runs, struct knob_list *judges)
{
	struct knob_list all = {0};
	size_t i, j, n = json_object_array_length(runs);

	for (i = 0; i < n; i++) {
		struct json_object *list =
		    run_regime(json_object_array_get_idx(runs, i));
		size_t m = list ? json_object_array_length(list) : 0;

		for (j = 0; j < m; j++) {
			const char *knob = expjson_str(
			    json_object_array_get_idx(list, j), "knob");

			if (knob_is_bdflush_field(knob) &&
			    !knob_list_has(&all, knob))
				knob_list_add(&all, knob);
		}
	}
	for (i = 0; i < all.nr; i++)
		if (knob_varies(runs, all.v[i]))
			knob_list_add(judges, all.v[i]);
	for (i = 0; !judges->nr && i < all.nr; i++)
		knob_list_add(judges, all.v[i]);
	knob_list_release(&all);
}

/* The value of factor in the arm run ran, or "". */
static const char *arm_value(struct json_object *exp, struct json_object *run,
			     const char *factor)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	struct json_object *arm = NULL;
	int i = expjson_count(run, "arm");

	if (arms && i >= 0 && (size_t)i < json_object_array_length(arms))
		arm = json_object_array_get_idx(arms, (size_t)i);
	return expjson_str(expjson_get_type(arm, "settings", json_type_object),
			   factor);
}

/* Append e's why to sb; with the knob's names when words says so. */
static void add_why(struct strbuf *sb, struct json_object *e, int words)
{
	if (sb->len)
		strbuf_addstr(sb, "; ");
	if (words)
		strbuf_addf(sb, "%s (%s): ", expjson_str(e, "knob"),
			    expjson_str(e, "canonical"));
	strbuf_addstr(sb, expjson_str(e, "why"));
}

/*
 * One run's judgement of a bdflush line factor from the entries of its
 * judges: a new entry (state, value, why, canonical, object), or NULL
 * when the run has none of them.
 */
static struct json_object *line_entry(struct json_object *exp,
				      struct json_object *run,
				      const char *factor,
				      const struct knob_list *judges)
{
	struct strbuf why = STRBUF_INIT, names = STRBUF_INIT,
		      values = STRBUF_INIT;
	struct json_object *out, *first = NULL;
	int reached = 0, not_reached = 0, n = 0;
	const char *value = arm_value(exp, run, factor);
	size_t i;

	for (i = 0; i < judges->nr; i++) {
		struct json_object *e = entry_of(run, judges->v[i]);
		const char *state = expjson_str(e, "state");

		if (!e)
			continue;
		if (!first)
			first = e;
		n++;
		reached += !strcmp(state, "reached");
		not_reached += !strcmp(state, "not_reached");
		strbuf_addf(&names, "%s%s", names.len ? ", " : "",
			    expjson_str(e, "canonical"));
		strbuf_addf(&values, "%s%s=%s", values.len ? " " : "",
			    expjson_str(e, "knob"), expjson_str(e, "value"));
	}
	if (!first) {
		strbuf_release(&names);
		strbuf_release(&values);
		return NULL;
	}
	/* the reasons of the state the run is given: those that reached
	 * it, or all of them */
	for (i = 0; i < judges->nr; i++) {
		struct json_object *e = entry_of(run, judges->v[i]);
		const char *state = expjson_str(e, "state");

		if (e && *expjson_str(e, "why") &&
		    (!reached || !strcmp(state, "reached")))
			add_why(&why, e, judges->nr > 1);
	}
	out = json_object_new_object();
	json_object_object_add(out, "knob", json_object_new_string(factor));
	json_object_object_add(out, "canonical",
			       json_object_new_string(names.buf));
	json_object_object_add(
	    out, "object",
	    json_object_new_string(expjson_str(first, "object")));
	json_object_object_add(
	    out, "value", json_object_new_string(*value ? value : values.buf));
	json_object_object_add(out, "state",
			       json_object_new_string(reached ? "reached"
						      : not_reached == n
							  ? "not_reached"
							  : "unknown"));
	json_object_object_add(out, "why", json_object_new_string(why.buf));
	strbuf_release(&why);
	strbuf_release(&names);
	strbuf_release(&values);
	return out;
}

/*
 * Each run's entry for factor, in the order of runs (a json null where
 * a run has none): its own entry, or for a bdflush line the entry
 * line_entry() makes of its fields'.
 */
static struct json_object *factor_entries(struct json_object *exp,
					  struct json_object *runs,
					  const char *factor)
{
	struct json_object *out = json_object_new_array();
	struct knob_list judges = {0};
	size_t i, n = json_object_array_length(runs);
	int line = knob_is_bdflush_line(factor);

	if (line)
		line_judges(runs, &judges);
	for (i = 0; i < n; i++) {
		struct json_object *run = json_object_array_get_idx(runs, i);

		json_object_array_add(
		    out, line ? line_entry(exp, run, factor, &judges)
			      : json_object_get(entry_of(run, factor)));
	}
	knob_list_release(&judges);
	return out;
}

/* The entry of values for value, made when first seen. */
static struct json_object *value_entry(struct json_object *values,
				       const char *value)
{
	size_t i, n = json_object_array_length(values);
	struct json_object *v;

	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(values, i);
		if (!strcmp(expjson_str(v, "value"), value))
			return v;
	}
	v = json_object_new_object();
	json_object_object_add(v, "value", json_object_new_string(value));
	json_object_object_add(v, "runs", json_object_new_int(0));
	json_object_array_add(values, v);
	return v;
}

/* One factor's entry, or NULL when a run reached it or none was judged. */
static struct json_object *factor_regime(struct json_object *exp,
					 struct json_object *runs,
					 const char *factor)
{
	struct json_object *entries = factor_entries(exp, runs, factor);
	struct json_object *out = NULL, *values = json_object_new_array();
	struct json_object *first = NULL, *unknown_why = NULL;
	size_t i, n = json_object_array_length(entries);
	int judged = 0, not_reached = 0;

	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(entries, i);
		const char *state = expjson_str(e, "state");
		struct json_object *v;

		if (!e)
			continue;
		judged++;
		if (!strcmp(state, "reached")) {
			json_object_put(values);
			goto out;
		}
		if (strcmp(state, "not_reached")) {
			if (!unknown_why && *expjson_str(e, "why"))
				unknown_why = e;
			continue;
		}
		not_reached++;
		if (!first)
			first = e;
		v = value_entry(values, expjson_str(e, "value"));
		json_object_object_add(
		    v, "runs",
		    json_object_new_int(expjson_count(v, "runs") + 1));
		if (!expjson_get(v, "why"))
			json_object_object_add(
			    v, "why",
			    json_object_new_string(expjson_str(e, "why")));
	}
	if (!not_reached && !unknown_why) {
		json_object_put(values);
		goto out;
	}
	if (!first)
		first = unknown_why;
	out = json_object_new_object();
	json_object_object_add(out, "factor", json_object_new_string(factor));
	json_object_object_add(
	    out, "state",
	    json_object_new_string(not_reached ? "not_reached" : "unknown"));
	if (!not_reached)
		json_object_object_add(
		    out, "why",
		    json_object_new_string(expjson_str(unknown_why, "why")));
	json_object_object_add(
	    out, "canonical",
	    json_object_new_string(expjson_str(first, "canonical")));
	json_object_object_add(
	    out, "object",
	    json_object_new_string(expjson_str(first, "object")));
	json_object_object_add(out, "runs", json_object_new_int(judged));
	json_object_object_add(out, "not_reached",
			       json_object_new_int(not_reached));
	json_object_object_add(out, "values", values);
out:
	json_object_put(entries);
	return out;
}

void regime_analyze_json(struct json_object *exp)
{
	struct json_object *factors =
	    expjson_get_type(exp, "factors", json_type_array);
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);
	struct json_object *out = json_object_new_array();
	size_t i, n = factors ? json_object_array_length(factors) : 0;

	for (i = 0; runs && i < n; i++) {
		struct json_object *f = json_object_array_get_idx(factors, i);
		struct json_object *g;

		if (strcmp(expjson_str(f, "kind"), "knob") ||
		    !*expjson_str(f, "name"))
			continue;
		g = factor_regime(exp, runs, expjson_str(f, "name"));
		if (g)
			json_object_array_add(out, g);
	}
	json_object_object_add(exp, "regimes", out);
}
