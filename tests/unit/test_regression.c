/*
 * The regression policy (experiment/regression.c): which verdicts of an
 * experiment document make --fail-on-regression fail, with --strict and
 * with the old way (every slower arm counts); what a verdict's reasons
 * to be suspect are, from its "suspect" member or, for one stored
 * before verdicts had them, from its arms' runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "core/experiment/regression.h"
#include "core/model/model_json.h"
#include "util/strbuf.h"

/* The head of an experiment; hib is "true" or "false". */
#define HEAD(hib)                                                              \
	"{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "               \
	"\"id\": \"abcd1234\", \"metric\": {\"name\": \"iops\", "              \
	"\"higher_is_better\": " hib "}, \"baseline\": 0, "                    \
	"\"arms\": [{\"arm\": 0, \"label\": \"a=1\"}, {\"arm\": 1, "           \
	"\"label\": \"a=2\"}, {\"arm\": 2, \"label\": \"a=3\"}], "

/* A reason of kind k for the arm in role r. */
#define REASON(r, k)                                                           \
	"{\"arm\": \"" r "\", \"label\": \"a=2\", \"kind\": \"" k "\", "       \
	"\"runs\": 4, \"of\": 4}"

/* A verdict of arm n with ratio x and the reasons s (a JSON array, or
 * NULL: none stored). */
static void verdict(struct strbuf *sb, int n, const char *word, double x,
		    const char *s)
{
	strbuf_addf(sb,
		    "%s{\"arm\": %d, \"label\": \"a=%d\", \"baseline\": "
		    "\"a=1\", \"ratio\": %g, \"ci_low\": 0.5, \"ci_high\": 2, "
		    "\"p\": 0.01, \"p_adjusted\": 0.01, \"test\": \"t\", "
		    "\"verdict\": \"%s\"",
		    n > 1 ? ", " : "", n, n + 1, x, word);
	if (s)
		strbuf_addf(sb, ", \"suspect\": %s", s);
	strbuf_addch(sb, '}');
}

/* Decode head + "verdicts" v + rest into doc. */
static void make(struct experiment_doc *doc, const char *head, const char *v,
		 const char *rest)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_addf(&text, "%s\"verdicts\": [%s]%s}", head, v, rest);
	if (experiment_doc_decode(text.buf, text.len, doc, 0, &err))
		fail_msg("%s: %s", err.buf, text.buf);
	strbuf_release(&text);
	strbuf_release(&err);
}

/* A clean slower arm counts; a clean faster one or an equivalent one
 * does not; nothing is said about either. */
static void test_clean(void **state)
{
	struct strbuf v = STRBUF_INIT;
	struct experiment_doc doc;
	struct regression_gate g;

	(void)state;
	verdict(&v, 1, "faster", 1.3, "[]");
	verdict(&v, 2, "equivalent", 1.0, "[]");
	make(&doc, HEAD("true"), v.buf, "");
	regression_check(&doc, REGRESSION_STRICT, &g);
	assert_false(g.regression);
	assert_int_equal(g.nr_suspects, 0);
	regression_gate_release(&g);
	experiment_doc_release(&doc);

	strbuf_reset(&v);
	verdict(&v, 1, "faster", 1.3, "[]");
	verdict(&v, 2, "slower", 0.7, "[]");
	make(&doc, HEAD("true"), v.buf, "");
	regression_check(&doc, 0, &g);
	assert_true(g.regression);
	assert_int_equal(g.nr_suspects, 0);
	regression_gate_release(&g);
	experiment_doc_release(&doc);
	strbuf_release(&v);
}

/*
 * A suspect slower arm: not counted without --strict (and said), counted
 * with it; counted silently the old way. A suspect arm whose estimate
 * is slower counts under --strict whatever its verdict word.
 */
