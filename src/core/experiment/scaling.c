/*
 * Scaling rows of an experiment object (scaling.h): read from the
 * factors and the arms' summaries only, so a stored experiment gets the
 * same rows when it is analysed again, and a report needs nothing else.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "scaling.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

int scaling_number(const char *text, double *out)
{
	uint64_t bytes;
	char *end;
	double v;

	if (!text || !*text)
		return -EINVAL;
	v = strtod(text, &end);
	if (end != text && !*end && isfinite(v)) {
		*out = v;
		return 0;
	}
	if (units_parse_size(text, UNITS_ZERO_OK, &bytes, NULL, NULL))
		return -EINVAL;
	*out = (double)bytes;
	return 0;
}

/* The factors as read from an experiment object. */
struct sc_factors {
	struct json_object **values; /* each factor's "values" array */
	const char **names;
	unsigned nr;
	size_t nr_arms;
	unsigned *levels; /* nr_arms x nr: each arm's level of each factor */
};

static void sc_release(struct sc_factors *fs)
{
	free(fs->values);
	free(fs->names);
	free(fs->levels);
}

/* The index of the string value in vals, or -1. */
static int value_index(struct json_object *vals, struct json_object *v)
{
	size_t i, n = json_object_array_length(vals);

	if (!json_object_is_type(v, json_type_string))
		return -1;
	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(vals, i);

		if (json_object_is_type(x, json_type_string) &&
		    !strcmp(json_object_get_string(x),
			    json_object_get_string(v)))
			return (int)i;
	}
	return -1;
}

/* Read exp's factors and each arm's levels; false when they are not
 * one arm per combination of string values. */
static bool read_factors(struct sc_factors *fs, struct json_object *exp,
			 struct json_object *arms)
{
	struct json_object *factors;
	size_t i, product = 1;
	unsigned f;

	memset(fs, 0, sizeof(*fs));
	if (!json_object_object_get_ex(exp, "factors", &factors) ||
	    !json_object_is_type(factors, json_type_array) ||
	    !json_object_array_length(factors))
		return false;
	fs->nr = (unsigned)json_object_array_length(factors);
	fs->nr_arms = json_object_array_length(arms);
	fs->values = xcalloc(fs->nr, sizeof(*fs->values));
	fs->names = xcalloc(fs->nr, sizeof(*fs->names));
	for (f = 0; f < fs->nr; f++) {
		struct json_object *fo = json_object_array_get_idx(factors, f);
		struct json_object *name = json_object_object_get(fo, "name");
		struct json_object *vals = json_object_object_get(fo, "values");

		if (!json_object_is_type(name, json_type_string) ||
		    !json_object_is_type(vals, json_type_array) ||
		    !json_object_array_length(vals))
			return false;
		fs->names[f] = json_object_get_string(name);
		fs->values[f] = vals;
		product *= json_object_array_length(vals);
		if (product > fs->nr_arms)
			return false;
	}
	if (product != fs->nr_arms)
		return false;
	fs->levels = xcalloc(fs->nr_arms * fs->nr, sizeof(*fs->levels));
	for (i = 0; i < fs->nr_arms; i++) {
		struct json_object *arm = json_object_array_get_idx(arms, i);
		struct json_object *set =
		    json_object_object_get(arm, "settings");
		size_t rest = i;

		/* the last factor varies fastest (experiment_plan()); a
		 * setting that names a value says so itself */
		for (f = fs->nr; f-- > 0;) {
			size_t nv = json_object_array_length(fs->values[f]);
			int l = value_index(
			    fs->values[f],
			    json_object_object_get(set, fs->names[f]));

			fs->levels[i * fs->nr + f] =
			    l >= 0 ? (unsigned)l : (unsigned)(rest % nv);
			rest /= nv;
		}
	}
	return true;
}

/* Factor f's values as numbers, in nums; false when one is not. */
static bool numeric(const struct sc_factors *fs, unsigned f, double *nums)
{
	size_t i, n = json_object_array_length(fs->values[f]);

	if (n < 2 || !strcmp(fs->names[f], "label") ||
	    !strcmp(fs->names[f], "arm"))
		return false;
	for (i = 0; i < n; i++)
		if (scaling_number(
			json_object_get_string(
			    json_object_array_get_idx(fs->values[f], i)),
			&nums[i]))
			return false;
	return true;
}

