/*
 * Suspect verdicts: the kinds of run warnings (result/result.c), kept
 * beside the texts or recovered from the texts of older runs; the
 * reasons a verdict gets from the warnings of its arms' runs and their
 * drift (report/suspect.c), --strict, and the marks of the table and of
 * log's summary; the like-for-like check of diff (experiment/
 * diff_like.c) and the reasons diff's verdict takes from the two stored
 * experiments.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/experiment/diff.h"
#include "core/model/model_tree.h"
#include "core/report/log_text.h"
#include "core/report/report.h"
#include "core/report/report_formats.h"
#include "core/report/suspect.h"
#include "core/result/result.h"
#include "util/strbuf.h"

/* text as an experiment object, with the "schema" and "type" every
 * stored one has (the renderers decode it as a document). */
static struct json_object *parse(const char *text)
{
	struct json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	if (!json_object_object_get_ex(o, "schema", NULL))
		json_object_object_add(o, "schema",
				       json_object_new_string("iotrial/1"));
	if (!json_object_object_get_ex(o, "type", NULL))
		json_object_object_add(o, "type",
				       json_object_new_string("experiment"));
	return o;
}

/* e as a document, into doc (release it). */
static void doc_of(struct json_object *e, struct experiment_doc *doc)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(experiment_doc_from_tree(e, doc, 0, &err), 0);
	strbuf_release(&err);
}

/* Mark e through the engine's seam: it decodes. */
static void mark(struct json_object *e)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(suspect_mark(e, &err), 0);
	strbuf_release(&err);
}

/* The text compare prints of e, onto out (reset first). */
static void text_of(struct json_object *e, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;

	strbuf_reset(out);
	assert_int_equal(report_experiment_text(e, out, &err), 0);
	strbuf_release(&err);
}

/* e in format, onto out (reset first). */
static void render(struct json_object *e, const char *format,
		   struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;

	strbuf_reset(out);
	assert_int_equal(report_render_tree(e, format, out, &err), 0);
	strbuf_release(&err);
}

/* The footnote of the verdict of label under e's table, without its
 * "* " (the text of suspect_doc_footnote()), onto out. */
static void footnote(struct json_object *e, const char *label,
		     struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	const char *p, *nl;

	text_of(e, &text);
	strbuf_addf(&want, "\n* %s:", label);
	p = strstr(text.buf, want.buf);
	assert_non_null(p);
	p += 3;
	nl = strchr(p, '\n');
	strbuf_reset(out);
	strbuf_add(out, p, nl ? (size_t)(nl - p) : strlen(p));
	strbuf_release(&text);
	strbuf_release(&want);
}

/* The line `log` lists for e. */
static void verdict_summary(struct json_object *e, struct strbuf *out)
{
	struct log_columns c;

	log_columns_of(e, &c);
	strbuf_addstr(out, c.verdicts.buf);
	log_columns_release(&c);
}

