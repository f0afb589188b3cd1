/*
 * From an experiment document to the input of effects_run() and back:
 * the factors and their values come from its factors, each arm's levels
 * from its settings, and effects_run()'s answer becomes the document's
 * effects and interactions. Kept apart from experiment_json.c so that
 * the analysis of one factor against the baseline and the analysis by
 * factor stay separate pieces.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "factorial.h"
#include "../model/model_json.h"
#include "../stats/effects.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The factors of an experiment document, as effects_run() takes them. */
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

/* The value arm (NULL: none) sets factor name to, or NULL. */
static const char *setting_of(const struct exp_arm *arm, const char *name)
{
	size_t i;

	for (i = 0; arm && i < arm->nr_settings; i++)
		if (arm->settings[i].name &&
		    !strcmp(arm->settings[i].name, name))
			return arm->settings[i].value;
	return NULL;
}

/*
 * Read the factors of doc into fa; false when doc has fewer than two or
 * they are not what experiment_plan() makes (named, with values, one
 * arm per combination).
 */
static bool read_factors(struct factorial *fa, const struct experiment_doc *doc,
			 size_t nr_arms)
{
	size_t f, i, nr_levels = 0, product = 1;

	memset(fa, 0, sizeof(*fa));
	if (doc->nr_factors < 2)
		return false;
	fa->nr_factors = (unsigned)doc->nr_factors;
	for (f = 0; f < fa->nr_factors; f++) {
		const struct exp_factor *xf = &doc->factors[f];

		if (!xf->name || xf->nr_values < 1 || xf->nr_values > nr_arms)
			return false;
		for (i = 0; i < xf->nr_values; i++)
			if (!xf->values[i])
				return false;
		nr_levels += xf->nr_values;
		product *= xf->nr_values;
		if (product > nr_arms)
			return false;
	}
	if (product != nr_arms)
		return false;
	fa->factors = xcalloc(fa->nr_factors, sizeof(*fa->factors));
	fa->levels = xcalloc(nr_levels, sizeof(*fa->levels));
	fa->arm_levels = xcalloc(nr_arms * fa->nr_factors, sizeof(unsigned));
	for (f = 0, nr_levels = 0; f < fa->nr_factors; f++) {
		const struct exp_factor *xf = &doc->factors[f];
		struct effects_factor *ef = &fa->factors[f];

		ef->name = xf->name;
		ef->levels = fa->levels + nr_levels;
		ef->nr_levels = (unsigned)xf->nr_values;
		for (i = 0; i < ef->nr_levels; i++)
			fa->levels[nr_levels++] = xf->values[i];
	}
	for (i = 0; i < nr_arms; i++) {
		const struct exp_arm *arm =
		    i < doc->nr_arms ? &doc->arms[i] : NULL;
		size_t rest = i;

		/* the last factor varies fastest, as experiment_plan() has
		 * it; a setting that names a value says so itself */
		for (f = fa->nr_factors; f-- > 0;) {
			struct effects_factor *ef = &fa->factors[f];
			int l = level_index(ef, setting_of(arm, ef->name));

			fa->arm_levels[i * fa->nr_factors + f] =
			    l >= 0 ? (unsigned)l
				   : (unsigned)(rest % ef->nr_levels);
			rest /= ef->nr_levels;
		}
	}
	return true;
}

/* The level name of factor f in arm a. */
static const char *level_name(const struct effects_input *in, unsigned a,
			      unsigned f)
{
	const struct effects_factor *fa = &in->factors[f];

	return fa->levels[in->arm_levels[(size_t)a * in->nr_factors + f]];
}

/* A number of the analysis as the document holds it: NaN for none. */
static double num(double v)
{
	return isfinite(v) ? v : NAN;
}

/* The level names of arm's factors other than skip1 and skip2, into
 * *within (*nr of them). */
static void fill_within(struct model_pair **within, size_t *nr,
			const struct effects_input *in, unsigned arm,
			unsigned skip1, unsigned skip2)
{
	unsigned g;

	*within = xcalloc(in->nr_factors, sizeof(**within));
	*nr = 0;
	for (g = 0; g < in->nr_factors; g++) {
		if (g == skip1 || g == skip2)
			continue;
		(*within)[*nr].name = xstrdup(in->factors[g].name);
		(*within)[(*nr)++].value = xstrdup(level_name(in, arm, g));
	}
}

/* The numbers of a valid comparison: ratio, its interval, p, p_adjusted
 * and the test; NULL when it was not made. */
