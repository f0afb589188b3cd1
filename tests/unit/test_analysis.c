/*
 * Tests for core/stats/analysis.c: the statistics wired into verdicts.
 *  - reference analyses: whole analysis_run() calls against what scipy
 *    1.10 and the documented rules give, through analysis_vectors.h
 *    (written by gen_analysis_vectors.py): summaries, outliers, drift,
 *    pairing by block, Holm across the compared arms, every verdict;
 *  - the document's rows (experiment/analyze_doc.c), which must say
 *    what the structs say;
 *  - refusals: a missing baseline, values that are not positive, blocks
 *    that do not pair.
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
#include "core/stats/analysis.h"
#include "core/experiment/analyze_doc.h"
#include "analysis_vectors.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* Same method as scipy: agreement to rounding. */
#define TIGHT 1e-9

/* Fail with both numbers unless got is within rel (relative) of want. */
static void check_close(const char *what, const char *name, double got,
			double want, double rel)
{
	double tol = rel * fabs(want);

	if (isnan(want) && isnan(got))
		return;
	if (tol < 1e-300)
		tol = 1e-300;
	if (!(fabs(got - want) <= tol))
		fail_msg("%s %s: got %.17g want %.17g", name, what, got, want);
}

/* The analysis input of a reference case; free with free(). */
static struct analysis_arm *case_arms(const struct av_case *c)
{
	struct analysis_arm *arms = calloc(c->nr_arms, sizeof(*arms));
	unsigned i;

	assert_non_null(arms);
	for (i = 0; i < c->nr_arms; i++) {
		arms[i].label = c->arms[i].label;
		arms[i].values = c->arms[i].values;
		arms[i].blocks = c->arms[i].blocks;
		arms[i].n = c->arms[i].n;
	}
	return arms;
}

static struct analysis_opts case_opts(const struct av_case *c)
{
	struct analysis_opts o = {
	    .baseline = c->baseline,
	    .higher_is_better = c->higher_is_better,
	    .paired = c->paired,
	    .alpha = c->alpha,
	    .margin = c->margin,
	    .conf = c->conf,
	};

	return o;
}

/* Run reference case c into a (release it); arms into *out_arms. */
static void run_case(const struct av_case *c, struct analysis *a,
		     struct analysis_arm **out_arms)
{
	struct strbuf err = STRBUF_INIT;
	struct analysis_opts o = case_opts(c);

	*out_arms = case_arms(c);
	if (analysis_run(a, *out_arms, c->nr_arms, &o, &err))
		fail_msg("%s: %s", c->name, err.buf);
	strbuf_release(&err);
}

/* One arm's summary against the reference. */
static void check_summary(const char *name, const struct av_arm *v,
			  const struct analysis_summary *s)
{
	assert_int_equal(s->s.n, v->n);
	check_close("median", name, s->s.median, v->median, 1e-15);
	check_close("ci_low", name, s->s.median_ci_low, v->ci_low, 0);
	check_close("ci_high", name, s->s.median_ci_high, v->ci_high, 0);
	check_close("min", name, s->s.min, v->min, 0);
	check_close("max", name, s->s.max, v->max, 0);
	check_close("cv", name, s->s.cv, v->cv, 1e-12);
	assert_int_equal(s->nr_outliers, v->nr_outliers);
	assert_int_equal(s->drift_checked, v->drift_checked);
	if (v->drift_checked) {
		check_close("drift_rho", name, s->drift.rho, v->drift_rho,
			    1e-12);
		check_close("drift_p", name, s->drift.p, v->drift_p, TIGHT);
		assert_int_equal(s->drift.drifting, v->drifting);
	}
}

/* One arm's verdict against the reference. */
static void check_verdict(const char *name, unsigned arm,
			  const struct av_arm *v,
			  const struct analysis_verdict *d)
{
	assert_int_equal(d->arm, arm);
	assert_int_equal(d->valid, v->valid);
	if (strcmp(stats_verdict_name(d->verdict), v->verdict))
		fail_msg("%s: verdict '%s', want '%s'", name,
			 stats_verdict_name(d->verdict), v->verdict);
	if (!v->valid)
		return;
	check_close("ratio", name, d->cmp.shift.ratio, v->ratio, 1e-12);
	check_close("ratio_low", name, d->cmp.shift.ratio_low, v->ratio_low,
		    1e-12);
	check_close("ratio_high", name, d->cmp.shift.ratio_high, v->ratio_high,
		    1e-12);
	check_close("p", name, d->cmp.p, v->p, TIGHT);
	check_close("p_adjusted", name, d->p_adjusted, v->p_adjusted, TIGHT);
	assert_int_equal(d->cmp.paired, v->wilcoxon);
}

