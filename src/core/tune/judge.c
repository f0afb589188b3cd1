/*
 * tune_judge(): paired signed-rank test, Hodges-Lehmann interval and a
 * one-sided test against the equivalence margin, on the per-block log
 * ratios of two candidates (see judge.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "judge.h"
#include "../stats/stats.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void tune_judge_opts_init(struct tune_judge_opts *o)
{
	o->higher_is_better = true;
	o->margin = 0.02;
	o->alpha = 0.05;
	o->conf = 0.95;
}

const char *tune_call_name(enum tune_call c)
{
	switch (c) {
	case TUNE_WORSE:
		return "worse";
	case TUNE_BETTER:
		return "better";
	case TUNE_EQUIVALENT:
		return "equivalent";
	case TUNE_CANNOT_TELL:
		break;
	}
	return "cannot tell";
}

/*
 * One-sided p that the centre of g[n] is below 0, from the two-sided
 * signed-rank test: half its p when W+ lies below its mean, else one
 * less half.
 */
static double p_below(const double *g, size_t n)
{
	struct stats_test t;
	double mean;

	if (stats_wilcoxon(g, n, &t) || !t.n_used)
		return 1;
	mean = (double)t.n_used * (double)(t.n_used + 1) / 4;
	if (t.statistic < mean)
		return t.p / 2;
	return 1 - t.p / 2;
}

int tune_judge(const double *a, const double *b, size_t n,
	       const struct tune_judge_opts *o, struct tune_judgement *out)
{
	double *d = xcalloc(n + 1, sizeof(*d));
	double *g = xcalloc(n + 1, sizeof(*g));
	double sign = o->higher_is_better ? 1 : -1;
	double floor_log = log1p(-o->margin);
	struct stats_shift sh;
	struct stats_test t;
	size_t i, m = 0;
	int ret = 0;

	out->call = TUNE_CANNOT_TELL;
	out->n = 0;
	out->ratio = out->ci_low = out->ci_high = NAN;
	out->coverage = NAN;
	out->p = out->p_worse = 1;
	for (i = 0; i < n; i++) {
		if (isnan(a[i]) || isnan(b[i]))
			continue;
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) ||
		    !isfinite(b[i])) {
			ret = -EINVAL;
			goto out;
		}
		d[m] = log(b[i]) - log(a[i]);
		/* goodness of b over a, less the margin's floor */
		g[m] = sign * d[m] - floor_log;
		m++;
	}
	out->n = m;
	if (m < 2)
		goto out;
	if (stats_signrank_shift(d, m, o->conf, &sh) ||
	    stats_wilcoxon(d, m, &t))
		goto out;
	out->ratio = exp(sh.shift);
	out->ci_low = exp(sh.ci_low);
	out->ci_high = exp(sh.ci_high);
	out->coverage = sh.coverage;
	out->p = t.p;
	out->p_worse = p_below(g, m);
	if (m < TUNE_JUDGE_MIN_PAIRS)
		goto out;
	if (out->p < o->alpha && (out->ci_low > 1 || out->ci_high < 1)) {
		bool up = out->ci_low > 1;

		out->call =
		    up == o->higher_is_better ? TUNE_BETTER : TUNE_WORSE;
	} else if (stats_equivalent(out->ci_low, out->ci_high, o->margin)) {
		out->call = TUNE_EQUIVALENT;
	}
out:
	free(d);
	free(g);
	return ret;
}
