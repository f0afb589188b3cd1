/*
 * Statistics for `iotrial compare`: pure functions on arrays of doubles,
 * no I/O, no globals, libm only.
 *
 * Per arm: the median with an exact order-statistic confidence interval,
 * min, max, mean, sd, CV. Arm against baseline: the Hodges-Lehmann shift
 * of log(metric) with its Moses interval (a ratio of medians once
 * exponentiated) and the Mann-Whitney U test; for blocked runs the
 * one-sample Hodges-Lehmann estimate of the per-block log-ratios with
 * the signed-rank interval, and the Wilcoxon signed-rank test. Holm across
 * arms, a verdict, outliers by modified z-score, a drift check, and the rule
 * that decides when an adaptive experiment has enough runs.
 *
 * Conventions: every confidence level is a fraction (0.95); every
 * p-value is two-sided; functions that can fail return 0 or a negative
 * errno (-EINVAL for empty or non-finite input, -EDOM for a logarithm of
 * a non-positive value) and never set errno for the caller. Methods and
 * where they match scipy 1.10 (the reference for tests/unit/
 * stats_vectors.h) are documented at each function.
 */
#ifndef IOTRIAL_STATS_H
#define IOTRIAL_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* How a p-value or an interval was obtained. */
enum stats_method {
	STATS_EXACT,  /* from the exact null distribution */
	STATS_NORMAL, /* normal approximation with tie correction */
};

/* One arm's summary (stats_summarize). */
struct stats_summary {
	size_t n;
	double median;	       /* mean of the two middle values for even n */
	double median_ci_low;  /* x(ci_low_rank), 1-based order statistic */
	double median_ci_high; /* x(ci_high_rank) */
	size_t ci_low_rank;
	size_t ci_high_rank; /* n + 1 - ci_low_rank */
	double ci_coverage;  /* achieved; below the level asked for only
				when n is too small to reach it (n < 6
				for 95%): then the CI is [min, max] */
	double min;
	double max;
	double mean;
	double sd; /* sample sd (n - 1 divisor); 0 when n = 1 */
	double cv; /* sd / mean; NaN when the mean is 0 */
};

/*
 * Hodges-Lehmann shift of y against x with its Moses interval
 * (stats_hodges_lehmann), or of log(y) against log(x) (stats_log_ratio),
 * where the ratio fields hold exp() of the shift fields.
 */
struct stats_shift {
	double shift;  /* median of all y_j - x_i */
	double ci_low; /* Moses interval on the shift */
	double ci_high;
	double coverage;   /* achieved (exact) or nominal (normal) level */
	double ratio;	   /* exp(shift): y's median over x's (log only) */
	double ratio_low;  /* exp(ci_low) */
	double ratio_high; /* exp(ci_high) */
	enum stats_method method;
};

/* A rank test's result (stats_mwu, stats_wilcoxon). */
struct stats_test {
	double statistic; /* MWU: U of the first sample (scipy's U1);
			     Wilcoxon: W+, the sum of positive ranks */
	double z;	  /* standardized statistic; 0 when exact */
	double p;	  /* two-sided */
	size_t n_used;	  /* Wilcoxon: differences left after zeros are
			     dropped; MWU: nx + ny */
	enum stats_method method;
};

/* --- Distributions --- */

/* Standard normal CDF and upper tail, accurate far into both tails. */
double stats_norm_cdf(double x);
double stats_norm_sf(double x);
/*
 * Inverse of stats_norm_cdf: -inf at 0, +inf at 1, NaN outside [0, 1].
 * Full double precision (a rational start refined by Halley steps).
 */
double stats_norm_quantile(double p);
/* P(B <= k) for B ~ Binomial(n, p); 0 for k < 0, 1 for k >= n. */
double stats_binom_cdf(long k, unsigned long n, double p);
/* Regularized incomplete beta I_x(a, b), a, b > 0, x in [0, 1]. */
double stats_betainc(double a, double b, double x);
/* P(T > t) for Student's t with df > 0 degrees of freedom. */
double stats_t_sf(double t, double df);
/*
 * Exact null CDF of the Mann-Whitney U for sample sizes m and n (no
 * ties): P(U <= u). Counts are kept in 64-bit integers, so m + n must
 * be at most 60; NaN otherwise.
 */
double stats_mwu_cdf(long u, unsigned m, unsigned n);
/* Exact null CDF of W+ for n untied nonzero differences (n <= 60). */
double stats_signrank_cdf(long w, unsigned n);

/* --- Per-arm description --- */

/* Median of x[n] (x is not modified); NaN when n is 0 or x holds NaN. */
double stats_median(const double *x, size_t n);
/* Arithmetic mean; NaN when n is 0. */
double stats_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1 divisor); 0 when n is 1, NaN at 0. */
double stats_sd(const double *x, size_t n);

