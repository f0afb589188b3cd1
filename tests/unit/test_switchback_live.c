/*
 * Tests for core/live's window sources and abort rules: a log followed
 * as it grows (counted per second, a group's numbers averaged, a
 * partial line kept for the next window, truncation and replacement),
 * a command's number (a gauge, a counter differenced per second, a
 * failure), the metric table, and the --abort-if rules (absolute with
 * units, relative to the baseline, refused forms).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/live/abort.h"
#include "core/live/window.h"
#include "util/banned.h"

static char dir[] = "/tmp/test_switchback_live.XXXXXX";

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Two readings one second apart (no device). */
static void readings(struct lw_reading *a, struct lw_reading *b)
{
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	b->t_ns = 1000000000ull;
}

static void test_log_count(void **state)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct lw_source src;
	struct lw_reading a, b;
	struct lw_measure m;

	(void)state;
	strbuf_addf(&path, "%s/count.log", dir);
	append(path.buf, "saved crash 1\nold line\n");
	assert_int_equal(lw_source_file(&src, path.buf, "saved crash", &err),
			 0);
	assert_false(src.extract);
	/* followed from its end: what was there does not count */
	assert_int_equal(lw_source_start(&src, &err), 0);
	append(path.buf, "saved crash 2\nnoise\nsaved crash 3\nsaved cr");
	readings(&a, &b);
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), 0);
	assert_true(m.user_ok);
	assert_float_equal(m.user, 2.0, 1e-9);
	assert_float_equal(lw_metric(&m, "metric"), 2.0, 1e-9);
	/* the partial line completes in the next window */
	append(path.buf, "ash 4\n");
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), 0);
	assert_float_equal(m.user, 1.0, 1e-9);
	/* truncated (logrotate copytruncate): read from the start */
	assert_int_equal(truncate(path.buf, 0), 0);
	append(path.buf, "saved crash 5\n");
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), 0);
	assert_float_equal(m.user, 1.0, 1e-9);
	/* replaced (rename and create): the new file from its start */
	assert_int_equal(unlink(path.buf), 0);
	append(path.buf, "saved crash 6\nsaved crash 7\nsaved crash 8\n");
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), 0);
	assert_float_equal(m.user, 3.0, 1e-9);
	lw_source_release(&src);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&err);
}

static void test_log_extract(void **state)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct lw_source src;
	struct lw_reading a, b;
	struct lw_measure m;

	(void)state;
	strbuf_addf(&path, "%s/extract.log", dir);
	append(path.buf, "");
	assert_int_equal(
	    lw_source_file(&src, path.buf, "took ([0-9.]+) ms", &err), 0);
	assert_true(src.extract);
	assert_int_equal(lw_source_start(&src, &err), 0);
	append(path.buf, "dump took 10 ms\ndump took 30 ms\nother\n");
	readings(&a, &b);
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), 0);
	assert_float_equal(m.user, 20.0, 1e-9);
	/* a window without a number says so */
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), -ENODATA);
	assert_false(m.user_ok);
	lw_source_release(&src);
	assert_int_equal(lw_source_file(&src, path.buf, "(", &err), -EINVAL);
	lw_source_release(&src);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&err);
}

static void test_cmd(void **state)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT, cmd = STRBUF_INIT;
	struct lw_source src;
	struct lw_reading a, b;
	struct lw_measure m;

	(void)state;
	readings(&a, &b);
	assert_int_equal(lw_source_cmd(&src, "echo ' 42.5 '", false, &err), 0);
	assert_int_equal(lw_source_start(&src, &err), 0);
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), 0);
	assert_float_equal(m.user, 42.5, 1e-9);
	lw_source_release(&src);
	/* a counter: differenced, per second */
	strbuf_addf(&path, "%s/counter", dir);
	append(path.buf, "100\n");
	strbuf_addf(&cmd, "tail -n 1 %s", path.buf);
	assert_int_equal(lw_source_cmd(&src, cmd.buf, true, &err), 0);
	assert_int_equal(lw_source_start(&src, &err), 0);
	append(path.buf, "130\n");
	b.t_ns = 2000000000ull;
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), 0);
	assert_float_equal(m.user, 15.0, 1e-9);
	/* going back is refused, not taken as a negative rate */
	append(path.buf, "10\n");
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), -ERANGE);
	assert_false(m.user_ok);
	lw_source_release(&src);
	assert_int_equal(lw_source_cmd(&src, "exit 3", false, &err), 0);
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), -EIO);
	lw_source_release(&src);
	assert_int_equal(lw_source_cmd(&src, "echo none", false, &err), 0);
	assert_int_equal(lw_measure(&a, &b, &src, &m, &err), -EINVAL);
	lw_source_release(&src);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&cmd);
	strbuf_release(&err);
}

static void test_abort_rules(void **state)
{
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct lw_abort r;

	(void)state;
	assert_int_equal(lw_abort_parse(&r, "w_await>50ms", &err), 0);
	assert_true(r.above);
	assert_false(r.relative);
	assert_float_equal(r.limit, 50, 0);
	assert_false(lw_abort_fires(&r, 49, NAN, &why));
	assert_true(lw_abort_fires(&r, 61.2, NAN, &why));
	assert_string_equal(why.buf, "w_await 61.2 ms > 50 ms");
	lw_abort_release(&r);
	assert_int_equal(lw_abort_parse(&r, "await>0.1s", &err), 0);
	assert_float_equal(r.limit, 100, 1e-9);
	lw_abort_release(&r);
	assert_int_equal(lw_abort_parse(&r, "metric<0.8x baseline", &err), 0);
	assert_true(r.relative);
	assert_false(r.above);
	/* no baseline yet: cannot fire */
	assert_false(lw_abort_fires(&r, 1, NAN, &why));
	assert_false(lw_abort_fires(&r, 81, 100, &why));
	strbuf_reset(&why);
	assert_true(lw_abort_fires(&r, 79, 100, &why));
	assert_non_null(strstr(why.buf, "0.8x the baseline's 100"));
	lw_abort_release(&r);
	assert_int_equal(lw_abort_parse(&r, "p99>2x baseline", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "percentiles"));
	lw_abort_release(&r);
	assert_int_equal(lw_abort_parse(&r, "speed>3", &err), -EINVAL);
	lw_abort_release(&r);
	assert_int_equal(lw_abort_parse(&r, "iops>3ms", &err), -EINVAL);
	lw_abort_release(&r);
	assert_int_equal(lw_abort_parse(&r, ">3", &err), -EINVAL);
	lw_abort_release(&r);
	strbuf_release(&err);
	strbuf_release(&why);
}

static void test_metrics(void **state)
{
	struct lw_measure m;
	bool hib;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.have_disk = true;
	m.d.reads = 10;
	m.d.writes = 30;
	m.d.r_await_ms = 2;
	m.d.w_await_ms = 6;
	m.d.r_s = 10;
	m.d.w_s = 30;
	assert_float_equal(lw_metric(&m, "await"), 5.0, 1e-9);
	assert_float_equal(lw_metric(&m, "iops"), 40.0, 1e-9);
	assert_true(isnan(lw_metric(&m, "metric")));
	assert_true(lw_metric_known("w_await", &hib, NULL));
	assert_false(hib);
	assert_false(lw_metric_known("p99", NULL, NULL));
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

/* Run the tests; cmocka prints one line per test. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_log_count),
	    cmocka_unit_test(test_log_extract),
	    cmocka_unit_test(test_cmd),
	    cmocka_unit_test(test_abort_rules),
	    cmocka_unit_test(test_metrics),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
