/*
 * Tests for core/report/report_html.c and the plots: the page is one
 * self-contained document (no script, no URL, a CSP that forbids
 * fetching), the hostile label and the warning's HTML come out as text,
 * the elements are balanced, and each plot the fixture has data for is
 * there: runs per arm, the forest plot with the equivalence band, the
 * metric against the numeric factor bs (not the free-text one),
 * latency, and the time series of a run per arm.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/report/report_formats.h"
#include "core/report/report_plots.h"
#include "report_doc_helper.h"
#include "report_fixture.h"
#include "util/banned.h"

/* How many times needle occurs in hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static struct strbuf render(void)
{
	struct json_object *e = fixture_experiment();
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	assert_non_null(e);
	assert_int_equal(render_of(e, "html", &out, &err), 0);
	json_object_put(e);
	strbuf_release(&err);
	return out;
}

static void test_self_contained(void **state)
{
	struct strbuf out = render();

	(void)state;
	assert_true(!strncmp(out.buf, "<!DOCTYPE html>\n", 16));
	assert_null(strstr(out.buf, "<script"));
	assert_null(strstr(out.buf, "<img"));
	assert_null(strstr(out.buf, "<link"));
	assert_null(strstr(out.buf, "http:"));
	assert_null(strstr(out.buf, "https:"));
	assert_null(strstr(out.buf, "url("));
	assert_null(strstr(out.buf, "@import"));
	assert_null(strstr(out.buf, " src=\""));
	assert_null(strstr(out.buf, " href=\"h"));
	assert_null(strstr(out.buf, "href=\"/"));
	assert_non_null(strstr(out.buf, "default-src 'none'"));
	assert_non_null(strstr(out.buf, "prefers-color-scheme:dark"));
	assert_non_null(strstr(out.buf, "@page{size:A4"));
	assert_non_null(strstr(out.buf, "@media print"));
	strbuf_release(&out);
}

static void test_escaped(void **state)
{
	struct strbuf out = render();

	(void)state;
	assert_non_null(strstr(out.buf, "bs=8k label=x&quot;&lt;img src=x "
					"onerror=alert(1)&gt;|*_`,y"));
	assert_non_null(strstr(out.buf, "<li>&lt;script&gt;alert(2)&lt;/"
					"script&gt; &amp; a warning</li>"));
	assert_non_null(strstr(out.buf, "host&lt;1&gt;"));
	assert_non_null(strstr(out.buf, "1 warning: read these"));
	/* the banner above the verdicts points at the list */
	assert_non_null(strstr(out.buf, "<a href=\"#warnings\">1 warning</a>"));
	assert_true(strstr(out.buf, "class=\"banner\"") <
		    strstr(out.buf, "<h2>Verdicts</h2>"));
	strbuf_release(&out);
}

static void test_balanced(void **state)
{
	static const char *const tags[] = {"svg",  "figure", "table", "section",
					   "text", "div",    "dl",    "title"};
	struct strbuf out = render();
	struct strbuf open = STRBUF_INIT, close = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		strbuf_reset(&open);
		strbuf_reset(&close);
		strbuf_addf(&open, "<%s", tags[i]);
		strbuf_addf(&close, "</%s>", tags[i]);
		assert_int_equal(count(out.buf, open.buf),
				 count(out.buf, close.buf));
	}
	strbuf_release(&open);
	strbuf_release(&close);
	strbuf_release(&out);
}

static void test_plots(void **state)
{
	struct strbuf out = render();

	(void)state;
	assert_non_null(strstr(out.buf, "Every run, per arm"));
	/* four runs, four dots in the strip plot and none elsewhere */
	assert_int_equal(count(out.buf, "<circle class=\"dot"), 4 + 2);
	assert_non_null(strstr(out.buf, "Ratio to the baseline"));
	assert_non_null(strstr(out.buf, "<rect class=\"band\""));
	assert_non_null(strstr(out.buf, "class=\"whisker good\""));
	assert_non_null(strstr(out.buf, "The metric against bs"));
	assert_null(strstr(out.buf, "The metric against label"));
	assert_non_null(strstr(out.buf, "Read latency percentiles"));
	/* one typical run per arm: its device and its page cache */
	assert_int_equal(count(out.buf, "<figcaption>Device vdb"), 2);
	assert_int_equal(count(out.buf, "<figcaption>Page cache"), 2);
	assert_non_null(strstr(out.buf, "Runs, in the order they ran"));
	strbuf_release(&out);
}

