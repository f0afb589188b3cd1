/*
 * Tests for core/stats/stats.c. Two kinds:
 *  - reference values: every statistic against scipy 1.10, through the
 *    vectors in stats_vectors.h (written by gen_stats_vectors.py);
 *  - simulations with a fixed seed: the false-positive rate of the
 *    verdict in A/A experiments and its power against a 5% shift, which
 *    is what the user of `iotrial compare` actually relies on.
 * A local splitmix64 keeps the simulations independent of util/rng.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/stats/stats.h"
#include "stats_vectors.h"
#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* Same method as scipy: agreement to rounding. */
#define TIGHT	       1e-9
#define NR_EXPERIMENTS 2000

/* Fail with both numbers unless got is within rel (relative) of want. */
static void check_close(const char *what, const char *name, double got,
			double want, double rel)
{
	double tol = rel * fabs(want);

	if (isnan(want) && isnan(got))
		return;
	if (isinf(want) && got == want)
		return;
	if (tol < 1e-300)
		tol = 1e-300;
	if (!(fabs(got - want) <= tol))
		fail_msg("%s %s: got %.17g want %.17g (rel %.3g)", name, what,
			 got, want, fabs(got - want) / fabs(want));
}

/* --- scipy reference values --- */

/* Median, its order-statistic CI and coverage, min, max, mean, sd, CV. */
static void test_summaries(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(sv_summaries); i++) {
		const struct sv_summary *v = &sv_summaries[i];
		struct stats_summary s;

		assert_int_equal(stats_summarize(v->x, v->n, 0.95, &s), 0);
		assert_int_equal(s.n, v->n);
		check_close("median", v->name, s.median, v->median, 1e-15);
		check_close("median", v->name, stats_median(v->x, v->n),
			    v->median, 1e-15);
		assert_int_equal(s.ci_low_rank, v->lo_rank);
		assert_int_equal(s.ci_high_rank, v->hi_rank);
		check_close("ci_low", v->name, s.median_ci_low, v->ci_low, 0);
		check_close("ci_high", v->name, s.median_ci_high, v->ci_high,
			    0);
		check_close("coverage", v->name, s.ci_coverage, v->coverage,
			    TIGHT);
		check_close("min", v->name, s.min, v->min, 0);
		check_close("max", v->name, s.max, v->max, 0);
		check_close("mean", v->name, s.mean, v->mean, 1e-13);
		check_close("sd", v->name, s.sd, v->sd, 1e-12);
		check_close("cv", v->name, s.cv, v->cv, 1e-12);
		/* n >= 6 reaches 95%, smaller samples say they do not. */
		if (v->n >= 6)
			assert_true(s.ci_coverage >= 0.95);
		else
			assert_true(s.ci_coverage < 0.95);
	}
}

/* Mann-Whitney U and p, exact and asymptotic, against mannwhitneyu. */
static void test_mwu(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(sv_twos); i++) {
		const struct sv_two *v = &sv_twos[i];
		struct stats_test t;

		assert_int_equal(stats_mwu(v->x, v->nx, v->y, v->ny, &t), 0);
		check_close("U1", v->name, t.statistic, v->u1, 0);
		check_close("p", v->name, t.p, v->p, TIGHT);
		assert_int_equal(t.method == STATS_EXACT, v->mwu_exact);
		assert_int_equal(t.n_used, v->nx + v->ny);
	}
}

/* Hodges-Lehmann shift and Moses CI, raw and on logs. */
static void test_hodges_lehmann(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(sv_twos); i++) {
		const struct sv_two *v = &sv_twos[i];
		struct stats_shift s, r;

		assert_int_equal(
		    stats_hodges_lehmann(v->x, v->nx, v->y, v->ny, 0.95, &s),
		    0);
		check_close("shift", v->name, s.shift, v->shift, 1e-15);
		check_close("ci_low", v->name, s.ci_low, v->ci_low, 0);
		check_close("ci_high", v->name, s.ci_high, v->ci_high, 0);
		assert_int_equal(s.method == STATS_EXACT, v->ci_exact);
		if (v->ci_exact)
			check_close("coverage", v->name, s.coverage, v->hl_cov,
				    TIGHT);
		assert_true(isnan(s.ratio));

		assert_int_equal(
		    stats_log_ratio(v->x, v->nx, v->y, v->ny, 0.95, &r), 0);
		check_close("ratio", v->name, r.ratio, v->ratio, 1e-12);
		check_close("ratio_low", v->name, r.ratio_low, v->ratio_low,
			    1e-12);
		check_close("ratio_high", v->name, r.ratio_high, v->ratio_high,
			    1e-12);
		check_close("log shift", v->name, exp(r.shift), r.ratio, 0);
		assert_true(r.ratio_low <= r.ratio && r.ratio <= r.ratio_high);
	}
}

