/*
 * Scaling rows of an experiment document (scaling.h): read from the
 * factors and the arms' summaries only, so a stored experiment gets the
 * same rows when it is analysed again, and a report needs nothing else.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "scaling.h"
#include "../model/model_json.h"
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

/* The factors as read from an experiment document. */
struct sc_factors {
	const struct exp_factor *f; /* nr of them */
	unsigned nr;
	size_t nr_arms;
	unsigned *levels; /* nr_arms x nr: each arm's level of each factor */
};

static void sc_release(struct sc_factors *fs)
{
	free(fs->levels);
}

/* The index of value in factor f's values, or -1 (NULL: -1). */
static int value_index(const struct exp_factor *f, const char *value)
{
	size_t i;

	if (!value)
		return -1;
	for (i = 0; i < f->nr_values; i++)
		if (!strcmp(f->values[i], value))
			return (int)i;
	return -1;
}

/* The value arm sets factor name to, or NULL. */
static const char *setting(const struct exp_arm *arm, const char *name)
{
	size_t i;

	for (i = 0; i < arm->nr_settings; i++)
		if (arm->settings[i].name &&
		    !strcmp(arm->settings[i].name, name))
			return arm->settings[i].value;
	return NULL;
}

/* Read doc's factors and each arm's levels; false when they are not
 * one arm per combination of values. */
static bool read_factors(struct sc_factors *fs,
			 const struct experiment_doc *doc)
{
	size_t i, product = 1;
	unsigned f;

	memset(fs, 0, sizeof(*fs));
	if (!doc->nr_factors)
		return false;
	fs->f = doc->factors;
	fs->nr = (unsigned)doc->nr_factors;
	fs->nr_arms = doc->nr_arms;
	for (f = 0; f < fs->nr; f++) {
		if (!fs->f[f].name || !fs->f[f].nr_values)
			return false;
		product *= fs->f[f].nr_values;
		if (product > fs->nr_arms)
			return false;
	}
	if (product != fs->nr_arms)
		return false;
	fs->levels = xcalloc(fs->nr_arms * fs->nr, sizeof(*fs->levels));
	for (i = 0; i < fs->nr_arms; i++) {
		size_t rest = i;

		/* the last factor varies fastest (experiment_plan()); a
		 * setting that names a value says so itself */
		for (f = fs->nr; f-- > 0;) {
			size_t nv = fs->f[f].nr_values;
			int l = value_index(
			    &fs->f[f], setting(&doc->arms[i], fs->f[f].name));

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
	const struct exp_factor *fo = &fs->f[f];
	size_t i;

	if (fo->nr_values < 2 || !strcmp(fo->name, "label") ||
	    !strcmp(fo->name, "arm"))
		return false;
	for (i = 0; i < fo->nr_values; i++)
		if (scaling_number(fo->values[i], &nums[i]))
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

/* The median of arm, or NaN when it has none. */
static double arm_median(const struct exp_arm *arm)
{
	return arm->summary && isfinite(arm->summary->median)
		   ? arm->summary->median
		   : NAN;
}

/* Set the number *to (presence *has) to v when it is finite. */
static void set_num(double *to, uint8_t *has, double v)
{
	if (isfinite(v)) {
		*to = v;
		*has = MODEL_SET;
	}
}

/* Fill r, the row of arm b at level l of factor f; first: the median
 * of the group's first arm, first_arm. */
static void row(const struct sc_factors *fs, const struct experiment_doc *doc,
		unsigned f, size_t b, unsigned l, double first,
		size_t first_arm, struct exp_scaling_row *r)
{
	const struct exp_arm_summary *s = doc->arms[b].summary;
	double median = arm_median(&doc->arms[b]);
	unsigned g;

	memset(r, 0, sizeof(*r));
	r->factor = xstrdup(fs->f[f].name);
	r->value = xstrdup(fs->f[f].values[l]);
	r->within = xcalloc(fs->nr, sizeof(*r->within));
	for (g = 0; g < fs->nr; g++)
		if (g != f) {
			struct model_pair *p = &r->within[r->nr_within++];

			p->name = xstrdup(fs->f[g].name);
			p->value = xstrdup(
			    fs->f[g].values[fs->levels[b * fs->nr + g]]);
		}
	r->arm = (int64_t)b;
	/* what ratio_to_first is against, for the suspect marks */
	r->baseline_arm = (int64_t)first_arm;
	if (s) {
		set_num(&r->median, &r->has_median, s->median);
		set_num(&r->ci_low, &r->has_ci_low, s->ci_low);
		set_num(&r->ci_high, &r->has_ci_high, s->ci_high);
		r->n = s->n;
		r->has_n = MODEL_SET;
	}
	r->ratio_to_first = first > 0 && median > 0 ? median / first : NAN;
}

/* Append the rows of numeric factor f (values nums) to doc's scaling
 * (*alloc of them allocated). */
static void factor_rows(const struct sc_factors *fs, struct experiment_doc *doc,
			unsigned f, const double *nums, size_t *alloc)
{
	size_t nv = fs->f[f].nr_values, a, i, j;
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
		double first = arm_median(&doc->arms[a]);

		if (fs->levels[a * fs->nr + f] != order[0])
			continue;
		for (i = 0; i < nv; i++) {
			long b = arm_with(fs, a, f, order[i]);

			if (b < 0)
				continue;
			ALLOC_GROW(doc->scaling, doc->nr_scaling + 1, *alloc);
			row(fs, doc, f, (size_t)b, order[i], first, a,
			    &doc->scaling[doc->nr_scaling++]);
		}
	}
	free(order);
}

void scaling_analyze(struct experiment_doc *doc)
{
	struct sc_factors fs;
	size_t alloc = 0;
	double *nums;
	unsigned f;

	exp_scaling_free(doc->scaling, doc->nr_scaling);
	doc->scaling = NULL;
	doc->nr_scaling = 0;
	doc->has_scaling = MODEL_ABSENT;
	if (!read_factors(&fs, doc)) {
		sc_release(&fs);
		return;
	}
	nums = xcalloc(fs.nr_arms, sizeof(*nums));
	for (f = 0; f < fs.nr; f++)
		if (numeric(&fs, f, nums))
			factor_rows(&fs, doc, f, nums, &alloc);
	if (doc->nr_scaling)
		doc->has_scaling = MODEL_SET;
	free(nums);
	sc_release(&fs);
}
