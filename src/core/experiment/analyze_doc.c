/*
 * The spine of an experiment's analysis on its document (analyze_doc.h):
 * the runs gathered per arm with their blocks and covariates,
 * analysis_run(), and what it found written into the arms' summaries,
 * the verdicts and the baseline.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze_doc.h"
#include "experiment.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* v, or NaN (null) when it is not finite. */
static double fin(double v)
{
	return isfinite(v) ? v : NAN;
}

void analysis_summaries_doc(const struct analysis *a,
			    struct experiment_doc *doc)
{
	size_t i;

	for (i = 0; i < a->nr_arms && i < doc->nr_arms; i++) {
		const struct analysis_summary *s = &a->summaries[i];
		struct exp_arm *arm = &doc->arms[i];
		struct exp_arm_summary *sum = xcalloc(1, sizeof(*sum));
		struct exp_arm_drift *d;

		sum->n = (int64_t)s->s.n;
		sum->median = fin(s->s.median);
		sum->ci_low = fin(s->s.median_ci_low);
		sum->ci_high = fin(s->s.median_ci_high);
		sum->ci_coverage = fin(s->s.ci_coverage);
		sum->min = fin(s->s.min);
		sum->max = fin(s->s.max);
		sum->cv = fin(s->s.cv);
		sum->outliers = (int64_t)s->nr_outliers;
		exp_arm_summary_free(arm->summary);
		arm->summary = sum;
		if (!s->drift_checked)
			continue;
		d = xcalloc(1, sizeof(*d));
		d->drift_rho = fin(s->drift.rho);
		d->drift_p = fin(s->drift.p);
		d->drifting = s->drift.drifting;
		exp_arm_drift_free(arm->drift);
		arm->drift = d;
	}
}

/* The comparison adjusted for the covariates of verdict v. */
static struct exp_adjusted *adjusted_doc(const struct analysis_verdict *v,
					 const struct analysis_opts *o)
{
	struct exp_adjusted *ad = xcalloc(1, sizeof(*ad));
	unsigned c;

	ad->ratio = fin(v->adj.shift.ratio);
	ad->ci_low = fin(v->adj.shift.ratio_low);
	ad->ci_high = fin(v->adj.shift.ratio_high);
	ad->ci_coverage = fin(v->adj.shift.coverage);
	ad->p = fin(v->adj.wilcoxon.p);
	ad->used = v->adj.used;
	ad->why = xstrdup(stats_adj_why_name(v->adj.why));
	ad->covariates =
	    xcalloc(STATS_ADJ_MAX_COV + 1, sizeof(*ad->covariates));
	for (c = 0; c < o->nr_cov && c < STATS_ADJ_MAX_COV; c++)
		if (v->adj.kept[c] && o->cov_names)
			ad->covariates[ad->nr_covariates++] =
			    xstrdup(o->cov_names[c]);
	ad->r2 = fin(v->adj.r2);
	return ad;
}

/* The plain comparison of verdict v. */
static struct exp_comparison *cmp_doc(const struct analysis_verdict *v)
{
	struct exp_comparison *cmp = xcalloc(1, sizeof(*cmp));

	cmp->ratio = fin(v->cmp.shift.ratio);
	cmp->ci_low = fin(v->cmp.shift.ratio_low);
	cmp->ci_high = fin(v->cmp.shift.ratio_high);
	cmp->ci_coverage = fin(v->cmp.shift.coverage);
	cmp->has_ci_coverage = MODEL_SET;
	cmp->p = fin(v->cmp.p);
	cmp->p_adjusted = fin(v->p_adjusted);
	cmp->test = xstrdup(analysis_test_name(&v->cmp));
	return cmp;
}

void analysis_verdicts_doc(const struct analysis *a,
			   const struct analysis_arm *arms,
			   const struct analysis_opts *o,
			   struct experiment_doc *doc)
{
	struct exp_verdict *vs = xcalloc(a->nr_arms + 1, sizeof(*vs));
	size_t nr = 0;
	unsigned i;

	for (i = 0; i < a->nr_arms; i++) {
		const struct analysis_verdict *v = &a->verdicts[i];
		struct exp_verdict *out = &vs[nr];

		if (i == o->baseline)
			continue;
		nr++;
		out->arm = i;
		out->label = xstrdup(arms[i].label);
		out->baseline = xstrdup(arms[o->baseline].label);
		if (v->valid) {
			out->cmp = cmp_doc(v);
			if (v->adj_tried) {
				out->adjusted = adjusted_doc(v, o);
				out->verdict_from =
				    xstrdup(v->adj.used ? "adjusted" : "plain");
			}
		}
		out->verdict = xstrdup(stats_verdict_name(v->verdict));
	}
	exp_verdicts_free(doc->verdicts, doc->nr_verdicts);
	doc->verdicts = vs;
	doc->nr_verdicts = nr;
	doc->has_verdicts = MODEL_SET;
}