/*
 * Fill out with the summary of x[n]. The median's interval is the pair of
 * order statistics [x(k), x(n + 1 - k)] with the largest k whose coverage
 * 1 - 2 P(B <= k - 1), B ~ Binomial(n, 1/2), is at least conf; exact and
 * distribution-free. Returns 0, or -EINVAL for n = 0, non-finite values
 * or conf outside (0, 1).
 */
int stats_summarize(const double *x, size_t n, double conf,
		    struct stats_summary *out);

/*
 * Midranks of x[n] into out_ranks[n] (1-based; ties share the mean of
 * their ranks). Returns 0 or -EINVAL (n = 0 or NaN in x).
 */
int stats_rank(const double *x, size_t n, double *out_ranks);

/* --- Two samples --- */

/*
 * Mann-Whitney U test of x[nx] against y[ny], two-sided, as scipy's
 * mannwhitneyu(x, y): statistic = U1 = #{x_i > y_j} + #{x_i = y_j} / 2.
 * Exact (no tie correction needed) when nx <= 20, ny <= 20 and there are
 * no ties at all; then p = 2 P(U >= max(U1, U2)), at most 1 (scipy's
 * method="exact"). Otherwise the normal approximation with the tie-
 * corrected variance and a 0.5 continuity correction, p = 2 P(Z >= z),
 * z = (max(U1, U2) - nx ny / 2 - 0.5) / sigma, at most 1 (scipy's
 * method="asymptotic", use_continuity=True). Returns 0 or -EINVAL.
 */
int stats_mwu(const double *x, size_t nx, const double *y, size_t ny,
	      struct stats_test *out);

/*
 * Hodges-Lehmann estimate of the shift of y against x: the median of the
 * nx * ny differences y_j - x_i, with the Moses distribution-free
 * interval [D(k + 1), D(nx ny - k)] over the sorted differences D, where
 * k is the largest count with P(U <= k) <= (1 - conf) / 2. That interval
 * is exactly the set of shifts the two-sided U test does not reject, so
 * it agrees with stats_mwu: it excludes 0 if and only if p <= 1 - conf
 * (when both use the same method).
 *
 * k comes from the exact U distribution when nx, ny <= 20 and neither
 * sample has ties within itself (ties across the samples only happen at
 * isolated shifts and do not matter to the interval); otherwise from the
 * normal approximation with the same continuity correction as stats_mwu,
 * k = floor(nx ny / 2 - 0.5 - z sigma), sigma tie-corrected for the
 * within-sample ties. When even k = 0 cannot reach conf (nx = ny = 3 at
 * 95%), the interval is [D(1), D(nx ny)] and coverage says what it is.
 * The ratio fields are left NaN. Returns 0 or -EINVAL.
 */
int stats_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny,
			 double conf, struct stats_shift *out);

/*
 * stats_hodges_lehmann on log(x) and log(y), plus the ratio fields:
 * ratio = exp(shift) estimates median(y) / median(x). Returns 0, -EINVAL,
 * or -EDOM when a value is not positive.
 */
int stats_log_ratio(const double *x, size_t nx, const double *y, size_t ny,
		    double conf, struct stats_shift *out);

/* --- Paired differences --- */

/*
 * Wilcoxon signed-rank test of the differences d[n] (per-block log-
 * ratios) against a symmetric distribution around 0, two-sided.
 * Zeros are dropped before ranking (Wilcoxon's method, scipy's default
 * zero_method="wilcox"); n_used counts what is left. Exact when n_used
 * <= 25 and there were no zeros and no ties among |d|: p = 2 min(P(W+ <=
 * w), P(W+ >= w)), at most 1 (scipy's method="exact"). Otherwise normal,
 * with the tie-corrected variance n(n+1)(2n+1)/24 - sum(t^3 - t)/48 and
 * no continuity correction (scipy's default correction=False). All
 * differences zero: p = 1 and n_used = 0 (scipy raises an error there).
 * Returns 0 or -EINVAL.
 */
int stats_wilcoxon(const double *d, size_t n, struct stats_test *out);

