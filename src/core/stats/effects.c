/*
 * Effects and interactions of a factorial experiment (effects.h). The
 * arm-against-baseline verdicts of analysis.c answer "is this arm better
 * than that one"; with two factors the question is usually "what does
 * scheduler do, and does it do the same at jobs=1 and jobs=2". Both
 * answers come from pairs of arms that differ in one factor only, each
 * compared as analysis.c compares an arm with the baseline, so a change
 * to stats_compare() (its estimator, its interval) reaches both alike.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "effects.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The level of factor f in arm a. */
static unsigned level_of(const struct effects_input *in, unsigned a, unsigned f)
{
	return in->arm_levels[(size_t)a * in->nr_factors + f];
}

/* The arm like arm a but with factor f at level, or -1 if none is. */
static int arm_with(const struct effects_input *in, unsigned a, unsigned f,
		    unsigned level)
{
	unsigned b, g;

	for (b = 0; b < in->nr_arms; b++) {
		if (level_of(in, b, f) != level)
			continue;
		for (g = 0; g < in->nr_factors; g++)
			if (g != f && level_of(in, b, g) != level_of(in, a, g))
				break;
		if (g == in->nr_factors)
			return (int)b;
	}
	return -1;
}

/* The index of block in arm's runs, or -1. */
static long run_of_block(const struct analysis_arm *arm, unsigned block)
{
	size_t i;

	for (i = 0; i < arm->n; i++)
		if (arm->blocks[i] == block)
			return (long)i;
	return -1;
}

/*
 * The values of arms[k] in the blocks they all have, in the order of
 * arms[0]'s runs: out[j][i] is arms[j]'s value in the i-th such block.
 * Each out[j] holds arms[0]->n values. Returns the number of blocks.
 */
static size_t common_blocks(const struct analysis_arm *const *arms, unsigned k,
			    double **out)
{
	size_t i, n = 0;
	unsigned j;

	for (i = 0; i < arms[0]->n; i++) {
		unsigned block = arms[0]->blocks[i];

		for (j = 1; j < k; j++)
			if (run_of_block(arms[j], block) < 0)
				break;
		if (j < k)
			continue;
		out[0][n] = arms[0]->values[i];
		for (j = 1; j < k; j++)
			out[j][n] =
			    arms[j]->values[run_of_block(arms[j], block)];
		n++;
	}
	return n;
}

static bool is_paired(const struct effects_input *in,
		      const struct analysis_opts *o, unsigned a, unsigned b)
{
	return o->paired && in->arms[a].blocks && in->arms[b].blocks;
}

/* Compare e->arm with e->base_arm into e. */
static int compare_effect(struct effects_effect *e,
			  const struct effects_input *in,
			  const struct analysis_opts *o)
{
	const struct analysis_arm *base = &in->arms[e->base_arm];
	const struct analysis_arm *arm = &in->arms[e->arm];
	const struct analysis_arm *pair[2] = {base, arm};
	double *v[2];
	int ret = 0;

	if (!is_paired(in, o, e->arm, e->base_arm)) {
		e->n = arm->n;
		if (arm->n < 2 || base->n < 2)
			return 0;
		ret = stats_compare(base->values, base->n, arm->values, arm->n,
				    false, o->conf, &e->cmp);
		e->valid = !ret;
		return ret;
	}
	v[0] = xcalloc(base->n + 1, sizeof(double));
	v[1] = xcalloc(base->n + 1, sizeof(double));
	e->n = common_blocks(pair, 2, v);
	if (e->n >= 2) {
		ret = stats_compare(v[0], e->n, v[1], e->n, true, o->conf,
				    &e->cmp);
		e->valid = !ret;
	}
	free(v[0]);
	free(v[1]);
	return ret;
}

/*
 * Test interaction x: the per-block ratio of effect at_level against
 * that of effect at_baseline, over the blocks all four arms share.
 */
