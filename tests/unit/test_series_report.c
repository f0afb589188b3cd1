/*
 * Tests for core/series/series_report.c on a real store: iterations
 * saved as one-run experiments and recorded as a series, read back and
 * compared. Two builds of one kernel release (a patched kernel that
 * kept its release) are two kernels; the slower build is found slower
 * with 4 boots a side and sets the regression flag; the table has the
 * field note's rows; a baseline that is no value is refused with the
 * values; the JSON says the same as the text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/series/series_report.h"
#include "core/store/store.h"
#include "store_save_helper.h"
#include "core/store/store_series.h"
#include "util/banned.h"

struct fx {
	char dir[64];
	char db[128];
	struct store s;
	struct strbuf err;
};

/* A one-run experiment of iops v, as `run` stores it. */
static void save_iteration(struct fx *f, const char *id, double v)
{
	struct strbuf e = STRBUF_INIT;
	char got[STORE_ID_LEN + 1];

	strbuf_addf(
	    &e,
	    "{\"schema\":\"iotrial/1\",\"type\":\"experiment\",\"id\":"
	    "\"%s\",\"workload\":\"seqread\",\"target\":\"/srv\",\"arms\":"
	    "[{\"arm\":0,\"label\":\"run\"}],\"runs\":[{\"arm\":0,\"seq\":0,"
	    "\"metric\":%.17g,\"run\":{\"metric\":{\"name\":\"iops\","
	    "\"higher_is_better\":true,\"value\":%.17g},\"cpu\":{\"user_s\":"
	    "18.9,\"sys_s\":7.7},\"seconds\":163.8}}]}",
	    id, v, v);
	assert_int_equal(save_text(&f->s, e.buf, got, &f->err), 0);
	strbuf_release(&e);
}

/*
 * Eight boots of series k, alternating builds #1 and #2 of release
 * 6.1.0, three iterations each; build #2 is 10% slower, each boot has
 * its own luck (+-3%) shared by its iterations.
 */