/* Wilcoxon signed-rank: W+, scipy's min statistic, p, zeros dropped. */
static void test_wilcoxon(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(sv_wilcoxons); i++) {
		const struct sv_wilcoxon *v = &sv_wilcoxons[i];
		struct stats_test t;
		double total, wminus;

		assert_int_equal(stats_wilcoxon(v->d, v->n, &t), 0);
		assert_int_equal(t.n_used, v->n_used);
		assert_int_equal(t.method == STATS_EXACT, v->exact);
		check_close("W+", v->name, t.statistic, v->wplus, 0);
		total = (double)t.n_used * (t.n_used + 1) / 2.0;
		wminus = total - t.statistic;
		check_close("T", v->name, fmin(t.statistic, wminus), v->tmin,
			    0);
		check_close("p", v->name, t.p, v->p, TIGHT);
	}
}

/* One-sample Hodges-Lehmann and the signed-rank interval, by inversion. */
static void test_signrank_shift(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(sv_signrank_shifts); i++) {
		const struct sv_signrank_shift *v = &sv_signrank_shifts[i];
		struct stats_shift s;

		assert_int_equal(stats_signrank_shift(v->d, v->n, 0.95, &s), 0);
		check_close("shift", v->name, s.shift, v->shift, 1e-15);
		/* equal Walsh averages from different pairs can differ in
		 * the last bit: which one is W(k + 1) is not defined */
		check_close("ci_low", v->name, s.ci_low, v->ci_low, 1e-15);
		check_close("ci_high", v->name, s.ci_high, v->ci_high, 1e-15);
		assert_int_equal(s.method == STATS_EXACT, v->exact);
		if (v->exact)
			check_close("coverage", v->name, s.coverage, v->cov,
				    TIGHT);
		assert_true(isnan(s.ratio));
		assert_true(s.ci_low <= s.shift && s.shift <= s.ci_high);
	}
}

/* Holm, also computed in place. */
static void test_holm(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < NELEM(sv_holms); i++) {
		const struct sv_holm *v = &sv_holms[i];
		double adj[16], inplace[16];

		assert_true(v->n <= NELEM(adj));
		assert_int_equal(stats_holm(v->p, v->n, adj), 0);
		memcpy(inplace, v->p, v->n * sizeof(*inplace));
		assert_int_equal(stats_holm(inplace, v->n, inplace), 0);
		for (j = 0; j < v->n; j++) {
			check_close("adj", v->name, adj[j], v->adj[j], 1e-15);
			check_close("inplace", v->name, inplace[j], v->adj[j],
				    1e-15);
		}
	}
	assert_int_equal(stats_holm(NULL, 0, NULL), 0);
}

/* Spearman's rho and p against scipy.stats.spearmanr. */
static void test_spearman(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(sv_spearmans); i++) {
		const struct sv_spearman *v = &sv_spearmans[i];
		double rho, p;

		assert_int_equal(stats_spearman(v->x, v->y, v->n, &rho, &p), 0);
		check_close("rho", v->name, rho, v->rho, 1e-12);
		check_close("p", v->name, p, v->p, TIGHT);
	}
}

/* Modified z-scores and the outlier count. */
static void test_modified_z(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < NELEM(sv_modzs); i++) {
		const struct sv_modz *v = &sv_modzs[i];
		double mz[32];
		size_t nr = 99;

		assert_true(v->n <= NELEM(mz));
		assert_int_equal(stats_modified_z(v->x, v->n, 3.5, mz, &nr), 0);
		assert_int_equal(nr, v->nr_outliers);
		for (j = 0; j < v->n; j++) {
			if (v->mz[j] == 0.0)
				assert_true(fabs(mz[j]) < 1e-12);
			else
				check_close("mz", v->name, mz[j], v->mz[j],
					    1e-12);
		}
		/* NULL outputs are allowed. */
		assert_int_equal(stats_modified_z(v->x, v->n, 3.5, NULL, NULL),
				 0);
	}
}