/* Names, texts, and what run_result_warn() records. */
static void test_kinds(void **state)
{
	struct run_result r;
	unsigned k;

	(void)state;
	for (k = 0; k < RUN_WARN_KINDS; k++)
		assert_int_equal(run_warn_kind_parse(run_warn_kind_name(k)), k);
	assert_string_equal(run_warn_kind_name(RUN_WARN_PAGE_CACHE),
			    "page_cache");
	assert_int_equal(run_warn_kind_parse("nonsense"), RUN_WARN_UNKNOWN);
	assert_int_equal(run_warn_kind_parse(NULL), RUN_WARN_UNKNOWN);
	assert_int_equal(
	    run_warn_kind_of_text("reads measured the page cache, not the "
				  "device: the workload read 1 GiB"),
	    RUN_WARN_PAGE_CACHE);
	assert_int_equal(run_warn_kind_of_text("97% of the written bytes never "
					       "reached the device: ..."),
			 RUN_WARN_ABSORBED);
	assert_int_equal(run_warn_kind_of_text("the workers were CPU-bound: "
					       "all 2 used"),
			 RUN_WARN_CPU_BOUND);
	assert_int_equal(run_warn_kind_of_text("the run was too short to "
					       "trust: 0.3 s"),
			 RUN_WARN_SHORT);
	assert_int_equal(run_warn_kind_of_text("interrupted by a signal after "
					       "1.20 s; the numbers"),
			 RUN_WARN_INTERRUPTED);
	assert_int_equal(run_warn_kind_of_text("other I/O ran on 'vda' during "
					       "the run"),
			 RUN_WARN_OTHER_IO);
	assert_int_equal(run_warn_kind_of_text("reads never reached 'vda': "
					       "'loop0' delivered 2 GiB"),
			 RUN_WARN_UNREACHED);
	assert_int_equal(run_warn_kind_of_text("most writes never reached "
					       "'vda': 'loop0' took 1 GiB"),
			 RUN_WARN_UNREACHED);
	assert_int_equal(run_warn_kind_of_text("something new"),
			 RUN_WARN_UNKNOWN);
	assert_int_equal(run_warn_kind_of_text(NULL), RUN_WARN_UNKNOWN);

	run_result_init(&r);
	run_result_warn(&r, "the run was too short to trust: %d s", 0);
	run_result_warn_kind(&r, RUN_WARN_CPU_BOUND, "worded %s", "freely");
	run_result_warn(&r, "%s", "a warning of no known kind");
	assert_int_equal(r.nr_warnings, 3);
	assert_int_equal(r.warn_kinds[0], RUN_WARN_SHORT);
	assert_int_equal(r.warn_kinds[1], RUN_WARN_CPU_BOUND);
	assert_int_equal(r.warn_kinds[2], RUN_WARN_UNKNOWN);
	run_result_release(&r);
	assert_null(r.warn_kinds);
}

/*
 * Two arms of four runs: the baseline clean but drifting, arm 1 with the
 * page cache in 3 runs (one told by text only, as an older run),
 * CPU-bound in 1, other I/O (not a reason) in 1; kinds that do not pair
 * with the texts are ignored.
 */
static const char exp_text[] =
    "{\"metric\": {\"name\": \"iops\", \"higher_is_better\": true},"
    " \"baseline\": 0,"
    " \"arms\": [{\"arm\": 0, \"label\": \"bs=4k\", \"drifting\": true},"
    "  {\"arm\": 1, \"label\": \"bs=8k\"}],"
    " \"runs\": ["
    "  {\"arm\": 0, \"run\": {\"warnings\": []}},"
    "  {\"arm\": 0, \"run\": {\"warnings\": []}},"
    "  {\"arm\": 0},"
    "  {\"arm\": 0, \"run\": {\"warnings\": [\"x\"],"
    "   \"warning_kinds\": [\"other_io\"]}},"
    "  {\"arm\": 1, \"run\": {\"warnings\": [\"worded freely\", \"y\"],"
    "   \"warning_kinds\": [\"page_cache\", \"cpu_bound\"]}},"
    "  {\"arm\": 1, \"run\": {\"warnings\": [\"reads measured the page "
    "cache, not the device\"]}},"
    "  {\"arm\": 1, \"run\": {\"warnings\": [\"reads measured the page "
    "cache, again\"], \"warning_kinds\": []}},"
    "  {\"arm\": 1, \"run\": {\"warnings\": [\"other I/O ran on 'vda'\"]}}"
    " ],"
    " \"verdicts\": [{\"arm\": 1, \"label\": \"bs=8k\", \"ratio\": 1.5,"
    "  \"verdict\": \"faster\"}]}";

