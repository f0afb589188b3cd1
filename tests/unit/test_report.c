/*
 * Tests for core/report: the texts rendered from experiment objects.
 * The one-line summary `log` lists (verdicts with their ratios, or for
 * a single arm its runs and median), the arm labels, the table that
 * compare, show and diff print, and the `knobs` listing.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/report/knob_text.h"
#include "core/report/report.h"
#include "core/report/report_formats.h"
#include "doc_text_helper.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* The line `log` lists for e, and its arm labels. */
static void verdict_summary(const struct experiment_doc *e, struct strbuf *out)
{
	report_doc_verdict_summary(e, out);
}

static void arm_labels(const struct experiment_doc *e, struct strbuf *out)
{
	report_doc_arm_labels(e, out);
}

/* The verdict part of e's text page (what compare prints). */
static int table_text(const struct experiment_doc *e, struct strbuf *out,
		      struct strbuf *err)
{
	return report_page(e, &emit_text_ops, REPORT_PAGE_VERDICTS, out, err);
}

/* e in format. */
static int render(const struct experiment_doc *e, const char *format,
		  struct strbuf *out, struct strbuf *err)
{
	return report_render(e, format, out, err);
}

/* Two arms with a verdict: label, verdict and ratio. */
static void test_summary_verdicts(void **state)
{
	struct experiment_doc e;
	const char *text =
	    ("{\"arms\": [{\"arm\": 0, \"label\": \"scheduler=s0\"}, "
	     "{\"arm\": 1, \"label\": \"scheduler=s1\"}], "
	     "\"verdicts\": [{\"arm\": 1, \"label\": \"scheduler=s1\", "
	     "\"ratio\": 1.083, \"verdict\": \"faster\"}]}");
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	doc_text(text, &e);
	verdict_summary(&e, &sb);
	assert_string_equal(sb.buf, "2 arms: scheduler=s1 faster 1.08x");
	strbuf_reset(&sb);
	arm_labels(&e, &sb);
	assert_string_equal(sb.buf, "scheduler=s0, scheduler=s1");
	exp_verdicts_free(e.verdicts, e.nr_verdicts);
	e.verdicts = NULL;
	e.nr_verdicts = 0;
	e.has_verdicts = MODEL_ABSENT;
	strbuf_reset(&sb);
	verdict_summary(&e, &sb);
	assert_string_equal(sb.buf, "2 arms: no verdicts");
	strbuf_release(&sb);
	experiment_doc_release(&e);
}

/* One arm: its runs and median, in the metric's unit. */
static void test_summary_one_arm(void **state)
{
	struct experiment_doc e, one;
	const char *text =
	    ("{\"metric\": {\"name\": \"iops\", \"higher_is_better\": "
	     "true}, \"arms\": [{\"arm\": 0, "
	     "\"label\": \"imported\", \"n\": 5, \"median\": 12345}]}");
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	doc_text(text, &e);
	doc_text("{\"arms\": [{\"n\": 1}]}", &one);
	verdict_summary(&e, &sb);
	assert_string_equal(sb.buf, "1 arm: 5 runs, median 12.3k iops");
	strbuf_reset(&sb);
	verdict_summary(&one, &sb);
	assert_string_equal(sb.buf, "1 arm: 1 run");
	strbuf_release(&sb);
	experiment_doc_release(&e);
	experiment_doc_release(&one);
}

