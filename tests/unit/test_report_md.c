/*
 * Tests for the Markdown page (core/report/emit_md.c): escaping a string for a
 * Markdown table cell, and an experiment as Markdown: the verdict table with as
 * many cells in every row, the hostile label unable to split a cell or
 * open a tag, the warnings and the environment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/report/report_formats.h"
#include "core/report/fmt.h"
#include "report_doc_helper.h"
#include "report_fixture.h"
#include "util/banned.h"

static void esc(const char *in, const char *want)
{
	struct strbuf out = STRBUF_INIT;

	report_md_escape(&out, in);
	assert_string_equal(out.buf, want);
	strbuf_release(&out);
}

static void test_escape(void **state)
{
	(void)state;
	esc("scheduler=mq-deadline", "scheduler=mq-deadline");
	esc("a|b", "a\\|b");
	esc("*bold* _em_ `code` [link](x) ~s~",
	    "\\*bold\\* \\_em\\_ \\`code\\` "
	    "\\[link\\](x) \\~s\\~");
	esc("<img src=x> & co", "&lt;img src=x&gt; &amp; co");
	esc("two\nlines\r\tx", "two lines  x");
	esc("back\\slash", "back\\\\slash");
}

/* The number of unescaped '|' in the line at s (up to its newline). */
static int pipes(const char *s)
{
	int n = 0;

	for (; *s && *s != '\n'; s++)
		if (*s == '\\' && s[1])
			s++;
		else if (*s == '|')
			n++;
	return n;
}

static void test_experiment(void **state)
{
	struct json_object *e = fixture_experiment();
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *head, *row;

	(void)state;
	assert_int_equal(render_of(e, "md", &out, &err), 0);
	assert_non_null(strstr(out.buf, "## experiment 3f9a1c2e: randread on "
					"/srv, iops (higher is better)\n"));
	head = strstr(out.buf, "| arm | median |");
	assert_non_null(head);
	row = strstr(out.buf, "| bs=8k label=x\"&lt;img src=x "
			      "onerror=alert(1)&gt;\\|\\*\\_\\`,y |");
	assert_non_null(row);
	assert_int_equal(pipes(row), pipes(head));
	assert_int_equal(pipes(strstr(out.buf, "| bs=4k label=a |")),
			 pipes(head));
	assert_non_null(strstr(row, "**faster**"));
	assert_null(strstr(out.buf, "<img"));
	assert_null(strstr(out.buf, "<script"));
	assert_non_null(strstr(out.buf, "### Warnings (1)\n\n- ⚠ "
					"&lt;script&gt;alert(2)&lt;/script&gt; "
					"&amp; a warning\n"));
	assert_non_null(strstr(out.buf, "### Environment"));
	assert_non_null(strstr(out.buf, "| host | host&lt;1&gt; |\n"));
	assert_non_null(strstr(out.buf, "| kernel | 6.1.0 x86\\_64 |\n"));
	json_object_put(e);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* A file workload: its other metrics and its latency per operation are
 * tables of their own, with as many cells in each row as the header. */
static void test_file_ops(void **state)
{
	struct json_object *e = json_tokener_parse(
	    "{\"workload\": \"crashdump\", \"metric\": {\"name\": "
	    "\"dumps_per_min\"}, \"metrics\": [{\"name\": \"dumps_per_min\", "
	    "\"shown\": true}, {\"name\": \"iops\", \"unit\": \"IO/s\", "
	    "\"shown\": true}], \"baseline\": 0, \"arms\": [{\"arm\": 0, "
	    "\"label\": \"a|b\", \"median\": 10, \"metrics\": {\"iops\": "
	    "1234}}], \"runs\": [{\"arm\": 0, \"block\": 0, \"metric\": 10, "
	    "\"run\": {\"file_ops\": {\"write_dump\": {\"count\": 3, "
	    "\"errors\": 0, \"mean_us\": 20, \"p50_us\": 10, \"p99_us\": 40, "
	    "\"max_us\": 50}}}}], \"verdicts\": []}");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *head, *row;

	(void)state;
	assert_int_equal(render_of(e, "md", &out, &err), 0);
	head = strstr(out.buf, "| arm | iops (IO/s) |\n");
	assert_non_null(head);
	row = strstr(out.buf, "| a\\|b | 1234 |\n");
	assert_non_null(row);
	assert_int_equal(pipes(row), pipes(head));
	head = strstr(out.buf, "| arm | operation | count |");
	assert_non_null(head);
	row = strstr(out.buf, "| a\\|b | write\\_dump | 3 | 20 us | 10 us | "
			      "40 us | 50 us | 0 |\n");
	assert_non_null(row);
	assert_int_equal(pipes(row), pipes(head));
	json_object_put(e);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape),
	    cmocka_unit_test(test_experiment),
	    cmocka_unit_test(test_file_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
