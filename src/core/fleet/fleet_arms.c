/*
 * The arms of a host's experiment by label, for agreeing (fleet_agree.c)
 * and merging (fleet_merge.c): the hosts' experiments are matched arm by
 * arm through their labels, baseline first.
 */
#include <math.h>
#include <string.h>
#include "fleet-int.h"
#include "../report/expjson.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

struct json_object *fleet_arm_by_label(struct json_object *exp,
				       const char *label, int *out_index)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t i, n = arms ? json_object_array_length(arms) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);

		if (!strcmp(expjson_str(a, "label"), label)) {
			if (out_index)
				*out_index = (int)i;
			return a;
		}
	}
	return NULL;
}

/* The index of exp's baseline arm: its "baseline", or 0 when that is
 * missing or names no arm. */
static size_t baseline_index(struct json_object *exp)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	double b = expjson_num(exp, "baseline");
	size_t n = arms ? json_object_array_length(arms) : 0;

	return isfinite(b) && b >= 0 && b < (double)n ? (size_t)b : 0;
}

const char *fleet_baseline_label(struct json_object *exp)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);

	if (!arms || !json_object_array_length(arms))
		return "";
	return expjson_str(json_object_array_get_idx(arms, baseline_index(exp)),
			   "label");
}

size_t fleet_arm_labels(struct json_object *ref, const char ***out)
{
	struct json_object *arms =
	    expjson_get_type(ref, "arms", json_type_array);
	size_t i, n = arms ? json_object_array_length(arms) : 0, k = 1;
	size_t b = baseline_index(ref);

	*out = xcalloc(n ? n : 1, sizeof(**out));
	(*out)[0] = fleet_baseline_label(ref);
	for (i = 0; i < n; i++)
		if (i != b)
			(*out)[k++] = expjson_str(
			    json_object_array_get_idx(arms, i), "label");
	return n;
}
