/*
 * The one seam between tune's search and the statistics: given the
 * metric values of two candidates paired by block, say whether the
 * second is worse, better or equivalent to the first, or that the data
 * cannot tell yet, with its ratio and confidence interval.
 *
 * Today the call rests on the paired signed-rank test and the
 * Hodges-Lehmann interval of the per-block log ratios (stats.h), the
 * analysis compare's verdicts use. A better judge (covariates, a noise
 * model of the machine) replaces tune_judge() and nothing else: the
 * race (race.h) and the bisection (bisect.h) only read its call, its
 * one-sided p and its interval.
 */
#ifndef IOTRIAL_TUNE_JUDGE_H
#define IOTRIAL_TUNE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

/* What the data say of b against a. */
enum tune_call {
	TUNE_CANNOT_TELL, /* too few pairs, or an interval too wide */
	TUNE_WORSE,	  /* b worse than a: p < alpha, CI excludes 1 */
	TUNE_BETTER,	  /* b better than a, likewise */
	TUNE_EQUIVALENT,  /* the CI within +-margin of 1 */
};

/* How to judge. */
struct tune_judge_opts {
	bool higher_is_better; /* mbps, iops: true; latency: false */
	double margin;	       /* equivalence: 0.02 for +-2% */
	double alpha;	       /* 0.05 */
	double conf;	       /* of the interval: 0.95 */
};

/* The judgement of b against a. */
struct tune_judgement {
	enum tune_call call;
	size_t n;      /* pairs used */
	double ratio;  /* b over a (the metric's ratio, not goodness):
			  exp of the Hodges-Lehmann estimate; NaN when
			  n < 2 */
	double ci_low; /* its interval, NaN likewise */
	double ci_high;
	double coverage; /* what the interval reaches (below conf when
			    few pairs) */
	double p;	 /* two-sided signed-rank p; 1 when n < 2 */
	double p_worse;	 /* one-sided p of "b is worse than a beyond the
			    margin" (H0: b at least 1 - margin as good);
			    1 when n < 2 */
};

/* The defaults: higher is better, margin 2%, alpha 0.05, 95%. */
void tune_judge_opts_init(struct tune_judge_opts *o);

/* Pairs fewer than this are always TUNE_CANNOT_TELL. */
#define TUNE_JUDGE_MIN_PAIRS 4

/*
 * Judge b[n] against a[n], a[i] and b[i] from the same block (values
 * > 0; a pair with a NaN is skipped). Returns 0, or -EINVAL for values
 * that are not positive.
 */
int tune_judge(const double *a, const double *b, size_t n,
	       const struct tune_judge_opts *o, struct tune_judgement *out);

/* "worse", "better", "equivalent", "cannot tell". */
const char *tune_call_name(enum tune_call c);

#endif
