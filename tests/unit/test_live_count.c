/*
 * Tests for core/live/counting: the floor a count of events puts under
 * a switchback's interval, and when it is blamed. The figures are those
 * of an observe A/A on a sqlite load of 9 transactions a second, whose
 * 2 s windows counted about 18 and whose intervals were +-18% after 16
 * blocks.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "core/live/counting.h"
#include "util/banned.h"

/* 18 a window, varying as counting at random does: blamed, with the
 * interval it leaves after 16 blocks and a window of 12 s. */
static void test_random_count_blamed(void **state)
{
	double ev[] = {16, 18, 20, 17, 19, 18, 22, 14};
	struct live_count_floor f;

	(void)state;
	assert_true(live_count_floor(ev, 8, 16, 2.0, 0.33, &f));
	assert_true(fabs(f.events - 18) < 1e-9);
	assert_true(fabs(f.spread - 1 / sqrt(18)) < 1e-9);
	assert_true(fabs(f.expected - sqrt(2.0 / 18)) < 1e-9);
	/* exp(1.96 * sqrt(2/18/16)) - 1 */
	assert_true(fabs(f.halfwidth - 0.1775) < 1e-3);
	assert_true(fabs(f.window_s - 12) < 1e-9);
}

/* The same count from events like clockwork: the windows vary far
 * less than counting at random would make them; not blamed. */
static void test_regular_count_not_blamed(void **state)
{
	double ev[] = {18, 18, 19, 18, 17, 18};
	struct live_count_floor f;

	(void)state;
	assert_false(live_count_floor(ev, 6, 3, 2.0, 0.05, &f));
	assert_true(fabs(f.events - 18) < 1e-9);
	/* too few blocks to say how they varied: not blamed either */
	assert_false(live_count_floor(ev, 6, 3, 2.0, NAN, &f));
}

/* Counts of 100 or more: their randomness is 10% a window or less. */
static void test_large_count(void **state)
{
	double ev[] = {400, 380, 420, 390};
	struct live_count_floor f;

	(void)state;
	assert_false(live_count_floor(ev, 4, 2, 1.0, 0.5, &f));
	assert_true(fabs(f.events - 395) < 1e-9); /* the median of four */
}

/* No window, no blocks or no length: nothing said, *out zeroed. */
static void test_nothing(void **state)
{
	double ev[] = {5};
	struct live_count_floor f;

	(void)state;
	assert_false(live_count_floor(ev, 0, 4, 1.0, 0.5, &f));
	assert_true(f.events == 0 && f.window_s == 0);
	assert_false(live_count_floor(ev, 1, 0, 1.0, 0.5, &f));
	assert_false(live_count_floor(ev, 1, 1, 0.0, 0.5, &f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_random_count_blamed),
	    cmocka_unit_test(test_regular_count_not_blamed),
	    cmocka_unit_test(test_large_count),
	    cmocka_unit_test(test_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