/* Normal, binomial, t, incomplete beta and the exact null CDFs. */
static void test_distributions(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(sv_norm); i++) {
		check_close("cdf", "norm", stats_norm_cdf(sv_norm[i][0]),
			    sv_norm[i][1], TIGHT);
		check_close("sf", "norm", stats_norm_sf(sv_norm[i][0]),
			    sv_norm[i][2], TIGHT);
	}
	for (i = 0; i < NELEM(sv_normq); i++)
		check_close("quantile", "norm",
			    stats_norm_quantile(sv_normq[i][0]), sv_normq[i][1],
			    TIGHT);
	assert_true(stats_norm_quantile(0.0) == -INFINITY);
	assert_true(stats_norm_quantile(1.0) == INFINITY);
	assert_true(isnan(stats_norm_quantile(1.5)));
	assert_true(isnan(stats_norm_quantile(NAN)));
	check_close("quantile", "0.5", stats_norm_quantile(0.5) + 1.0, 1.0,
		    1e-15);

	for (i = 0; i < NELEM(sv_binom); i++)
		check_close("cdf", "binom",
			    stats_binom_cdf((long)sv_binom[i][0],
					    (unsigned long)sv_binom[i][1],
					    sv_binom[i][2]),
			    sv_binom[i][3], TIGHT);
	assert_true(stats_binom_cdf(-1, 10, 0.5) == 0.0);
	assert_true(stats_binom_cdf(10, 10, 0.5) == 1.0);

	for (i = 0; i < NELEM(sv_t); i++)
		check_close("sf", "t", stats_t_sf(sv_t[i][0], sv_t[i][1]),
			    sv_t[i][2], TIGHT);
	for (i = 0; i < NELEM(sv_betainc); i++)
		check_close("I", "betainc",
			    stats_betainc(sv_betainc[i][0], sv_betainc[i][1],
					  sv_betainc[i][2]),
			    sv_betainc[i][3], TIGHT);
	assert_true(isnan(stats_betainc(-1.0, 1.0, 0.5)));

	for (i = 0; i < NELEM(sv_mwu_cdf); i++)
		check_close("cdf", "mwu",
			    stats_mwu_cdf((long)sv_mwu_cdf[i][0],
					  (unsigned)sv_mwu_cdf[i][1],
					  (unsigned)sv_mwu_cdf[i][2]),
			    sv_mwu_cdf[i][3], 1e-12);
	assert_true(stats_mwu_cdf(-1, 5, 5) == 0.0);
	assert_true(stats_mwu_cdf(25, 5, 5) == 1.0);
	assert_true(isnan(stats_mwu_cdf(3, 40, 40)));
	for (i = 0; i < NELEM(sv_signrank_cdf); i++)
		check_close("cdf", "signrank",
			    stats_signrank_cdf((long)sv_signrank_cdf[i][0],
					       (unsigned)sv_signrank_cdf[i][1]),
			    sv_signrank_cdf[i][2], 1e-12);
}

/* --- contracts that need no reference --- */