static int test_interaction(struct effects_interaction *x,
			    const struct effects *ef,
			    const struct effects_input *in,
			    const struct analysis_opts *o)
{
	const struct effects_effect *ea = &ef->effects[x->at_baseline];
	const struct effects_effect *eb = &ef->effects[x->at_level];
	const struct analysis_arm *four[4] = {
	    &in->arms[ea->base_arm], &in->arms[ea->arm],
	    &in->arms[eb->base_arm], &in->arms[eb->arm]};
	double *v[4], *ra, *rb;
	bool untestable = false;
	size_t i, cap = four[0]->n + 1;
	unsigned j;
	int ret = 0;

	for (j = 0; j < 4; j++)
		if (!four[j]->blocks)
			return 0;
	for (j = 0; j < 4; j++)
		v[j] = xcalloc(cap, sizeof(double));
	ra = xcalloc(cap, sizeof(double));
	rb = xcalloc(cap, sizeof(double));
	x->n = common_blocks(four, 4, v);
	for (i = 0; i < x->n; i++) {
		ra[i] = v[1][i] / v[0][i];
		rb[i] = v[3][i] / v[2][i];
		/* metrics a factor 1e308 apart have no ratio to take */
		if (!isfinite(ra[i]) || !(ra[i] > 0) || !isfinite(rb[i]) ||
		    !(rb[i] > 0))
			untestable = true;
	}
	if (x->n >= 2 && !untestable) {
		ret = stats_compare(ra, x->n, rb, x->n, true, o->conf, &x->cmp);
		x->valid = !ret;
	}
	for (j = 0; j < 4; j++)
		free(v[j]);
	free(ra);
	free(rb);
	return ret;
}

static enum stats_verdict judge(const struct stats_comparison *cmp,
				double p_adjusted, size_t n_arm, size_t n_base,
				bool higher_is_better,
				const struct analysis_opts *o)
{
	struct stats_verdict_input vi = {
	    .ratio = cmp->shift.ratio,
	    .ci_low = cmp->shift.ratio_low,
	    .ci_high = cmp->shift.ratio_high,
	    .p_adjusted = p_adjusted,
	    .alpha = o->alpha,
	    .margin = o->margin,
	    .n_arm = n_arm,
	    .n_baseline = n_base,
	    .higher_is_better = higher_is_better,
	};

	return stats_verdict(&vi);
}

/* Holm over the valid effects of factor f, then their verdicts. */
static int adjust_factor(struct effects *ef, const struct effects_input *in,
			 unsigned f, const struct analysis_opts *o)
{
	double *p = xcalloc(ef->nr_effects + 1, sizeof(*p));
	size_t i, k = 0;
	int ret = 0;

	for (i = 0; i < ef->nr_effects; i++)
		if (ef->effects[i].factor == f && ef->effects[i].valid)
			p[k++] = ef->effects[i].cmp.p;
	if (k)
		ret = stats_holm(p, k, p);
	for (i = 0, k = 0; !ret && i < ef->nr_effects; i++) {
		struct effects_effect *e = &ef->effects[i];
		bool paired = is_paired(in, o, e->arm, e->base_arm);

		if (e->factor != f)
			continue;
		e->verdict = STATS_NO_VERDICT;
		e->p_adjusted = NAN;
		if (!e->valid)
			continue;
		e->p_adjusted = p[k++];
		e->verdict = judge(&e->cmp, e->p_adjusted, e->n,
				   paired ? e->n : in->arms[e->base_arm].n,
				   o->higher_is_better, o);
	}
	free(p);
	return ret;
}

/* Every effect of factor f, by level, then in the order of the arms. */
static int add_effects(struct effects *ef, size_t *alloc, long *effect_of,
		       const struct effects_input *in, unsigned f,
		       const struct analysis_opts *o, struct strbuf *err)
{
	const struct effects_factor *fa = &in->factors[f];
	unsigned l, a;
	int ret;

	for (l = 0; l < fa->nr_levels; l++) {
		if (l == fa->baseline)
			continue;
		for (a = 0; a < in->nr_arms; a++) {
			struct effects_effect *e;
			int b;

			if (level_of(in, a, f) != l)
				continue;
			b = arm_with(in, a, f, fa->baseline);
			if (b < 0)
				continue;
			ALLOC_GROW(ef->effects, ef->nr_effects + 1, *alloc);
			e = &ef->effects[ef->nr_effects];
			memset(e, 0, sizeof(*e));
			e->factor = f;
			e->level = l;
			e->arm = a;
			e->base_arm = (unsigned)b;
			ret = compare_effect(e, in, o);
			if (ret)
				return err_set(err, ret,
					       "cannot compare arm '%s' with "
					       "arm '%s'",
					       in->arms[a].label,
					       in->arms[b].label);
			effect_of[(size_t)f * in->nr_arms + a] =
			    (long)ef->nr_effects++;
		}
	}
	return adjust_factor(ef, in, f, o);
}

