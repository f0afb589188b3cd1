/*
 * Tests for core/experiment/covariates.c: what a run's covariates are,
 * read from its run object.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "core/experiment/covariates.h"
#include "util/banned.h"

/* A run object of seconds s whose CPUs had total_s, steal_s of it
 * stolen, and whose sampler saw the others' I/O and run queue. */
static struct json_object *run_of(double s, double total_s, double steal_s)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "{\"seconds\": %g, \"cpu\": {\"system_total_s\": %g, "
		 "\"system_steal_s\": %g}, \"truth\": {\"sampler\": "
		 "{\"runnable_mean\": 3.5, \"runnable_ours\": 1.25, "
		 "\"others_read_bytes\": 1000000, \"others_write_bytes\": "
		 "3000000}}}",
		 s, total_s, steal_s);
	return json_tokener_parse(text);
}

/* Each covariate from the members it is made of. */
static void test_covariates(void **state)
{
	struct json_object *run = run_of(2, 4, 0.2);
	double cov[RUN_NR_COV];

	(void)state;
	run_covariates(run, cov);
	assert_string_equal(run_cov_names[0], "steal");
	assert_float_equal(cov[0], 0.05, 1e-12);
	assert_float_equal(cov[1], 2.25, 1e-12);
	assert_float_equal(cov[2], 2.0, 1e-12);
	json_object_put(run);
	run_covariates(NULL, cov);
	assert_true(isnan(cov[0]) && isnan(cov[1]) && isnan(cov[2]));
}

/*
 * Steal is counted in clock ticks: a run of 0.3 s on 2 CPUs (0.6 s of
 * CPU time) gets 0 or 1 of them, and whether it gets one followed how
 * busy the arm kept its CPU (compare --metric p99 of bs=64M against 4k:
 * 1 tick in half the 64M runs, none in the 4k ones; adjusted for it,
 * a p99 58 times higher was inconclusive). Below 1 s of CPU time it is
 * not a measurement.
 */
static void test_steal_too_short(void **state)
{
	struct json_object *run = run_of(0.3, 0.6, 0.01);
	double cov[RUN_NR_COV];

	(void)state;
	run_covariates(run, cov);
	assert_true(isnan(cov[0]));
	assert_false(isnan(cov[1]));
	json_object_put(run);
	run = run_of(0.5, 1.0, 0.01);
	run_covariates(run, cov);
	assert_float_equal(cov[0], 0.01, 1e-12);
	json_object_put(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_covariates),
	    cmocka_unit_test(test_steal_too_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
