/*
 * From an experiment object to the input of effects_run() and back: the
 * factors and their values come from "factors", each arm's levels from
 * its "settings". Kept apart from experiment_json.c so that the analysis
 * of one factor against the baseline and the analysis by factor stay
 * separate pieces.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "factorial.h"
#include "../stats/effects.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The factors of an experiment object, as effects_run() takes them. */
struct factorial {
	struct effects_factor *factors;
	const char **levels; /* every factor's values, one after another */
	unsigned nr_factors;
	unsigned *arm_levels; /* nr_arms x nr_factors */
};

static void factorial_release(struct factorial *fa)
{
	free(fa->factors);
	free(fa->levels);
	free(fa->arm_levels);
}

/* The index of value among factor f's levels, or -1. */
static int level_index(const struct effects_factor *f, const char *value)
{
	unsigned i;

	for (i = 0; value && i < f->nr_levels; i++)
		if (!strcmp(f->levels[i], value))
			return (int)i;
	return -1;
}

/*
 * Read the factors of exp into fa; false when exp has fewer than two or
 * they are not what experiment_plan() makes (string values, one arm
 * per combination).
 */
static bool read_factors(struct factorial *fa, struct json_object *exp,
			 size_t nr_arms)
{
	struct json_object *factors, *arms;
	size_t f, i, nr_levels = 0, product = 1;

	memset(fa, 0, sizeof(*fa));
	if (!json_object_object_get_ex(exp, "factors", &factors) ||
	    !json_object_is_type(factors, json_type_array) ||
	    json_object_array_length(factors) < 2 ||
	    !json_object_object_get_ex(exp, "arms", &arms))
		return false;
	fa->nr_factors = (unsigned)json_object_array_length(factors);
	for (f = 0; f < fa->nr_factors; f++) {
		struct json_object *fo = json_object_array_get_idx(factors, f);
		struct json_object *vals = json_object_object_get(fo, "values");

		if (!json_object_is_type(vals, json_type_array) ||
		    json_object_array_length(vals) < 1 ||
		    json_object_array_length(vals) > nr_arms)
			return false;
		nr_levels += json_object_array_length(vals);
		product *= json_object_array_length(vals);
		if (product > nr_arms)
			return false;
	}
	if (product != nr_arms)
		return false;
	fa->factors = xcalloc(fa->nr_factors, sizeof(*fa->factors));
	fa->levels = xcalloc(nr_levels, sizeof(*fa->levels));
	fa->arm_levels = xcalloc(nr_arms * fa->nr_factors, sizeof(unsigned));
	for (f = 0, nr_levels = 0; f < fa->nr_factors; f++) {
		struct json_object *fo = json_object_array_get_idx(factors, f);
		struct json_object *vals = json_object_object_get(fo, "values");
		struct json_object *name = json_object_object_get(fo, "name");
		struct effects_factor *ef = &fa->factors[f];

		if (!json_object_is_type(name, json_type_string))
			return false;
		ef->name = json_object_get_string(name);
		ef->levels = fa->levels + nr_levels;
		ef->nr_levels = (unsigned)json_object_array_length(vals);
		for (i = 0; i < ef->nr_levels; i++) {
			struct json_object *v =
			    json_object_array_get_idx(vals, i);

			if (!json_object_is_type(v, json_type_string))
				return false;
			fa->levels[nr_levels++] = json_object_get_string(v);
		}
	}
	for (i = 0; i < nr_arms; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		struct json_object *set = json_object_object_get(a, "settings");
		size_t rest = i;

		/* the last factor varies fastest, as experiment_plan() has
		 * it; a setting that names a value says so itself */
		for (f = fa->nr_factors; f-- > 0;) {
			struct effects_factor *ef = &fa->factors[f];
			struct json_object *v =
			    json_object_object_get(set, ef->name);
			int l = level_index(
			    ef, json_object_is_type(v, json_type_string)
				    ? json_object_get_string(v)
				    : NULL);

			fa->arm_levels[i * fa->nr_factors + f] =
			    l >= 0 ? (unsigned)l
				   : (unsigned)(rest % ef->nr_levels);
			rest /= ef->nr_levels;
		}
	}
	return true;
}

int factorial_analyze_json(struct json_object *exp,
			   const struct analysis_arm *arms, size_t nr_arms,
			   const struct analysis_opts *o, struct strbuf *err)
{
	struct factorial fa;
	struct effects_input in;
	struct effects ef;
	unsigned f;
	int ret;

	json_object_object_del(exp, "effects");
	json_object_object_del(exp, "interactions");
	if (!read_factors(&fa, exp, nr_arms) || o->baseline >= nr_arms) {
		factorial_release(&fa);
		return 0;
	}
	for (f = 0; f < fa.nr_factors; f++)
		fa.factors[f].baseline =
		    fa.arm_levels[o->baseline * fa.nr_factors + f];
	in = (struct effects_input){
	    .arms = arms,
	    .nr_arms = (unsigned)nr_arms,
	    .factors = fa.factors,
	    .nr_factors = fa.nr_factors,
	    .arm_levels = fa.arm_levels,
	};
	ret = effects_run(&ef, &in, o, err);
	if (!ret) {
		json_object_object_add(exp, "effects", effects_json(&ef, &in));
		json_object_object_add(exp, "interactions",
				       effects_interactions_json(&ef, &in));
	}
	effects_release(&ef);
	factorial_release(&fa);
	return ret;
}
