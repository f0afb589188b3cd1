/*
 * Factorial analysis of an experiment with two or more factors: each
 * factor's effect within every combination of the other factors' levels,
 * and whether that effect differs between the levels of another factor
 * (an interaction).
 *
 * An effect compares two arms that differ only in one factor F: F at one
 * of its levels against F at its baseline level, everything else the
 * same. It is the comparison analysis.c makes of an arm against the
 * baseline (stats_compare(), paired by block when the runs are blocked),
 * so its ratio, interval and p mean what a verdict's do. p is Holm-
 * adjusted over the effects of the same factor.
 *
 * An interaction asks whether F's effect at level b of another factor G
 * differs from its effect at G's baseline level a. Per block k the two
 * effects are ratios, r_a(k) = y(F=l, G=a) / y(F=base, G=a) and r_b(k)
 * likewise at G=b; the test is stats_compare() of r_b against r_a paired
 * by block, which is the Wilcoxon signed-rank test on the per-block
 * differences of log ratios, log r_b(k) - log r_a(k), and its ratio is
 * the ratio of ratios r_b / r_a with the interval stats_compare() gives
 * paired data. The question is symmetric (F's effect depends on G exactly
 * when G's depends on F), so each pair of factors is asked once. p is
 * Holm-adjusted over all interactions. Interactions need blocks: with
 * unpaired runs there are none.
 */
#ifndef IOTRIAL_EFFECTS_H
#define IOTRIAL_EFFECTS_H

#include <stdbool.h>
#include <stddef.h>
#include "analysis.h"
#include "stats.h"
#include "../../util/strbuf.h"

/* One factor: its levels and which one is the baseline. */
struct effects_factor {
	const char *name;	   /* "scheduler" */
	const char *const *levels; /* nr_levels of them: "none", ... */
	unsigned nr_levels;
	unsigned baseline; /* index of the baseline level */
};

/* What effects_run() analyses. */
struct effects_input {
	const struct analysis_arm *arms; /* nr_arms, as for analysis_run() */
	unsigned nr_arms;
	const struct effects_factor *factors; /* nr_factors */
	unsigned nr_factors;
	/* arm a has level arm_levels[a * nr_factors + f] of factor f */
	const unsigned *arm_levels;
};

/* One factor's effect within one combination of the others' levels. */
struct effects_effect {
	unsigned factor;   /* F */
	unsigned level;	   /* F's level, never its baseline */
	unsigned arm;	   /* the arm with F at level */
	unsigned base_arm; /* the same arm with F at its baseline level */
	bool valid;	   /* compared (both arms have 2 runs or more) */
	struct stats_comparison cmp; /* arm against base_arm */
	size_t n;		     /* pairs of runs (unpaired: runs of arm) */
	double p_adjusted;	     /* Holm over F's effects */
	enum stats_verdict verdict;
};

/* Whether an effect differs between two levels of another factor. */
struct effects_interaction {
	unsigned factor;    /* F, the factor whose effect is compared */
	unsigned level;	    /* F's level (not its baseline) */
	unsigned by;	    /* G, a factor after F */
	unsigned by_level;  /* G's level b (not its baseline a) */
	size_t at_baseline; /* index in effects[] of F's effect at G = a */
	size_t at_level;    /* ... and at G = b, the other factors alike */
	bool valid;	    /* tested (paired, 2 common blocks or more) */
	struct stats_comparison cmp; /* r_b against r_a, paired by block */
	size_t n;		     /* blocks with all four arms */
	double p_adjusted;	     /* Holm over all interactions */
	/* stats_verdict() on the ratio of ratios (higher_is_better true):
	 * faster or slower means the effect depends on G, equivalent that
	 * it is the same within the margin at both levels */
	enum stats_verdict verdict;
};

struct effects {
	struct effects_effect *effects; /* by factor, level, then arm */
	size_t nr_effects;
	struct effects_interaction *interactions;
	size_t nr_interactions;
};

/*
 * Analyse in with o's alpha, margin, conf, higher_is_better and paired
 * (the baseline arm does not matter: each factor's baseline level does).
 * With fewer than two factors there is nothing to do (0, empty). An
 * effect whose two arms are not both in the experiment is left out.
 * Returns 0 or -errno (-EINVAL: a level out of range, values that are
 * not positive) with err set; release ef either way.
 */
int effects_run(struct effects *ef, const struct effects_input *in,
		const struct analysis_opts *o, struct strbuf *err);
void effects_release(struct effects *ef);

/* The "verdict" of an interaction in JSON and text: "interaction",
 * "no interaction", "inconclusive" or "no verdict". */
const char *effects_interaction_verdict_name(enum stats_verdict v);

#endif