/* The table: header, one line per arm, the baseline marked. */
static void test_experiment_text(void **state)
{
	struct experiment_doc e;
	const char *text =
	    ("{\"id\": \"8f442f85\", \"workload\": \"randread\", \"target\": "
	     "\"/srv\", \"seed\": \"7\", \"stopped\": \"runs\", \"blocks\": 1, "
	     "\"baseline\": 0, \"metric\": {\"name\": \"iops\", "
	     "\"higher_is_better\": true}, \"arms\": [{\"arm\": 0, \"label\": "
	     "\"a\", \"n\": 1, \"median\": 100, \"ci_low\": 100, \"ci_high\": "
	     "100, \"cv\": 0}], \"warnings\": [\"w1\"]}");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	doc_text(text, &e);
	assert_int_equal(table_text(&e, &out, &err), 0);
	assert_non_null(strstr(out.buf, "experiment 8f442f85: randread on "
					"/srv, iops (higher is better)\n"
					"1 block, seed 7, stopped: runs\n"));
	assert_non_null(strstr(out.buf, "\na   100 "));
	/* one run: no interval of one point, no spread of 0.0% */
	assert_null(strstr(out.buf, "[100, 100]"));
	assert_null(strstr(out.buf, "0.0%"));
	assert_non_null(
	    strstr(out.buf, "\na   100     -                 -        1  "));
	assert_non_null(strstr(out.buf, "baseline\n\nwarning: w1\n"));
	experiment_doc_release(&e);
	/* what does not decode is refused, naming the member */
	strbuf_reset(&out);
	assert_int_equal(
	    doc_text_decode("{\"schema\": \"iotrial/1\", \"type\": "
			    "\"experiment\", \"arms\": 3}",
			    &e, &err),
	    -EINVAL);
	assert_non_null(strstr(err.buf, "arms: expected an array"));
	experiment_doc_release(&e);
	doc_text("{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
		 "\"arms\": []}",
		 &e);
	strbuf_reset(&err);
	assert_int_equal(table_text(&e, &out, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "no 'arms'"));
	strbuf_release(&out);
	strbuf_release(&err);
	experiment_doc_release(&e);
}

/*
 * Under the table, a footnote says what the ratio is: paired, the
 * per-block estimate, not the ratio of the medians beside it; unpaired,
 * the two-sample one. An interval short of 95% says what it reaches.
 */
static void test_ratio_footnote(void **state)
{
	struct experiment_doc e;
	const char *text =
	    ("{\"baseline\": 0, \"arms\": [{\"arm\": 0, \"label\": \"a\", "
	     "\"n\": 4, \"median\": 12100}, {\"arm\": 1, \"label\": \"b\", "
	     "\"n\": 4, \"median\": 11000}], \"verdicts\": [{\"arm\": 1, "
	     "\"label\": \"b\", \"ratio\": 0.976, \"ci_low\": 0.9, "
	     "\"ci_high\": 1.1, \"ci_coverage\": 0.875, \"p\": 0.125, "
	     "\"p_adjusted\": 0.125, \"test\": \"wilcoxon-signed-rank\", "
	     "\"verdict\": \"inconclusive\"}], \"warnings\": [\"w1\"]}");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct exp_comparison *v;

	(void)state;
	doc_text(text, &e);
	assert_int_equal(table_text(&e, &out, &err), 0);
	assert_non_null(strstr(out.buf, "inconclusive\n\nratio: arm over "
					"baseline within each block"));
	assert_non_null(strstr(out.buf, "not the ratio of the medians"));
	assert_null(strstr(out.buf, "Mann-Whitney"));
	assert_non_null(strstr(out.buf, "the ratio CI of b covers 87.5%, "
					"not 95%"));
	assert_non_null(strstr(out.buf, "interval\n\nwarning: w1\n"));
	v = e.verdicts[0].cmp;
	free(v->test);
	v->test = xstrdup("mann-whitney-u");
	v->ci_coverage = 0.95;
	v->has_ci_coverage = MODEL_SET;
	strbuf_reset(&out);
	assert_int_equal(table_text(&e, &out, &err), 0);
	assert_null(strstr(out.buf, "within each block"));
	assert_non_null(strstr(out.buf, "Moses CI; p from the Mann-Whitney"));
	assert_null(strstr(out.buf, "covers"));
	strbuf_release(&out);
	strbuf_release(&err);
	experiment_doc_release(&e);
}

/*
 * One pair of arms in both tables: the same ratio, CI and raw p, but
 * its p adjusted over two families (issue 30: 0.730 in the effect
 * table beside 1.000 in the arm table). Each table says what its p is
 * adjusted over, and the pair is named with all three numbers, in the
 * text, the Markdown and the HTML.
 */