/*
 * Check doc's runs and gather them per arm into out (its in[], values,
 * blocks and covariates; opts.paired cleared when a run has no
 * block). 0, or -EINVAL with err set.
 */
static int gather(const struct experiment_doc *doc, struct exp_analysis *out,
		  struct strbuf *err)
{
	size_t nr_arms = doc->nr_arms, nr_runs = doc->nr_runs, i, a;
	size_t *start = xcalloc(nr_arms + 1, sizeof(*start));
	size_t *at = xcalloc(nr_arms + 1, sizeof(*at));
	double *all_cov = xcalloc(nr_runs * RUN_MAX_COV + 1, sizeof(*all_cov));
	unsigned nr_cov = 0;
	int ret = 0;

	for (i = 0; i < nr_runs; i++) {
		const struct exp_run *r = &doc->runs[i];

		if (r->arm < 0 || (uint64_t)r->arm >= nr_arms) {
			ret = err_set(err, -EINVAL,
				      "run %zu has no valid 'arm' and "
				      "'metric'",
				      i);
			goto out;
		}
		if (!(r->metric > 0) || !isfinite(r->metric)) {
			ret = err_set(err, -EINVAL,
				      "run %zu has metric %g; metrics must be "
				      "positive",
				      i, r->metric);
			goto out;
		}
		if (r->has_block != MODEL_SET || r->block < 0)
			out->opts.paired = false;
		at[r->arm]++;
	}
	for (a = 1; a < nr_arms; a++)
		start[a] = start[a - 1] + at[a - 1];
	runs_covariates(doc->runs, nr_runs, all_cov, out->cov_names, &nr_cov);
	out->values = xcalloc(nr_runs + 1, sizeof(*out->values));
	out->blocks = xcalloc(nr_runs + 1, sizeof(*out->blocks));
	out->cov = xcalloc(nr_runs * RUN_MAX_COV + 1, sizeof(*out->cov));
	memset(at, 0, nr_arms * sizeof(*at));
	for (i = 0; i < nr_runs; i++) {
		const struct exp_run *r = &doc->runs[i];
		size_t k = start[r->arm] + at[r->arm]++;

		out->values[k] = r->metric;
		out->blocks[k] =
		    r->has_block == MODEL_SET ? (unsigned)r->block : 0;
		memcpy(out->cov + k * nr_cov, all_cov + i * nr_cov,
		       nr_cov * sizeof(*all_cov));
	}
	for (a = 0; a < nr_arms; a++) {
		struct analysis_arm *in = &out->in[a];
		bool some = at[a] > 0;

		in->label = doc->arms[a].label ? doc->arms[a].label : "?";
		in->n = at[a];
		in->values = some ? out->values + start[a] : NULL;
		in->blocks =
		    some && out->opts.paired ? out->blocks + start[a] : NULL;
		in->cov = some ? out->cov + start[a] * nr_cov : NULL;
	}
	out->opts.nr_cov = nr_cov;
	out->opts.cov_names = out->cov_names;
out:
	free(start);
	free(at);
	free(all_cov);
	return ret;
}

int experiment_analyze_doc(struct experiment_doc *doc,
			   const struct analysis_opts *o,
			   struct exp_analysis *out, struct strbuf *err)
{
	struct analysis an = {0};
	int ret;

	memset(out, 0, sizeof(*out));
	out->opts = *o;
	if (doc->metric)
		out->opts.higher_is_better = doc->metric->higher_is_better;
	if (!doc->nr_arms || doc->nr_arms > EXPERIMENT_MAX_ARMS)
		return err_set(err, -EINVAL,
			       "an experiment needs 1 to %d arms, not %zu",
			       EXPERIMENT_MAX_ARMS, doc->nr_arms);
	out->in = xcalloc(doc->nr_arms, sizeof(*out->in));
	out->nr_arms = doc->nr_arms;
	ret = gather(doc, out, err);
	if (!ret)
		ret = analysis_run(&an, out->in, (unsigned)out->nr_arms,
				   &out->opts, err);
	if (!ret) {
		analysis_summaries_doc(&an, doc);
		analysis_verdicts_doc(&an, out->in, &out->opts, doc);
		doc->baseline = out->opts.baseline;
		doc->has_baseline = MODEL_SET;
	}
	analysis_release(&an);
	return ret;
}

void exp_analysis_release(struct exp_analysis *a)
{
	if (!a)
		return;
	free(a->in);
	free(a->values);
	free(a->blocks);
	free(a->cov);
	memset(a, 0, sizeof(*a));
}