/* The reason i of v's "suspect": "role label kind runs/of". */
static void reason_is(struct json_object *v, size_t i, const char *want)
{
	struct json_object *s = json_object_object_get(v, "suspect");
	struct json_object *r = json_object_array_get_idx(s, i);
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(r);
	strbuf_addf(&sb, "%s %s %s %d/%d",
		    json_object_get_string(json_object_object_get(r, "arm")),
		    json_object_get_string(json_object_object_get(r, "label")),
		    json_object_get_string(json_object_object_get(r, "kind")),
		    json_object_get_int(json_object_object_get(r, "runs")),
		    json_object_get_int(json_object_object_get(r, "of")));
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/*
 * Two factors, four arms; the runs of arm 2 (jobs=1 at sched=b) read
 * from the page cache. Effects, interactions and scaling rows resting on
 * arm 2 are marked; the others are not (issue: the effects table showed
 * no '*' where the arm table did).
 */
static const char factorial_text[] =
    "{\"metric\": {\"name\": \"mbps\", \"higher_is_better\": true},"
    " \"baseline\": 0, \"equivalence\": 0.02,"
    " \"factors\": [{\"name\": \"sched\", \"values\": [\"a\", \"b\"]},"
    "  {\"name\": \"jobs\", \"values\": [\"1\", \"2\"]}],"
    " \"arms\": [{\"arm\": 0, \"label\": \"sched=a jobs=1\"},"
    "  {\"arm\": 1, \"label\": \"sched=a jobs=2\"},"
    "  {\"arm\": 2, \"label\": \"sched=b jobs=1\"},"
    "  {\"arm\": 3, \"label\": \"sched=b jobs=2\"}],"
    " \"runs\": ["
    "  {\"arm\": 0, \"run\": {\"warnings\": []}},"
    "  {\"arm\": 1, \"run\": {\"warnings\": []}},"
    "  {\"arm\": 2, \"run\": {\"warnings\": [\"r\"],"
    "   \"warning_kinds\": [\"page_cache\"]}},"
    "  {\"arm\": 3, \"run\": {\"warnings\": []}}],"
    " \"verdicts\": [],"
    " \"effects\": ["
    "  {\"factor\": \"jobs\", \"level\": \"2\", \"baseline_level\": \"1\","
    "   \"within\": {\"sched\": \"a\"}, \"arm\": 1, \"baseline_arm\": 0,"
    "   \"ratio\": 1.2, \"ci_low\": 1.1, \"ci_high\": 1.3,"
    "   \"p_adjusted\": 0.01, \"verdict\": \"faster\", \"n\": 6},"
    "  {\"factor\": \"jobs\", \"level\": \"2\", \"baseline_level\": \"1\","
    "   \"within\": {\"sched\": \"b\"}, \"arm\": 3, \"baseline_arm\": 2,"
    "   \"ratio\": 0.5, \"ci_low\": 0.4, \"ci_high\": 0.6,"
    "   \"p_adjusted\": 0.01, \"verdict\": \"slower\", \"n\": 6}],"
    " \"interactions\": [{\"factor\": \"sched\", \"level\": \"b\","
    "  \"baseline_level\": \"a\", \"by\": \"jobs\", \"by_level\": \"2\","
    "  \"by_baseline_level\": \"1\", \"within\": {}, \"arms\": [2, 0, 3, 1],"
    "  \"ratio_at_baseline\": 1.0, \"ratio_at_level\": 0.4,"
    "  \"p_adjusted\": 0.03, \"verdict\": \"interaction\"}],"
    " \"scaling\": [{\"factor\": \"jobs\", \"value\": \"1\","
    "  \"within\": {\"sched\": \"a\"}, \"arm\": 0, \"baseline_arm\": 0,"
    "  \"median\": 100, \"n\": 1, \"ratio_to_first\": 1},"
    "  {\"factor\": \"jobs\", \"value\": \"2\", \"within\": {\"sched\": \"b\"},"
    "   \"arm\": 3, \"baseline_arm\": 2, \"median\": 50, \"n\": 1,"
    "   \"ratio_to_first\": 0.5}]}";

static void test_every_table(void **state)
{
	struct json_object *e = parse(factorial_text), *x;
	struct strbuf sb = STRBUF_INIT;
	struct experiment_doc doc;
	struct suspect_src src;

	(void)state;
	mark(e);
	x = json_object_array_get_idx(json_object_object_get(e, "effects"), 0);
	assert_int_equal(
	    json_object_array_length(json_object_object_get(x, "suspect")), 0);
	x = json_object_array_get_idx(json_object_object_get(e, "effects"), 1);
	reason_is(x, 0, "baseline sched=b jobs=1 page_cache 1/1");
	x = json_object_array_get_idx(json_object_object_get(e, "interactions"),
				      0);
	reason_is(x, 0, "arm sched=b jobs=1 page_cache 1/1");
	doc_of(e, &doc);
	suspect_src_scaling(&doc.scaling[0], &src);
	assert_false(suspect_doc_is(&doc, &src));
	suspect_src_scaling(&doc.scaling[1], &src);
	assert_true(suspect_doc_is(&doc, &src));
	/* the first row is its own baseline: the arm's marks alone */
	src.has = MODEL_ABSENT;
	assert_true(suspect_doc_is(&doc, &src));
	experiment_doc_release(&doc);

	text_of(e, &sb);
	assert_non_null(strstr(sb.buf, " faster\n"));
	assert_non_null(strstr(sb.buf, " slower*\n"));
	assert_non_null(strstr(sb.buf, "\n* jobs=2 vs jobs=1 at sched=b: "
				       "reads measured the page cache (1 of 1 "
				       "runs of the baseline 'sched=b "
				       "jobs=1')\n"));
	assert_non_null(strstr(sb.buf, "(interaction p 0.030)*\n"));
	assert_non_null(strstr(sb.buf, "\n* sched=b's effect at jobs=2 vs at "
				       "jobs=1: reads measured the page cache "
				       "(1 of 1 runs of 'sched=b jobs=1')"));
	assert_non_null(strstr(sb.buf, "0.50x*\n"));
	assert_non_null(strstr(sb.buf, "\n* jobs=2 (sched=b): reads measured"));
	render(e, "html", &sb);
	assert_non_null(strstr(sb.buf, "<table class=\"effects\">"));
	assert_non_null(
	    strstr(sb.buf, "slower</span><span class=\"suspect\">"));
	assert_non_null(strstr(sb.buf, "Effect of each factor"));
	assert_non_null(strstr(sb.buf, "slower ⚠</text>"));
	render(e, "md", &sb);
	assert_non_null(strstr(sb.buf, "| jobs=2 vs jobs=1 |  |  |  |  |\n"));
	assert_non_null(strstr(sb.buf, "|   at sched=b | 0.500 \\[0.400, "
				       "0.600\\] | 0.010 | 6 | **slower** "
				       "⚠ suspect |\n"));
	assert_non_null(strstr(sb.buf, "|   at sched=a | 1.200 \\[1.100, "
				       "1.300\\] | 0.010 | 6 | **faster** "
				       "|\n"));
	assert_non_null(strstr(sb.buf, "(interaction p 0.030) ⚠ suspect\n"));
	strbuf_release(&sb);
	json_object_put(e);
}

/* Marks on stored objects of the wrong shapes: no crash, no mark; the
 * renderers refuse them, naming the member, since they read documents
 * and such an object does not decode. */
static void test_every_table_untrusted(void **state)
{
	struct json_object *e = parse(
	    "{\"arms\": [{\"arm\": 0, \"label\": \"a\"}], \"baseline\": 0,"
	    " \"runs\": [{\"arm\": 0, \"run\": {\"warnings\": [\"r\"],"
	    " \"warning_kinds\": [\"page_cache\"]}}],"
	    " \"effects\": [1, {\"factor\": 2, \"within\": 3, \"arm\": 0,"
	    "  \"baseline_arm\": \"x\", \"suspect\": 4},"
	    "  {\"arm\": 1e30, \"baseline_arm\": -1}],"
	    " \"interactions\": [null, {\"arms\": [\"a\", -1, 1e20, 0],"
	    "  \"within\": []}],"
	    " \"scaling\": [null, {\"arm\": 0, \"ratio_to_first\": 1}]}");
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(report_render_tree(e, "html", &sb, &sb), -EINVAL);
	assert_int_equal(report_render_tree(e, "md", &sb, &sb), -EINVAL);
	strbuf_reset(&sb);
	assert_int_equal(report_experiment_text(e, &sb, &sb), -EINVAL);
	assert_non_null(strstr(sb.buf, "effects[0]: expected an object"));
	/* the engine's trees decode; one that does not is left alone */
	assert_int_equal(suspect_mark(e, &sb), -EINVAL);
	assert_int_equal(json_object_get_int(json_object_object_get(
			     json_object_array_get_idx(
				 json_object_object_get(e, "effects"), 1),
			     "suspect")),
			 4);
	strbuf_reset(&sb);
	assert_int_equal(report_experiment_text(e, &sb, &sb), -EINVAL);
	strbuf_release(&sb);
	json_object_put(e);
}

static void test_reasons(void **state)
{
	struct json_object *e = parse(exp_text), *v, *s;
	struct strbuf sb = STRBUF_INIT;
	struct experiment_doc doc;
	struct exp_suspect *marks = NULL;
	struct suspect_src src;
	size_t nr = 0;

	(void)state;
	v = json_object_array_get_idx(json_object_object_get(e, "verdicts"), 0);
	/* stored without reasons: computed when asked */
	doc_of(e, &doc);
	assert_true(suspect_verdict_is(&doc, &doc.verdicts[0]));
	suspect_src_verdict(&doc, &doc.verdicts[0], &src);
	suspect_doc_reasons(&doc, &src, &marks, &nr);
	assert_int_equal(nr, 3);
	assert_string_equal(marks[2].kind, "drift");
	assert_int_equal(marks[2].of, 4);
	exp_suspects_free(marks, nr);
	strbuf_reset(&sb);
	suspect_doc_kinds(&doc, &src, &sb);
	assert_string_equal(sb.buf, "page_cache, cpu_bound, drift");
	experiment_doc_release(&doc);
	mark(e);
	s = json_object_object_get(v, "suspect");
	assert_int_equal(json_object_array_length(s), 3);
	reason_is(v, 0, "arm bs=8k page_cache 3/4");
	reason_is(v, 1, "arm bs=8k cpu_bound 1/4");
	reason_is(v, 2, "baseline bs=4k drift 4/4");

	footnote(e, "bs=8k", &sb);
	assert_string_equal(sb.buf,
			    "bs=8k: reads measured the page cache (3 of 4 "
			    "runs of the arm); workers CPU-bound (1 of 4 runs "
			    "of the arm); the metric drifted across blocks (4 "
			    "of 4 runs of the baseline 'bs=4k')");
	/* the marks as compare --json prints them */
	assert_string_equal(
	    json_object_to_json_string_ext(json_object_object_get(v, "suspect"),
					   JSON_C_TO_STRING_PLAIN),
	    "[{\"arm\":\"arm\",\"label\":\"bs=8k\",\"kind\":\"page_cache\","
	    "\"runs\":3,\"of\":4},{\"arm\":\"arm\",\"label\":\"bs=8k\","
	    "\"kind\":\"cpu_bound\",\"runs\":1,\"of\":4},{\"arm\":"
	    "\"baseline\",\"label\":\"bs=4k\",\"kind\":\"drift\",\"runs\":4,"
	    "\"of\":4}]");
	strbuf_reset(&sb);
	verdict_summary(e, &sb);
	assert_string_equal(sb.buf, "2 arms: bs=8k faster* 1.50x (suspect: "
				    "page_cache, cpu_bound, drift)");
	text_of(e, &sb);
	assert_non_null(strstr(sb.buf, " faster*\n"));
	assert_non_null(strstr(sb.buf, "\n* bs=8k: reads measured the page "
				       "cache (3 of 4 runs of the arm)"));

	/* --strict refuses it and keeps what the estimate said */
	assert_int_equal(suspect_apply_strict(e), 1);
	assert_string_equal(
	    json_object_get_string(json_object_object_get(v, "verdict")),
	    SUSPECT_VERDICT);
	assert_string_equal(
	    json_object_get_string(json_object_object_get(v, "estimate")),
	    "faster");
	assert_true(
	    json_object_get_boolean(json_object_object_get(e, "strict")));
	footnote(e, "bs=8k", &sb);
	assert_non_null(strstr(sb.buf, "; --strict gives no faster/slower "
				       "from such runs (the estimate: "
				       "faster 1.50x)"));
	strbuf_release(&sb);
	json_object_put(e);
}

/*
 * The analysis marks after every block: the tree's marks decode only
 * what they rest on (the runs' arms and warnings), so a run member
 * they do not read, here of a wrong type, neither costs a walk nor
 * stops them.
 */
static void test_marks_view(void **state)
{
	struct json_object *e = parse(exp_text), *v, *run;

	(void)state;
	run = json_object_object_get(
	    json_object_array_get_idx(json_object_object_get(e, "runs"), 4),
	    "run");
	json_object_object_add(run, "seconds", json_object_new_string("x"));
	mark(e);
	v = json_object_array_get_idx(json_object_object_get(e, "verdicts"), 0);
	reason_is(v, 0, "arm bs=8k page_cache 3/4");
	json_object_put(e);
}

/* The same on a document: marks replace what a row held, --strict
 * refuses, an arm's reasons append. */
static void test_doc(void **state)
{
	struct json_object *e = parse(exp_text);
	struct experiment_doc doc;
	struct exp_suspect *marks = NULL;
	size_t nr = 0;

	(void)state;
	doc_of(e, &doc);
	assert_int_equal(doc.verdicts[0].has_suspect, MODEL_ABSENT);
	suspect_doc_mark(&doc);
	assert_int_equal(doc.verdicts[0].has_suspect, MODEL_SET);
	assert_int_equal(doc.verdicts[0].nr_suspect, 3);
	assert_string_equal(doc.verdicts[0].suspect[0].kind, "page_cache");
	assert_int_equal(doc.verdicts[0].suspect[0].runs, 3);
	/* marked again: replaced, not added to */
	suspect_doc_mark(&doc);
	assert_int_equal(doc.verdicts[0].nr_suspect, 3);

	assert_int_equal(suspect_doc_apply_strict(&doc), 1);
	assert_string_equal(doc.verdicts[0].verdict, SUSPECT_VERDICT);
	assert_string_equal(doc.verdicts[0].estimate, "faster");
	assert_true(doc.strict);
	assert_int_equal(doc.has_strict, MODEL_SET);
	assert_int_equal(suspect_doc_apply_strict(&doc), 0);

	suspect_doc_arm_reasons(&doc, 0, "baseline", &marks, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(marks[0].kind, "drift");
	suspect_doc_arm_reasons(&doc, 1, "arm", &marks, &nr);
	assert_int_equal(nr, 3);
	assert_string_equal(marks[1].arm, "arm");
	assert_string_equal(marks[1].label, "bs=8k");
	exp_suspects_free(marks, nr);
	experiment_doc_release(&doc);
	json_object_put(e);
}

/*
 * observe's own reason, other I/O beside the cgroup's, reads as a phrase
 * in the footnote (it said "its runs carry warnings of kind 'other_io'"),
 * and a compare's run warned of other I/O still makes no reason.
 */
static void test_other_io_phrase(void **state)
{
	struct json_object *e =
	    parse("{\"baseline\": 0, \"arms\": [{\"arm\": 0, \"label\": \"a\"},"
		  " {\"arm\": 1, \"label\": \"b\"}], \"runs\": [],"
		  " \"verdicts\": [{\"arm\": 1, \"label\": \"b\","
		  "  \"verdict\": \"faster\", \"suspect\": [{\"arm\": \"arm\","
		  "  \"label\": \"b\", \"kind\": \"other_io\", \"runs\": 2,"
		  "  \"of\": 6}]}]}");
	struct json_object *v, *c = parse(exp_text);
	struct strbuf sb = STRBUF_INIT;
	struct experiment_doc doc;
	struct exp_suspect *marks = NULL;
	struct suspect_src src;
	size_t nr = 0;

	(void)state;
	v = json_object_array_get_idx(json_object_object_get(e, "verdicts"), 0);
	footnote(e, "b", &sb);
	assert_null(strstr(sb.buf, "of kind"));
	assert_string_equal(sb.buf, "b: other processes' I/O on the device "
				    "during the windows (2 of 6 runs of the "
				    "arm)");
	/* a newer iotrial's kind is still a reason, said as one */
	json_object_object_add(
	    json_object_array_get_idx(json_object_object_get(v, "suspect"), 0),
	    "kind", json_object_new_string("newer"));
	footnote(e, "b", &sb);
	assert_string_equal(sb.buf, "b: warnings of a kind this iotrial does "
				    "not know ('newer')");
	/* compare: the run warned of other I/O is no reason */
	doc_of(c, &doc);
	suspect_src_verdict(&doc, &doc.verdicts[0], &src);
	suspect_doc_reasons(&doc, &src, &marks, &nr);
	assert_int_equal(nr, 3);
	exp_suspects_free(marks, nr);
	experiment_doc_release(&doc);
	strbuf_release(&sb);
	json_object_put(c);
	json_object_put(e);
}

/* Clean runs: an empty array; the estimate's direction follows the
 * metric. */
static void test_clean(void **state)
{
	struct json_object *e = parse(
	    "{\"metric\": {\"name\": \"p99\", \"higher_is_better\": false},"
	    " \"arms\": [{\"arm\": 0, \"label\": \"a\"}, {\"arm\": 1, "
	    "\"label\": \"b\"}],"
	    " \"runs\": [{\"arm\": 0, \"run\": {\"warnings\": []}},"
	    "  {\"arm\": 1, \"run\": {\"warnings\": [\"other I/O ran on "
	    "'vda'\"]}}],"
	    " \"verdicts\": [{\"arm\": 1, \"label\": \"b\", \"ratio\": 1.2,"
	    "  \"verdict\": \"slower\"}]}");
	struct json_object *v =
	    json_object_array_get_idx(json_object_object_get(e, "verdicts"), 0);
	struct strbuf sb = STRBUF_INIT;
	struct experiment_doc doc;

	(void)state;
	mark(e);
	assert_int_equal(
	    json_object_array_length(json_object_object_get(v, "suspect")), 0);
	doc_of(e, &doc);
	assert_false(suspect_verdict_is(&doc, &doc.verdicts[0]));
	experiment_doc_release(&doc);
	assert_int_equal(suspect_apply_strict(e), 0);
	verdict_summary(e, &sb);
	assert_string_equal(sb.buf, "2 arms: b slower 1.20x (lower is better)");
	strbuf_release(&sb);
	json_object_put(e);
}

/* An experiment of one arm "a" whose run ran params (JSON text). */
static struct json_object *one(const char *id, const char *params,
			       const char *warnings)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_object *o;

	strbuf_addf(&sb,
		    "{\"id\": \"%s\", \"workload\": \"randread\", \"target\": "
		    "\"/srv\", \"arms\": [{\"arm\": 0, \"label\": \"a\"}],"
		    " \"runs\": [{\"arm\": 0, \"metric\": 1, \"run\": "
		    "{\"params\": %s, \"knobs\": {}, \"warnings\": %s}}]}",
		    id, params, warnings);
	o = parse(sb.buf);
	strbuf_release(&sb);
	return o;
}

/* diff_unlike() of the trees t, read as diff reads them: documents. */
static int unlike_of(struct json_object *t[2], const int arm[2],
		     struct strbuf *out)
{
	struct experiment_doc x[2];
	const struct experiment_doc *e[2] = {&x[0], &x[1]};
	struct strbuf err = STRBUF_INIT;
	int k, n;

	for (k = 0; k < 2; k++)
		assert_int_equal(experiment_doc_from_tree(t[k], &x[k], 0, &err),
				 0);
	n = diff_unlike(e, arm, out);
	for (k = 0; k < 2; k++)
		experiment_doc_release(&x[k]);
	strbuf_release(&err);
	return n;
}

static void test_like_for_like(void **state)
{
	struct json_object *e[2];
	struct strbuf sb = STRBUF_INIT;
	const int arm[2] = {0, 0};
	struct experiment_doc x[2], d;
	const struct experiment_doc *xe[2] = {&x[0], &x[1]};
	const struct exp_suspect *r;
	int k;

	(void)state;
	/* unset and set to the default are one thing; 4096 is 4k */
	e[0] = one("a", "{\"bs\": 4096}", "[]");
	e[1] = one("b", "{\"bs\": \"4k\", \"direct\": false}", "[]");
	assert_int_equal(unlike_of(e, arm, &sb), 0);
	assert_string_equal(sb.buf, "");
	json_object_put(e[1]);

	/* another size, direct I/O, a knob and a target */
	e[1] = one("b", "{\"bs\": 8192, \"direct\": true}", "[]");
	json_object_object_add(
	    json_object_object_get(
		json_object_object_get(
		    json_object_array_get_idx(
			json_object_object_get(e[1], "runs"), 0),
		    "run"),
		"knobs"),
	    "scheduler", json_object_new_string("none"));
	json_object_object_add(e[1], "target", json_object_new_string("/mnt"));
	assert_int_equal(unlike_of(e, arm, &sb), 4);
	assert_string_equal(sb.buf, "target: '/srv' vs '/mnt'\n"
				    "bs: 4 KiB (default) vs 8 KiB\n"
				    "direct: 0 (default) vs 1\n"
				    "knob scheduler: not set vs 'none'\n");

	/* diff's verdict takes its reasons from the two experiments */
	json_object_put(e[1]);
	e[1] = one("b", "{}", "[\"the run was too short to trust: 0.2 s\"]");
	assert_int_equal(
	    experiment_doc_take_tree(
		parse("{\"arms\": [{\"arm\": 0, \"label\": \"before a\"},"
		      " {\"arm\": 1, \"label\": \"after b\"}], \"baseline\": 0,"
		      " \"verdicts\": [{\"arm\": 1, \"label\": \"after b\","
		      " \"verdict\": \"faster\", \"suspect\": []}]}"),
		&d, 0, &sb),
	    0);
	for (k = 0; k < 2; k++)
		assert_int_equal(experiment_doc_from_tree(e[k], &x[k], 0, &sb),
				 0);
	diff_mark_suspect(xe, arm, &d);
	assert_int_equal(d.verdicts[0].nr_suspect, 1);
	r = &d.verdicts[0].suspect[0];
	assert_string_equal(r->arm, "arm");
	assert_string_equal(r->label, "after b");
	assert_string_equal(r->kind, "short");
	assert_int_equal(r->runs, 1);
	assert_int_equal(r->of, 1);
	experiment_doc_release(&d);
	for (k = 0; k < 2; k++)
		experiment_doc_release(&x[k]);
	json_object_put(e[0]);
	json_object_put(e[1]);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kinds),
	    cmocka_unit_test(test_reasons),
	    cmocka_unit_test(test_doc),
	    cmocka_unit_test(test_marks_view),
	    cmocka_unit_test(test_other_io_phrase),
	    cmocka_unit_test(test_every_table),
	    cmocka_unit_test(test_every_table_untrusted),
	    cmocka_unit_test(test_clean),
	    cmocka_unit_test(test_like_for_like),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