/* The arm with arm a's levels but level l of factor f, or -1. */
static long arm_with(const struct sc_factors *fs, size_t a, unsigned f,
		     unsigned l)
{
	size_t b;
	unsigned g;

	for (b = 0; b < fs->nr_arms; b++) {
		for (g = 0; g < fs->nr; g++) {
			unsigned want = g == f ? l : fs->levels[a * fs->nr + g];

			if (fs->levels[b * fs->nr + g] != want)
				break;
		}
		if (g == fs->nr)
			return (long)b;
	}
	return -1;
}

static void copy_member(struct json_object *to, struct json_object *from,
			const char *key)
{
	struct json_object *v;

	if (json_object_object_get_ex(from, key, &v) && v)
		json_object_object_add(to, key, json_object_get(v));
}

/* The row of arm b at level l of factor f; first: the median of the
 * group's first arm, first_arm. */
static struct json_object *row(const struct sc_factors *fs,
			       struct json_object *arms, unsigned f, size_t b,
			       unsigned l, double first, size_t first_arm)
{
	struct json_object *arm = json_object_array_get_idx(arms, b);
	struct json_object *r = json_object_new_object();
	struct json_object *within = json_object_new_object();
	struct json_object *m = json_object_object_get(arm, "median");
	double median = m ? json_object_get_double(m) : NAN;
	unsigned g;

	json_object_object_add(r, "factor",
			       json_object_new_string(fs->names[f]));
	json_object_object_add(
	    r, "value",
	    json_object_get(json_object_array_get_idx(fs->values[f], l)));
	for (g = 0; g < fs->nr; g++)
		if (g != f)
			json_object_object_add(
			    within, fs->names[g],
			    json_object_get(json_object_array_get_idx(
				fs->values[g], fs->levels[b * fs->nr + g])));
	json_object_object_add(r, "within", within);
	json_object_object_add(r, "arm", json_object_new_int((int)b));
	/* what ratio_to_first is against, for the suspect marks */
	json_object_object_add(r, "baseline_arm",
			       json_object_new_int((int)first_arm));
	copy_member(r, arm, "median");
	copy_member(r, arm, "ci_low");
	copy_member(r, arm, "ci_high");
	copy_member(r, arm, "n");
	json_object_object_add(r, "ratio_to_first",
			       first > 0 && median > 0 && isfinite(median)
				   ? json_object_new_double(median / first)
				   : NULL);
	return r;
}

/* Append the rows of numeric factor f (values nums) to out. */
static void factor_rows(const struct sc_factors *fs, struct json_object *arms,
			unsigned f, const double *nums, struct json_object *out)
{
	size_t nv = json_object_array_length(fs->values[f]), a, i, j;
	unsigned *order = xcalloc(nv, sizeof(*order));

	for (i = 0; i < nv; i++)
		order[i] = (unsigned)i;
	/* insertion sort: few values, and equal ones keep their order */
	for (i = 1; i < nv; i++)
		for (j = i; j > 0 && nums[order[j]] < nums[order[j - 1]]; j--) {
			unsigned t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	/* one group per arm at the smallest value, in the arms' order */
	for (a = 0; a < fs->nr_arms; a++) {
		struct json_object *m;
		double first = NAN;

		if (fs->levels[a * fs->nr + f] != order[0])
			continue;
		m = json_object_object_get(json_object_array_get_idx(arms, a),
					   "median");
		if (m)
			first = json_object_get_double(m);
		for (i = 0; i < nv; i++) {
			long b = arm_with(fs, a, f, order[i]);

			if (b >= 0)
				json_object_array_add(
				    out, row(fs, arms, f, (size_t)b, order[i],
					     first, a));
		}
	}
	free(order);
}

void scaling_analyze_json(struct json_object *exp)
{
	struct json_object *arms, *out;
	struct sc_factors fs = {0};
	double *nums;
	unsigned f;

	json_object_object_del(exp, "scaling");
	if (!json_object_object_get_ex(exp, "arms", &arms) ||
	    !json_object_is_type(arms, json_type_array) ||
	    !read_factors(&fs, exp, arms)) {
		sc_release(&fs);
		return;
	}
	out = json_object_new_array();
	nums = xcalloc(fs.nr_arms, sizeof(*nums));
	for (f = 0; f < fs.nr; f++)
		if (numeric(&fs, f, nums))
			factor_rows(&fs, arms, f, nums, out);
	if (json_object_array_length(out))
		json_object_object_add(exp, "scaling", out);
	else
		json_object_put(out);
	free(nums);
	sc_release(&fs);
}