/* An imported experiment: one arm, no verdict, no device, no series. */
static void test_sparse(void **state)
{
	struct json_object *e = json_tokener_parse(
	    "{\"id\": \"cdc428d6\", \"workload\": \"randread\", "
	    "\"metric\": {\"name\": \"iops\"}, \"baseline\": 0, "
	    "\"arms\": [{\"arm\": 0, \"label\": \"imported\", \"n\": 2, "
	    "\"median\": 500}], \"runs\": [{\"arm\": 0, \"block\": 0, "
	    "\"metric\": 499, \"run\": {\"seconds\": 1}}, {\"arm\": 0, "
	    "\"block\": 1, \"metric\": 501}], \"verdicts\": []}");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	assert_int_equal(render_of(e, "html", &out, &err), 0);
	assert_non_null(strstr(out.buf, "Every run, per arm"));
	assert_null(strstr(out.buf, "Ratio to the baseline"));
	assert_null(strstr(out.buf, "latency percentiles"));
	assert_null(strstr(out.buf, "A typical run"));
	assert_null(strstr(out.buf, "ratio: arm over baseline"));
	assert_null(strstr(out.buf, "class=\"banner\""));
	assert_non_null(strstr(out.buf, "Runs, in the order they ran"));
	json_object_put(e);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* Render the experiment JSON text into out; the render must succeed. */
static void render_json(const char *json, struct strbuf *out)
{
	struct json_object *e = json_tokener_parse(json);
	struct strbuf err = STRBUF_INIT;

	assert_non_null(e);
	assert_int_equal(render_of(e, "html", out, &err), 0);
	json_object_put(e);
	strbuf_release(&err);
}

/*
 * One numeric factor and nothing else: the curve has one series whose
 * "other factors" label is empty. Its strbuf was left as calloc made it
 * (buf NULL) and the next arm's strcmp crashed the report.
 */
static void test_one_numeric_factor(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	render_json(
	    "{\"workload\": \"seqwrite\", \"metric\": {\"name\": \"mbps\"}, "
	    "\"baseline\": 0, \"factors\": [{\"name\": \"bs\", \"values\": "
	    "[\"4k\", \"64k\", \"1m\"]}], \"arms\": ["
	    "{\"arm\": 0, \"label\": \"bs=4k\", \"settings\": {\"bs\": "
	    "\"4k\"}, \"median\": 100, \"ci_low\": 90, \"ci_high\": 110}, "
	    "{\"arm\": 1, \"label\": \"bs=64k\", \"settings\": {\"bs\": "
	    "\"64k\"}, \"median\": 200, \"ci_low\": 190, \"ci_high\": 210}, "
	    "{\"arm\": 2, \"label\": \"bs=1m\", \"settings\": {\"bs\": "
	    "\"1m\"}, \"median\": 250, \"ci_low\": 240, \"ci_high\": 260}], "
	    "\"runs\": [], \"verdicts\": []}",
	    &out);
	assert_non_null(strstr(out.buf, "The metric against bs"));
	/* one line through the three medians, and no legend for it */
	assert_int_equal(count(out.buf, "<path class=\"line c0\""), 1);
	assert_int_equal(count(out.buf, "<circle class=\"dot c0\""), 3);
	assert_null(strstr(out.buf, "class=\"key"));
	strbuf_release(&out);
}

/*
 * A file workload (crashdump) times its operations, not directions: its
 * read and write latency are zero counts. No empty "Latency
 * percentiles" panel; one plot per operation, and the per-operation
 * and other-metrics tables, with the names escaped.
 */
static void test_file_ops(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	render_json(
	    "{\"workload\": \"crashdump\", \"metric\": {\"name\": "
	    "\"dumps_per_min\"}, \"metrics\": [{\"name\": \"dumps_per_min\", "
	    "\"shown\": true}, {\"name\": \"iops\", \"unit\": \"IO/s\", "
	    "\"shown\": true}], \"baseline\": 0, \"arms\": [{\"arm\": 0, "
	    "\"label\": \"a\", \"median\": 10, \"metrics\": {\"iops\": "
	    "1234}}], \"runs\": [{\"arm\": 0, \"block\": 0, \"metric\": 10, "
	    "\"run\": {\"latency_ns\": {\"read\": {\"count\": 0, \"p50\": 0}, "
	    "\"write\": {\"count\": 0, \"p50\": 0}}, \"file_ops\": "
	    "{\"write_dump\": {\"count\": 3, \"errors\": 0, \"mean_us\": 20, "
	    "\"p50_us\": 10, \"p99_us\": 40, \"max_us\": 50}, \"<b>x\": "
	    "{\"count\": 0}}}}], \"verdicts\": []}",
	    &out);
	assert_null(strstr(out.buf, "atency percentiles"));
	assert_non_null(strstr(out.buf, "Latency of write_dump"));
	/* p50, p99 and max of the one arm */
	assert_int_equal(count(out.buf, "class=\"pt c0\""), 3);
	assert_non_null(strstr(out.buf, "Per operation, median over"));
	assert_non_null(strstr(out.buf, "<code>write_dump</code></td><td "
					"class=\"num\">3</td><td class=\"num\">"
					"20 us</td>"));
	/* never timed: no row, no plot */
	assert_null(strstr(out.buf, "&lt;b&gt;x"));
	assert_null(strstr(out.buf, "<b>x"));
	assert_non_null(strstr(out.buf, "Beside the metric, median per arm"));
	assert_non_null(strstr(out.buf, "<td class=\"num\">1234</td>"));
	strbuf_release(&out);
}

/* A run of one sampling interval: the device's rates are one value each,
 * drawn across the interval rather than as a path of one point; a
 * series the run lacks (writes) draws no empty path. (A mistyped one
 * is refused when the document is decoded, before any renderer.) */
static void test_one_interval(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	render_json(
	    "{\"workload\": \"seqwrite\", \"metric\": {\"name\": \"mbps\"}, "
	    "\"baseline\": 0, \"arms\": [{\"arm\": 0, \"label\": \"a\", "
	    "\"median\": 10}], \"runs\": [{\"arm\": 0, \"block\": 0, "
	    "\"metric\": 10, \"run\": {\"truth\": {\"device\": \"vdb\", "
	    "\"series\": {\"t_s\": [0, 0.5], \"dirty_bytes\": [0, 1048576], "
	    "\"devices\": [{\"name\": \"vdb\", \"rmbps\": [3]}]}}}}], "
	    "\"verdicts\": []}",
	    &out);
	assert_non_null(strstr(out.buf, "<figcaption>Device vdb"));
	assert_non_null(strstr(out.buf, "<path class=\"line c0\" d=\"M56.0 "));
	assert_null(strstr(out.buf, "d=\"\""));
	strbuf_release(&out);
}

/*
 * A label line left of a plot fits the 190 px there in 12 px type: an
 * effect's "read_ahead_kb=128 at atime=relatime" was cut to 28
 * characters and its first letters clipped off the left edge.
 */
static void test_label_fits(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const char *p, *end;

	(void)state;
	plot_row_label(&out, 10.0,
		       "read_ahead_kb=2048 vs read_ahead_kb=128 at "
		       "atime=relatime",
		       "label");
	for (p = out.buf; (p = strstr(p, "\">")) != NULL; p = end) {
		size_t chars = 0;

		p += 2;
		end = strchr(p, '<');
		assert_non_null(end);
		for (; p < end; p++)
			chars += ((unsigned char)*p & 0xc0) != 0x80;
		assert_true(chars <= 25);
	}
	assert_non_null(strstr(out.buf, "read_ahead_kb=2048 vs"));
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_self_contained),
	    cmocka_unit_test(test_label_fits),
	    cmocka_unit_test(test_escaped),
	    cmocka_unit_test(test_balanced),
	    cmocka_unit_test(test_plots),
	    cmocka_unit_test(test_sparse),
	    cmocka_unit_test(test_one_numeric_factor),
	    cmocka_unit_test(test_file_ops),
	    cmocka_unit_test(test_one_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