/* Every reference case, every arm. */
static void test_reference(void **state)
{
	size_t i;
	unsigned k;

	(void)state;
	for (i = 0; i < NELEM(av_cases); i++) {
		const struct av_case *c = &av_cases[i];
		struct analysis_arm *arms;
		struct analysis a;

		run_case(c, &a, &arms);
		assert_int_equal(a.nr_arms, c->nr_arms);
		for (k = 0; k < c->nr_arms; k++) {
			char name[96];

			snprintf(name, sizeof(name), "%s/%s", c->name,
				 c->arms[k].label);
			check_summary(name, &c->arms[k], &a.summaries[k]);
			check_verdict(name, k, &c->arms[k], &a.verdicts[k]);
		}
		analysis_release(&a);
		free(arms);
	}
}

/* The cases show what they are meant to: each verdict, an outlier that
 * is counted but kept, a drift, a pairing by block number. */
static void test_reference_coverage(void **state)
{
	static const char *const verdicts[] = {
	    "faster", "slower", "equivalent", "inconclusive", "no verdict",
	};
	size_t i, j, n, seen[NELEM(verdicts)] = {0};
	size_t outliers = 0, drifting = 0, wilcoxon = 0;

	(void)state;
	for (i = 0; i < NELEM(av_cases); i++)
		for (n = 0; n < av_cases[i].nr_arms; n++) {
			const struct av_arm *v = &av_cases[i].arms[n];

			for (j = 0; j < NELEM(verdicts); j++)
				seen[j] += !strcmp(v->verdict, verdicts[j]);
			outliers += v->nr_outliers;
			drifting += v->drifting;
			wilcoxon += v->wilcoxon;
		}
	for (j = 0; j < NELEM(verdicts); j++)
		if (!seen[j])
			fail_msg("no case gives '%s'", verdicts[j]);
	assert_true(outliers > 0);
	assert_true(drifting > 0);
	assert_true(wilcoxon > 0);
}

/* An outlier is reported, never dropped: the summary still spans it. */
static void test_outlier_kept(void **state)
{
	const double x[] = {100, 101, 99.5, 100.4, 98.9, 100.2, 131, 99.8};
	const struct analysis_arm arm = {"a", x, NULL, NELEM(x)};
	const struct analysis_opts o = {.alpha = 0.05, .conf = 0.95};
	struct strbuf err = STRBUF_INIT;
	struct analysis a;

	(void)state;
	assert_int_equal(analysis_run(&a, &arm, 1, &o, &err), 0);
	assert_int_equal(a.summaries[0].nr_outliers, 1);
	assert_int_equal(a.summaries[0].s.n, NELEM(x));
	assert_true(a.summaries[0].s.max == 131);
	assert_false(a.verdicts[0].valid);
	assert_int_equal(a.verdicts[0].verdict, STATS_NO_VERDICT);
	analysis_release(&a);
	strbuf_release(&err);
}

/* A document of arms[nr] (their index and label), as the analysis
 * fills it; release it. */
static void doc_of(const struct analysis_arm *arms, unsigned nr,
		   struct experiment_doc *doc)
{
	unsigned k;

	experiment_doc_init(doc);
	doc->arms = xcalloc(nr, sizeof(*doc->arms));
	doc->nr_arms = nr;
	for (k = 0; k < nr; k++) {
		doc->arms[k].arm = k;
		doc->arms[k].label = xstrdup(arms[k].label);
	}
}

/* The arms' summaries say what the structs say, one per arm; filled
 * again, they replace the first. */
static void test_summaries_doc(void **state)
{
	const struct av_case *c = &av_cases[1]; /* paired, baseline 1 */
	struct analysis_arm *arms;
	struct experiment_doc doc;
	struct analysis a;
	unsigned k;

	(void)state;
	run_case(c, &a, &arms);
	doc_of(arms, c->nr_arms, &doc);
	analysis_summaries_doc(&a, &doc);
	analysis_summaries_doc(&a, &doc);
	for (k = 0; k < c->nr_arms; k++) {
		const struct exp_arm_summary *d = doc.arms[k].summary;
		const struct exp_arm_drift *dr = doc.arms[k].drift;
		const struct analysis_summary *s = &a.summaries[k];

		assert_non_null(d);
		assert_int_equal(d->n, s->s.n);
		assert_true(d->median == s->s.median);
		assert_true(d->ci_low == s->s.median_ci_low);
		assert_true(d->ci_high == s->s.median_ci_high);
		assert_true(d->ci_coverage == s->s.ci_coverage);
		assert_true(d->min == s->s.min);
		assert_true(d->max == s->s.max);
		assert_true(d->cv == s->s.cv);
		assert_int_equal(d->outliers, s->nr_outliers);
		assert_non_null(dr);
		assert_true(dr->drift_rho == s->drift.rho);
		assert_true(dr->drift_p == s->drift.p);
		assert_int_equal(dr->drifting, s->drift.drifting);
	}
	experiment_doc_release(&doc);
	analysis_release(&a);
	free(arms);

	/* under six runs there is no drift to report */
	c = &av_cases[2];
	run_case(c, &a, &arms);
	doc_of(arms, c->nr_arms, &doc);
	analysis_summaries_doc(&a, &doc);
	for (k = 0; k < c->nr_arms; k++) {
		assert_non_null(doc.arms[k].summary);
		assert_null(doc.arms[k].drift);
	}
	experiment_doc_release(&doc);
	analysis_release(&a);
	free(arms);
}

