/*
 * Tests for util/rng. A printed seed must repeat an experiment on any
 * machine and any later version, so the first outputs are pinned to the
 * published xoshiro256**-seeded-by-splitmix64 values. The statistical
 * checks use fixed seeds: they are deterministic, never flaky, and still
 * catch a biased rng_below() (plain modulo fails the thirds test badly).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "util/rng.h"
#include "util/banned.h"

/* The first outputs for seeds 0 and 42 (seed 0 matches the published
 * known-answer values for this construction). */
static void test_known_answers(void **state)
{
	static const uint64_t seed0[] = {
	    UINT64_C(0x99ec5f36cb75f2b4), UINT64_C(0xbf6e1f784956452a),
	    UINT64_C(0x1a5f849d4933e6e0), UINT64_C(0x6aa594f1262d2d2c),
	    UINT64_C(0xbba5ad4a1f842e59), UINT64_C(0xffef8375d9ebcaca),
	};
	static const uint64_t seed42[] = {
	    UINT64_C(0x15780b2e0c2ec716),
	    UINT64_C(0x6104d9866d113a7e),
	    UINT64_C(0xae17533239e499a1),
	    UINT64_C(0xecb8ad4703b360a1),
	};
	struct rng r;
	size_t i;

	(void)state;
	rng_seed(&r, 0);
	for (i = 0; i < sizeof(seed0) / sizeof(seed0[0]); i++)
		assert_int_equal(rng_next(&r), seed0[i]);
	rng_seed(&r, 42);
	for (i = 0; i < sizeof(seed42) / sizeof(seed42[0]); i++)
		assert_int_equal(rng_next(&r), seed42[i]);
	/* rng_below() is pinned too: it decides offsets and run order */
	rng_seed(&r, 42);
	assert_int_equal(rng_below(&r, 1000), 83);
	assert_int_equal(rng_below(&r, 1000), 378);
	assert_int_equal(rng_below(&r, 1000), 680);
	assert_int_equal(rng_below(&r, 1000), 924);
}

/* Same seed, same stream; another seed, another stream. */
static void test_reproducible(void **state)
{
	struct rng a, b, c;
	unsigned i, same_as_c = 0;

	(void)state;
	rng_seed(&a, 12345);
	rng_seed(&b, 12345);
	rng_seed(&c, 12346);
	for (i = 0; i < 10000; i++) {
		uint64_t x = rng_next(&a);

		assert_int_equal(x, rng_next(&b));
		same_as_c += x == rng_next(&c);
	}
	assert_int_equal(same_as_c, 0);
	/* reseeding restarts the stream */
	rng_seed(&a, 12345);
	rng_seed(&b, 12345);
	assert_int_equal(rng_below(&a, 77), rng_below(&b, 77));
	assert_true(rng_double(&a) == rng_double(&b));
}

/* Seed 0 is as good as any other: the state is never all zero. */
static void test_seed_zero(void **state)
{
	struct rng r;

	(void)state;
	rng_seed(&r, 0);
	assert_true(r.s[0] | r.s[1] | r.s[2] | r.s[3]);
	assert_true(rng_next(&r) != rng_next(&r));
}

/* rng_below() stays below its bound, for small, odd and huge bounds. */
static void test_below_bounds(void **state)
{
	static const uint64_t bounds[] = {
	    1,
	    2,
	    3,
	    7,
	    10,
	    1000,
	    4096,
	    UINT64_C(1) << 32,
	    (UINT64_C(1) << 63) + 1,
	    UINT64_MAX - 1,
	    UINT64_MAX,
	};
	struct rng r;
	size_t i, j;

	(void)state;
	rng_seed(&r, 7);
	assert_int_equal(rng_below(&r, 0), 0);
	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		uint64_t max_seen = 0;

		for (j = 0; j < 20000; j++) {
			uint64_t v = rng_below(&r, bounds[i]);

			assert_true(v < bounds[i]);
			if (v > max_seen)
				max_seen = v;
		}
		/* every value of a small bound shows up */
		if (bounds[i] <= 10)
			assert_int_equal(max_seen, bounds[i] - 1);
	}
}

/*
 * Chi-square over 10 buckets with a fixed seed. With 9 degrees of
 * freedom, 27.88 is the 0.999 quantile; a fair generator lands far below
 * it and the seed keeps the result identical on every run.
 */
static void test_below_uniform(void **state)
{
	enum { BUCKETS = 10, DRAWS = 200000 };
	unsigned counts[BUCKETS] = {0};
	double expect = (double)DRAWS / BUCKETS, chi2 = 0;
	struct rng r;
	unsigned i;

	(void)state;
	rng_seed(&r, 2024);
	for (i = 0; i < DRAWS; i++)
		counts[rng_below(&r, BUCKETS)]++;
	for (i = 0; i < BUCKETS; i++)
		chi2 += (counts[i] - expect) * (counts[i] - expect) / expect;
	assert_true(chi2 < 27.88);
}

/*
 * With bound = 3 * 2^62, plain x % bound would put half of all draws in
 * the first third of the range. Without modulo bias it is a third.
 */
static void test_below_no_modulo_bias(void **state)
{
	enum { DRAWS = 100000 };
	const uint64_t bound = UINT64_C(3) << 62;
	unsigned low = 0, i;
	struct rng r;
	double frac;

	(void)state;
	rng_seed(&r, 99);
	for (i = 0; i < DRAWS; i++)
		low += rng_below(&r, bound) < (UINT64_C(1) << 62);
	frac = (double)low / DRAWS;
	assert_true(fabs(frac - 1.0 / 3.0) < 0.01);
}

/* rng_double() is in [0, 1), a multiple of 2^-53, and averages 1/2. */
static void test_double_range(void **state)
{
	enum { DRAWS = 100000 };
	double sum = 0, lo = 1, hi = 0;
	struct rng r;
	unsigned i, halves = 0;

	(void)state;
	rng_seed(&r, 3);
	for (i = 0; i < DRAWS; i++) {
		double d = rng_double(&r), scaled = d * 0x1p53;

		assert_true(d >= 0.0 && d < 1.0);
		assert_true(scaled == floor(scaled));
		sum += d;
		halves += d < 0.5;
		if (d < lo)
			lo = d;
		if (d > hi)
			hi = d;
	}
	assert_true(fabs(sum / DRAWS - 0.5) < 0.005);
	assert_true(fabs((double)halves / DRAWS - 0.5) < 0.01);
	assert_true(lo < 0.001 && hi > 0.999);
}

/* Seeds from the environment differ between calls and are usable. */
static void test_seed_from_env(void **state)
{
	uint64_t a = rng_seed_from_env(), b = rng_seed_from_env();
	struct rng r;

	(void)state;
	assert_true(a != b);
	rng_seed(&r, a);
	assert_true(rng_double(&r) < 1.0);
}

/* Run the rng tests; cmocka prints one line per test. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_known_answers),
	    cmocka_unit_test(test_reproducible),
	    cmocka_unit_test(test_seed_zero),
	    cmocka_unit_test(test_below_bounds),
	    cmocka_unit_test(test_below_uniform),
	    cmocka_unit_test(test_below_no_modulo_bias),
	    cmocka_unit_test(test_double_range),
	    cmocka_unit_test(test_seed_from_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
