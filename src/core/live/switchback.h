/*
 * A switchback experiment on a live load (iotrial observe): time is cut
 * into windows, the windows into blocks that hold every arm once in an
 * order drawn anew for each block (a fixed A,B,A,B schedule aliases with
 * a periodic load), and a settle period after each switch that is
 * measured but not analysed (carryover: the page cache, a queue, a
 * writeback backlog still shaped by the arm before).
 *
 * The analysis takes the measured windows as units: per block the arm's
 * log-ratio against the baseline, the signed-rank test and
 * Hodges-Lehmann estimate of compare (stats/analysis.c), and a
 * randomisation test that re-draws the within-block orders the schedule
 * drew, so its p-value holds whatever the load's autocorrelation. The
 * load's trend over the experiment and the offered load per window are
 * reported, with a covariate-adjusted estimate beside the paired one:
 * the per-block log-ratios adjusted for the windows' difference in time
 * and, when the load is a number the arms cannot move (the user's
 * counter beside another metric), in log load, through the origin
 * (stats/adjust.h), so that it is as exact under the null as the plain
 * test. The verdict rests on it when the adjustment is used.
 *
 * Pure functions on arrays: nothing here reads the system.
 */
#ifndef IOTRIAL_SWITCHBACK_H
#define IOTRIAL_SWITCHBACK_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../stats/analysis.h"
#include "../../util/strbuf.h"

/* One slot of the schedule. */
struct sb_slot {
	unsigned block; /* 0-based */
	unsigned arm;	/* index into the arms */
	bool settle;	/* measured, not analysed: just after a switch */
};

/* What a schedule is made of. */
struct sb_plan_opts {
	unsigned nr_arms;   /* 1 .. 64 */
	unsigned nr_blocks; /* >= 1 */
	bool settle;	    /* a settle slot before every switched window */
	uint64_t seed;	    /* the within-block orders */
};

/* A schedule: nr slots in time order. */
struct sb_schedule {
	struct sb_slot *v;
	size_t nr;
	unsigned nr_switches; /* slots whose arm differs from the one before
				 (the first slot is one: it switches away
				 from what was in force) */
};

/*
 * Draw the schedule: per block a uniformly random order of the arms;
 * with o->settle a settle slot of the arm about to be measured goes
 * before each measured slot whose arm differs from the previous slot's
 * (the first slot included). 0, or -EINVAL for nr_arms or nr_blocks out
 * of range. Release with sb_schedule_release().
 */
int sb_schedule_make(struct sb_schedule *s, const struct sb_plan_opts *o);
void sb_schedule_release(struct sb_schedule *s);

/* What was measured in one slot. */
struct sb_window {
	unsigned block;
	unsigned arm;
	bool settle;	/* not analysed */
	bool cut_short; /* ended before its time (abort, signal) */
	bool suspect;	/* another I/O source on the device (scoped) */
	double t_s;	/* its middle, seconds since the start */
	double metric;	/* > 0 for an analysed window */
	double load;	/* offered load (requests, the user's counter);
			   NaN when unknown */
};

/* Does the analysis use w: measured, whole, with a positive metric (a
 * window whose number could not be had is missing; one of 0 has no
 * ratio and is left out with its block, counted in nonpositive)? */
static inline bool sb_window_used(const struct sb_window *w)
{
	return !w->settle && !w->cut_short && isfinite(w->metric) &&
	       w->metric > 0;
}

/* How the analysis runs. */
struct sb_analysis_opts {
	struct analysis_opts a; /* baseline, direction, alpha, margin, conf */
	unsigned draws;		/* Monte Carlo draws of the randomisation
				   test when exact enumeration is too big;
				   10000 by default */
	uint64_t exact_limit;	/* enumerate exactly up to this many orders:
				   65536 by default */
	uint64_t seed;		/* of the Monte Carlo draws */
	bool settle;		/* the schedule had settle periods */
	bool load_covariate;	/* the windows' load may be adjusted for:
				   the arms cannot move it */
};

/* The defaults: analysis_opts_init(), 10000 draws, exact up to 65536. */
void sb_analysis_opts_init(struct sb_analysis_opts *o);

/* One arm against the baseline beyond what analysis_run() gives. */
struct sb_arm_result {
	bool valid;	  /* false for the baseline and with < 2 blocks */
	double rand_p;	  /* randomisation test, two-sided */
	bool rand_exact;  /* every re-drawing enumerated */
	double adj_ratio; /* covariate-adjusted (stats/adjust.h) */
	double adj_low;	  /* its 95% signed-rank interval */
	double adj_high;
	double adj_p;		    /* its signed-rank p */
	bool adj_valid;		    /* it was computed */
	bool adj_used;		    /* the verdict rests on it */
	enum stats_adj_why adj_why; /* why it was used or not */
	double mean_t_frac; /* the arm's analysed windows' mean time as a
			       fraction of the experiment (0.5 when the
			       randomisation spread the trend evenly) */
	double mean_load;   /* mean load of its analysed windows */
};

/* Everything the analysis found. */
struct sb_result {
	struct analysis an; /* the paired analysis, as compare's */
	unsigned nr_arms;
	struct sb_arm_result *arms; /* nr_arms */
	unsigned blocks;	    /* complete blocks analysed */
	unsigned dropped;	    /* analysed windows left out: an incomplete
				       block, a window cut short */
	double trend_rho;	    /* Spearman: log metric against time */
	double trend_p;
	bool trend;	      /* trend_p < alpha */
	bool load_known;      /* every analysed window has a load */
	bool carryover_warn;  /* no settle: switched windows analysed */
	unsigned suspect;     /* analysed windows marked suspect */
	unsigned nonpositive; /* measured windows with a metric <= 0 */
};

/*
 * Analyse w[nr] (in time order) for nr_arms arms. Only complete blocks
 * count: every arm once among the block's windows sb_window_used(). The arms'
 * values go to analysis_run() paired by block (labels[nr_arms] label them),
 * then each non-baseline arm gets its randomisation test (statistic: the mean
 * per-block log-ratio against the baseline; re-drawn: the assignment of the
 * block's arms to its windows, exact when the count of assignments is at most
 * exact_limit, else draws Monte Carlo re-drawings, p = (1 + hits) / (1 +
 * draws)), its covariate-adjusted ratio and its spread over time. 0, or -errno
 * with err set (-EINVAL: no complete block, a non-positive metric).
 */
int sb_analyze(struct sb_result *r, const struct sb_window *w, size_t nr,
	       unsigned nr_arms, const char *const *labels,
	       const struct sb_analysis_opts *o, struct strbuf *err);
void sb_result_release(struct sb_result *r);

/*
 * The blocks a verdict can need at the fewest for nr_arms arms (one
 * paired test per non-baseline arm, Holm-adjusted at alpha), as compare
 * plans them; 0 when none can reach it.
 */
unsigned sb_min_blocks(unsigned nr_arms, double alpha);

/* The covariates of an analysed window, as the analysis takes them:
 * "t_s" (its middle) and "log_load" (NaN unless load_covariate). */
#define SB_NR_COV 2
extern const char *const sb_cov_names[SB_NR_COV];
void sb_window_covariates(const struct sb_window *w, bool load_covariate,
			  double *out);

/*
 * Least squares: beta[p] minimising |y - X beta|^2 for X n x p (row
 * major), with the standard errors se[p] (residual variance on n - p
 * degrees of freedom, into *out_df). 0, or -EDOM when X'X is singular
 * or n <= p. Exposed for the tests.
 */
int sb_ols(const double *x, const double *y, size_t n, size_t p, double *beta,
	   double *se, double *out_df);

#endif