/* The verdicts: one per arm but the baseline, the numbers only where
 * there was a comparison, the test that gave p; filled again, they
 * replace the first. */
static void test_verdicts_doc(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(av_cases); i++) {
		const struct av_case *c = &av_cases[i];
		struct analysis_opts o = case_opts(c);
		struct analysis_arm *arms;
		struct experiment_doc doc;
		struct analysis a;
		unsigned k, at = 0;

		run_case(c, &a, &arms);
		doc_of(arms, c->nr_arms, &doc);
		analysis_verdicts_doc(&a, arms, &o, &doc);
		analysis_verdicts_doc(&a, arms, &o, &doc);
		assert_int_equal(doc.has_verdicts, MODEL_SET);
		assert_int_equal(doc.nr_verdicts, c->nr_arms - 1);
		for (k = 0; k < c->nr_arms; k++) {
			const struct analysis_verdict *v = &a.verdicts[k];
			const struct exp_verdict *j;

			if (k == c->baseline)
				continue;
			j = &doc.verdicts[at++];
			assert_int_equal(j->arm, k);
			assert_string_equal(j->label, arms[k].label);
			assert_string_equal(j->baseline,
					    arms[c->baseline].label);
			assert_string_equal(j->verdict, c->arms[k].verdict);
			assert_null(j->adjusted); /* no covariates */
			assert_null(j->verdict_from);
			if (!v->valid) {
				assert_null(j->cmp);
				continue;
			}
			assert_non_null(j->cmp);
			assert_true(j->cmp->ratio == v->cmp.shift.ratio);
			assert_true(j->cmp->ci_low == v->cmp.shift.ratio_low);
			assert_true(j->cmp->ci_high == v->cmp.shift.ratio_high);
			assert_int_equal(j->cmp->has_ci_coverage, MODEL_SET);
			assert_true(j->cmp->ci_coverage ==
				    v->cmp.shift.coverage);
			assert_true(j->cmp->p == v->cmp.p);
			assert_true(j->cmp->p_adjusted == v->p_adjusted);
			assert_string_equal(j->cmp->test,
					    c->arms[k].wilcoxon
						? "wilcoxon-signed-rank"
						: "mann-whitney-u");
		}
		experiment_doc_release(&doc);
		analysis_release(&a);
		free(arms);
	}
}

/* A number that is not finite is NaN in the document (null in its
 * JSON), not a bad float; an adjusted comparison names the covariates
 * it kept and says which comparison the verdict rests on. */
static void test_doc_null(void **state)
{
	const struct analysis_arm arms[2] = {{"base", NULL, NULL, 0, NULL},
					     {"arm", NULL, NULL, 0, NULL}};
	static const char *const names[] = {"steal", "others_runnable"};
	const struct analysis_opts o = {
	    .baseline = 0, .nr_cov = 2, .cov_names = names};
	struct analysis_summary s[2];
	struct analysis_verdict v[2];
	struct analysis a = {2, s, v};
	struct experiment_doc doc;
	const struct exp_verdict *j;

	(void)state;
	memset(s, 0, sizeof(s));
	memset(v, 0, sizeof(v));
	s[1].s.cv = NAN;
	s[1].s.median = INFINITY;
	v[1].arm = 1;
	v[1].valid = true;
	v[1].cmp.shift.ratio = 1.5;
	v[1].cmp.shift.ratio_low = NAN;
	v[1].cmp.shift.ratio_high = INFINITY;
	v[1].p_adjusted = NAN;
	v[1].verdict = STATS_INCONCLUSIVE;
	v[1].adj_tried = true;
	v[1].adj.used = true;
	v[1].adj.kept[1] = true;
	v[1].adj.r2 = -INFINITY;
	doc_of(arms, 2, &doc);
	analysis_summaries_doc(&a, &doc);
	assert_true(isnan(doc.arms[1].summary->cv));
	assert_true(isnan(doc.arms[1].summary->median));
	assert_true(doc.arms[1].summary->min == 0);
	analysis_verdicts_doc(&a, arms, &o, &doc);
	assert_int_equal(doc.nr_verdicts, 1);
	j = &doc.verdicts[0];
	assert_true(j->cmp->ratio == 1.5);
	assert_true(isnan(j->cmp->ci_low));
	assert_true(isnan(j->cmp->ci_high));
	assert_true(isnan(j->cmp->p_adjusted));
	assert_string_equal(j->verdict, "inconclusive");
	assert_non_null(j->adjusted);
	assert_true(j->adjusted->used);
	assert_true(isnan(j->adjusted->r2));
	assert_int_equal(j->adjusted->nr_covariates, 1);
	assert_string_equal(j->adjusted->covariates[0], "others_runnable");
	assert_string_equal(j->verdict_from, "adjusted");
	experiment_doc_release(&doc);
}

