/*
 * Regression adjustment of paired differences (CUPED): part of the
 * noise in a block's log-ratio d_i = log(arm_i / base_i) is the machine
 * treating the two runs differently (one waited longer for a CPU, one
 * shared the disk with a neighbour's writeback), and iotrial measured
 * how differently: z_i = covariate(arm run) - covariate(baseline run).
 * The adjusted differences are d'_i = d_i - beta . z_i, beta the least-
 * squares slope through the origin; the signed-rank test and interval of
 * stats_signrank_shift() are then taken on d'.
 *
 * Why through the origin, and why that keeps the false-positive rate:
 * the arms' order in a block is drawn at random, so under the null
 * hypothesis (the arms are alike) the pair (d_i, z_i) is as likely as
 * (-d_i, -z_i). beta = (Z'Z)^-1 Z'd does not change when any pair flips
 * sign, so d'_i flips with its pair and nothing else: the signed-rank
 * test on d' is as exact as on d. Most choices made below (use the
 * adjustment or not, which covariates) depend only on quantities that
 * do not change under those flips (sums of squares and cross-products),
 * so they do not bend the test either. An intercept would break this
 * (it is the effect being tested).
 *
 * Which covariates, and whether at all: a covariate must vary, be
 * centred (below), and explain STATS_ADJ_MIN_R2_ALONE of sum(d^2)
 * alone; there must be STATS_ADJ_MIN_BLOCKS blocks and 4 more for each
 * further covariate (the ones that explain least alone go first); and
 * what they explain must exceed what they take of a shift by
 * STATS_ADJ_MIN_R2: the covariates' sample means are not exactly 0, so
 * a slope fitted through the origin also fits part of a constant
 * shift, and the interval (which inverts the adjusted test, adjust.c)
 * widens by as much. That last rule and the centring check look at
 * signs that flip with the pairs: tests/unit/test_adjust.c measures
 * what they cost the false-positive rate (nothing beyond the binomial
 * noise of 4000 experiments).
 *
 * What it assumes: the arm itself does not move the covariate (else the
 * adjustment takes part of the arm's effect away, or adds to it). The
 * covariates iotrial offers are chosen for that (stats/analysis.c), and
 * a covariate whose differences are not centred on 0 (the signed-rank
 * test of z at p < STATS_ADJ_BALANCE_P) is left out and said so.
 *
 * Pure functions, no I/O.
 */
#ifndef IOTRIAL_STATS_ADJUST_H
#define IOTRIAL_STATS_ADJUST_H

#include <stdbool.h>
#include <stddef.h>
#include "stats.h"

#define STATS_ADJ_MAX_COV 4
/* Fewest blocks for an adjustment: beta from fewer is mostly noise. */
#define STATS_ADJ_MIN_BLOCKS 8
/*
 * The net share of sum(d^2) the covariates must explain to be used:
 * what they explain less what they take of a shift (r2 - r2_shift).
 */
#define STATS_ADJ_MIN_R2 0.10
/* A covariate that explains less than this alone is not tried. */
#define STATS_ADJ_MIN_R2_ALONE 0.05
/* A covariate whose differences the arm seems to shift is left out. */
#define STATS_ADJ_BALANCE_P 0.01

/* Why an adjustment was or was not used. */
enum stats_adj_why {
	STATS_ADJ_USED,
	STATS_ADJ_FEW_BLOCKS,	/* fewer than STATS_ADJ_MIN_BLOCKS pairs */
	STATS_ADJ_NO_COVARIATE, /* none measured, constant, or unbalanced */
	STATS_ADJ_WEAK,		/* explains under STATS_ADJ_MIN_R2, net */
};

/* stats_adjust_paired()'s result. */
struct stats_adjusted {
	size_t n;			/* pairs */
	size_t nr_cov;			/* covariates given */
	bool kept[STATS_ADJ_MAX_COV];	/* used in beta */
	double beta[STATS_ADJ_MAX_COV]; /* per covariate; 0 when not kept */
	double balance_p[STATS_ADJ_MAX_COV]; /* signed-rank p of z: is the
						covariate centred on 0? */
	double r2;			     /* 1 - sum(d'^2) / sum(d^2) */
	double r2_shift; /* what the kept covariates explain of a constant:
			    1 - sum(m^2) / n */
	enum stats_adj_why why;
	bool used;		    /* why == STATS_ADJ_USED */
	struct stats_shift shift;   /* on d' (ratio fields filled) */
	struct stats_test wilcoxon; /* on d' */
};

/*
 * Adjust the paired log-ratios d[n] for the covariate differences
 * z[c * n + i] (nr_cov of them, at most STATS_ADJ_MAX_COV; non-finite
 * values make a covariate unusable) into out_d[n] (may be NULL), and
 * test and estimate on the result at confidence conf. When the
 * adjustment is not used (out->why says why), out_d is a copy of d and
 * the shift and test are those of d. Returns 0 or -EINVAL (n = 0,
 * non-finite d, nr_cov too large).
 */
int stats_adjust_paired(const double *d, size_t n, const double *z,
			size_t nr_cov, double conf, double *out_d,
			struct stats_adjusted *out);

/* "used", "few blocks", "no covariate", "explains too little". */
const char *stats_adj_why_name(enum stats_adj_why why);

#endif
