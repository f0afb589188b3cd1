/*
 * Tests for core/experiment/analyze_doc.c, the analysis on an
 * experiment document:
 *  - the runs gathered per arm in run order, with their blocks and
 *    covariates, the metric's direction from the document; the arms'
 *    summaries, the verdicts and the baseline filled, the same numbers
 *    analysis_run() gives on the same values;
 *  - a run without a block makes the comparison unpaired;
 *  - a new analysis replaces the verdicts (and their marks);
 *  - refusals: no arm, a run's arm out of range, a metric not positive;
 *  - in place: the document prints what the analysis set, a member
 *    already there in its place.
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
#include <cmocka.h>
#include "core/experiment/analyze_doc.h"
#include "core/model/model_json.h"
#include "util/banned.h"

#define NR_BLOCKS 8

/* The base arm's metric, block b; arm 1's is 0.8 of it with some
 * scatter: lower is better (a latency), so arm 1 is faster. */
static double metric_of(unsigned arm, unsigned b)
{
	static const double base[NR_BLOCKS] = {100, 104, 98,  101,
					       103, 97,	 102, 99};
	static const double f[NR_BLOCKS] = {0.80, 0.81, 0.79, 0.80,
					    0.82, 0.78, 0.80, 0.81};

	return arm ? base[b] * f[b] : base[b];
}

/*
 * The text of an experiment of two arms ("none", "kyber") run in
 * NR_BLOCKS blocks, arm order alternating; each run with a "steal"
 * covariate; a "verdicts" with a mark, and "regimes" after it, from an
 * analysis before; block 3 of arm 1 without "block" when unpaired; with
 * extra, arm 0 has a member iotrial does not know.
 */
static void experiment_text(struct strbuf *out, bool unpaired, bool extra)
{
	unsigned b, k, seq = 0;

	strbuf_addstr(
	    out, "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
		 "\"id\": \"\", \"workload\": \"randread\", \"target\": "
		 "\"/tmp\", \"seed\": \"1\", \"metric\": {\"name\": \"p99\", "
		 "\"higher_is_better\": false}, \"baseline\": 0, \"arms\": "
		 "[{\"arm\": 0, \"label\": \"none\", \"n\": 1");
	strbuf_addstr(out, extra ? ", \"extra\": 1}, " : "}, ");
	strbuf_addstr(out, "{\"arm\": 1, \"label\": \"kyber\"}], \"runs\": [");
	for (b = 0; b < NR_BLOCKS; b++)
		for (k = 0; k < 2; k++) {
			unsigned arm = (b + k) % 2;

			strbuf_addf(out, "%s{\"arm\": %u, ", seq ? ", " : "",
				    arm);
			if (!unpaired || arm != 1 || b != 3)
				strbuf_addf(out, "\"block\": %u, ", b);
			strbuf_addf(out,
				    "\"seq\": %u, \"metric\": %.17g, "
				    "\"covariates\": {\"steal\": %g}}",
				    seq, metric_of(arm, b),
				    0.001 * ((b * 7 + arm * 3) % 5));
			seq++;
		}
	strbuf_addstr(out,
		      "], \"runs_mode\": \"fixed\", \"verdicts\": [{\"arm\": "
		      "1, \"label\": \"kyber\", \"baseline\": \"none\", "
		      "\"verdict\": \"slower\", \"suspect\": [{\"arm\": "
		      "\"arm\", \"label\": \"kyber\", \"kind\": \"short\", "
		      "\"runs\": 1, \"of\": 2}]}], \"regimes\": [], "
		      "\"blocks\": 8, \"stopped\": \"fixed run count\"}");
}

/* The document of experiment_text(); release it. */
static void doc_of(struct experiment_doc *doc, bool unpaired)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;

	experiment_text(&text, unpaired, false);
	if (experiment_doc_decode(text.buf, text.len, doc, 0, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&text);
	strbuf_release(&err);
}

/* The runs gathered, and the arms' rows the numbers analysis_run()
 * gives on them. */
static void test_analyze(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc doc;
	struct analysis_opts o;
	struct exp_analysis an;
	struct analysis ref;
	const struct exp_verdict *v;
	unsigned b;

	(void)state;
	doc_of(&doc, false);
	analysis_opts_init(&o);
	if (experiment_analyze_doc(&doc, &o, &an, &err))
		fail_msg("%s", err.buf);
	assert_false(an.opts.higher_is_better);
	assert_true(an.opts.paired);
	assert_int_equal(an.nr_arms, 2);
	assert_int_equal(an.opts.nr_cov, 1);
	assert_string_equal(an.opts.cov_names[0], "steal");
	for (b = 0; b < NR_BLOCKS; b++) {
		assert_true(an.in[1].values[b] == metric_of(1, b));
		assert_int_equal(an.in[1].blocks[b], b);
		assert_float_equal(an.in[1].cov[b], 0.001 * ((b * 7 + 3) % 5),
				   1e-15);
	}
	assert_string_equal(an.in[0].label, "none");
	assert_int_equal(an.in[0].n, NR_BLOCKS);

	if (analysis_run(&ref, an.in, 2, &an.opts, &err))
		fail_msg("%s", err.buf);
	assert_non_null(doc.arms[1].summary);
	assert_int_equal(doc.arms[1].summary->n, NR_BLOCKS);
	assert_true(doc.arms[1].summary->median == ref.summaries[1].s.median);
	assert_non_null(doc.arms[1].drift); /* 8 runs: checked */
	assert_int_equal(doc.has_baseline, MODEL_SET);
	assert_int_equal(doc.baseline, 0);
	assert_int_equal(doc.nr_verdicts, 1);
	v = &doc.verdicts[0];
	assert_string_equal(v->label, "kyber");
	assert_string_equal(v->baseline, "none");
	assert_string_equal(v->verdict, "faster");
	/* the mark of the analysis before is gone with it */
	assert_int_equal(v->has_suspect, MODEL_ABSENT);
	assert_non_null(v->cmp);
	assert_true(v->cmp->ratio == ref.verdicts[1].cmp.shift.ratio);
	assert_string_equal(v->cmp->test, "wilcoxon-signed-rank");
	assert_non_null(v->adjusted);
	assert_non_null(v->verdict_from);
	analysis_release(&ref);
	exp_analysis_release(&an);
	experiment_doc_release(&doc);
	strbuf_release(&err);
}