/* What analysis_run refuses, and the sentence it says. */
static void test_errors(void **state)
{
	const double good[] = {10, 11, 12, 13}, nan[] = {10, NAN, 12, 13};
	const unsigned b1[] = {0, 1, 2, 3}, b2[] = {3, 4, 5, 6};
	struct analysis_arm arms[2] = {{"base", good, NULL, 4},
				       {"nan", nan, NULL, 4}};
	struct analysis_opts o = {.alpha = 0.05, .margin = 0.02, .conf = 0.95};
	struct strbuf err = STRBUF_INIT;
	struct analysis a;

	(void)state;
	o.baseline = 2;
	assert_int_equal(analysis_run(&a, arms, 2, &o, &err), -EINVAL);
	assert_string_equal(err.buf, "baseline arm 2 does not exist");
	analysis_release(&a);

	o.baseline = 0;
	assert_int_equal(analysis_run(&a, arms, 2, &o, &err), -EINVAL);
	assert_string_equal(err.buf, "cannot summarise arm 'nan': its values "
				     "must be finite and positive");
	analysis_release(&a);

	/* paired, but the two arms share only block 3 */
	arms[1].label = "apart";
	arms[1].values = good;
	arms[0].blocks = b1;
	arms[1].blocks = b2;
	o.paired = true;
	assert_int_equal(analysis_run(&a, arms, 2, &o, &err), -EINVAL);
	assert_string_equal(err.buf,
			    "cannot compare arm 'apart' with the baseline");
	analysis_release(&a);

	/* unpaired, the same arms compare */
	o.paired = false;
	assert_int_equal(analysis_run(&a, arms, 2, &o, &err), 0);
	assert_true(a.verdicts[1].valid);
	assert_false(a.verdicts[1].cmp.paired);
	analysis_release(&a);
	analysis_release(NULL);
	strbuf_release(&err);
}

/*
 * A value that is not positive is refused up front with the sentence
 * that says so, whichever arm holds it: it once passed the summary and
 * failed later in the logarithm (-EDOM, "cannot compare"), or not at all
 * when its arm was compared with nothing.
 */
static void test_not_positive(void **state)
{
	const double good[] = {10, 11, 12, 13}, zero[] = {10, 0, 12, 13};
	const double neg[] = {10, 11, -12, 13};
	struct analysis_arm arms[2] = {{"base", good, NULL, 4},
				       {"zero", zero, NULL, 4}};
	const struct analysis_opts o = {.alpha = 0.05, .conf = 0.95};
	struct strbuf err = STRBUF_INIT;
	struct analysis a;

	(void)state;
	assert_int_equal(analysis_run(&a, arms, 2, &o, &err), -EINVAL);
	assert_string_equal(err.buf, "cannot summarise arm 'zero': its values "
				     "must be finite and positive");
	analysis_release(&a);
	/* alone, compared with nothing */
	arms[0].label = "negative";
	arms[0].values = neg;
	assert_int_equal(analysis_run(&a, arms, 1, &o, &err), -EINVAL);
	assert_string_equal(err.buf, "cannot summarise arm 'negative': its "
				     "values must be finite and positive");
	analysis_release(&a);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reference),
	    cmocka_unit_test(test_reference_coverage),
	    cmocka_unit_test(test_outlier_kept),
	    cmocka_unit_test(test_summaries_doc),
	    cmocka_unit_test(test_verdicts_doc),
	    cmocka_unit_test(test_doc_null),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_not_positive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
