/*
 * A series compared with the boot as the unit: per-boot medians, an
 * unpaired two-sample comparison of them, and the pooled figure beside
 * it. See series_stats.h for why.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "series_stats.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

unsigned series_min_boots(double alpha)
{
	double c = 1.0; /* C(2k, k), from C(0, 0) */
	unsigned k;

	if (!(alpha > 0.0 && alpha < 1.0))
		return 0;
	for (k = 1; k <= 30; k++) {
		c = c * (2.0 * k) * (2.0 * k - 1.0) / ((double)k * k);
		/* the most extreme split: one of C(2k, k) at each end */
		if (2.0 / c < alpha)
			return k;
	}
	return 0;
}

unsigned series_boots_needed(double ratio, double median_sd, double alpha,
			     double power)
{
	double d, z, n;
	unsigned min = series_min_boots(alpha);

	if (!(ratio > 0.0) || !isfinite(ratio) || ratio == 1.0 ||
	    !isfinite(median_sd) || median_sd < 0.0 || !min ||
	    !(power > 0.0 && power < 1.0))
		return 0;
	d = log(ratio);
	z = stats_norm_quantile(1.0 - alpha / 2.0) + stats_norm_quantile(power);
	n = 2.0 * z * z * median_sd * median_sd / (d * d) / (3.0 / M_PI);
	if (n > 1e6)
		return 0;
	n = ceil(n);
	return n < min ? min : (unsigned)n;
}

/* Sum of log values and of their squares over one group. */
static int group_logs(const struct series_group *g, double *out_sum,
		      double *out_sq)
{
	size_t i;

	*out_sum = 0.0;
	*out_sq = 0.0;
	for (i = 0; i < g->n; i++) {
		double l;

		if (!isfinite(g->x[i]))
			return -EINVAL;
		if (!(g->x[i] > 0.0))
			return -EDOM;
		l = log(g->x[i]);
		*out_sum += l;
		*out_sq += l * l;
	}
	return 0;
}

/* Log of each group's median into out[] (groups with values only);
 * *out_nr gets their count. */
static void log_medians(const struct series_group *g, size_t ng, double *out,
			size_t *out_nr)
{
	size_t i, k = 0;

	for (i = 0; i < ng; i++)
		if (g[i].n)
			out[k++] = log(stats_median(g[i].x, g[i].n));
	*out_nr = k;
}

int series_spread(const struct series_group *g, size_t ng,
		  struct series_spread *out)
{
	double grand = 0.0, ss_within = 0.0, ss_between = 0.0, msw, msb;
	double n0_num = 0.0, sum_n2 = 0.0, *med;
	size_t i, n = 0, k = 0, nm;
	int ret;

	out->within_sd = out->between_sd = out->median_sd = NAN;
	out->icc = NAN;
	for (i = 0; i < ng; i++) {
		double s, sq;

		ret = group_logs(&g[i], &s, &sq);
		if (ret)
			return ret;
		if (!g[i].n)
			continue;
		grand += s;
		n += g[i].n;
		k++;
		sum_n2 += (double)g[i].n * (double)g[i].n;
		ss_within += sq - s * s / (double)g[i].n;
	}
	if (!n)
		return -EINVAL;
	grand /= (double)n;
	for (i = 0; i < ng; i++) {
		double s, sq, m;

		if (!g[i].n)
			continue;
		group_logs(&g[i], &s, &sq);
		m = s / (double)g[i].n - grand;
		ss_between += (double)g[i].n * m * m;
	}
	if (ss_within < 0.0)
		ss_within = 0.0; /* rounding */
	msw = n > k ? ss_within / (double)(n - k) : 0.0;
	out->within_sd = sqrt(msw);
	if (k > 1) {
		/* the mean group size for unequal groups (ANOVA's n0) */
		n0_num = ((double)n - sum_n2 / (double)n) / (double)(k - 1);
		msb = ss_between / (double)(k - 1);
		out->between_sd = msb > msw ? sqrt((msb - msw) / n0_num) : 0.0;
	} else {
		out->between_sd = 0.0;
	}
	if (msw + out->between_sd * out->between_sd > 0.0)
		out->icc = out->between_sd * out->between_sd /
			   (out->between_sd * out->between_sd + msw);
	med = xcalloc(ng ? ng : 1, sizeof(*med));
	log_medians(g, ng, med, &nm);
	out->median_sd = nm > 1 ? stats_sd(med, nm) : 0.0;
	free(med);
	return 0;
}