static void test_p_values(void **state)
{
	static const char *const formats[] = {"text", "md", "html"};
	struct experiment_doc e;
	const char *text =
	    ("{\"baseline\": 0, \"factors\": [{\"name\": \"a\", \"kind\": "
	     "\"param\", \"values\": [\"a0\", \"a1\"]}, {\"name\": \"b\", "
	     "\"kind\": \"param\", \"values\": [\"b0\", \"b1\"]}], "
	     "\"metric\": {\"name\": \"iops\", \"higher_is_better\": true}, "
	     "\"arms\": [{\"arm\": 0, \"label\": \"a=a0 b=b0\", \"n\": 6}, "
	     "{\"arm\": 1, \"label\": \"a=a0 b=b1\", \"n\": 6}, "
	     "{\"arm\": 2, \"label\": \"a=a1 b=b0\", \"n\": 6}, "
	     "{\"arm\": 3, \"label\": \"a=a1 b=b1\", \"n\": 6}], "
	     "\"verdicts\": [{\"arm\": 1, \"label\": \"a=a0 b=b1\", "
	     "\"ratio\": 1.01, \"ci_low\": 0.99, \"ci_high\": 1.03, \"p\": "
	     "0.5, \"p_adjusted\": 1.0, \"test\": \"wilcoxon-signed-rank\", "
	     "\"verdict\": \"inconclusive\"}, {\"arm\": 2, \"label\": "
	     "\"a=a1 b=b0\", \"ratio\": 1.02, \"ci_low\": 0.98, \"ci_high\": "
	     "1.05, \"p\": 0.365, \"p_adjusted\": 1.0, \"test\": "
	     "\"wilcoxon-signed-rank\", \"verdict\": \"inconclusive\"}, "
	     "{\"arm\": 3, \"label\": \"a=a1 b=b1\", \"ratio\": 1.5, "
	     "\"ci_low\": 1.4, \"ci_high\": 1.6, \"p\": 0.03125, "
	     "\"p_adjusted\": 0.09375, \"test\": \"wilcoxon-signed-rank\", "
	     "\"verdict\": \"inconclusive\"}], "
	     "\"effects\": [{\"factor\": \"a\", \"level\": \"a1\", "
	     "\"baseline_level\": \"a0\", \"within\": {\"b\": \"b0\"}, "
	     "\"arm\": 2, \"baseline_arm\": 0, \"ratio\": 1.02, \"ci_low\": "
	     "0.98, \"ci_high\": 1.05, \"p\": 0.365, \"p_adjusted\": 0.73, "
	     "\"verdict\": \"inconclusive\", \"n\": 6}, {\"factor\": \"a\", "
	     "\"level\": \"a1\", \"baseline_level\": \"a0\", \"within\": "
	     "{\"b\": \"b1\"}, \"arm\": 3, \"baseline_arm\": 1, \"ratio\": "
	     "1.48, \"ci_low\": 1.4, \"ci_high\": 1.6, \"p\": 0.03125, "
	     "\"p_adjusted\": 0.0625, \"verdict\": \"inconclusive\", \"n\": "
	     "6}, {\"factor\": \"b\", \"level\": \"b1\", \"baseline_level\": "
	     "\"b0\", \"within\": {\"a\": \"a0\"}, \"arm\": 1, "
	     "\"baseline_arm\": 0, \"ratio\": 1.01, \"ci_low\": 0.99, "
	     "\"ci_high\": 1.03, \"p\": 0.5, \"p_adjusted\": 1.0, "
	     "\"verdict\": \"inconclusive\", \"n\": 6}]}");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	size_t i;

	(void)state;
	doc_text(text, &e);
	for (i = 0; i < sizeof(formats) / sizeof(*formats); i++) {
		strbuf_reset(&out);
		assert_int_equal(render(&e, formats[i], &out, &err), 0);
		assert_non_null(strstr(out.buf, "p is Holm-adjusted over the 3 "
						"comparisons with the "
						"baseline"));
		assert_non_null(strstr(out.buf, "p is Holm-adjusted within "
						"each factor, over its own "
						"effects (a: 2, b: 1)"));
		/* the pair whose two p differ, with its raw p; the pair of
		 * b, adjusted to 1.000 in both, is not named */
		assert_non_null(strstr(out.buf, "a=a1 vs a=a0 at b=b0 (raw p "
						"0.365): 0.730 here, 1.000 in "
						"the arm table"));
		assert_null(strstr(out.buf, "b=b1 vs b=b0 at a=a0 (raw p"));
		/* an effect not from the baseline arm is no such pair */
		assert_null(strstr(out.buf, "at b=b1 (raw p"));
	}
	strbuf_release(&out);
	strbuf_release(&err);
	experiment_doc_release(&e);
}