/* A run without a block: unpaired, no blocks handed on. */
static void test_unpaired(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc doc;
	struct analysis_opts o;
	struct exp_analysis an;

	(void)state;
	doc_of(&doc, true);
	analysis_opts_init(&o);
	if (experiment_analyze_doc(&doc, &o, &an, &err))
		fail_msg("%s", err.buf);
	assert_false(an.opts.paired);
	assert_null(an.in[0].blocks);
	assert_null(an.in[1].blocks);
	assert_string_equal(doc.verdicts[0].cmp->test, "mann-whitney-u");
	assert_null(doc.verdicts[0].adjusted); /* adjusts paired runs only */
	exp_analysis_release(&an);
	experiment_doc_release(&doc);
	strbuf_release(&err);
}

/* What it refuses, and the sentence it says; the document is left as
 * it was. */
static void test_refused(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc doc;
	struct analysis_opts o;
	struct exp_analysis an;
	size_t nr_arms;

	(void)state;
	analysis_opts_init(&o);
	doc_of(&doc, false);
	doc.runs[2].arm = 2;
	assert_int_equal(experiment_analyze_doc(&doc, &o, &an, &err), -EINVAL);
	assert_string_equal(err.buf, "run 2 has no valid 'arm' and 'metric'");
	assert_null(doc.arms[1].summary);
	assert_string_equal(doc.verdicts[0].verdict, "slower");
	exp_analysis_release(&an);
	doc.runs[2].arm = 0;
	doc.runs[5].metric = 0;
	strbuf_reset(&err);
	assert_int_equal(experiment_analyze_doc(&doc, &o, &an, &err), -EINVAL);
	assert_string_equal(err.buf,
			    "run 5 has metric 0; metrics must be positive");
	exp_analysis_release(&an);
	nr_arms = doc.nr_arms;
	doc.nr_arms = 0;
	strbuf_reset(&err);
	assert_int_equal(experiment_analyze_doc(&doc, &o, &an, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "1 to 64 arms, not 0"));
	exp_analysis_release(&an);
	doc.nr_arms = nr_arms;
	experiment_doc_release(&doc);
	strbuf_release(&err);
}

/* The document of experiment_text() analysed, encoded as compare
 * prints it onto out. */
static void analyse_encode(bool extra, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct experiment_doc doc;
	struct analysis_opts o;
	struct exp_analysis an;

	experiment_text(&text, false, extra);
	if (experiment_doc_decode(text.buf, text.len, &doc, 0, &err))
		fail_msg("%s", err.buf);
	analysis_opts_init(&o);
	if (experiment_analyze_doc(&doc, &o, &an, &err))
		fail_msg("%s", err.buf);
	experiment_doc_encode(&doc, 0, out);
	exp_analysis_release(&an);
	experiment_doc_release(&doc);
	strbuf_release(&text);
	strbuf_release(&err);
}

/*
 * In place: the document prints the arms' numbers (a member iotrial
 * does not know kept in its arm), "verdicts" and "baseline" in their
 * places, and the marks of the analysis before are gone.
 */
static void test_in_place(void **state)
{
	struct strbuf printed = STRBUF_INIT;
	const char *arms, *n, *extra, *median;

	(void)state;
	analyse_encode(true, &printed);
	arms = strstr(printed.buf, "\"arms\"");
	assert_non_null(arms);
	n = strstr(arms, "\"n\"");
	extra = strstr(arms, "\"extra\"");
	median = strstr(arms, "\"median\"");
	/* the summary prints whole: the member it does not know after it,
	 * still in its arm */
	if (!(n && extra && median && n < median && median < extra &&
	      extra < strstr(arms, "\"kyber\"")))
		fail_msg("not in place:\n%s", arms);

	strbuf_reset(&printed);
	analyse_encode(false, &printed);
	assert_non_null(strstr(printed.buf, "\"verdicts\""));
	assert_true(strstr(printed.buf, "\"verdicts\"") <
		    strstr(printed.buf, "\"regimes\""));
	assert_null(strstr(printed.buf, "\"suspect\""));
	strbuf_release(&printed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_analyze),
	    cmocka_unit_test(test_unpaired),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_in_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