/* Every value of g[ng] into one new array; *out_n its length. */
static double *pool(const struct series_group *g, size_t ng, size_t *out_n)
{
	size_t i, j, n = 0;
	double *x;

	for (i = 0; i < ng; i++)
		n += g[i].n;
	x = xcalloc(n ? n : 1, sizeof(*x));
	n = 0;
	for (i = 0; i < ng; i++)
		for (j = 0; j < g[i].n; j++)
			x[n++] = g[i].x[j];
	*out_n = n;
	return x;
}

/* Each group's median (groups with values only). */
static double *medians(const struct series_group *g, size_t ng, size_t *out_n)
{
	double *m = xcalloc(ng ? ng : 1, sizeof(*m));
	size_t i, k = 0;

	for (i = 0; i < ng; i++)
		if (g[i].n)
			m[k++] = stats_median(g[i].x, g[i].n);
	*out_n = k;
	return m;
}

/* stats_verdict() of one comparison with one test (no Holm). */
static enum stats_verdict verdict_of(const struct stats_comparison *c,
				     size_t nb, size_t na, double conf,
				     double margin, bool higher_is_better)
{
	struct stats_verdict_input in = {
	    .ratio = c->shift.ratio,
	    .ci_low = c->shift.ratio_low,
	    .ci_high = c->shift.ratio_high,
	    .p_adjusted = c->p,
	    .alpha = 1.0 - conf,
	    .margin = margin,
	    .n_arm = na,
	    .n_baseline = nb,
	    .higher_is_better = higher_is_better,
	};

	return stats_verdict(&in);
}

/* The spread of both sides, each boot's values about its own side. */
static int both_spread(const struct series_group *base, size_t nb,
		       const struct series_group *arm, size_t na,
		       struct series_spread *out)
{
	struct series_group *all = xcalloc(nb + na, sizeof(*all));
	struct series_spread sb, sa;
	size_t i;
	int ret;

	for (i = 0; i < nb; i++)
		all[i] = base[i];
	for (i = 0; i < na; i++)
		all[nb + i] = arm[i];
	/* within: over all boots; between: each side about its own mean,
	 * so the difference being measured is not counted as spread */
	ret = series_spread(all, nb + na, out);
	if (!ret)
		ret = series_spread(base, nb, &sb);
	if (!ret)
		ret = series_spread(arm, na, &sa);
	if (!ret) {
		double w = out->within_sd;

		out->between_sd = sqrt((sb.between_sd * sb.between_sd +
					sa.between_sd * sa.between_sd) /
				       2.0);
		out->median_sd = sqrt((sb.median_sd * sb.median_sd +
				       sa.median_sd * sa.median_sd) /
				      2.0);
		out->icc = out->between_sd * out->between_sd + w * w > 0.0
			       ? out->between_sd * out->between_sd /
				     (out->between_sd * out->between_sd + w * w)
			       : NAN;
	}
	free(all);
	return ret;
}

int series_compare(const struct series_group *base, size_t nb,
		   const struct series_group *arm, size_t na, double conf,
		   double margin, bool higher_is_better,
		   struct series_comparison *out)
{
	double *mb, *ma, *pb, *pa;
	size_t nmb, nma, npb, npa;
	unsigned min;
	int ret;

	if (!(conf > 0.0 && conf < 1.0))
		return -EINVAL;
	mb = medians(base, nb, &nmb);
	ma = medians(arm, na, &nma);
	pb = pool(base, nb, &npb);
	pa = pool(arm, na, &npa);
	out->boots_base = nmb;
	out->boots_arm = nma;
	out->iters_base = npb;
	out->iters_arm = npa;
	ret = !nmb || !nma ? -EINVAL : 0;
	if (!ret)
		ret = both_spread(base, nb, arm, na, &out->spread);
	if (!ret)
		ret = stats_compare(mb, nmb, ma, nma, false, conf, &out->boot);
	if (!ret)
		ret =
		    stats_compare(pb, npb, pa, npa, false, conf, &out->pooled);
	if (ret)
		goto out;
	min = series_min_boots(1.0 - conf);
	out->verdict =
	    verdict_of(&out->boot, nmb, nma, conf, margin, higher_is_better);
	if (nmb < min || nma < min)
		out->verdict = STATS_NO_VERDICT;
	out->pooled_verdict =
	    verdict_of(&out->pooled, npb, npa, conf, margin, higher_is_better);
	out->boots_needed = series_boots_needed(
	    out->boot.shift.ratio, out->spread.median_sd, 1.0 - conf, 0.8);
out:
	free(mb);
	free(ma);
	free(pb);
	free(pa);
	return ret;
}