/* Bad input is an error, never a silent number. */
static void test_bad_input(void **state)
{
	const double ok[] = {1.0, 2.0, 3.0, 4.0};
	const double nan_in[] = {1.0, NAN, 3.0};
	const double nonpos[] = {1.0, 0.0, 3.0, 4.0};
	struct stats_summary s;
	struct stats_shift sh;
	struct stats_test t;
	struct stats_drift dr;
	struct stats_comparison c;
	double rho, p, adj[2] = {0.5, 1.5};

	(void)state;
	assert_int_equal(stats_summarize(ok, 0, 0.95, &s), -EINVAL);
	assert_int_equal(stats_summarize(nan_in, 3, 0.95, &s), -EINVAL);
	assert_int_equal(stats_summarize(ok, 4, 1.0, &s), -EINVAL);
	assert_int_equal(stats_mwu(ok, 0, ok, 4, &t), -EINVAL);
	assert_int_equal(stats_mwu(ok, 4, nan_in, 3, &t), -EINVAL);
	assert_int_equal(stats_hodges_lehmann(ok, 4, ok, 0, 0.95, &sh),
			 -EINVAL);
	assert_int_equal(stats_hodges_lehmann(ok, 4, ok, 4, 0.0, &sh), -EINVAL);
	assert_int_equal(stats_log_ratio(ok, 4, nonpos, 4, 0.95, &sh), -EDOM);
	assert_int_equal(stats_log_ratio(nonpos, 4, ok, 4, 0.95, &sh), -EDOM);
	assert_int_equal(stats_wilcoxon(ok, 0, &t), -EINVAL);
	assert_int_equal(stats_wilcoxon(nan_in, 3, &t), -EINVAL);
	assert_int_equal(stats_holm(adj, 2, adj), -EINVAL);
	assert_int_equal(stats_spearman(ok, ok, 2, &rho, &p), -EINVAL);
	assert_int_equal(stats_drift(nan_in, NULL, 3, 0.05, &dr), -EINVAL);
	assert_int_equal(stats_modified_z(ok, 0, 3.5, NULL, NULL), -EINVAL);
	assert_int_equal(stats_rank(nan_in, 3, adj), -EINVAL);
	assert_int_equal(stats_compare(ok, 4, ok, 3, true, 0.95, &c), -EINVAL);
	assert_int_equal(stats_compare(ok, 4, nonpos, 4, false, 0.95, &c),
			 -EDOM);
	assert_int_equal(stats_compare(ok, 4, nonpos, 4, true, 0.95, &c),
			 -EDOM);
	assert_int_equal(stats_signrank_shift(ok, 0, 0.95, &sh), -EINVAL);
	assert_int_equal(stats_signrank_shift(nan_in, 3, 0.95, &sh), -EINVAL);
	assert_int_equal(stats_signrank_shift(ok, 4, 1.0, &sh), -EINVAL);
	assert_true(isnan(stats_median(ok, 0)));
	assert_true(isnan(stats_median(nan_in, 3)));
	assert_true(isnan(stats_mean(ok, 0)));
	assert_true(isnan(stats_sd(ok, 0)));
	assert_true(stats_sd(ok, 1) == 0.0);
}

/* Documented departures from scipy and other corner cases. */
static void test_corner_cases(void **state)
{
	const double zeros[] = {0.0, 0.0, 0.0};
	const double flat[] = {5.0, 5.0, 5.0, 5.0};
	const double up[] = {1.0, 2.0, 3.0, 4.0};
	const double down[] = {9.0, 7.0, 4.0, 1.0};
	const double tied[] = {1.0, 2.0, 2.0, 3.0};
	const double x3[] = {1.0, 2.0, 3.0}, y3[] = {4.0, 5.0, 6.0};
	struct stats_test t;
	struct stats_shift sh;
	struct stats_drift dr;
	double rho, p, r[4];

	(void)state;
	/* All differences zero: p = 1 (scipy raises). */
	assert_int_equal(stats_wilcoxon(zeros, 3, &t), 0);
	assert_int_equal(t.n_used, 0);
	assert_true(t.p == 1.0);
	/* A constant input: rho 0, p 1 (scipy gives NaN). */
	assert_int_equal(stats_spearman(up, flat, 4, &rho, &p), 0);
	assert_true(rho == 0.0 && p == 1.0);
	/* Perfect monotone relation: p = 0. */
	assert_int_equal(stats_spearman(up, down, 4, &rho, &p), 0);
	assert_true(rho == -1.0 && p == 0.0);
	assert_int_equal(stats_drift(down, NULL, 4, 0.05, &dr), 0);
	assert_true(dr.drifting && dr.rho == -1.0);
	assert_int_equal(stats_drift(flat, up, 4, 0.05, &dr), 0);
	assert_false(dr.drifting);
	/* Every value tied across samples: MWU p = 1. */
	assert_int_equal(stats_mwu(flat, 4, flat, 4, &t), 0);
	assert_true(t.p == 1.0 && t.method == STATS_NORMAL);
	/* Midranks. */
	assert_int_equal(stats_rank(tied, 4, r), 0);
	assert_true(r[0] == 1.0 && r[1] == 2.5 && r[2] == 2.5 && r[3] == 4.0);
	/* 3 against 3 cannot reach 95%: widest interval, honest coverage. */
	assert_int_equal(stats_hodges_lehmann(x3, 3, y3, 3, 0.95, &sh), 0);
	assert_true(sh.ci_low == 1.0 && sh.ci_high == 5.0 && sh.shift == 3.0);
	check_close("coverage", "3x3", sh.coverage, 0.9, 1e-15);
	/* 4 pairs cannot reach 95% either: the whole range of the
	 * differences, covering 1 - 2/16; it excludes 0 while the test's
	 * smallest p is 0.125, so the verdict (which needs both) waits */
	assert_int_equal(stats_signrank_shift(up, 4, 0.95, &sh), 0);
	assert_true(sh.ci_low == 1.0 && sh.ci_high == 4.0 && sh.shift == 2.5);
	check_close("coverage", "4 pairs", sh.coverage, 0.875, 1e-15);
	assert_int_equal(stats_wilcoxon(up, 4, &t), 0);
	check_close("p", "4 pairs", t.p, 0.125, 1e-15);
	assert_true(
	    strcmp(stats_verdict_name(STATS_EQUIVALENT), "equivalent") == 0);
	assert_true(
	    strcmp(stats_verdict_name(STATS_NO_VERDICT), "no verdict") == 0);
	assert_true(strcmp(stats_stop_reason_name(STATS_STOP_PRECISION),
			   "precision reached") == 0);
}

