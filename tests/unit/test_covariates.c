/*
 * Tests for core/experiment/covariates.c: what a run's covariates are,
 * read from its run document, and which an experiment's runs carry.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "core/experiment/covariates.h"
#include "core/model/model_json.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A run document of seconds s whose CPUs had total_s, steal_s of it
 * stolen, and whose sampler saw the others' I/O and run queue; free
 * it with run_doc_free(). */
static struct run_doc *run_of(double s, double total_s, double steal_s)
{
	struct strbuf err = STRBUF_INIT;
	struct run_doc *doc = xcalloc(1, sizeof(*doc));
	char text[512];

	snprintf(text, sizeof(text),
		 "{\"schema\": \"iotrial/1\", \"seconds\": %g, \"cpu\": "
		 "{\"system_total_s\": %g, "
		 "\"system_steal_s\": %g}, \"truth\": {\"sampler\": "
		 "{\"runnable_mean\": 3.5, \"runnable_ours\": 1.25, "
		 "\"others_read_bytes\": 1000000, \"others_write_bytes\": "
		 "3000000}}}",
		 s, total_s, steal_s);
	if (run_doc_decode(text, strlen(text), doc, 0, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&err);
	return doc;
}

/* Each covariate from the members it is made of. */
static void test_covariates(void **state)
{
	struct run_doc *run = run_of(2, 4, 0.2);
	double cov[RUN_NR_COV];

	(void)state;
	run_covariates(run, cov);
	assert_string_equal(run_cov_names[0], "steal");
	assert_float_equal(cov[0], 0.05, 1e-12);
	assert_float_equal(cov[1], 2.25, 1e-12);
	assert_float_equal(cov[2], 2.0, 1e-12);
	run_doc_free(run);
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
	struct run_doc *run = run_of(0.3, 0.6, 0.01);
	double cov[RUN_NR_COV];

	(void)state;
	run_covariates(run, cov);
	assert_true(isnan(cov[0]));
	assert_false(isnan(cov[1]));
	run_doc_free(run);
	run = run_of(0.5, 1.0, 0.01);
	run_covariates(run, cov);
	assert_float_equal(cov[0], 0.01, 1e-12);
	run_doc_free(run);
}

/* A run entry of an experiment: the run doc (may be NULL) and, when
 * names is not NULL, nr covariates by name. */
static void entry_of(struct exp_run *e, struct run_doc *doc,
		     const char *const *names, const double *values, size_t nr)
{
	size_t c;

	memset(e, 0, sizeof(*e));
	e->run = doc;
	if (!names)
		return;
	e->has_covariates = MODEL_SET;
	e->covariates = xcalloc(nr + 1, sizeof(*e->covariates));
	e->nr_covariates = nr;
	for (c = 0; c < nr; c++) {
		e->covariates[c].name = xstrdup(names[c]);
		e->covariates[c].value = values[c];
	}
}

/* Free what entry_of() made. */
static void entry_free(struct exp_run *e)
{
	size_t c;

	for (c = 0; c < e->nr_covariates; c++)
		free(e->covariates[c].name);
	free(e->covariates);
	run_doc_free(e->run);
}

/*
 * The runs' covariates are the names of the first run entry that has
 * "covariates", each run's by name (NaN where one lacks it or has none);
 * without any, each run's from its run document.
 */
static void test_runs_covariates(void **state)
{
	static const char *const first[] = {"t_s", "log_load"};
	static const char *const other[] = {"log_load", "zz"};
	static const double v1[] = {1, 2}, v2[] = {3, 4};
	struct exp_run runs[3];
	const char *names[RUN_MAX_COV];
	double cov[3 * RUN_MAX_COV];
	unsigned nr = 0, i;

	(void)state;
	entry_of(&runs[0], run_of(2, 4, 0.2), NULL, NULL, 0);
	entry_of(&runs[1], NULL, first, v1, 2);
	entry_of(&runs[2], NULL, other, v2, 2);
	runs_covariates(runs, 3, cov, names, &nr);
	assert_int_equal(nr, 2);
	assert_string_equal(names[0], "t_s");
	assert_string_equal(names[1], "log_load");
	assert_true(isnan(cov[0]) && isnan(cov[1]));
	assert_float_equal(cov[2], 1, 0);
	assert_float_equal(cov[3], 2, 0);
	assert_true(isnan(cov[4]));
	assert_float_equal(cov[5], 3, 0);
	for (i = 0; i < 3; i++)
		entry_free(&runs[i]);

	entry_of(&runs[0], run_of(2, 4, 0.2), NULL, NULL, 0);
	entry_of(&runs[1], NULL, NULL, NULL, 0);
	runs_covariates(runs, 2, cov, names, &nr);
	assert_int_equal(nr, RUN_NR_COV);
	assert_string_equal(names[2], "others_io_mbps");
	assert_float_equal(cov[0], 0.05, 1e-12);
	assert_float_equal(cov[2], 2.0, 1e-12);
	assert_true(isnan(cov[3]) && isnan(cov[4]) && isnan(cov[5]));
	for (i = 0; i < 2; i++)
		entry_free(&runs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_covariates),
	    cmocka_unit_test(test_steal_too_short),
	    cmocka_unit_test(test_runs_covariates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
