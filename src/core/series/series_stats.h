/*
 * A series' statistics, with the boot as the unit.
 *
 * Iterations run within one boot share its page cache, file layout,
 * device state and the boot's own luck, so they are not independent:
 * pooling five iterations of one boot with five of another and testing
 * ten against ten counts the boot's luck five times. Here each boot
 * (a group of iterations) is summarised by its median, and the groups
 * of the two sides are compared by the two-sample Hodges-Lehmann ratio
 * of those medians with its Moses interval and the Mann-Whitney test
 * (stats_compare(), unpaired): n is the number of boots. The pooled
 * iteration-level comparison is computed beside it only to show what
 * pooling would claim.
 *
 * The spread is split the one-way ANOVA way on log values: the within-
 * boot variance (pooled over every boot) and the boot-to-boot variance
 * (the between-groups mean square less its share of within variance),
 * whose ratio is the intraclass correlation. From the boot-to-boot
 * spread of the medians, series_boots_needed() says how many boots per
 * side a given ratio needs.
 *
 * Pure functions, no I/O; -errno returns as in stats.h.
 */
#ifndef IOTRIAL_SERIES_STATS_H
#define IOTRIAL_SERIES_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include "../stats/stats.h"

/* One boot's iterations (values of one metric, all positive). */
struct series_group {
	const double *x; /* not owned */
	size_t n;
};

/* The two sides' variance components on log(metric). */
struct series_spread {
	double within_sd;  /* pooled within-boot sd of log values */
	double between_sd; /* boot-to-boot sd of log values (>= 0) */
	double icc;	   /* between^2 / (between^2 + within^2); NaN when
			      both are 0 */
	double median_sd;  /* pooled sd of the per-boot log medians, the
			      spread the boot-level test sees */
};

/* series_compare()'s result: arm against baseline. */
struct series_comparison {
	size_t boots_base, boots_arm;	/* groups with at least one value */
	size_t iters_base, iters_arm;	/* all values */
	struct stats_comparison boot;	/* on per-boot medians: the verdict */
	struct stats_comparison pooled; /* on all iterations: what pooling
					   would claim */
	enum stats_verdict verdict;	/* from boot; no verdict when a side
					   has fewer than
					   series_min_boots() */
	enum stats_verdict pooled_verdict; /* the same rule on pooled */
	struct series_spread spread;
	unsigned boots_needed; /* per side for the observed ratio (0:
				  cannot tell, e.g. ratio 1) */
};

/*
 * The fewest boots per side (equal sides) with which the exact two-
 * sided Mann-Whitney test of per-boot medians can reach p < alpha at
 * all: 4 at 0.05 (2 / C(8, 4) = 0.029; three give at best 0.1). 0 when
 * alpha is not in (0, 1) or more than 30 would be needed.
 */
unsigned series_min_boots(double alpha);

/*
 * Boots per side for a two-sided test at alpha to detect ratio with
 * power (0.8), given the boot-to-boot sd of log medians median_sd:
 * the normal-approximation size 2 (z_{1-alpha/2} + z_power)^2 sd^2 /
 * log(ratio)^2 divided by Mann-Whitney's efficiency against the t test
 * (3 / pi), rounded up, and at least series_min_boots(alpha). 0 when
 * ratio is 1, not positive or not finite, or median_sd is not finite.
 */
unsigned series_boots_needed(double ratio, double median_sd, double alpha,
			     double power);

/*
 * The variance components of log values over groups g[ng] (both sides
 * together, or one side). Groups of one value add to the between part
 * only. Returns 0, -EINVAL (no values, a non-finite value) or -EDOM (a
 * value not positive).
 */
int series_spread(const struct series_group *g, size_t ng,
		  struct series_spread *out);

/*
 * Compare arm[na] against base[nb] (groups = boots) at confidence conf
 * (0.95) and equivalence margin margin (0.02); higher_is_better orients
 * the verdict. Empty groups are skipped. Returns 0, -EINVAL (a side
 * with no values, non-finite values, conf outside (0, 1)), -EDOM (a
 * value not positive) or -ENOMEM.
 */
int series_compare(const struct series_group *base, size_t nb,
		   const struct series_group *arm, size_t na, double conf,
		   double margin, bool higher_is_better,
		   struct series_comparison *out);

#endif
