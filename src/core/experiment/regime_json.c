/*
 * "regimes" of an experiment object (regime_json.h). A knob factor gets
 * an entry only when no run reached its regime: one run that did means
 * the knob could matter, and the verdict speaks for itself. A run whose
 * regime could not be judged ("unknown") neither proves nor disproves,
 * so it is counted but does not keep the entry away. A knob whose runs
 * were all unknown gets an entry only when its family said why (a raw
 * knob: iotrial does not know what it controls), with state "unknown":
 * the reader hears it once instead of a silence that looks like
 * "reached".
 */
#include <string.h>
#include "regime_json.h"
#include "../report/expjson.h"
#include "../../util/banned.h"

/* The run's regime entry for knob, or NULL. */
static struct json_object *entry_of(struct json_object *run, const char *knob)
{
	struct json_object *inner =
	    expjson_get_type(run, "run", json_type_object);
	struct json_object *list =
	    expjson_get_type(inner, "regime", json_type_array);
	size_t i, n = list ? json_object_array_length(list) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(list, i);

		if (!strcmp(expjson_str(e, "knob"), knob))
			return e;
	}
	return NULL;
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
static struct json_object *factor_regime(struct json_object *runs,
					 const char *factor)
{
	struct json_object *out, *values = json_object_new_array();
	struct json_object *first = NULL, *unknown_why = NULL;
	size_t i, n = json_object_array_length(runs);
	int judged = 0, not_reached = 0;

	for (i = 0; i < n; i++) {
		struct json_object *e =
		    entry_of(json_object_array_get_idx(runs, i), factor);
		const char *state = expjson_str(e, "state");
		struct json_object *v;

		if (!e)
			continue;
		judged++;
		if (!strcmp(state, "reached")) {
			json_object_put(values);
			return NULL;
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
		return NULL;
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
		g = factor_regime(runs, expjson_str(f, "name"));
		if (g)
			json_object_array_add(out, g);
	}
	json_object_object_add(exp, "regimes", out);
}
