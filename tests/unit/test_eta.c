/*
 * The whole experiment's ETA (experiment/eta.h): it counts to what ends
 * the experiment, not to the runs planned so far.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/experiment/eta.h"

/* An adaptive experiment's options: 1 s runs, no caches dropped. */
static struct budget_opts adaptive(uint64_t budget_s, unsigned max_runs)
{
	struct budget_opts o;

	memset(&o, 0, sizeof(o));
	o.alpha = 0.05;
	o.precision = 0.02;
	o.budget_ns = budget_s * 1000000000ull;
	o.time_ns = 1000000000ull;
	o.max_runs = max_runs;
	return o;
}

/* The case: a 30 s budget, two arms of 1 s runs. At 25 s the
 * ETA is the budget's 5 s, and the total it implies stays at the budget
 * as blocks are added (the runs planned grew from 12 to 26). */
static void test_budget_total_stays(void **state)
{
	struct budget_opts o = adaptive(30, 30);
	const char *by;
	unsigned run;

	(void)state;
	for (run = 2; run <= 24; run += 2) {
		struct eta_in in = {
		    2,	 run, run < 12 ? 12 : run + 2, run / 2, (double)run + 1,
		    1.0, 0.5};
		double eta = experiment_eta(&o, &in, &by);

		assert_string_equal(by, "budget");
		assert_true(fabs(in.elapsed_s + eta - 30) < 1e-9);
	}
}

/* Fixed runs: what is left of them at the measured time. */
static void test_fixed(void **state)
{
	struct budget_opts o = adaptive(0, 30);
	struct eta_in in = {3, 4, 30, 1, 4.0, 0.5, -1};
	const char *by;

	(void)state;
	o.runs_fixed = 10;
	assert_true(fabs(experiment_eta(&o, &in, &by) - 13.0) < 1e-9);
	assert_string_equal(by, "runs");
}

/* No interval yet: the limit (--max-runs); with one, the blocks
 * --precision needs by its half-width, never past the limit. */
static void test_precision_and_limit(void **state)
{
	struct budget_opts o = adaptive(0, 30);
	struct eta_in in = {2, 2, 12, 1, 2.0, 1.0, -1};
	const char *by;
	double eta;

	(void)state;
	eta = experiment_eta(&o, &in, &by);
	assert_string_equal(by, "max-runs");
	assert_true(fabs(eta - (60 - 2)) < 1e-9);
	/* 4 blocks done at 3%: 4 * 1.5^2 = 9 blocks, 18 runs */
	in = (struct eta_in){2, 8, 12, 4, 8.0, 1.0, 0.03};
	eta = experiment_eta(&o, &in, &by);
	assert_string_equal(by, "precision");
	assert_true(fabs(eta - 10) < 1e-9);
	/* at 20% the precision wants 400 blocks: --max-runs stops it */
	in.halfwidth = 0.2;
	eta = experiment_eta(&o, &in, &by);
	assert_string_equal(by, "max-runs");
	assert_true(fabs(eta - 52) < 1e-9);
}

/* An I/O count before any run: not known. */
static void test_unknown(void **state)
{
	struct budget_opts o = adaptive(0, 30);
	struct eta_in in = {2, 0, 12, 0, 0.0, -1, -1};
	const char *by;

	(void)state;
	o.time_ns = 0;
	o.ios = 1000;
	assert_true(experiment_eta(&o, &in, &by) < 0);
	assert_null(by);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_budget_total_stays),
	    cmocka_unit_test(test_fixed),
	    cmocka_unit_test(test_precision_and_limit),
	    cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