/* A knob for `knobs`: its value in its unit, place, values and notes. */
static void test_knob_text(void **state)
{
	struct knob k = {0};
	struct knob_desc d;
	struct knob_ctx ctx = {0};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	k.name = "read_ahead_kb";
	k.object = "loop3";
	k.path = "/sys/block/loop3/queue/read_ahead_kb";
	k.scope = KNOB_SCOPE_DEVICE;
	knob_desc_init(&d);
	strbuf_addstr(&d.shown, "128");
	strbuf_addstr(&d.unit, "KiB");
	strbuf_addstr(&d.allowed, "0..65536");
	strbuf_addstr(&d.notes, "first\n\nsecond");
	report_knob_text(&k, "128", &d, &out);
	assert_string_equal(out.buf, "read_ahead_kb                128 KiB\n"
				     "    scope: device 'loop3', "
				     "/sys/block/loop3/queue/read_ahead_kb\n"
				     "    allowed: 0..65536\n"
				     "    note: first\n"
				     "    note: second\n");
	strbuf_reset(&out);
	ctx.disk = "loop3";
	/* no sysfs there: the machine's own loop3 may be bound to a file,
	 * which the head would name (tests/unit/test_loop_note.c) */
	ctx.root = "/nonexistent";
	ctx.why_no_mount = "no directory was given";
	report_knobs_head(&ctx, &out);
	report_knobs_tail(&ctx, &out);
	assert_string_equal(out.buf,
			    "knobs of device 'loop3'\n\n"
			    "\natime: no directory was given; give -t DIR\n"
			    "\nany other tunable: sysfs:PATH or sysctl:NAME "
			    "(e.g. sysctl:vm.swappiness)\n");
	knob_desc_release(&d);
	strbuf_release(&out);
}

/* Metric values: three digits, the unit chosen after rounding. */
static void test_fmt_metric(void **state)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
	    {0.5, "0.5"},      {99.96, "100"},	 {1234.4, "1234"},
	    {12345, "12.3k"},  {999499, "999k"}, {999999, "1M"},
	    {1.25e6, "1.25M"}, {999.6e6, "1G"},	 {2.5e9, "2.5G"},
	    {1.5e12, "1500G"},
	};
	struct strbuf out = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&out);
		report_fmt_metric(&out, cases[i].v);
		assert_string_equal(out.buf, cases[i].want);
	}
	strbuf_release(&out);
}

/* One value in full: four digits, never an exponent. */
static void test_fmt_value(void **state)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
	    {21480.4, "21480"},
	    {78800, "78800"},
	    {1274.2, "1274"},
	    {0.87974, "0.8797"},
	    {0.5, "0.5"},
	    {12.5, "12.5"},
	    {999.96, "1000"},
	    {0.000123456, "0.0001235"},
	    {0, "0"},
	    {-2.5e4, "-25000"},
	    {3e9, "3000000000"},
	};
	struct strbuf out = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&out);
		report_fmt_value(&out, cases[i].v);
		assert_string_equal(out.buf, cases[i].want);
	}
	strbuf_reset(&out);
	report_fmt_value(&out, NAN);
	assert_string_equal(out.buf, "-");
	strbuf_release(&out);
}

/* The table of report formats answers every question about them: each
 * row is complete and checked by name, and the names joined are what
 * the command's help and its error list. */
static void test_format_table(void **state)
{
	struct strbuf err = STRBUF_INIT, names = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; report_formats[i]; i++) {
		/* a page with its emitter and sections, or data */
		assert_true(report_formats[i]->emit
				? report_formats[i]->sections != 0
				: report_formats[i]->render != NULL);
		assert_non_null(report_formats[i]->summary);
		assert_int_equal(
		    report_format_check(report_formats[i]->name, &err), 0);
		/* --format's choices are the rows' names */
		assert_string_equal(report_format_choices[i],
				    report_formats[i]->name);
	}
	assert_null(report_format_choices[i]);
	assert_ptr_equal(report_formats[0], &report_format_text);
	report_format_names("|", "|", &names);
	assert_string_equal(names.buf, "text|json|csv|md|html");
	assert_int_equal(report_format_check("pdf", &err), -EINVAL);
	assert_string_equal(err.buf, "unknown format 'pdf'; the formats are "
				     "text, json, csv, md, html");
	strbuf_release(&err);
	strbuf_release(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_summary_verdicts),
	    cmocka_unit_test(test_format_table),
	    cmocka_unit_test(test_fmt_value),
	    cmocka_unit_test(test_summary_one_arm),
	    cmocka_unit_test(test_experiment_text),
	    cmocka_unit_test(test_ratio_footnote),
	    cmocka_unit_test(test_p_values),
	    cmocka_unit_test(test_knob_text),
	    cmocka_unit_test(test_fmt_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