/*
 * The one-sample Hodges-Lehmann estimate of the centre of d[n] (per-block
 * log-ratios) with the confidence interval of the signed-rank test: the
 * estimate is the median of the n(n+1)/2 Walsh averages (d_i + d_j) / 2,
 * i <= j, and the interval is [W(k + 1), W(M - k)] over the sorted Walsh
 * averages W, M = n(n+1)/2, where k is the largest count with P(W+ <= k)
 * <= (1 - conf) / 2. Since W+ of d - t is the number of Walsh averages
 * above t, that interval is the set of centres t the two-sided signed-
 * rank test does not reject: exact and without zeros or ties, it
 * excludes 0 if and only if stats_wilcoxon() gives p <= 1 - conf.
 *
 * k comes from the exact W+ distribution when n <= 25 and no two
 * differences are equal (zeros do not matter: a shifted difference is
 * zero only at isolated centres); otherwise from the normal
 * approximation as stats_wilcoxon() uses it (tie-corrected variance, no
 * continuity correction), k = floor(M / 2 - z sigma). When even k = 0
 * cannot reach conf (n <= 5 at 95%), the interval is [W(1), W(M)], the
 * smallest and largest difference, and coverage says what it achieves
 * (1 - 2^(1-n): 0.9375 at n = 5, 0.875 at n = 4). The ratio fields are
 * left NaN. Returns 0 or -EINVAL (n = 0, non-finite values, conf outside
 * (0, 1)).
 */
int stats_signrank_shift(const double *d, size_t n, double conf,
			 struct stats_shift *out);

/* --- Several comparisons --- */

/*
 * Holm's step-down adjustment of p[n] into out_adj[n] (may be p itself):
 * sorted ascending, the i-th smallest (0-based) becomes
 * max over j <= i of min(1, (n - j) p(j)). Returns 0 or -EINVAL (a NaN
 * or a p outside [0, 1]).
 */
int stats_holm(const double *p, size_t n, double *out_adj);

/* --- Verdicts --- */

/* What a comparison of one arm against the baseline concludes. */
enum stats_verdict {
	STATS_NO_VERDICT, /* fewer than STATS_MIN_RUNS runs in an arm */
	STATS_FASTER,
	STATS_SLOWER,
	STATS_EQUIVALENT,
	STATS_INCONCLUSIVE,
};

#define STATS_MIN_RUNS 4

/* The evidence stats_verdict() weighs. */
struct stats_verdict_input {
	double ratio;  /* arm / baseline, from stats_log_ratio */
	double ci_low; /* its interval */
	double ci_high;
	double p_adjusted;     /* after Holm */
	double alpha;	       /* 0.05 */
	double margin;	       /* equivalence margin, 0.02 for +-2% */
	size_t n_arm;	       /* runs in the arm */
	size_t n_baseline;     /* runs in the baseline */
	bool higher_is_better; /* iops, mbps: true; latency: false */
};

/*
 * True when [ci_low, ci_high] lies inside [1 - margin, 1 + margin]: the
 * equivalence test (TOST) by the interval-inclusion rule. We take the
 * margin literally as +-margin on the ratio, which is what a user means
 * by "within 2%". With a 95% interval this is TOST at 2.5% per side,
 * slightly conservative against the textbook 90% interval.
 */
bool stats_equivalent(double ci_low, double ci_high, double margin);

/*
 * In order: no verdict when either arm has fewer than STATS_MIN_RUNS
 * runs; faster or slower when p_adjusted < alpha and the interval
 * excludes 1 (direction from the ratio and higher_is_better); equivalent
 * when stats_equivalent(); otherwise inconclusive. A difference that is
 * both significant and inside the margin is reported as faster/slower:
 * the ratio tells how small it is.
 */
enum stats_verdict stats_verdict(const struct stats_verdict_input *in);
/* "faster", "slower", "equivalent", "inconclusive" or "no verdict". */
const char *stats_verdict_name(enum stats_verdict v);

/* --- Data quality: reported, never used to drop runs --- */

/*
 * Iglewicz-Hoaglin modified z-scores M_i = 0.6745 (x_i - median) / MAD,
 * MAD the median absolute deviation from the median. When MAD is 0
 * (more than half the values equal), M_i = (x_i - median) / (1.253314
 * meanAD) with meanAD the mean absolute deviation from the median; when
 * that is 0 too, every M_i is 0. out_mz (may be NULL) gets n scores,
 * out_nr_outliers (may be NULL) the count with |M_i| > threshold (3.5).
 * Returns 0 or -EINVAL.
 */
int stats_modified_z(const double *x, size_t n, double threshold,
		     double *out_mz, size_t *out_nr_outliers);

/*
 * Spearman's rank correlation of x[n] and y[n] (Pearson on midranks)
 * with scipy's two-sided p from Student's t on n - 2 degrees of freedom.
 * |rho| = 1 gives p = 0. If either input is constant, rho = 0 and p = 1
 * (scipy returns NaN; "no evidence" is what a drift report needs).
 * Returns 0 or -EINVAL (n < 3, non-finite values).
 */
int stats_spearman(const double *x, const double *y, size_t n, double *out_rho,
		   double *out_p);

