/*
 * Tests for core/series/series_plan.c: the order of boots (every block
 * holds each value once, a seed repeats it, groups map onto it from the
 * plan's start) and the at-boot unit's text (its ExecStart means exactly
 * the paths given; paths that could change it are refused).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/model/model_json.h"
#include "core/series/series_plan.h"
#include "util/banned.h"

/* Blocks hold each value once; a seed repeats the order. */
static void test_order(void **state)
{
	const char *v[] = {"a", "b", "c"};
	struct series_plan_doc p, q;
	struct strbuf err = STRBUF_INIT, tp = STRBUF_INIT, tq = STRBUF_INIT;
	size_t i, flips = 0;

	(void)state;
	assert_int_equal(series_plan_make(v, 3, 20, 42, 5, &p, &err), 0);
	assert_int_equal(series_plan_make(v, 3, 20, 42, 5, &q, &err), 0);
	series_plan_doc_encode(&p, MODEL_ENCODE_PLAIN, &tp);
	series_plan_doc_encode(&q, MODEL_ENCODE_PLAIN, &tq);
	assert_string_equal(tp.buf, tq.buf);
	assert_int_equal(p.nr_order, 60);
	for (i = 0; i < 60; i += 3) {
		int seen[3] = {0, 0, 0}, k;

		for (k = 0; k < 3; k++) {
			const char *t = p.order[i + (size_t)k];

			seen[t[0] - 'a']++;
		}
		assert_true(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
		flips += strcmp(p.order[i], "a") != 0;
	}
	/* randomized: not always the same first value */
	assert_true(flips > 0 && flips < 20);
	series_plan_doc_release(&p);
	series_plan_doc_release(&q);
	strbuf_release(&tp);
	strbuf_release(&tq);
	strbuf_release(&err);
}

/* Group numbers map onto the plan from its start; past it, ENOENT. */
static void test_next(void **state)
{
	const char *v[] = {"x", "y"};
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	struct series_plan_doc p;
	char *tag = NULL;
	int last = -1;
	const char *text;

	(void)state;
	assert_int_equal(series_plan_make(v, 2, 2, 1, 7, &p, &err), 0);
	series_plan_doc_encode(&p, MODEL_ENCODE_PLAIN, &sb);
	text = sb.buf;
	assert_string_equal(
	    text, "{\"start\":7,\"order\":[\"x\",\"y\",\"x\",\"y\"]}");
	assert_int_equal(series_plan_next(text, 6, &tag, &last), -ENOENT);
	assert_int_equal(series_plan_next(text, 7, &tag, &last), 0);
	assert_false(last);
	free(tag);
	assert_int_equal(series_plan_next(text, 10, &tag, &last), 0);
	assert_true(last);
	free(tag);
	assert_int_equal(series_plan_next(text, 11, &tag, &last), -ENOENT);
	assert_int_equal(series_plan_next("[1]", 1, &tag, &last), -EINVAL);
	assert_int_equal(
	    series_plan_next("{\"start\":1,\"order\":[3]}", 1, &tag, &last),
	    -EINVAL);
	series_plan_doc_release(&p);
	strbuf_release(&sb);
	strbuf_release(&err);
}

/* Bad plans are refused with a reason. */
static void test_refused(void **state)
{
	const char *one[] = {"a"}, *twice[] = {"a", "a"}, *empty[] = {"a", ""};
	struct strbuf err = STRBUF_INIT;
	struct series_plan_doc p;

	(void)state;
	assert_int_equal(series_plan_make(one, 1, 4, 1, 1, &p, &err), -EINVAL);
	assert_int_equal(series_plan_make(twice, 2, 4, 1, 1, &p, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "value 'a' is given twice"));
	assert_int_equal(series_plan_make(empty, 2, 4, 1, 1, &p, &err),
			 -EINVAL);
	assert_int_equal(series_plan_make(twice, 2, 0, 1, 1, &p, &err),
			 -EINVAL);
	assert_int_equal(p.nr_order, 0);
	strbuf_release(&err);
}

/* The unit runs exactly the paths given; '%' and '$' are doubled (a
 * '$' left alone is a variable to systemd); a name that is no series
 * name and a path that is not UTF-8 are refused. */
static void test_unit(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, name = STRBUF_INIT;
	static const char *const bad[] = {
	    "relative/db",
	    "/a b",
	    "/a\"b",
	    "/a'b",
	    "/a\\b",
	    "/a;b",
	    "/a\nb",
	    "/a\xff"
	    "b",
	    "/a\xc2\x85"
	    "b",
	};
	static const char *const bad_names[] = {
	    "", "k\n[Service]", "k%n", "k$X", "a b", "../k", "-k", ".k",
	};
	size_t i;

	(void)state;
	series_unit_name("k1", &name);
	assert_string_equal(name.buf, "iotrial-series-k1.service");
	assert_int_equal(series_unit_text("k1", "/usr/bin/iotrial",
					  "/srv/r%1.db", &out, &err),
			 0);
	assert_non_null(strstr(out.buf,
			       "\nExecStart=/usr/bin/iotrial series k1 run "
			       "--planned --at-boot --db /srv/r%%1.db\n"));
	assert_non_null(strstr(out.buf, "\nType=oneshot\n"));
	assert_non_null(strstr(out.buf, "\nWantedBy=multi-user.target\n"));
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		strbuf_reset(&out);
		assert_int_equal(series_unit_text("k1", "/usr/bin/iotrial",
						  bad[i], &out, &err),
				 -EINVAL);
		assert_int_equal(
		    series_unit_text("k1", bad[i], "/srv/r.db", &out, &err),
		    -EINVAL);
		assert_int_equal(out.len, 0);
	}
	for (i = 0; i < sizeof(bad_names) / sizeof(*bad_names); i++) {
		assert_int_equal(series_unit_text(bad_names[i],
						  "/usr/bin/iotrial",
						  "/srv/r.db", &out, &err),
				 -EINVAL);
		assert_int_equal(out.len, 0);
	}
	assert_int_equal(series_unit_text("k.1_a-b", "/opt/caf\xc3\xa9/iotrial",
					  "/srv/$HOME/r${X}.db", &out, &err),
			 0);
	assert_non_null(strstr(out.buf, "\nExecStart=/opt/caf\xc3\xa9/iotrial "
					"series k.1_a-b run --planned "
					"--at-boot --db "
					"/srv/$$HOME/r$${X}.db\n"));
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_order),
	    cmocka_unit_test(test_next),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
