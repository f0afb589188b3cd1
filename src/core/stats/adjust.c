/*
 * CUPED on paired log-ratios; adjust.h says why the slope goes through
 * the origin and why that keeps the signed-rank test exact.
 *
 * The covariates are few (at most four), so the normal equations are
 * solved directly (Gaussian elimination with partial pivoting on a 4x4
 * system); a covariate whose column adds nothing (singular system) is
 * dropped, as one that is constant or unbalanced is.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "adjust.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

const char *stats_adj_why_name(enum stats_adj_why why)
{
	switch (why) {
	case STATS_ADJ_USED:
		return "used";
	case STATS_ADJ_FEW_BLOCKS:
		return "few blocks";
	case STATS_ADJ_NO_COVARIATE:
		return "no covariate";
	case STATS_ADJ_WEAK:
		return "explains too little";
	}
	return "?";
}

/*
 * Solve a x = b for the k x k system a (row major), in place; 0, or
 * -EDOM when a pivot is (relatively) zero.
 */
static int solve(double *a, double *b, size_t k)
{
	size_t c, r, j;
	double scale = 0;

	for (r = 0; r < k; r++)
		scale = fmax(scale, fabs(a[r * k + r]));
	if (!(scale > 0))
		return -EDOM;
	for (c = 0; c < k; c++) {
		size_t piv = c;

		for (r = c + 1; r < k; r++)
			if (fabs(a[r * k + c]) > fabs(a[piv * k + c]))
				piv = r;
		if (!(fabs(a[piv * k + c]) > 1e-10 * scale))
			return -EDOM;
		if (piv != c) {
			for (j = 0; j < k; j++) {
				double t = a[c * k + j];

				a[c * k + j] = a[piv * k + j];
				a[piv * k + j] = t;
			}
			double t = b[c];

			b[c] = b[piv];
			b[piv] = t;
		}
		for (r = 0; r < k; r++) {
			double f;

			if (r == c)
				continue;
			f = a[r * k + c] / a[c * k + c];
			for (j = c; j < k; j++)
				a[r * k + j] -= f * a[c * k + j];
			b[r] -= f * b[c];
		}
	}
	for (c = 0; c < k; c++)
		b[c] /= a[c * k + c];
	return 0;
}

/* Least squares through the origin of d on the kept columns of z. */
static int fit(const double *d, size_t n, const double *z,
	       struct stats_adjusted *out)
{
	double a[STATS_ADJ_MAX_COV * STATS_ADJ_MAX_COV], b[STATS_ADJ_MAX_COV];
	size_t col[STATS_ADJ_MAX_COV], k = 0, i, r, c;

	for (c = 0; c < out->nr_cov; c++)
		if (out->kept[c])
			col[k++] = c;
	if (!k)
		return -EDOM;
	for (r = 0; r < k; r++) {
		b[r] = 0;
		for (i = 0; i < n; i++)
			b[r] += z[col[r] * n + i] * d[i];
		for (c = 0; c < k; c++) {
			a[r * k + c] = 0;
			for (i = 0; i < n; i++)
				a[r * k + c] +=
				    z[col[r] * n + i] * z[col[c] * n + i];
		}
	}
	if (solve(a, b, k))
		return -EDOM;
	for (r = 0; r < k; r++)
		out->beta[col[r]] = b[r];
	return 0;
}

/* The shift and test of x[n] into out's shift and wilcoxon. */
static int estimate(const double *x, size_t n, double conf,
		    struct stats_adjusted *out)
{
	int ret = stats_signrank_shift(x, n, conf, &out->shift);

	if (ret)
		return ret;
	out->shift.ratio = exp(out->shift.shift);
	out->shift.ratio_low = exp(out->shift.ci_low);
	out->shift.ratio_high = exp(out->shift.ci_high);
	return stats_wilcoxon(x, n, &out->wilcoxon);
}

int stats_adjust_paired(const double *d, size_t n, const double *z,
			size_t nr_cov, double conf, double *out_d,
			struct stats_adjusted *out)
{
	double *adj, ss_d = 0, ss_a = 0;
	size_t c, i, kept = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!n || nr_cov > STATS_ADJ_MAX_COV || (nr_cov && !z))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(d[i]))
			return -EINVAL;
	out->n = n;
	out->nr_cov = nr_cov;
	adj = xcalloc(n, sizeof(*adj));
	memcpy(adj, d, n * sizeof(*adj));
	for (c = 0; c < nr_cov; c++) {
		const double *zc = z + c * n;
		struct stats_test t;
		bool ok = true, varies = false;

		out->balance_p[c] = NAN;
		for (i = 0; i < n; i++) {
			ok = ok && isfinite(zc[i]);
			varies = varies || (isfinite(zc[i]) && zc[i] != zc[0]);
		}
		if (!ok || !varies)
			continue;
		if (!stats_wilcoxon(zc, n, &t))
			out->balance_p[c] = t.p;
		/* the arm seems to move it: it would carry the effect */
		if (n >= STATS_ADJ_MIN_BLOCKS && t.p < STATS_ADJ_BALANCE_P)
			continue;
		out->kept[c] = true;
		kept++;
	}
	if (n < STATS_ADJ_MIN_BLOCKS)
		out->why = STATS_ADJ_FEW_BLOCKS;
	else if (!kept)
		out->why = STATS_ADJ_NO_COVARIATE;
	else if (fit(d, n, z, out)) {
		memset(out->kept, 0, sizeof(out->kept));
		out->why = STATS_ADJ_NO_COVARIATE;
	} else {
		for (i = 0; i < n; i++) {
			for (c = 0; c < nr_cov; c++)
				if (out->kept[c])
					adj[i] -= out->beta[c] * z[c * n + i];
			ss_d += d[i] * d[i];
			ss_a += adj[i] * adj[i];
		}
		out->r2 = ss_d > 0 ? 1 - ss_a / ss_d : 0;
		out->why = out->r2 >= STATS_ADJ_MIN_R2 ? STATS_ADJ_USED
						       : STATS_ADJ_WEAK;
	}
	out->used = out->why == STATS_ADJ_USED;
	if (!out->used) {
		memcpy(adj, d, n * sizeof(*adj));
		for (c = 0; c < nr_cov; c++)
			out->beta[c] = 0;
		memset(out->kept, 0, sizeof(out->kept));
	}
	ret = estimate(adj, n, conf, out);
	if (!ret && out_d)
		memcpy(out_d, adj, n * sizeof(*adj));
	free(adj);
	return ret;
}