/* A drift check's result. */
struct stats_drift {
	double rho;    /* Spearman's rho of value against block index */
	double p;      /* two-sided */
	bool drifting; /* p < alpha */
};

/*
 * Did an arm's metric trend over the experiment (a warming cache, a
 * filling SSD)? Spearman's rho of values[i] against block[i] (NULL for
 * 0, 1, 2, ...), significant when p < alpha. Returns 0 or -EINVAL.
 */
int stats_drift(const double *values, const double *block, size_t n,
		double alpha, struct stats_drift *out);

/* --- Adaptive run counts --- */

/* Why stats_should_stop() decided what it did. */
enum stats_stop_reason {
	STATS_CONTINUE_MIN_BLOCKS, /* fewer than min_blocks complete */
	STATS_CONTINUE_PRECISION,  /* some interval still too wide */
	STATS_STOP_PRECISION,	   /* every interval narrow enough */
	STATS_STOP_MAX_RUNS,	   /* the run limit is reached */
	STATS_STOP_BUDGET,	   /* the time budget is spent */
};

/* What the experiment loop knows after each complete block. */
struct stats_stop_input {
	unsigned blocks_done; /* complete blocks = runs per arm */
	unsigned min_blocks;  /* 6 */
	unsigned max_runs;    /* per arm; 0 for no limit */
	double precision;     /* 0.02 */
	const double *ci_low; /* ratio intervals, one per compared arm */
	const double *ci_high;
	size_t nr_arms;
	double elapsed_s; /* time spent so far */
	double budget_s;  /* 0 for no budget */
};

/* The decision and the widest interval behind it. */
struct stats_stop_decision {
	bool stop;
	enum stats_stop_reason reason;
	double worst_halfwidth; /* widest relative half-width (0.031 is
				   +-3.1%); +inf if an interval is missing */
	size_t worst_arm;	/* its index */
};

/*
 * Decide whether to run another block. The limits (max_runs, budget)
 * stop the experiment first; then fewer than min_blocks continue; then
 * it stops when every arm's relative half-width, (ci_high - ci_low) /
 * (ci_high + ci_low), the half-width over the interval's midpoint (so
 * [0.98, 1.02] is 0.02), is at most precision. Only precision, never
 * significance, stops early: stopping when p first dips under alpha
 * would inflate the false-positive rate. A non-finite or non-positive
 * bound counts as infinitely wide. With no arms, precision is met.
 * Returns 0 or -EINVAL (NULL intervals with nr_arms > 0).
 */
int stats_should_stop(const struct stats_stop_input *in,
		      struct stats_stop_decision *out);
/* A short phrase for the reason: "precision reached", "max runs", ... */
const char *stats_stop_reason_name(enum stats_stop_reason r);

/*
 * The fewest blocks with which a paired comparison can be significant:
 * the smallest n for which the exact two-sided signed-rank p of n
 * differences all of one sign (2 P(W+ <= 0) = 2 / 2^n), Holm-adjusted
 * for nr_tests comparisons (times nr_tests), is below alpha. 6 for one
 * test at 0.05 (p 0.03125; 5 blocks give at best 0.0625). 0 when alpha
 * is not in (0, 1), nr_tests is 0 or more than 60 blocks would be
 * needed.
 */
unsigned stats_signrank_min_blocks(double alpha, size_t nr_tests);

/* --- Everything for one arm against the baseline --- */

/* stats_compare()'s result. */
struct stats_comparison {
	struct stats_shift shift;   /* log ratio arm / baseline: paired,
				       stats_signrank_shift() of the per-
				       block log-ratios; else the Moses CI
				       of stats_log_ratio() */
	struct stats_test mwu;	    /* baseline (x) against arm (y) */
	struct stats_test wilcoxon; /* on log(arm_i / base_i); paired only */
	bool paired;
	double p; /* Wilcoxon's when paired, else MWU's:
		     feed it to stats_holm() */
};

/*
 * Compare arm[na] against base[nb] at confidence conf. Unpaired: the
 * ratio is stats_log_ratio() (two-sample Hodges-Lehmann on the logs,
 * Moses interval) and p is Mann-Whitney's. When paired, na == nb and
 * base[i], arm[i] come from the same block i; the ratio, its interval
 * and p then all come from the per-block log-ratios log(arm[i]) -
 * log(base[i]) (blocks remove the between-block drift the unpaired
 * analysis would count as noise): the ratio is exp() of
 * stats_signrank_shift(), the median of the per-block ratios' Walsh
 * averages, and p is stats_wilcoxon()'s, so the interval and the test
 * agree. Returns 0, -EINVAL or -EDOM (non-positive values).
 */
int stats_compare(const double *base, size_t nb, const double *arm, size_t na,
		  bool paired, double conf, struct stats_comparison *out);

#endif