/* Every interaction of factor f with a later factor g. */
static int add_interactions(struct effects *ef, size_t *alloc,
			    const long *effect_of,
			    const struct effects_input *in, unsigned f,
			    unsigned g, const struct analysis_opts *o)
{
	const struct effects_factor *fg = &in->factors[g];
	unsigned a;
	int ret;

	/* arms with F off its baseline and G off its baseline: F's effect
	 * there (at G = b) against the same effect at G = a */
	for (a = 0; a < in->nr_arms; a++) {
		struct effects_interaction *x;
		long at_b = effect_of[(size_t)f * in->nr_arms + a], at_a;
		int a0;

		if (at_b < 0 || level_of(in, a, g) == fg->baseline)
			continue;
		a0 = arm_with(in, a, g, fg->baseline);
		at_a = a0 < 0 ? -1 : effect_of[(size_t)f * in->nr_arms + a0];
		if (at_a < 0)
			continue;
		ALLOC_GROW(ef->interactions, ef->nr_interactions + 1, *alloc);
		x = &ef->interactions[ef->nr_interactions++];
		memset(x, 0, sizeof(*x));
		x->factor = f;
		x->level = level_of(in, a, f);
		x->by = g;
		x->by_level = level_of(in, a, g);
		x->at_baseline = (size_t)at_a;
		x->at_level = (size_t)at_b;
		x->verdict = STATS_NO_VERDICT;
		x->p_adjusted = NAN;
		ret = test_interaction(x, ef, in, o);
		if (ret)
			return ret;
	}
	return 0;
}

/* Holm over every tested interaction, then their verdicts. */
static int adjust_interactions(struct effects *ef,
			       const struct analysis_opts *o)
{
	double *p = xcalloc(ef->nr_interactions + 1, sizeof(*p));
	size_t i, k = 0;
	int ret = 0;

	for (i = 0; i < ef->nr_interactions; i++)
		if (ef->interactions[i].valid)
			p[k++] = ef->interactions[i].cmp.p;
	if (k)
		ret = stats_holm(p, k, p);
	for (i = 0, k = 0; !ret && i < ef->nr_interactions; i++) {
		struct effects_interaction *x = &ef->interactions[i];

		if (!x->valid)
			continue;
		x->p_adjusted = p[k++];
		x->verdict = judge(&x->cmp, x->p_adjusted, x->n, x->n, true, o);
	}
	free(p);
	return ret;
}

int effects_run(struct effects *ef, const struct effects_input *in,
		const struct analysis_opts *o, struct strbuf *err)
{
	size_t alloc = 0, alloc_x = 0, i;
	long *effect_of;
	unsigned a, f, g;
	int ret = 0;

	memset(ef, 0, sizeof(*ef));
	if (in->nr_factors < 2 || !in->nr_arms)
		return 0;
	for (f = 0; f < in->nr_factors; f++)
		if (in->factors[f].baseline >= in->factors[f].nr_levels)
			return err_set(err, -EINVAL,
				       "factor '%s' has no baseline level %u",
				       in->factors[f].name,
				       in->factors[f].baseline);
	for (a = 0; a < in->nr_arms; a++)
		for (f = 0; f < in->nr_factors; f++)
			if (level_of(in, a, f) >= in->factors[f].nr_levels)
				return err_set(err, -EINVAL,
					       "arm '%s' has no level of "
					       "factor '%s'",
					       in->arms[a].label,
					       in->factors[f].name);
	effect_of =
	    xcalloc((size_t)in->nr_factors * in->nr_arms, sizeof(*effect_of));
	for (i = 0; i < (size_t)in->nr_factors * in->nr_arms; i++)
		effect_of[i] = -1;
	for (f = 0; f < in->nr_factors && !ret; f++)
		ret = add_effects(ef, &alloc, effect_of, in, f, o, err);
	/* interactions compare ratios within blocks: none unpaired */
	for (f = 0; f < in->nr_factors && !ret && o->paired; f++)
		for (g = f + 1; g < in->nr_factors && !ret; g++)
			ret = add_interactions(ef, &alloc_x, effect_of, in, f,
					       g, o);
	if (!ret)
		ret = adjust_interactions(ef, o);
	if (ret && !err->len)
		err_set(err, ret,
			"cannot test the interactions of the "
			"factors");
	free(effect_of);
	return ret;
}

void effects_release(struct effects *ef)
{
	if (!ef)
		return;
	free(ef->effects);
	free(ef->interactions);
	memset(ef, 0, sizeof(*ef));
}

const char *effects_interaction_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case STATS_FASTER:
	case STATS_SLOWER:
		return "interaction";
	case STATS_EQUIVALENT:
		return "no interaction";
	case STATS_INCONCLUSIVE:
		return "inconclusive";
	case STATS_NO_VERDICT:
		break;
	}
	return "no verdict";
}
