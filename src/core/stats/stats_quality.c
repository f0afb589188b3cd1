/*
 * Data quality, reported and never used to drop runs: outliers by
 * modified z-score, and drift as Spearman's rank correlation with the
 * block order. See stats.h for each method.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"
#include "stats-int.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Iglewicz-Hoaglin constants: 0.6745 = Phi^-1(0.75), 1.253314 =
 * sqrt(pi / 2), the mean absolute deviation's scale for a normal. */
#define MZ_MAD_SCALE	0.6745
#define MZ_MEANAD_SCALE 1.253314

/* See stats.h: MAD-based, with the mean-deviation fallback. */
int stats_modified_z(const double *x, size_t n, double threshold,
		     double *out_mz, size_t *out_nr_outliers)
{
	double med, mad, meanad = 0.0, *dev;
	size_t i, nr = 0;

	if (!n || !stats_all_finite(x, n))
		return -EINVAL;
	med = stats_median(x, n);
	dev = xmalloc(n * sizeof(*dev));
	for (i = 0; i < n; i++) {
		dev[i] = fabs(x[i] - med);
		meanad += dev[i];
	}
	meanad /= (double)n;
	mad = stats_median(dev, n);
	free(dev);
	for (i = 0; i < n; i++) {
		double mz = 0.0;

		if (mad > 0.0)
			mz = MZ_MAD_SCALE * (x[i] - med) / mad;
		else if (meanad > 0.0)
			mz = (x[i] - med) / (MZ_MEANAD_SCALE * meanad);
		if (out_mz)
			out_mz[i] = mz;
		if (fabs(mz) > threshold)
			nr++;
	}
	if (out_nr_outliers)
		*out_nr_outliers = nr;
	return 0;
}

/* Pearson's r of the midranks, and its t-based p. */
int stats_spearman(const double *x, const double *y, size_t n, double *out_rho,
		   double *out_p)
{
	double *rx, *ry, mx, my, sxx = 0, syy = 0, sxy = 0, rho, df;
	size_t i;

	if (n < 3 || !stats_all_finite(x, n) || !stats_all_finite(y, n))
		return -EINVAL;
	rx = xmalloc(n * sizeof(*rx));
	ry = xmalloc(n * sizeof(*ry));
	stats_rank(x, n, rx);
	stats_rank(y, n, ry);
	mx = stats_mean(rx, n);
	my = stats_mean(ry, n);
	for (i = 0; i < n; i++) {
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
		sxy += (rx[i] - mx) * (ry[i] - my);
	}
	free(rx);
	free(ry);
	if (sxx == 0.0 || syy == 0.0) {
		*out_rho = 0.0;
		*out_p = 1.0;
		return 0;
	}
	rho = sxy / sqrt(sxx * syy);
	if (rho > 1.0)
		rho = 1.0;
	if (rho < -1.0)
		rho = -1.0;
	*out_rho = rho;
	df = (double)n - 2.0;
	if (fabs(rho) == 1.0)
		*out_p = 0.0;
	else
		*out_p = stats_t_two_sided(
		    rho * sqrt(df / ((1.0 + rho) * (1.0 - rho))), df);
	return 0;
}

/* Spearman against the block order. */
int stats_drift(const double *values, const double *block, size_t n,
		double alpha, struct stats_drift *out)
{
	double *idx = NULL;
	size_t i;
	int ret;

	if (!block) {
		idx = xmalloc((n ? n : 1) * sizeof(*idx));
		for (i = 0; i < n; i++)
			idx[i] = (double)i;
		block = idx;
	}
	memset(out, 0, sizeof(*out));
	ret = stats_spearman(values, block, n, &out->rho, &out->p);
	if (!ret)
		out->drifting = out->p < alpha;
	free(idx);
	return ret;
}