static int setup(void **state)
{
	static const double luck[8] = {1.00, 0.97, 1.03, 1.01,
				       0.98, 1.02, 0.99, 1.00};
	struct fx *f = calloc(1, sizeof(*f));
	int b, i;

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_series_report.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->db, sizeof(f->db), "%s/results.db", f->dir);
	strbuf_init(&f->err, 0);
	assert_int_equal(store_open(&f->s, f->db, &f->err), 0);
	assert_int_equal(
	    store_series_define(&f->s, "k", "[\"seqread\"]", &f->err), 0);
	for (b = 0; b < 8; b++) {
		char boot[32];
		struct series_tags t = {boot, "6.1.0",
					b % 2 ? "#2 SMP" : "#1 SMP",
					b % 2 ? "with" : "without", NULL};

		snprintf(boot, sizeof(boot), "boot-%d", b);
		for (i = 0; i < 3; i++) {
			char id[16];

			snprintf(id, sizeof(id), "%08x", (unsigned)(b * 3 + i));
			save_iteration(f, id,
				       (b % 2 ? 900.0 : 1000.0) * luck[b] +
					   (double)i);
			assert_int_equal(store_series_add(&f->s, "k", b + 1,
							  i + 1, id, &t,
							  &f->err),
					 0);
		}
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[128];

	store_close(&f->s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	strbuf_release(&f->err);
	free(f);
	return 0;
}

/* By kernel: the two builds are two kernels; #2 is slower. */
static void test_by_kernel(void **state)
{
	struct series_report_opts o = {SERIES_BY_KERNEL, NULL, 0.95, 0.02};
	struct strbuf text = STRBUF_INIT;
	struct series_doc j;
	const struct series_comparison_doc *c0;
	struct fx *f = *state;
	int regression = -1;

	series_doc_init(&j);
	assert_int_equal(
	    series_report(&f->s, "k", &o, &text, &j, &regression, &f->err), 0);
	assert_int_equal(regression, 1);
	assert_non_null(strstr(text.buf, "series k: 24 iterations in 8 boots, "
					 "iops (higher is better), by kernel"));
	assert_non_null(strstr(text.buf, "\n6.1.0 #1 SMP     4     12  "
					 "baseline\n"));
	assert_non_null(strstr(text.buf, "\n6.1.0 #2 SMP     4     12  0.9"));
	assert_non_null(
	    strstr(text.buf, "\treal   2m43.800s   2m43.800s   2m43.800s\n"));
	assert_non_null(
	    strstr(text.buf, "\tuser   0m18.900s   0m18.900s   0m18.900s\n"));
	assert_non_null(strstr(text.buf, "\tDevice:        tps    MB_read/s"));
	/* the metric's row in one number format, aligned under real's
	 * columns (%g gave "1000" beside "1001.5") */
	assert_non_null(
	    strstr(text.buf, "\tiops      1000.0      1001.0      1002.0\n"));
	assert_null(strstr(text.buf, "note: ")); /* every group its own boot */
	assert_int_equal(j.nr_comparisons, 1);
	c0 = &j.comparisons[0];
	assert_string_equal(c0->verdict, "slower");
	assert_string_equal(c0->value, "6.1.0 #2 SMP");
	assert_int_equal(c0->boots, 4);
	/* 4 boots all apart: the exact two-sided p is 2/70 */
	assert_true(fabs(c0->p - 2.0 / 70.0) < 1e-9);
	series_doc_release(&j);
	strbuf_release(&text);
}

/* By tag with the slower one as baseline: faster, no regression. */
static void test_baseline(void **state)
{
	struct series_report_opts o = {SERIES_BY_TAG, "with", 0.95, 0.02};
	struct strbuf text = STRBUF_INIT;
	struct fx *f = *state;
	int regression = -1;

	assert_int_equal(
	    series_report(&f->s, "k", &o, &text, NULL, &regression, &f->err),
	    0);
	assert_int_equal(regression, 0);
	assert_non_null(strstr(text.buf, "\nwithout      4     12  1.1"));
	assert_non_null(strstr(text.buf, "faster"));
	o.baseline = "nope";
	strbuf_reset(&text);
	assert_int_equal(
	    series_report(&f->s, "k", &o, &text, NULL, &regression, &f->err),
	    -EINVAL);
	assert_string_equal(f->err.buf, "--baseline 'nope' is no tag of series "
					"'k'; its tags are: 'without', 'with'");
	strbuf_release(&text);
}

/* By boot: eight values of one boot each, no verdict for any. */
static void test_by_boot(void **state)
{
	struct series_report_opts o = {SERIES_BY_BOOT, NULL, 0.95, 0.02};
	struct strbuf text = STRBUF_INIT;
	struct fx *f = *state;
	int regression = -1;

	assert_int_equal(
	    series_report(&f->s, "k", &o, &text, NULL, &regression, &f->err),
	    0);
	assert_int_equal(regression, 0);
	assert_non_null(strstr(text.buf, "no verdict with fewer than 4 boots"));
	assert_null(strstr(text.buf, "slower  "));
	/* one boot a side: no interval of one point, no spread of 0.00%
	 * between boots (field note 004's five without, five with) */
	assert_non_null(strstr(text.buf, " (no CI) "));
	assert_null(strstr(text.buf, "boot-to-boot sd 0.00%"));
	assert_non_null(strstr(text.buf, "boot-to-boot sd unknown (one boot "
					 "each of 'boot-0' and 'boot-1')"));
	strbuf_release(&text);
}

/* No such series, or none of its iterations yet: -ENOENT. */
static void test_missing(void **state)
{
	struct series_report_opts o = {SERIES_BY_KERNEL, NULL, 0.95, 0.02};
	struct strbuf text = STRBUF_INIT;
	struct fx *f = *state;
	int regression;

	assert_int_equal(
	    series_report(&f->s, "x", &o, &text, NULL, &regression, &f->err),
	    -ENOENT);
	assert_int_equal(
	    store_series_define(&f->s, "empty", "[\"seqread\"]", &f->err), 0);
	assert_int_equal(series_report(&f->s, "empty", &o, &text, NULL,
				       &regression, &f->err),
			 -ENOENT);
	assert_non_null(strstr(f->err.buf, "has no iterations yet"));
	strbuf_release(&text);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
	    T(test_by_kernel),
	    T(test_baseline),
	    T(test_by_boot),
	    T(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
