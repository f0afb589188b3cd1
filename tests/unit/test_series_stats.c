/*
 * Tests for core/series/series_stats.c: the boot as the unit.
 *
 * The simulation is the point: many A/A series (no real difference
 * between the sides) of simulated boots whose iterations share a random
 * boot effect. The boot-level analysis must keep its false-positive
 * rate near the nominal 5%; pooling the iterations, as "5 vs 5" does,
 * must not. Both rates are printed, so the figures in the notes come
 * from this program. Fixed seeds; no clock.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "core/series/series_stats.h"
#include "util/rng.h"
#include "util/banned.h"

#define NR_SERIES 4000
#define BOOTS	  8    /* per side */
#define ITERS	  5    /* per boot */
#define BOOT_SD	  0.04 /* sd of the boot effect on log(metric) */
#define ITER_SD	  0.01 /* sd within a boot */

/* A standard normal deviate (Box-Muller; one of the pair). */
static double normal(struct rng *r)
{
	double u = rng_double(r), v = rng_double(r);

	if (u <= 0.0)
		u = 0x1p-53;
	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* Fill one side's boots: each boot draws its effect, each iteration its
 * own noise around it; shift multiplies every value. */
static void simulate_side(struct rng *r, double vals[BOOTS][ITERS],
			  struct series_group g[BOOTS], double shift)
{
	int b, i;

	for (b = 0; b < BOOTS; b++) {
		double boot = BOOT_SD * normal(r);

		for (i = 0; i < ITERS; i++)
			vals[b][i] =
			    100.0 * shift * exp(boot + ITER_SD * normal(r));
		g[b].x = vals[b];
		g[b].n = ITERS;
	}
}

/* Is the verdict faster or slower, a claimed difference? */
static int claims(enum stats_verdict v)
{
	return v == STATS_FASTER || v == STATS_SLOWER;
}

/*
 * A/A series: the boot-level false-positive rate stays within 5% +- 2%,
 * the pooled one is far above it. Both are printed.
 */
static void test_false_positive_rate(void **state)
{
	static double vb[BOOTS][ITERS], va[BOOTS][ITERS];
	struct series_group gb[BOOTS], ga[BOOTS];
	unsigned boot_fp = 0, pooled_fp = 0, s;
	struct rng r;
	double boot_rate, pooled_rate;

	(void)state;
	rng_seed(&r, 20261202);
	for (s = 0; s < NR_SERIES; s++) {
		struct series_comparison c;

		simulate_side(&r, vb, gb, 1.0);
		simulate_side(&r, va, ga, 1.0);
		assert_int_equal(
		    series_compare(gb, BOOTS, ga, BOOTS, 0.95, 0.02, true, &c),
		    0);
		/* a rejection at 5%, whatever the margin says */
		boot_fp += c.boot.p < 0.05;
		pooled_fp += c.pooled.p < 0.05;
		assert_true(!claims(c.verdict) || c.boot.p < 0.05);
	}
	boot_rate = (double)boot_fp / NR_SERIES;
	pooled_rate = (double)pooled_fp / NR_SERIES;
	printf("# %u A/A series, %d boots x %d iterations per side, boot sd "
	       "%.2f, iteration sd %.2f (log scale):\n"
	       "#   boot-level false-positive rate %.1f%%, iteration-pooled "
	       "%.1f%%\n",
	       NR_SERIES, BOOTS, ITERS, BOOT_SD, ITER_SD, 100.0 * boot_rate,
	       100.0 * pooled_rate);
	assert_true(boot_rate >= 0.03 && boot_rate <= 0.07);
	assert_true(pooled_rate > 0.20);
}

/* A real 10% shift is found by the boot-level analysis most of the
 * time (power), so the test above is not passed by never rejecting. */
static void test_power(void **state)
{
	static double vb[BOOTS][ITERS], va[BOOTS][ITERS];
	struct series_group gb[BOOTS], ga[BOOTS];
	unsigned found = 0, s;
	struct rng r;

	(void)state;
	rng_seed(&r, 77);
	for (s = 0; s < 500; s++) {
		struct series_comparison c;

		simulate_side(&r, vb, gb, 1.0);
		simulate_side(&r, va, ga, 1.10);
		assert_int_equal(
		    series_compare(gb, BOOTS, ga, BOOTS, 0.95, 0.02, true, &c),
		    0);
		found += c.verdict == STATS_FASTER;
	}
	printf("# power against a 10%% shift: %.1f%%\n", found / 5.0);
	assert_true(found > 400);
}

/* The variance components recover the simulated sds. */
static void test_spread(void **state)
{
	static double v[200][ITERS];
	struct series_group g[200];
	struct series_spread sp;
	struct rng r;
	int b, i;

	(void)state;
	rng_seed(&r, 5);
	for (b = 0; b < 200; b++) {
		double boot = BOOT_SD * normal(&r);

		for (i = 0; i < ITERS; i++)
			v[b][i] = exp(boot + ITER_SD * normal(&r));
		g[b].x = v[b];
		g[b].n = ITERS;
	}
	assert_int_equal(series_spread(g, 200, &sp), 0);
	assert_true(fabs(sp.within_sd - ITER_SD) < 0.0015);
	assert_true(fabs(sp.between_sd - BOOT_SD) < 0.006);
	assert_true(sp.icc > 0.85 && sp.icc < 0.97);
}

/* Exact figures: the fewest boots, and the boots a ratio needs. */
static void test_boots(void **state)
{
	(void)state;
	assert_int_equal(series_min_boots(0.05), 4); /* 2/70 = 0.029 */
	assert_int_equal(series_min_boots(0.10), 4); /* 2/20 = 0.1, not < */
	assert_int_equal(series_min_boots(0.2), 3);
	assert_int_equal(series_min_boots(0.0), 0);
	/* 2 (1.95996 + 0.84162)^2 0.04^2 / log(1.05)^2 / (3/pi) = 11.06 */
	assert_int_equal(series_boots_needed(1.05, 0.04, 0.05, 0.8), 12);
	/* a large ratio still needs the fewest boots that can decide */
	assert_int_equal(series_boots_needed(2.0, 0.04, 0.05, 0.8), 4);
	assert_int_equal(series_boots_needed(1.0, 0.04, 0.05, 0.8), 0);
	assert_int_equal(series_boots_needed(1.05, NAN, 0.05, 0.8), 0);
}

/* Fewer than four boots a side: no verdict, whatever the pooled says. */
static void test_too_few_boots(void **state)
{
	double a[3][2] = {{100, 101}, {99, 100}, {100, 100.5}};
	double b[3][2] = {{120, 121}, {119, 122}, {121, 120}};
	struct series_group ga[3], gb[3];
	struct series_comparison c;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		ga[i].x = a[i];
		ga[i].n = 2;
		gb[i].x = b[i];
		gb[i].n = 2;
	}
	assert_int_equal(series_compare(ga, 3, gb, 3, 0.95, 0.02, true, &c), 0);
	assert_int_equal(c.verdict, STATS_NO_VERDICT);
	assert_int_equal(c.pooled_verdict, STATS_FASTER);
	assert_int_equal(c.boots_base, 3);
	assert_int_equal(c.iters_arm, 6);
	/* the boot ratio: HL of the medians, 120.5 / 100 around 1.2 */
	assert_true(c.boot.shift.ratio > 1.18 && c.boot.shift.ratio < 1.22);
}

/* Bad input is refused, not analysed. */
static void test_refused(void **state)
{
	double ok[] = {1, 2}, bad[] = {1, -2}, inf[] = {1, INFINITY};
	struct series_group g = {ok, 2}, gb = {bad, 2}, gi = {inf, 2};
	struct series_group empty = {NULL, 0};
	struct series_comparison c;

	(void)state;
	assert_int_equal(series_compare(&g, 1, &gb, 1, 0.95, 0.02, true, &c),
			 -EDOM);
	assert_int_equal(series_compare(&g, 1, &gi, 1, 0.95, 0.02, true, &c),
			 -EINVAL);
	assert_int_equal(series_compare(&g, 1, &empty, 1, 0.95, 0.02, true, &c),
			 -EINVAL);
	assert_int_equal(series_compare(&g, 1, &g, 1, 1.5, 0.02, true, &c),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_false_positive_rate),
	    cmocka_unit_test(test_power),
	    cmocka_unit_test(test_spread),
	    cmocka_unit_test(test_boots),
	    cmocka_unit_test(test_too_few_boots),
	    cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
