/*
 * Tests for core/report/runs_text.c: one row per run in run order with
 * block, arm, metric, real/user/sys as time(1) prints them and the
 * device's iostat columns; nothing for an experiment without runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/report/runs_text.h"
#include "report_doc_helper.h"
#include "report_fixture.h"
#include "util/banned.h"

static void test_rows(void **state)
{
	struct json_object *e = fixture_experiment();
	struct strbuf out = STRBUF_INIT;
	struct report_run r;
	struct experiment_doc doc;
	const char *first, *last;

	(void)state;
	doc_of(e, &doc);
	assert_int_equal(doc.nr_runs, 4);
	assert_int_equal(report_run_get(&doc, 1, &r), 0);
	assert_int_equal(r.arm, 1);
	assert_string_equal(r.device, "vdb");
	assert_true(r.tps > 300.9 && r.tps < 301.1);
	assert_int_equal(report_run_get(&doc, 4, &r), -ENOENT);
	experiment_doc_release(&doc);
	page_of(e, REPORT_SEC(runs), &out);
	assert_non_null(strstr(out.buf, "\nruns, in the order they ran:\n"
					"block  arm"));
	assert_non_null(strstr(out.buf, " MB_read/s  MB_wrtn/s   MB_read"
					"   MB_wrtn\n"));
	first = strstr(out.buf, "    0  bs=4k label=a");
	last = strstr(out.buf, "    1  bs=4k label=a");
	assert_non_null(first);
	assert_non_null(last);
	assert_true(first < strstr(out.buf, "    0  bs=8k"));
	assert_true(strstr(out.buf, "    1  bs=8k") < last);
	assert_non_null(strstr(first, "0m1.500s"));
	assert_non_null(strstr(first, "0m0.250s"));
	assert_non_null(strstr(first, "   301.00      18.60       0.10      "
				      "4269      4108\n"));
	json_object_put(e);
	strbuf_reset(&out);
	e = json_tokener_parse("{\"arms\": [], \"runs\": []}");
	page_of(e, REPORT_SEC(runs), &out);
	assert_int_equal(out.len, 0);
	json_object_put(e);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
