/*
 * The getters of experiment objects (expjson.h). json-c hands back the
 * text of a number for json_object_get_string() and parses a string for
 * json_object_get_double(), which would let a mistyped member pass for a
 * good one; these getters check the type instead, once, here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "expjson.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

struct json_object *expjson_get(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

struct json_object *expjson_get_type(struct json_object *o, const char *key,
				     enum json_type type)
{
	struct json_object *v = expjson_get(o, key);

	return v && json_object_is_type(v, type) ? v : NULL;
}

const char *expjson_str(struct json_object *o, const char *key)
{
	struct json_object *v = expjson_get_type(o, key, json_type_string);

	return v ? json_object_get_string(v) : "";
}

double expjson_num(struct json_object *o, const char *key)
{
	struct json_object *v = expjson_get(o, key);

	if (!v || !(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

int expjson_count(struct json_object *o, const char *key)
{
	double v = expjson_num(o, key);

	return isfinite(v) && v >= 0 && v < 1e9 ? (int)v : 0;
}

struct json_object *expjson_env(struct json_object *exp)
{
	struct json_object *env =
	    expjson_get_type(exp, "env", json_type_object);
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);

	if (!env && runs && json_object_array_length(runs))
		env = expjson_get_type(
		    expjson_get(json_object_array_get_idx(runs, 0), "run"),
		    "env", json_type_object);
	return env;
}

const char *expjson_target(struct json_object *exp)
{
	struct json_object *t =
	    expjson_get_type(exp, "target", json_type_object);

	if (t)
		return *expjson_str(t, "spec") ? expjson_str(t, "spec")
					       : expjson_str(t, "path");
	return expjson_str(exp, "target");
}

struct json_object *expjson_verdict(struct json_object *exp, int arm)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, n = vs ? json_object_array_length(vs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);

		if (expjson_count(v, "arm") == arm)
			return v;
	}
	return NULL;
}

const char *expjson_origin(struct json_object *exp)
{
	struct json_object *o = expjson_get(exp, "origin");
	const char *v;

	if (!o)
		return EXP_ORIGIN_LOCAL;
	v = json_object_is_type(o, json_type_string) ? json_object_get_string(o)
						     : "";
	if (!strcmp(v, EXP_ORIGIN_LOCAL))
		return EXP_ORIGIN_LOCAL;
	if (!strcmp(v, EXP_ORIGIN_FLEET))
		return EXP_ORIGIN_FLEET;
	return EXP_ORIGIN_IMPORTED;
}

void expjson_set_origin(struct json_object *exp, const char *origin)
{
	if (exp && json_object_is_type(exp, json_type_object))
		json_object_object_add(exp, "origin",
				       json_object_new_string(origin));
}

/*
 * Make every string in the tree at o printable, member names included
 * (text.h), so nothing an imported file holds can reach a terminal raw
 * through import, show, log or diff, nor from a store someone else
 * wrote. json-c limits nesting, which
 * bounds the recursion.
 */
void expjson_make_printable(struct json_object *o)
{
	size_t i, n, nr_bad = 0, alloc_bad = 0;
	char **bad = NULL;

	switch (json_object_get_type(o)) {
	case json_type_string: {
		char *s = xstrdup(json_object_get_string(o));

		if (text_make_printable(s))
			json_object_set_string(o, s);
		free(s);
		break;
	}
	case json_type_array:
		n = json_object_array_length(o);
		for (i = 0; i < n; i++)
			expjson_make_printable(json_object_array_get_idx(o, i));
		break;
	case json_type_object: {
		json_object_object_foreach(o, key, val)
		{
			char *k = xstrdup(key);

			expjson_make_printable(val);
			if (text_make_printable(k)) {
				ALLOC_GROW(bad, nr_bad + 1, alloc_bad);
				bad[nr_bad++] = xstrdup(key);
			}
			free(k);
		}
		/* renamed after the walk: deleting would break it */
		for (i = 0; i < nr_bad; i++) {
			struct json_object *v =
			    json_object_get(json_object_object_get(o, bad[i]));

			json_object_object_del(o, bad[i]);
			text_make_printable(bad[i]);
			json_object_object_add(o, bad[i], v);
			free(bad[i]);
		}
		free(bad);
		break;
	}
	default:
		break;
	}
}