/* The verdict rules, in the order stats_verdict() applies them. */
static void test_verdict(void **state)
{
	struct stats_verdict_input in = {
	    .ratio = 1.05,
	    .ci_low = 1.03,
	    .ci_high = 1.07,
	    .p_adjusted = 0.001,
	    .alpha = 0.05,
	    .margin = 0.02,
	    .n_arm = 10,
	    .n_baseline = 10,
	    .higher_is_better = true,
	};

	(void)state;
	assert_int_equal(stats_verdict(&in), STATS_FASTER);
	in.higher_is_better = false; /* a latency that grew */
	assert_int_equal(stats_verdict(&in), STATS_SLOWER);
	in.ratio = 0.95, in.ci_low = 0.93, in.ci_high = 0.97;
	assert_int_equal(stats_verdict(&in), STATS_FASTER);
	in.higher_is_better = true;
	assert_int_equal(stats_verdict(&in), STATS_SLOWER);
	/* Significant p but an interval touching 1: not a direction. */
	in.ci_high = 1.001;
	assert_int_equal(stats_verdict(&in), STATS_INCONCLUSIVE);
	/* Not significant, interval inside +-2%. */
	in.ratio = 1.0, in.ci_low = 0.985, in.ci_high = 1.015;
	in.p_adjusted = 0.6;
	assert_int_equal(stats_verdict(&in), STATS_EQUIVALENT);
	in.ci_low = 0.98, in.ci_high = 1.02; /* the margin is inclusive */
	assert_int_equal(stats_verdict(&in), STATS_EQUIVALENT);
	in.ci_high = 1.021;
	assert_int_equal(stats_verdict(&in), STATS_INCONCLUSIVE);
	/* Significant and tiny: the direction wins. */
	in.ratio = 1.01, in.ci_low = 1.005, in.ci_high = 1.015;
	in.p_adjusted = 0.01;
	assert_int_equal(stats_verdict(&in), STATS_FASTER);
	/* p at alpha is not significant. */
	in.p_adjusted = 0.05;
	assert_int_equal(stats_verdict(&in), STATS_EQUIVALENT);
	/* Fewer than 4 runs in either arm: no verdict at all. */
	in.p_adjusted = 0.001, in.n_arm = 3;
	assert_int_equal(stats_verdict(&in), STATS_NO_VERDICT);
	in.n_arm = 4, in.n_baseline = 3;
	assert_int_equal(stats_verdict(&in), STATS_NO_VERDICT);
	in.n_baseline = 4;
	assert_int_equal(stats_verdict(&in), STATS_FASTER);
	assert_true(stats_equivalent(0.98, 1.02, 0.02));
	assert_false(stats_equivalent(0.979, 1.0, 0.02));
	assert_false(stats_equivalent(NAN, 1.0, 0.02));
}

