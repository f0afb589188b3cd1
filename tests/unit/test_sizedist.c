/*
 * File size distributions: each form parses to what it says, samples
 * stay in range and follow the weights or the mean, and nonsense
 * (negative, min above max, an unknown name) is refused with a message
 * that names the valid forms.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/workload/sizedist.h"

static void test_fixed(void **state)
{
	struct sizedist d;
	struct rng rng;
	int i;

	(void)state;
	assert_int_equal(sizedist_parse("4k", &d, NULL), 0);
	assert_int_equal(d.kind, SIZEDIST_LIST);
	assert_int_equal(d.min_bytes, 4096);
	assert_int_equal(d.max_bytes, 4096);
	rng_seed(&rng, 1);
	for (i = 0; i < 100; i++)
		assert_int_equal(sizedist_sample(&d, &rng), 4096);
}

static void test_uniform(void **state)
{
	struct sizedist d;
	struct rng rng;
	uint64_t lo = UINT64_MAX, hi = 0;
	int i;

	(void)state;
	assert_int_equal(sizedist_parse("uniform:4k-64k", &d, NULL), 0);
	assert_int_equal(d.kind, SIZEDIST_UNIFORM);
	assert_int_equal(d.min_bytes, 4096);
	assert_int_equal(d.max_bytes, 65536);
	rng_seed(&rng, 2);
	for (i = 0; i < 10000; i++) {
		uint64_t v = sizedist_sample(&d, &rng);

		assert_true(v >= 4096 && v <= 65536);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	/* the whole range is used */
	assert_true(lo < 4096 + 1000 && hi > 65536 - 1000);
	assert_int_equal(sizedist_parse("uniform:8k-8k", &d, NULL), 0);
}

static void test_lognormal(void **state)
{
	struct sizedist d;
	struct rng rng;
	double sum = 0;
	int i, n = 200000;

	(void)state;
	assert_int_equal(
	    sizedist_parse("lognormal:mean=16k,sd=8k,min=1k,max=16M", &d, NULL),
	    0);
	assert_int_equal(d.kind, SIZEDIST_LOGNORMAL);
	rng_seed(&rng, 3);
	for (i = 0; i < n; i++) {
		uint64_t v = sizedist_sample(&d, &rng);

		assert_true(v >= 1024 && v <= 16u << 20);
		sum += (double)v;
	}
	/* the arithmetic mean asked for, within 2% */
	assert_true(sum / n > 16384 * 0.98 && sum / n < 16384 * 1.02);
	/* clamping: nothing outside [min, max] */
	assert_int_equal(
	    sizedist_parse("lognormal:mean=16k,sd=64k,min=8k,max=32k", &d,
			   NULL),
	    0);
	for (i = 0; i < 10000; i++) {
		uint64_t v = sizedist_sample(&d, &rng);

		assert_true(v >= 8192 && v <= 32768);
	}
	/* sd and the bounds have defaults */
	assert_int_equal(sizedist_parse("lognormal:mean=4k", &d, NULL), 0);
	assert_true(d.max_bytes >= 4096 && d.min_bytes >= 1);
}

static void test_list(void **state)
{
	struct sizedist d;
	struct rng rng;
	unsigned small = 0, mid = 0, big = 0, i, n = 100000;

	(void)state;
	assert_int_equal(sizedist_parse("4k:60,64k:30,1M:10", &d, NULL), 0);
	assert_int_equal(d.nr_entries, 3);
	assert_int_equal(d.total_weight, 100);
	assert_int_equal(d.min_bytes, 4096);
	assert_int_equal(d.max_bytes, 1 << 20);
	rng_seed(&rng, 4);
	for (i = 0; i < n; i++) {
		uint64_t v = sizedist_sample(&d, &rng);

		small += v == 4096;
		mid += v == 65536;
		big += v == 1 << 20;
	}
	assert_int_equal(small + mid + big, n);
	assert_true(small > n * 0.58 && small < n * 0.62);
	assert_true(mid > n * 0.28 && mid < n * 0.32);
	assert_true(big > n * 0.08 && big < n * 0.12);
	/* a weight may be left out: 1 */
	assert_int_equal(sizedist_parse("4k,8k", &d, NULL), 0);
	assert_int_equal(d.total_weight, 2);
}

/* text is refused with -EINVAL or -ERANGE, a message holding want and
 * the valid forms, and d untouched */
static void refused(const char *text, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	struct sizedist d;
	int ret;

	memset(&d, 0x5a, sizeof(d));
	ret = sizedist_parse(text, &d, &err);
	if (ret != -EINVAL && ret != -ERANGE)
		fail_msg("'%s' gave %d", text, ret);
	if (!strstr(err.buf, want) || !strstr(err.buf, "uniform:MIN-MAX") ||
	    !strstr(err.buf, "lognormal:mean=SIZE"))
		fail_msg("'%s': '%s' lacks '%s' or the forms", text, err.buf,
			 want);
	assert_int_equal(((unsigned char *)&d)[0], 0x5a);
	strbuf_release(&err);
}

static void test_bad(void **state)
{
	(void)state;
	refused("-4k", "negative");
	refused("uniform:-4k-8k", "uniform needs MIN-MAX");
	refused("uniform:64k-4k", "above max");
	refused("lognormal:mean=16k,min=64k,max=4k", "above max");
	refused("lognormal:sd=4k", "needs mean");
	refused("lognormal:mean=-16k", "negative");
	refused("lognormal:mean=16k,median=4k", "unknown key 'median'");
	refused("gauss:mean=16k", "unknown distribution 'gauss'");
	refused("normal:4k", "unknown distribution 'normal'");
	refused("", "empty");
	refused("0", "size");
	refused("4k:-1", "negative");
	refused("4k:0", "weight");
	refused("4k:abc", "weight");
	refused("4k,", "empty");
	refused("2G", "larger than 1 GiB");
	refused("banana", "size");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixed),     cmocka_unit_test(test_uniform),
	    cmocka_unit_test(test_lognormal), cmocka_unit_test(test_list),
	    cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
