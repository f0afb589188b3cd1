/*
 * Tests for core/result/hist.c: the bucket layout is checked exhaustively
 * (every bucket's range, round trip and contiguity), and the error bound (<=
 * 0.8% relative; the bucket layout gives 1/256) is checked against exact
 * quantiles of sorted samples from uniform, exponential, log-normal and
 * bimodal distributions. A local splitmix64 makes the samples repeatable
 * without depending on util/rng.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/result/hist.h"
#include "util/banned.h"

#define MAX_REL_ERR    0.008
#define NR_SAMPLES     100000
#define ARRAY_SIZE_(a) (sizeof(a) / sizeof((a)[0]))

/* A tiny fixed-seed generator, so the samples never change. */
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

/* Uniform in (0, 1): never 0, so log() of it is finite. */
static double sm64_open01(struct sm64 *g)
{
	return ((double)(sm64_next(g) >> 11) + 0.5) * 0x1.0p-53;
}

/* A standard normal deviate (Box-Muller, cosine branch only). */
static double sm64_normal(struct sm64 *g)
{
	double u1 = sm64_open01(g), u2 = sm64_open01(g);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* qsort comparator for uint64_t. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Exact nearest-rank quantile of sorted v[n]: the ceil(q*n)-th value. */
static uint64_t exact_quantile(const uint64_t *v, size_t n, double q)
{
	long double x = (long double)q * n;
	size_t rank;

	x -= x * 1e-12L;
	rank = (size_t)ceill(x);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

/* |got - want| / want, with want 0 meaning got must be 0 too. */
static double rel_err(uint64_t got, uint64_t want)
{
	if (!want)
		return got ? INFINITY : 0.0;
	return fabs((double)got - (double)want) / (double)want;
}

/*
 * Record v[n] into a histogram and check min, max, mean and a dense sweep
 * of quantiles (including p50 p90 p99 p99.9) against the sorted values.
 */
static void check_distribution(uint64_t *v, size_t n)
{
	static const double named_q[] = {0.5, 0.9, 0.99, 0.999};
	struct hist *h = malloc(sizeof(*h));
	long double sum = 0;
	double worst = 0.0;
	size_t i;

	assert_non_null(h);
	hist_init(h);
	for (i = 0; i < n; i++) {
		hist_record(h, v[i]);
		sum += v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);

	assert_int_equal(h->count, n);
	assert_int_equal(h->min_ns, v[0]);
	assert_int_equal(h->max_ns, v[n - 1]);
	assert_int_equal(hist_quantile(h, 0.0), v[0]);
	assert_int_equal(hist_quantile(h, 1.0), v[n - 1]);
	assert_true(fabs(hist_mean(h) - (double)(sum / n)) <=
		    1e-9 * (double)(sum / n));

	for (i = 0; i < ARRAY_SIZE_(named_q); i++) {
		uint64_t want = exact_quantile(v, n, named_q[i]);
		uint64_t got = hist_quantile(h, named_q[i]);

		if (rel_err(got, want) > MAX_REL_ERR)
			fail_msg("q=%g: hist %llu exact %llu", named_q[i],
				 (unsigned long long)got,
				 (unsigned long long)want);
	}
	for (i = 1; i < 10000; i++) {
		double q = i / 10000.0;
		double e =
		    rel_err(hist_quantile(h, q), exact_quantile(v, n, q));

		if (e > worst)
			worst = e;
	}
	/* The layout's bound is half a bucket: 1/256 of the value. */
	assert_true(worst <= 1.0 / 256 + 1e-12);
	assert_true(worst <= MAX_REL_ERR);
	free(h);
}

/* An empty histogram reports zeros and keeps min at its sentinel. */
static void test_empty(void **state)
{
	struct hist h;

	(void)state;
	hist_init(&h);
	assert_int_equal(h.count, 0);
	assert_int_equal(h.min_ns, UINT64_MAX);
	assert_int_equal(h.max_ns, 0);
	assert_int_equal(hist_quantile(&h, 0.0), 0);
	assert_int_equal(hist_quantile(&h, 0.5), 0);
	assert_int_equal(hist_quantile(&h, 1.0), 0);
	assert_true(hist_mean(&h) == 0.0);
}

/*
 * Every bucket: low <= high, both ends map back to the bucket, ranges are
 * contiguous from 0 to 2^44 - 1, and a bucket is never wider than 1/128
 * of its low end, so the midpoint is within 1/256 of any value in it.
 */
static void test_every_bucket(void **state)
{
	uint64_t low, high, prev_high = 0;
	unsigned i;

	(void)state;
	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t mid;

		hist_bucket_range(i, &low, &high);
		assert_true(low <= high);
		assert_int_equal(hist_bucket_of(low), i);
		assert_int_equal(hist_bucket_of(high), i);
		assert_int_equal(hist_bucket_of(low + (high - low) / 2), i);
		if (i == 0)
			assert_int_equal(low, 0);
		else
			assert_int_equal(low, prev_high + 1);
		if (low >= HIST_SUB_COUNT)
			assert_true((high - low + 1) * HIST_SUB_COUNT <= low);
		else
			assert_int_equal(low, high);
		mid = low + (high - low) / 2;
		assert_true((double)(mid - low) <= low / 256.0);
		assert_true((double)(high - mid) <= high / 256.0);
		prev_high = high;
	}
	assert_int_equal(prev_high, (1ull << HIST_MAX_BITS) - 1);
	/* Past-the-end indices are treated as the last bucket. */
	hist_bucket_range(HIST_BUCKETS + 5, &low, &high);
	assert_int_equal(high, (1ull << HIST_MAX_BITS) - 1);
}

/* bucket_of never decreases: around every power of two and at random. */
static void test_monotonic(void **state)
{
	static uint64_t v[20000 + 64 * 7];
	struct sm64 g = {42};
	size_t i, nr = 0;
	unsigned b;
	int d;

	(void)state;
	for (b = 2; b < 64; b++)
		for (d = -3; d <= 3; d++)
			v[nr++] = (1ull << b) + (uint64_t)(int64_t)d;
	for (i = 0; i < 20000; i++)
		v[nr++] = sm64_next(&g) >> (sm64_next(&g) & 63);
	v[nr++] = 0;
	v[nr++] = UINT64_MAX;
	qsort(v, nr, sizeof(v[0]), cmp_u64);
	for (i = 1; i < nr; i++) {
		assert_true(hist_bucket_of(v[i]) >= hist_bucket_of(v[i - 1]));
		assert_true(hist_bucket_of(v[i]) < HIST_BUCKETS);
	}
}

/* 0, 1, 127, 128 and 2^40 land where the layout says. */
static void test_special_values(void **state)
{
	uint64_t low, high;
	struct hist h;

	(void)state;
	assert_int_equal(hist_bucket_of(0), 0);
	assert_int_equal(hist_bucket_of(1), 1);
	assert_int_equal(hist_bucket_of(127), 127);
	assert_int_equal(hist_bucket_of(128), 128);
	assert_int_equal(hist_bucket_of(255), 255);
	assert_int_equal(hist_bucket_of(256), 256);
	assert_int_equal(hist_bucket_of(257), 256);
	hist_bucket_range(hist_bucket_of(1ull << 40), &low, &high);
	assert_int_equal(low, 1ull << 40);
	assert_int_equal(high, (1ull << 40) + (1ull << 33) - 1);

	hist_init(&h);
	hist_record(&h, 0);
	hist_record(&h, 1);
	hist_record(&h, 127);
	hist_record(&h, 128);
	/* Below 256 every value is exact. */
	assert_int_equal(hist_quantile(&h, 0.25), 0);
	assert_int_equal(hist_quantile(&h, 0.5), 1);
	assert_int_equal(hist_quantile(&h, 0.75), 127);
	assert_int_equal(hist_quantile(&h, 1.0), 128);
	assert_int_equal(h.min_ns, 0);
	assert_true(hist_mean(&h) == 64.0);

	/* One value: every quantile is that value (midpoint clamped). */
	hist_init(&h);
	hist_record(&h, 1ull << 40);
	assert_int_equal(hist_quantile(&h, 0.0), 1ull << 40);
	assert_int_equal(hist_quantile(&h, 0.5), 1ull << 40);
	assert_int_equal(hist_quantile(&h, 0.999), 1ull << 40);
}

/* Values past 2^44 clamp into the last bucket; min and max stay exact. */
static void test_clamp(void **state)
{
	struct hist h;

	(void)state;
	assert_int_equal(hist_bucket_of(UINT64_MAX), HIST_BUCKETS - 1);
	assert_int_equal(hist_bucket_of(1ull << HIST_MAX_BITS),
			 HIST_BUCKETS - 1);
	assert_int_equal(hist_bucket_of((1ull << HIST_MAX_BITS) - 1),
			 HIST_BUCKETS - 1);
	hist_init(&h);
	hist_record(&h, UINT64_MAX);
	assert_int_equal(h.buckets[HIST_BUCKETS - 1], 1);
	assert_int_equal(h.max_ns, UINT64_MAX);
	assert_int_equal(h.min_ns, UINT64_MAX);
	assert_int_equal(hist_quantile(&h, 0.5), UINT64_MAX);
	assert_int_equal(hist_quantile(&h, 1.0), UINT64_MAX);
	assert_true(hist_mean(&h) == (double)UINT64_MAX);

	hist_record(&h, UINT64_MAX - 2);
	/* The sum is past 2^64 and still exact: mean is 2^64 - 2. */
	assert_true(h.sum_ns == (unsigned __int128)UINT64_MAX * 2 - 2);
	assert_true(hist_mean(&h) == 0x1p64);

	hist_init(&h);
	hist_record(&h, 1);
	hist_record(&h, 2);
	assert_true(hist_mean(&h) == 1.5);
	hist_record(&h, UINT64_MAX);
	hist_record(&h, 100);
	assert_int_equal(hist_quantile(&h, 0.5), 2);
	assert_int_equal(hist_quantile(&h, 0.75), 100);
	assert_int_equal(hist_quantile(&h, 1.0), UINT64_MAX);
	/* The clamped bucket's midpoint is far below UINT64_MAX: the report
	 * is the nominal midpoint, inside [min, max]. */
	assert_int_equal(hist_quantile(&h, 0.99),
			 (255ull << 36) + (1ull << 35) - 1);
	assert_int_equal(h.min_ns, 1);
}

/* Uniform latencies from 1 us to 10 ms. */
static void test_uniform(void **state)
{
	struct sm64 g = {1};
	uint64_t *v = malloc(NR_SAMPLES * sizeof(*v));
	size_t i;

	(void)state;
	assert_non_null(v);
	for (i = 0; i < NR_SAMPLES; i++)
		v[i] = 1000 + (uint64_t)(sm64_open01(&g) * 1e7);
	check_distribution(v, NR_SAMPLES);
	free(v);
}

/* Exponential latencies, mean 100 us: a long right tail down to ~0. */
static void test_exponential(void **state)
{
	struct sm64 g = {2};
	uint64_t *v = malloc(NR_SAMPLES * sizeof(*v));
	size_t i;

	(void)state;
	assert_non_null(v);
	for (i = 0; i < NR_SAMPLES; i++)
		v[i] = (uint64_t)(-log(sm64_open01(&g)) * 1e5);
	check_distribution(v, NR_SAMPLES);
	free(v);
}

/* Log-normal latencies, median 200 us, sigma 1.5: many octaves wide. */
static void test_lognormal(void **state)
{
	struct sm64 g = {3};
	uint64_t *v = malloc(NR_SAMPLES * sizeof(*v));
	size_t i;

	(void)state;
	assert_non_null(v);
	for (i = 0; i < NR_SAMPLES; i++)
		v[i] = (uint64_t)(2e5 * exp(1.5 * sm64_normal(&g)));
	check_distribution(v, NR_SAMPLES);
	free(v);
}

/* Cache hits around 50 us and misses around 5 ms (70% / 30%). */
static void test_bimodal(void **state)
{
	struct sm64 g = {4};
	uint64_t *v = malloc(NR_SAMPLES * sizeof(*v));
	size_t i;

	(void)state;
	assert_non_null(v);
	for (i = 0; i < NR_SAMPLES; i++) {
		double x;

		if (sm64_open01(&g) < 0.7)
			x = 5e4 + 5e3 * sm64_normal(&g);
		else
			x = 5e6 + 5e5 * sm64_normal(&g);
		v[i] = x < 1 ? 1 : (uint64_t)x;
	}
	check_distribution(v, NR_SAMPLES);
	free(v);
}

/* Merging four partial histograms equals recording everything in one. */
static void test_merge(void **state)
{
	struct hist *all = malloc(sizeof(*all));
	struct hist *part = malloc(4 * sizeof(*part));
	struct hist *merged = malloc(sizeof(*merged));
	struct sm64 g = {5};
	size_t i;

	(void)state;
	assert_non_null(all);
	assert_non_null(part);
	assert_non_null(merged);
	hist_init(all);
	hist_init(merged);
	for (i = 0; i < 4; i++)
		hist_init(&part[i]);
	for (i = 0; i < 50000; i++) {
		uint64_t x = (uint64_t)(1e4 * exp(2.0 * sm64_normal(&g)));

		if (i == 777)
			x = UINT64_MAX;
		hist_record(all, x);
		hist_record(&part[i % 3], x); /* part[3] stays empty */
	}
	for (i = 0; i < 4; i++)
		hist_merge(merged, &part[i]);
	assert_int_equal(merged->count, all->count);
	assert_int_equal(merged->min_ns, all->min_ns);
	assert_int_equal(merged->max_ns, all->max_ns);
	/* Exact, even though the sum passes 2^64 (one UINT64_MAX). */
	assert_true(merged->sum_ns == all->sum_ns);
	assert_memory_equal(merged->buckets, all->buckets,
			    sizeof(all->buckets));
	for (i = 0; i <= 1000; i++)
		assert_int_equal(hist_quantile(merged, i / 1000.0),
				 hist_quantile(all, i / 1000.0));
	/* Merging an empty histogram changes nothing. */
	hist_merge(all, &part[3]);
	assert_int_equal(all->count, merged->count);
	assert_int_equal(all->min_ns, merged->min_ns);
	free(all);
	free(part);
	free(merged);
}

/* Quantiles never decrease with q; out-of-range q is clamped. */
static void test_quantile_order(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	struct sm64 g = {6};
	uint64_t prev = 0;
	size_t i;

	(void)state;
	assert_non_null(h);
	hist_init(h);
	for (i = 0; i < 10000; i++)
		hist_record(h, sm64_next(&g) >> (20 + (sm64_next(&g) & 31)));
	for (i = 0; i <= 100000; i++) {
		uint64_t x = hist_quantile(h, i / 100000.0);

		assert_true(x >= prev);
		prev = x;
	}
	assert_true(hist_quantile(h, 0.5) <= hist_quantile(h, 0.9));
	assert_true(hist_quantile(h, 0.9) <= hist_quantile(h, 0.99));
	assert_true(hist_quantile(h, 0.99) <= hist_quantile(h, 0.999));
	assert_int_equal(hist_quantile(h, -1.0), h->min_ns);
	assert_int_equal(hist_quantile(h, 2.0), h->max_ns);
	assert_int_equal(hist_quantile(h, NAN), h->min_ns);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_every_bucket),
	    cmocka_unit_test(test_monotonic),
	    cmocka_unit_test(test_special_values),
	    cmocka_unit_test(test_clamp),
	    cmocka_unit_test(test_uniform),
	    cmocka_unit_test(test_exponential),
	    cmocka_unit_test(test_lognormal),
	    cmocka_unit_test(test_bimodal),
	    cmocka_unit_test(test_merge),
	    cmocka_unit_test(test_quantile_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