/* Limits first, then the minimum, then precision; never significance. */
static void test_should_stop(void **state)
{
	double lo[2] = {0.98, 1.02}, hi[2] = {1.01, 1.05};
	struct stats_stop_input in = {
	    .blocks_done = 3,
	    .min_blocks = 6,
	    .max_runs = 30,
	    .precision = 0.02,
	    .ci_low = lo,
	    .ci_high = hi,
	    .nr_arms = 2,
	};
	struct stats_stop_decision d;

	(void)state;
	assert_int_equal(stats_should_stop(&in, &d), 0);
	assert_false(d.stop);
	assert_int_equal(d.reason, STATS_CONTINUE_MIN_BLOCKS);
	/* Both intervals are within 2% already, but 6 blocks come first. */
	in.blocks_done = 6;
	assert_int_equal(stats_should_stop(&in, &d), 0);
	assert_true(d.stop);
	assert_int_equal(d.reason, STATS_STOP_PRECISION);
	check_close("hw", "stop", d.worst_halfwidth, 0.03 / 1.99, 1e-12);
	assert_int_equal(d.worst_arm, 0);
	/* One wide interval keeps it going; the other is irrelevant. */
	lo[1] = 1.00, hi[1] = 1.08;
	assert_int_equal(stats_should_stop(&in, &d), 0);
	assert_false(d.stop);
	assert_int_equal(d.reason, STATS_CONTINUE_PRECISION);
	assert_int_equal(d.worst_arm, 1);
	/* A missing interval is infinitely wide. */
	lo[1] = NAN;
	assert_int_equal(stats_should_stop(&in, &d), 0);
	assert_false(d.stop);
	assert_true(isinf(d.worst_halfwidth));
	/* Limits stop regardless, even before the minimum. */
	in.blocks_done = 30;
	assert_int_equal(stats_should_stop(&in, &d), 0);
	assert_true(d.stop);
	assert_int_equal(d.reason, STATS_STOP_MAX_RUNS);
	in.blocks_done = 2, in.budget_s = 60.0, in.elapsed_s = 61.0;
	assert_int_equal(stats_should_stop(&in, &d), 0);
	assert_true(d.stop);
	assert_int_equal(d.reason, STATS_STOP_BUDGET);
	/* No arms: precision is trivially met after the minimum. */
	in.nr_arms = 0, in.budget_s = 0, in.blocks_done = 6;
	assert_int_equal(stats_should_stop(&in, &d), 0);
	assert_true(d.stop);
	assert_int_equal(d.reason, STATS_STOP_PRECISION);
	in.nr_arms = 1, in.ci_low = NULL;
	assert_int_equal(stats_should_stop(&in, &d), -EINVAL);
}

/* --- simulations --- */

/* Fixed-seed generator for the simulations. */
struct sm64 {
	uint64_t state;
};

