/*
 * Tests for core/observe/schedstat.c: the parsers of the kernel's text,
 * the per-thread accounting across threads that come and go, and the
 * scan of the other processes' I/O.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "core/observe/schedstat.h"
#include "util/banned.h"

static void test_parse(void **state)
{
	uint64_t run, wait;
	unsigned n;

	(void)state;
	assert_int_equal(schedstat_parse("1204444 5000 17\n", &run, &wait), 0);
	assert_true(run == 1204444 && wait == 5000);
	assert_int_equal(schedstat_parse("12\n", &run, &wait), -EINVAL);
	assert_int_equal(schedstat_parse("", &run, &wait), -EINVAL);
	assert_int_equal(
	    schedstat_parse_loadavg("0.52 0.41 0.30 3/250 1234\n", &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(
	    schedstat_parse_loadavg("15.1 14.0 13.2 17/812 99\n", &n), 0);
	assert_int_equal(n, 17);
	assert_int_equal(schedstat_parse_loadavg("0.5 0.4 0.3 /250 1\n", &n),
			 -EINVAL);
	assert_int_equal(schedstat_parse_loadavg("garbage", &n), -EINVAL);
}

/* A thread that spins for about 50 ms of CPU and ends. */
static void *spin(void *arg)
{
	struct timespec t0, t;

	(void)arg;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec <
	       50000000L);
	return NULL;
}

/*
 * Only increments count: a thread seen for the first time adds nothing,
 * a thread that ran in between adds its time, and a thread that is
 * gone is forgotten (its last counts stay in the sums).
 */
static void test_tasks(void **state)
{
	struct schedstat_tasks t;
	pthread_t th;
	uint64_t before;
	int ret;

	(void)state;
	schedstat_tasks_init(&t);
	ret = schedstat_tasks_read(&t);
	if (ret == -ENOENT) {
		schedstat_tasks_release(&t);
		skip(); /* a kernel without schedstat */
	}
	assert_int_equal(ret, 0);
	assert_true(t.run_ns == 0 && t.wait_ns == 0);
	assert_int_equal(t.nr, 1);
	spin(NULL);
	assert_int_equal(schedstat_tasks_read(&t), 0);
	assert_true(t.run_ns >= 40000000ull);
	before = t.run_ns;
	assert_int_equal(pthread_create(&th, NULL, spin, NULL), 0);
	pthread_join(th, NULL);
	/* the thread came and went between readings: not seen at all */
	assert_int_equal(schedstat_tasks_read(&t), 0);
	assert_int_equal(t.nr, 1);
	assert_true(t.run_ns - before < 40000000ull);
	schedstat_tasks_release(&t);
}

/*
 * Whose I/O is the others': not a kernel thread's (its parent is
 * kthreadd, 2), not our process group's (a duet's other runs), a
 * command name with spaces and parentheses read right.
 */
static void test_others_io(void **state)
{
	uint64_t rd = 1, wr = 1;

	(void)state;
	assert_int_equal(schedstat_others_io(&rd, &wr), 0);
	assert_true(schedstat_is_other("812 (dd) R 800 812 800 0 -1", 500));
	assert_false(schedstat_is_other("812 (dd) R 800 500 800 0 -1", 500));
	assert_false(
	    schedstat_is_other("40 (kworker/u4:2-loop3) I 2 0 0 0 -1", 500));
	assert_true(schedstat_is_other("77 (a (b) c) S 1 77 77 0 -1", 500));
	assert_false(schedstat_is_other("77 (a (b) c) S 1 500 77 0 -1", 500));
	assert_false(schedstat_is_other("garbage", 500));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_tasks),
	    cmocka_unit_test(test_others_io),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
