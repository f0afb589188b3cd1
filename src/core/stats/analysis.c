/*
 * From metric values to verdicts, in the order docs/ARCHITECTURE.md
 * gives ("Statistics"): each arm is summarised (median and its exact CI,
 * spread, outliers, drift across blocks); each non-baseline arm is
 * compared with the baseline (when blocked, the ratio, its CI and p all
 * from the per-block log-ratios: one-sample Hodges-Lehmann with the
 * signed-rank CI, and the Wilcoxon test; else the two-sample
 * Hodges-Lehmann shift of the logs with the Moses CI, and Mann-Whitney);
 * p-values are Holm-adjusted together; then the verdict. Outliers and drift are
 * reported; no value is ever dropped.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void analysis_opts_init(struct analysis_opts *o)
{
	*o = (struct analysis_opts){
	    .baseline = 0,
	    .higher_is_better = true,
	    .paired = true,
	    .alpha = 0.05,
	    .margin = 0.02,
	    .conf = 0.95,
	};
}

/*
 * Values of arm in block order, matched with the baseline's blocks;
 * with out_z (nr_cov x arm->n, may be NULL), each covariate's difference
 * arm - baseline in the same order, out_z[c * arm->n + k].
 */
static size_t pair_up(const struct analysis_arm *base,
		      const struct analysis_arm *arm, unsigned nr_cov,
		      double *out_b, double *out_a, double *out_z)
{
	size_t i, j, n = 0;
	unsigned c;

	for (i = 0; i < arm->n; i++)
		for (j = 0; j < base->n; j++)
			if (base->blocks[j] == arm->blocks[i]) {
				out_b[n] = base->values[j];
				out_a[n] = arm->values[i];
				for (c = 0; out_z && c < nr_cov; c++)
					out_z[c * arm->n + n] =
					    arm->cov[i * nr_cov + c] -
					    base->cov[j * nr_cov + c];
				n++;
				break;
			}
	return n;
}

/*
 * The covariate-adjusted comparison of v's paired runs (xb, xa, n
 * pairs; z as pair_up() filled it, rows of stride stride).
 */
static void adjust(struct analysis_verdict *v, const double *xb,
		   const double *xa, size_t n, const double *z, size_t stride,
		   const struct analysis_opts *o)
{
	double *d = xcalloc(n + 1, sizeof(*d));
	double *zz = xcalloc((size_t)o->nr_cov * n + 1, sizeof(*zz));
	unsigned c;
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = log(xa[i]) - log(xb[i]);
	for (c = 0; c < o->nr_cov; c++)
		memcpy(zz + c * n, z + c * stride, n * sizeof(*zz));
	v->adj_tried =
	    !stats_adjust_paired(d, n, zz, o->nr_cov, o->conf, NULL, &v->adj);
	free(d);
	free(zz);
}

void analysis_verdict_ci(const struct analysis_verdict *v, double *ratio,
			 double *ci_low, double *ci_high)
{
	const struct stats_shift *s =
	    v->adj_tried && v->adj.used ? &v->adj.shift : &v->cmp.shift;

	*ratio = s->ratio;
	*ci_low = s->ratio_low;
	*ci_high = s->ratio_high;
}

static int summarize(struct analysis_summary *s, const struct analysis_arm *arm,
		     double conf)
{
	double *blocks = NULL;
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!arm->n)
		return 0;
	/* every value is a metric to take the logarithm of */
	for (i = 0; i < arm->n; i++)
		if (!isfinite(arm->values[i]) || !(arm->values[i] > 0))
			return -EINVAL;
	ret = stats_summarize(arm->values, arm->n, conf, &s->s);
	if (ret)
		return ret;
	stats_modified_z(arm->values, arm->n, 3.5, NULL, &s->nr_outliers);
	/* a rank correlation over fewer runs is perfect too often by
	 * chance (1 in 3 for n = 3) to call it drift */
	if (arm->n >= 6) {
		if (arm->blocks) {
			blocks = xcalloc(arm->n, sizeof(*blocks));
			for (i = 0; i < arm->n; i++)
				blocks[i] = arm->blocks[i];
		}
		if (!stats_drift(arm->values, blocks, arm->n, 0.05, &s->drift))
			s->drift_checked = true;
		free(blocks);
	}
	return 0;
}

