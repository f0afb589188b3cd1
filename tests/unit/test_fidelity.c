/*
 * Tests for core/trace/fidelity: a replay that did exactly what its
 * capture did scores 100; one that did fewer operations, moved other
 * sizes, or fell behind in open loop scores less and is poor past the
 * documented thresholds (2% ops, bytes, names; 10% rate; 5% lag); the
 * rate and the lag do not count at --speed max.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/trace/fidelity.h"
#include "util/strbuf.h"
#include "util/banned.h"

/* A summary of secs seconds, ops reads of 4 KiB each second. */
static void make(struct trace_summary *s, uint64_t *sec_ops, size_t secs,
		 uint64_t ops)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->nr_secs = secs;
	s->sec_ops = sec_ops;
	for (i = 0; i < secs; i++) {
		sec_ops[i] = ops;
		s->ops[TOP_READ] += ops;
		s->read_sizes[12] += ops;
		s->bytes_read += ops * 4096;
	}
	s->ops[TOP_OPEN] = 10;
	s->duration_ns = secs * 1000000000ull;
}

static void test_identical(void **state)
{
	uint64_t a[10], b[10];
	struct trace_summary c, r;
	struct fidelity f;
	struct strbuf why = STRBUF_INIT;

	(void)state;
	make(&c, a, 10, 100);
	make(&r, b, 10, 100);
	fidelity_compute(&c, &r, 1, 1, &f, &why);
	assert_true(f.score == 100);
	assert_false(f.poor);
	assert_int_equal(why.len, 0);
	strbuf_release(&why);
}

static void test_poor(void **state)
{
	uint64_t a[10], b[12];
	struct trace_summary c, r;
	struct fidelity f;
	struct strbuf why = STRBUF_INIT;

	(void)state;
	make(&c, a, 10, 100);
	/* 1% fewer reads: not poor, but under 100 */
	make(&r, b, 10, 99);
	r.ops[TOP_OPEN] = 10;
	fidelity_compute(&c, &r, 1, 1, &f, &why);
	assert_true(f.score < 100 && f.score > 98);
	assert_false(f.poor);
	/* 12 seconds where the capture took 10: behind by 20% */
	make(&r, b, 12, 100);
	r.bytes_read = c.bytes_read;
	fidelity_compute(&c, &r, 1, 1, &f, &why);
	assert_true(f.poor);
	assert_non_null(strstr(why.buf, "fell behind the timestamps by 20.0%"));
	/* the same at --speed max: neither rate nor lag counts */
	fidelity_compute(&c, &r, 0, 1, &f, &why);
	assert_false(f.applies[FID_RATE] || f.applies[FID_LAG]);
	/* other sizes: the histogram distance is 1 */
	make(&r, b, 10, 100);
	memset(r.read_sizes, 0, sizeof(r.read_sizes));
	r.read_sizes[16] = 1000;
	fidelity_compute(&c, &r, 1, 1, &f, &why);
	assert_true(f.err[FID_SIZES] == 1);
	/* at speed 2 the capture's 10 s land in 5 */
	make(&r, b, 5, 200);
	r.duration_ns = 5000000000ull;
	fidelity_compute(&c, &r, 2, 1, &f, &why);
	assert_true(f.err[FID_RATE] == 0);
	assert_true(f.err[FID_LAG] == 0);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_identical),
	    cmocka_unit_test(test_poor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