static void test_suspect(void **state)
{
	struct strbuf v = STRBUF_INIT;
	struct experiment_doc doc;
	struct regression_gate g;

	(void)state;
	verdict(&v, 1, "slower", 0.7,
		"[" REASON("arm", "page_cache") ", " REASON(
		    "baseline", "page_cache") ", " REASON("arm", "short") "]");
	make(&doc, HEAD("true"), v.buf, "");
	regression_check(&doc, 0, &g);
	assert_false(g.regression);
	assert_int_equal(g.nr_suspects, 1);
	assert_string_equal(g.suspects[0].label, "a=2");
	assert_string_equal(g.suspects[0].kinds, "page_cache, short");
	assert_false(g.suspects[0].counted);
	regression_gate_release(&g);

	regression_check(&doc, REGRESSION_STRICT, &g);
	assert_true(g.regression);
	assert_int_equal(g.nr_suspects, 1);
	assert_true(g.suspects[0].counted);
	regression_gate_release(&g);

	regression_check(&doc, REGRESSION_COUNT_FLAGGED, &g);
	assert_true(g.regression);
	assert_int_equal(g.nr_suspects, 0);
	regression_gate_release(&g);
	experiment_doc_release(&doc);

	/* --strict made it "suspect": its estimate still decides */
	strbuf_reset(&v);
	verdict(&v, 1, "suspect", 0.9, "[" REASON("arm", "short") "]");
	verdict(&v, 2, "suspect", 1.2, "[" REASON("arm", "short") "]");
	make(&doc, HEAD("true"), v.buf, "");
	regression_check(&doc, REGRESSION_STRICT, &g);
	assert_true(g.regression);
	assert_int_equal(g.nr_suspects, 1);
	assert_string_equal(g.suspects[0].label, "a=2");
	regression_gate_release(&g);
	regression_check(&doc, 0, &g);
	assert_false(g.regression);
	assert_int_equal(g.nr_suspects, 0);
	regression_gate_release(&g);
	experiment_doc_release(&doc);
	strbuf_release(&v);
}

/* Lower is better: an estimate above 1 is the slower way. */
static void test_lower_is_better(void **state)
{
	struct strbuf v = STRBUF_INIT;
	struct experiment_doc doc;
	struct regression_gate g;

	(void)state;
	verdict(&v, 1, "suspect", 1.2, "[" REASON("arm", "short") "]");
	verdict(&v, 2, "suspect", 0.8, "[" REASON("arm", "short") "]");
	make(&doc, HEAD("false"), v.buf, "");
	assert_true(regression_estimate_slower(&doc, &doc.verdicts[0]));
	assert_false(regression_estimate_slower(&doc, &doc.verdicts[1]));
	regression_check(&doc, REGRESSION_STRICT, &g);
	assert_true(g.regression);
	assert_int_equal(g.nr_suspects, 1);
	assert_string_equal(g.suspects[0].label, "a=2");
	regression_gate_release(&g);
	experiment_doc_release(&doc);
	strbuf_release(&v);
}

/* A verdict stored before verdicts had reasons gets them from its
 * arms' runs: the arm's runs measured the page cache. */
static void test_stored_without_reasons(void **state)
{
	static const char runs[] =
	    ", \"runs\": ["
	    "{\"arm\": 0, \"block\": 0, \"seq\": 0, \"metric\": 10, "
	    "\"run\": {\"schema\": \"iotrial/1\", \"warnings\": []}}, "
	    "{\"arm\": 1, \"block\": 0, \"seq\": 1, \"metric\": 7, "
	    "\"run\": {\"schema\": \"iotrial/1\", \"warnings\": [\"reads "
	    "measured the page cache, not the device: the workload read 1 "
	    "GiB\"]}}]";
	struct strbuf v = STRBUF_INIT, kinds = STRBUF_INIT;
	struct experiment_doc doc;
	struct regression_gate g;

	(void)state;
	verdict(&v, 1, "slower", 0.7, NULL);
	verdict(&v, 2, "slower", 0.7, NULL);
	make(&doc, HEAD("true"), v.buf, runs);
	assert_true(regression_verdict_suspect(&doc, &doc.verdicts[0], &kinds));
	assert_string_equal(kinds.buf, "page_cache");
	assert_false(regression_verdict_suspect(&doc, &doc.verdicts[1], NULL));
	regression_check(&doc, 0, &g);
	assert_true(g.regression); /* arm 2 is clean and slower */
	assert_int_equal(g.nr_suspects, 1);
	assert_string_equal(g.suspects[0].label, "a=2");
	assert_false(g.suspects[0].counted);
	regression_gate_release(&g);
	experiment_doc_release(&doc);
	strbuf_release(&v);
	strbuf_release(&kinds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_clean),
	    cmocka_unit_test(test_suspect),
	    cmocka_unit_test(test_lower_is_better),
	    cmocka_unit_test(test_stored_without_reasons),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