/* The next 64 random bits (splitmix64). */
static uint64_t sm64_next(struct sm64 *g)
{
	uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static double sm64_open01(struct sm64 *g)
{
	return ((double)(sm64_next(g) >> 11) + 0.5) * 0x1.0p-53;
}

/* Standard normal (Box-Muller). */
static double sm64_normal(struct sm64 *g)
{
	double u1 = sm64_open01(g), u2 = sm64_open01(g);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* n log-normal values with the given median and coefficient of variation. */
static void lognormal(struct sm64 *g, double median, double cv, double *out,
		      size_t n)
{
	double sigma = sqrt(log1p(cv * cv));
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = median * exp(sigma * sm64_normal(g));
}

/* The verdict for one simulated unpaired experiment of n runs per arm. */
static enum stats_verdict simulate(struct sm64 *g, double shift, size_t n,
				   struct stats_comparison *c)
{
	double base[64], arm[64];
	struct stats_verdict_input in = {
	    .alpha = 0.05,
	    .margin = 0.02,
	    .higher_is_better = true,
	};

	assert_true(n <= NELEM(base));
	lognormal(g, 5e4, 0.03, base, n);
	lognormal(g, 5e4 * shift, 0.03, arm, n);
	assert_int_equal(stats_compare(base, n, arm, n, false, 0.95, c), 0);
	in.ratio = c->shift.ratio;
	in.ci_low = c->shift.ratio_low;
	in.ci_high = c->shift.ratio_high;
	in.p_adjusted = c->p; /* one arm: Holm leaves it as it is */
	in.n_arm = in.n_baseline = n;
	return stats_verdict(&in);
}

/*
 * The Moses interval is the U test inverted: on untied small samples it
 * excludes 1 exactly when the exact p is at most alpha.
 */
static void test_moses_mwu_duality(void **state)
{
	struct sm64 g = {7};
	int i;

	(void)state;
	for (i = 0; i < 500; i++) {
		struct stats_comparison c;
		size_t n = 4 + sm64_next(&g) % 12;
		bool excludes;

		simulate(&g, 1.0 + 0.01 * (double)(i % 5), n, &c);
		assert_int_equal(c.mwu.method, STATS_EXACT);
		assert_int_equal(c.shift.method, STATS_EXACT);
		excludes = c.shift.ratio_low > 1.0 || c.shift.ratio_high < 1.0;
		assert_int_equal(excludes, c.mwu.p <= 0.05);
	}
}

/*
 * Paired, the ratio and its interval come from the per-block log-ratios:
 * the interval is the signed-rank test inverted, so on untied small
 * samples it excludes 1 exactly when the exact p is at most alpha, and
 * the ratio is the one-sample estimate, not the two-sample one. (Below
 * 6 pairs the interval is the whole range of the differences and can
 * exclude 1 while p cannot reach 0.05: test_corner_cases.)
 */
static void test_paired_estimate(void **state)
{
	struct sm64 g = {11};
	int i;

	(void)state;
	for (i = 0; i < 500; i++) {
		double base[25], arm[25], d[25], block;
		struct stats_comparison c;
		struct stats_shift one, two;
		size_t j, n = 6 + sm64_next(&g) % 20;
		bool excludes;

		for (j = 0; j < n; j++) {
			block = exp(0.2 * sm64_normal(&g));
			lognormal(&g, 5e4 * block, 0.03, &base[j], 1);
			lognormal(&g, 5e4 * block * (1.0 + 0.01 * (i % 5)),
				  0.03, &arm[j], 1);
			d[j] = log(arm[j]) - log(base[j]);
		}
		assert_int_equal(stats_compare(base, n, arm, n, true, 0.95, &c),
				 0);
		assert_true(c.paired);
		assert_int_equal(c.wilcoxon.method, STATS_EXACT);
		assert_int_equal(c.shift.method, STATS_EXACT);
		excludes = c.shift.ratio_low > 1.0 || c.shift.ratio_high < 1.0;
		assert_int_equal(excludes, c.p <= 0.05);
		assert_true(c.p == c.wilcoxon.p);
		assert_int_equal(stats_signrank_shift(d, n, 0.95, &one), 0);
		check_close("paired ratio", "sim", c.shift.ratio,
			    exp(one.shift), 1e-15);
		check_close("paired low", "sim", c.shift.ratio_low,
			    exp(one.ci_low), 1e-15);
		check_close("paired high", "sim", c.shift.ratio_high,
			    exp(one.ci_high), 1e-15);
		if (i == 0) {
			/* the unpaired estimate is another number */
			assert_int_equal(
			    stats_log_ratio(base, n, arm, n, 0.95, &two), 0);
			assert_true(two.ratio != c.shift.ratio ||
				    two.ratio_low != c.shift.ratio_low);
		}
	}
}

/*
 * 2,000 A/A experiments, 10 runs per arm, CV 3%: the verdict says faster
 * or slower in 5% +- 2% of them. With 10 and 10 untied runs the exact
 * test rejects when U <= 23, an achieved size of 0.0433 rather than
 * 0.05, so the rate is also checked against that (4 binomial sds).
 */
static void test_sim_aa_false_positives(void **state)
{
	struct sm64 g = {20240611};
	unsigned positives = 0, equivalent = 0;
	double rate, size = 0.0, sd;
	long u;
	int i;

	(void)state;
	for (u = 0; stats_mwu_cdf(u, 10, 10) <= 0.025; u++)
		size = 2.0 * stats_mwu_cdf(u, 10, 10);
	for (i = 0; i < NR_EXPERIMENTS; i++) {
		struct stats_comparison c;
		enum stats_verdict v = simulate(&g, 1.0, 10, &c);

		if (v == STATS_FASTER || v == STATS_SLOWER)
			positives++;
		if (v == STATS_EQUIVALENT)
			equivalent++;
	}
	rate = (double)positives / NR_EXPERIMENTS;
	sd = sqrt(size * (1.0 - size) / NR_EXPERIMENTS);
	print_message("A/A: false-positive rate %.4f (achieved size %.4f), "
		      "equivalent %.4f\n",
		      rate, size, (double)equivalent / NR_EXPERIMENTS);
	assert_true(rate >= 0.03 && rate <= 0.07);
	assert_true(fabs(rate - size) <= 4.0 * sd);
}

/* A 5% improvement at CV 3%, 10 runs per arm: found in >= 80%. */
static void test_sim_power(void **state)
{
	struct sm64 g = {424242};
	unsigned right = 0, wrong = 0;
	int i;

	(void)state;
	for (i = 0; i < NR_EXPERIMENTS; i++) {
		struct stats_comparison c;
		enum stats_verdict v = simulate(&g, 1.05, 10, &c);

		if (v == STATS_FASTER)
			right++;
		else if (v == STATS_SLOWER)
			wrong++;
	}
	print_message("5%% shift: detected %.4f, wrong sign %.4f\n",
		      (double)right / NR_EXPERIMENTS,
		      (double)wrong / NR_EXPERIMENTS);
	assert_true(right >= 0.80 * NR_EXPERIMENTS);
	assert_true(wrong <= 0.005 * NR_EXPERIMENTS);
}

/*
 * Blocked A/A: the Wilcoxon test on 10 per-block log-ratios rejects at
 * its exact size (W+ <= 8 or >= 47: 0.0488), within 5% +- 2%.
 */
static void test_sim_paired_aa(void **state)
{
	struct sm64 g = {99};
	unsigned positives = 0;
	double rate;
	int i;

	(void)state;
	for (i = 0; i < NR_EXPERIMENTS; i++) {
		double base[10], arm[10], block;
		struct stats_comparison c;
		size_t j;

		for (j = 0; j < 10; j++) {
			/* a block effect both arms share, then noise */
			block = exp(0.1 * sm64_normal(&g));
			lognormal(&g, 5e4 * block, 0.03, &base[j], 1);
			lognormal(&g, 5e4 * block, 0.03, &arm[j], 1);
		}
		assert_int_equal(
		    stats_compare(base, 10, arm, 10, true, 0.95, &c), 0);
		assert_int_equal(c.wilcoxon.method, STATS_EXACT);
		if (c.p < 0.05)
			positives++;
	}
	rate = (double)positives / NR_EXPERIMENTS;
	print_message("paired A/A: rejection rate %.4f\n", rate);
	assert_true(rate >= 0.03 && rate <= 0.07);
}

/*
 * The fewest blocks for a verdict follow the exact signed-rank
 * distribution: at 5% one comparison needs 6 blocks (5 all of one sign
 * give p 0.0625, 6 give 0.03125), eleven Holm-adjusted ones need 9.
 */
static void test_min_blocks(void **state)
{
	const double d[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
	struct stats_test t;

	(void)state;
	assert_int_equal(stats_signrank_min_blocks(0.05, 1), 6);
	assert_int_equal(stats_wilcoxon(d, 5, &t), 0);
	assert_true(t.p >= 0.05);
	assert_int_equal(stats_wilcoxon(d, 6, &t), 0);
	assert_true(t.p < 0.05);
	assert_int_equal(stats_signrank_min_blocks(0.05, 11), 9);
	assert_int_equal(stats_signrank_min_blocks(0.01, 1), 8);
	assert_int_equal(stats_signrank_min_blocks(0.5, 1), 3);
	assert_int_equal(stats_signrank_min_blocks(0, 1), 0);
	assert_int_equal(stats_signrank_min_blocks(0.05, 0), 0);
	assert_int_equal(stats_signrank_min_blocks(1e-30, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_summaries),
	    cmocka_unit_test(test_mwu),
	    cmocka_unit_test(test_hodges_lehmann),
	    cmocka_unit_test(test_wilcoxon),
	    cmocka_unit_test(test_signrank_shift),
	    cmocka_unit_test(test_paired_estimate),
	    cmocka_unit_test(test_holm),
	    cmocka_unit_test(test_spearman),
	    cmocka_unit_test(test_modified_z),
	    cmocka_unit_test(test_distributions),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_corner_cases),
	    cmocka_unit_test(test_verdict),
	    cmocka_unit_test(test_should_stop),
	    cmocka_unit_test(test_moses_mwu_duality),
	    cmocka_unit_test(test_sim_aa_false_positives),
	    cmocka_unit_test(test_sim_power),
	    cmocka_unit_test(test_sim_paired_aa),
	    cmocka_unit_test(test_min_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
