/*
 * Text for regime_text.h. The numbers are the ones the knob families
 * judged (knob_ops.regime): a reader who disagrees with "could not
 * matter" can check them against the thresholds printed here.
 */
#include <string.h>
#include "regime_text.h"
#include "expjson.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* " 2.2 GiB" */
static void add_size(struct strbuf *out, const char *before, uint64_t v)
{
	strbuf_addstr(out, before);
	units_fmt_bytes(out, v);
}

/* The count at key of o, 0 when missing or not a count. */
static uint64_t count(struct json_object *o, const char *key)
{
	struct json_object *v = expjson_get(o, key);

	return v && json_object_is_type(v, json_type_int)
		   ? json_object_get_uint64(v)
		   : 0;
}

void report_dirty_text(struct json_object *t, struct strbuf *out)
{
	struct json_object *d =
	    expjson_get_type(t, "dirty_thresholds", json_type_object);
	struct json_object *cg =
	    expjson_get_type(t, "cgroup_dirty", json_type_object);
	int version = cg ? expjson_count(cg, "version") : 0;

	if (!expjson_get(t, "dirty_peak_bytes"))
		return;
	add_size(out, "  dirty memory: peak ", count(t, "dirty_peak_bytes"));
	add_size(out, ", writeback peak ", count(t, "writeback_peak_bytes"));
	if (d) {
		add_size(out, "; thresholds: background ",
			 count(d, "background_bytes"));
		add_size(out, ", throttle ", count(d, "throttle_bytes"));
		add_size(out, " (the kernel's, lowest during the run; of ",
			 count(d, "dirtyable_bytes"));
		strbuf_addstr(out, " dirtyable)");
	}
	strbuf_addch(out, '\n');
	if (!version)
		return;
	strbuf_addf(out, "  cgroup dirty memory (v%d", version);
	if (count(cg, "memory_max_bytes"))
		add_size(out, ", limit ", count(cg, "memory_max_bytes"));
	strbuf_addstr(out, "):");
	if (expjson_get(cg, "dirty_peak_bytes"))
		add_size(out, " peak ", count(cg, "dirty_peak_bytes"));
	else
		strbuf_addstr(out, " not sampled");
	if (count(cg, "background_bytes")) {
		add_size(out, "; its thresholds: background ",
			 count(cg, "background_bytes"));
		add_size(out, ", throttle ", count(cg, "throttle_bytes"));
		add_size(out, " (of ", count(cg, "dirtyable_bytes"));
		strbuf_addstr(out, " it could dirty: file pages and headroom "
				   "below its limit)");
	} else if (version == 1) {
		strbuf_addstr(out, "; cgroup v1 has no dirty thresholds of "
				   "its own, the system's apply");
	}
	strbuf_addch(out, '\n');
}

/* "bdflush.nfract=10 (vm.dirty_background_ratio on 'system')" */
static void knob_words(struct strbuf *out, const char *knob,
		       const char *canonical, const char *object,
		       const char *value)
{
	strbuf_addf(out, "%s", knob);
	if (value)
		strbuf_addf(out, "=%s", value);
	if (strcmp(knob, canonical) || (*object && strcmp(object, "system"))) {
		strbuf_addstr(out, " (");
		if (strcmp(knob, canonical))
			strbuf_addf(out, "%s%s", canonical,
				    *object && strcmp(object, "system") ? " "
									: "");
		if (*object && strcmp(object, "system"))
			strbuf_addf(out, "on '%s'", object);
		strbuf_addch(out, ')');
	}
}

void report_run_regimes_text(struct json_object *run, struct strbuf *out)
{
	struct json_object *list =
	    expjson_get_type(run, "regime", json_type_array);
	size_t i, n = list ? json_object_array_length(list) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *g = json_object_array_get_idx(list, i);

		const char *state = expjson_str(g, "state");
		const char *why = expjson_str(g, "why");

		if (!strcmp(state, "not_reached"))
			strbuf_addstr(out, "could not matter: ");
		else if (!strcmp(state, "unknown") && why && *why)
			strbuf_addstr(out, "regime unknown: ");
		else
			continue;
		knob_words(out, expjson_str(g, "knob"),
			   expjson_str(g, "canonical"),
			   expjson_str(g, "object"), expjson_str(g, "value"));
		strbuf_addf(out, ": %s\n", why);
	}
}

struct json_object *report_regimes(struct json_object *exp)
{
	struct json_object *g =
	    expjson_get_type(exp, "regimes", json_type_array);

	return g && json_object_array_length(g) ? g : NULL;
}

/* The head of an entry: "KNOB (...) could not matter: none of N runs..." */
static void regime_head(struct json_object *g, struct strbuf *out)
{
	int runs = expjson_count(g, "runs"),
	    not = expjson_count(g, "not_reached");

	knob_words(out, expjson_str(g, "factor"), expjson_str(g, "canonical"),
		   expjson_str(g, "object"), NULL);
	if (!strcmp(expjson_str(g, "state"), "unknown")) {
		strbuf_addf(out, ": regime unknown in its %d run%s: %s", runs,
			    runs == 1 ? "" : "s", expjson_str(g, "why"));
		return;
	}
	strbuf_addf(out,
		    " could not matter: %s of its %d run%s reached the "
		    "regime it controls",
		    "none", runs, runs == 1 ? "" : "s");
	if (not < runs)
		strbuf_addf(out, " (%d could not be judged)", runs - not );
}

/* "at 10 (12 runs): why" */
static void regime_value(struct json_object *v, struct strbuf *out)
{
	int runs = expjson_count(v, "runs");

	strbuf_addf(out, "at %s (%d run%s): %s", expjson_str(v, "value"), runs,
		    runs == 1 ? "" : "s", expjson_str(v, "why"));
}

void report_regime_sentence(struct json_object *g, struct strbuf *out)
{
	struct json_object *vals =
	    expjson_get_type(g, "values", json_type_array);
	size_t i, n = vals ? json_object_array_length(vals) : 0;

	regime_head(g, out);
	for (i = 0; i < n; i++) {
		strbuf_addstr(out, "; ");
		regime_value(json_object_array_get_idx(vals, i), out);
	}
}

void report_regimes_text(struct json_object *exp, struct strbuf *out)
{
	struct json_object *list = report_regimes(exp);
	size_t i, j, n = list ? json_object_array_length(list) : 0;

	if (n)
		strbuf_addch(out, '\n');
	for (i = 0; i < n; i++) {
		struct json_object *g = json_object_array_get_idx(list, i);
		struct json_object *vals =
		    expjson_get_type(g, "values", json_type_array);
		size_t m = vals ? json_object_array_length(vals) : 0;

		regime_head(g, out);
		strbuf_addch(out, '\n');
		for (j = 0; j < m; j++) {
			strbuf_addstr(out, "  ");
			regime_value(json_object_array_get_idx(vals, j), out);
			strbuf_addch(out, '\n');
		}
	}
}