static struct exp_comparison *
comparison(bool valid, const struct stats_comparison *cmp, double p_adjusted)
{
	struct exp_comparison *c;

	if (!valid)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->ratio = num(cmp->shift.ratio);
	c->ci_low = num(cmp->shift.ratio_low);
	c->ci_high = num(cmp->shift.ratio_high);
	c->p = num(cmp->p);
	c->p_adjusted = num(p_adjusted);
	c->test =
	    xstrdup(cmp->paired ? "wilcoxon-signed-rank" : "mann-whitney-u");
	return c;
}

/* ef's effects as doc's, with names for levels. */
static void fill_effects(struct experiment_doc *doc, const struct effects *ef,
			 const struct effects_input *in)
{
	size_t i;

	doc->effects = xcalloc(ef->nr_effects + 1, sizeof(*doc->effects));
	doc->nr_effects = ef->nr_effects;
	doc->has_effects = MODEL_SET;
	for (i = 0; i < ef->nr_effects; i++) {
		const struct effects_effect *e = &ef->effects[i];
		const struct effects_factor *fa = &in->factors[e->factor];
		struct exp_effect *d = &doc->effects[i];

		d->factor = xstrdup(fa->name);
		d->level = xstrdup(fa->levels[e->level]);
		d->baseline_level = xstrdup(fa->levels[fa->baseline]);
		fill_within(&d->within, &d->nr_within, in, e->arm, e->factor,
			    e->factor);
		d->arm = e->arm;
		d->baseline_arm = e->base_arm;
		d->cmp = comparison(e->valid, &e->cmp, e->p_adjusted);
		d->verdict = xstrdup(stats_verdict_name(e->verdict));
		d->n = (int64_t)e->n;
	}
}

/* ef's interactions as doc's: each with the four arms it rests on (for
 * its suspect marks) and F's effect at both levels of G. */
static void fill_interactions(struct experiment_doc *doc,
			      const struct effects *ef,
			      const struct effects_input *in)
{
	size_t i;

	doc->interactions =
	    xcalloc(ef->nr_interactions + 1, sizeof(*doc->interactions));
	doc->nr_interactions = ef->nr_interactions;
	doc->has_interactions = MODEL_SET;
	for (i = 0; i < ef->nr_interactions; i++) {
		const struct effects_interaction *x = &ef->interactions[i];
		const struct effects_factor *fa = &in->factors[x->factor];
		const struct effects_factor *fg = &in->factors[x->by];
		const struct effects_effect *ea = &ef->effects[x->at_baseline];
		const struct effects_effect *eb = &ef->effects[x->at_level];
		struct exp_interaction *d = &doc->interactions[i];

		d->factor = xstrdup(fa->name);
		d->level = xstrdup(fa->levels[x->level]);
		d->baseline_level = xstrdup(fa->levels[fa->baseline]);
		d->by = xstrdup(fg->name);
		d->by_level = xstrdup(fg->levels[x->by_level]);
		d->by_baseline_level = xstrdup(fg->levels[fg->baseline]);
		fill_within(&d->within, &d->nr_within, in, eb->arm, x->factor,
			    x->by);
		d->ratio_at_baseline =
		    ea->valid ? num(ea->cmp.shift.ratio) : NAN;
		d->ratio_at_level = eb->valid ? num(eb->cmp.shift.ratio) : NAN;
		d->arms = xcalloc(4, sizeof(*d->arms));
		d->arms[0] = ea->arm;
		d->arms[1] = ea->base_arm;
		d->arms[2] = eb->arm;
		d->arms[3] = eb->base_arm;
		d->nr_arms = 4;
		d->has_arms = MODEL_SET;
		d->cmp = comparison(x->valid, &x->cmp, x->p_adjusted);
		d->verdict =
		    xstrdup(effects_interaction_verdict_name(x->verdict));
		d->n = (int64_t)x->n;
	}
}

/* doc without effects and interactions, as before any analysis. */
static void drop_rows(struct experiment_doc *doc)
{
	exp_effects_free(doc->effects, doc->nr_effects);
	doc->effects = NULL;
	doc->nr_effects = 0;
	doc->has_effects = MODEL_ABSENT;
	exp_interactions_free(doc->interactions, doc->nr_interactions);
	doc->interactions = NULL;
	doc->nr_interactions = 0;
	doc->has_interactions = MODEL_ABSENT;
}

int factorial_analyze(struct experiment_doc *doc,
		      const struct analysis_arm *arms, size_t nr_arms,
		      const struct analysis_opts *o, struct strbuf *err)
{
	struct factorial fa;
	struct effects_input in;
	struct effects ef;
	unsigned f;
	int ret;

	drop_rows(doc);
	if (!read_factors(&fa, doc, nr_arms) || o->baseline >= nr_arms) {
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
		fill_effects(doc, &ef, &in);
		fill_interactions(doc, &ef, &in);
	}
	effects_release(&ef);
	factorial_release(&fa);
	return ret;
}