int analysis_run(struct analysis *a, const struct analysis_arm *arms,
		 unsigned nr_arms, const struct analysis_opts *o,
		 struct strbuf *err)
{
	const struct analysis_arm *base;
	double *p, *p_adj, *xb, *xa;
	unsigned i, nr_p = 0;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	if (o->baseline >= nr_arms)
		return err_set(err, -EINVAL, "baseline arm %u does not exist",
			       o->baseline);
	a->nr_arms = nr_arms;
	a->summaries = xcalloc(nr_arms, sizeof(*a->summaries));
	a->verdicts = xcalloc(nr_arms, sizeof(*a->verdicts));
	for (i = 0; i < nr_arms && !ret; i++) {
		ret = summarize(&a->summaries[i], &arms[i], o->conf);
		if (ret)
			err_set(err, ret,
				"cannot summarise arm '%s': its values must "
				"be finite and positive",
				arms[i].label);
	}
	if (ret)
		return ret;
	base = &arms[o->baseline];
	p = xcalloc(nr_arms, sizeof(*p));
	p_adj = xcalloc(nr_arms, sizeof(*p_adj));
	xb = xcalloc(base->n + 1, sizeof(*xb));
	for (i = 0; i < nr_arms; i++) {
		struct analysis_verdict *v = &a->verdicts[i];
		bool paired = o->paired && arms[i].blocks && base->blocks;

		v->arm = i;
		if (i == o->baseline || arms[i].n < 2 || base->n < 2)
			continue;
		if (paired) {
			bool cov = o->nr_cov &&
				   o->nr_cov <= STATS_ADJ_MAX_COV &&
				   arms[i].cov && base->cov;
			double *z = NULL;
			size_t n;

			xa = xcalloc(arms[i].n, sizeof(*xa));
			free(xb);
			xb = xcalloc(arms[i].n, sizeof(*xb));
			if (cov)
				z = xcalloc((size_t)o->nr_cov * arms[i].n,
					    sizeof(*z));
			n = pair_up(base, &arms[i], o->nr_cov, xb, xa, z);
			ret = n >= 2 ? stats_compare(xb, n, xa, n, true,
						     o->conf, &v->cmp)
				     : -EINVAL;
			if (!ret && cov)
				adjust(v, xb, xa, n, z, arms[i].n, o);
			free(z);
			free(xa);
		} else {
			ret =
			    stats_compare(base->values, base->n, arms[i].values,
					  arms[i].n, false, o->conf, &v->cmp);
		}
		if (ret) {
			err_set(err, ret,
				"cannot compare arm '%s' with the baseline",
				arms[i].label);
			break;
		}
		v->valid = true;
		p[nr_p++] =
		    v->adj_tried && v->adj.used ? v->adj.wilcoxon.p : v->cmp.p;
	}
	if (!ret && nr_p)
		ret = stats_holm(p, nr_p, p_adj);
	for (i = 0, nr_p = 0; !ret && i < nr_arms; i++) {
		struct analysis_verdict *v = &a->verdicts[i];
		struct stats_verdict_input in = {0};

		if (!v->valid) {
			v->verdict = STATS_NO_VERDICT;
			continue;
		}
		v->p_adjusted = p_adj[nr_p++];
		analysis_verdict_ci(v, &in.ratio, &in.ci_low, &in.ci_high);
		in.p_adjusted = v->p_adjusted;
		in.alpha = o->alpha;
		in.margin = o->margin;
		in.n_arm = arms[i].n;
		in.n_baseline = base->n;
		in.higher_is_better = o->higher_is_better;
		v->verdict = stats_verdict(&in);
	}
	free(p);
	free(p_adj);
	free(xb);
	return ret;
}

void analysis_release(struct analysis *a)
{
	if (!a)
		return;
	free(a->summaries);
	free(a->verdicts);
	memset(a, 0, sizeof(*a));
}

const char *analysis_test_name(const struct stats_comparison *cmp)
{
	return cmp->paired ? "wilcoxon-signed-rank" : "mann-whitney-u";
}
