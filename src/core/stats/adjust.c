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

/* The share of sum(d^2) the covariate zc explains alone, through the
 * origin: (d.z)^2 / (d.d z.z); 0 for a zero d or z. */
static double alone_r2(const double *d, const double *zc, size_t n)
{
	double dz = 0, dd = 0, zz = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		dz += d[i] * zc[i];
		dd += d[i] * d[i];
		zz += zc[i] * zc[i];
	}
	return dd > 0 && zz > 0 ? dz * dz / (dd * zz) : 0;
}

/*
 * The signed-rank count of the adjusted differences at centre t: the
 * Walsh averages of x_i = r_i - t m_i above 0 (r the adjusted log
 * ratios, m what the adjustment leaves of a constant shift).
 */
static size_t count_above(const double *r, const double *m, size_t n, double t)
{
	size_t i, j, c = 0;

	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			c += r[i] + r[j] - t * (m[i] + m[j]) > 0;
	return c;
}

/* The least t (by bisection) with count_above(t) <= c. */
static double crossing(const double *r, const double *m, size_t n, size_t c,
		       double mid, double span)
{
	double lo = mid - span, hi = mid + span;
	int i;

	for (i = 0; i < 60 && count_above(r, m, n, lo) <= c; i++)
		lo -= (span *= 2);
	for (i = 0; i < 60 && count_above(r, m, n, hi) > c; i++)
		hi += (span *= 2);
	for (i = 0; i < 100; i++) {
		double t = (lo + hi) / 2;

		if (count_above(r, m, n, t) <= c)
			hi = t;
		else
			lo = t;
	}
	return (lo + hi) / 2;
}

/*
 * The estimate and interval of the centre t by inverting the signed-
 * rank test of the adjusted differences: a centre t is in the interval
 * when the test of d - t, adjusted as d was (beta refitted: the
 * differences become r - t m with m = (I - Z (Z'Z)^-1 Z') 1), does not
 * reject. That test is exact at the true centre for the reason the
 * test at 0 is (adjust.h), so the interval covers as the test holds its
 * level; cutting d' = r at the Walsh averages of r instead would leave
 * out the share of a real shift the slope takes (the covariates' means
 * are not exactly 0 in a sample). With m = 1 (no adjustment) this is
 * stats_signrank_shift()'s interval. The critical count is the one
 * stats_signrank_shift() takes for n values like r.
 */
/* Do two of x[n] have the same magnitude? */
static bool tied(const double *x, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (fabs(x[i]) == fabs(x[j]))
				return true;
	return false;
}

/*
 * The critical count k of the signed-rank interval of n values at conf,
 * as stats_signrank_shift() takes it: exact up to 25 untied values, else
 * the normal approximation (ties not corrected for here: they are rare
 * in adjusted differences, and only widen the interval a little).
 */
static size_t critical_count(size_t n, bool ties, double conf)
{
	double alpha = 1 - conf, nw = (double)n * (n + 1) / 2, sd, kf;
	size_t k;

	if (n <= 25 && !ties) {
		for (k = 0; 2 * k + 1 < (size_t)nw; k++)
			if (stats_signrank_cdf((long)k + 1, (unsigned)n) >
			    alpha / 2)
				break;
		return k;
	}
	sd = sqrt((double)n * (n + 1) * (2.0 * n + 1) / 24);
	kf = floor(nw / 2 - stats_norm_quantile(1 - alpha / 2) * sd);
	return kf < 0 ? 0 : (size_t)kf;
}

static int invert(const double *r, const double *m, size_t n, double conf,
		  struct stats_shift *out)
{
	size_t nw = n * (n + 1) / 2, k, i;
	double lo = INFINITY, hi = -INFINITY, span;
	struct stats_shift plain;
	int ret = stats_signrank_shift(r, n, conf, &plain);

	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		lo = fmin(lo, r[i]);
		hi = fmax(hi, r[i]);
	}
	span = hi - lo + 1e-9;
	k = critical_count(n, tied(r, n), conf);
	if (2 * k + 1 > nw)
		k = (nw - 1) / 2;
	*out = plain;
	out->shift = crossing(r, m, n, nw / 2, plain.shift, span);
	out->ci_low = crossing(r, m, n, nw - k - 1, plain.ci_low, span);
	out->ci_high = crossing(r, m, n, k, plain.ci_high, span);
	return 0;
}

/* The shift and test of the adjusted differences r[n] (with m, NULL
 * when unadjusted) into out's shift and wilcoxon. */
static int estimate(const double *r, const double *m, size_t n, double conf,
		    struct stats_adjusted *out)
{
	int ret = m ? invert(r, m, n, conf, &out->shift)
		    : stats_signrank_shift(r, n, conf, &out->shift);

	if (ret)
		return ret;
	out->shift.ratio = exp(out->shift.shift);
	out->shift.ratio_low = exp(out->shift.ci_low);
	out->shift.ratio_high = exp(out->shift.ci_high);
	return stats_wilcoxon(r, n, &out->wilcoxon);
}

int stats_adjust_paired(const double *d, size_t n, const double *z,
			size_t nr_cov, double conf, double *out_d,
			struct stats_adjusted *out)
{
	double *adj, *one, ss_d = 0, ss_a = 0;
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
	one = xcalloc(n, sizeof(*one));
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
		/* one that explains little alone costs more than it gives */
		if (alone_r2(d, zc, n) < STATS_ADJ_MIN_R2_ALONE)
			continue;
		out->kept[c] = true;
		kept++;
	}
	/* a slope needs blocks: at most one covariate per 4 beyond 4,
	 * the ones that explain most alone */
	while (kept && n < STATS_ADJ_MIN_BLOCKS + 4 * (kept - 1)) {
		size_t worst = nr_cov;

		for (c = 0; c < nr_cov; c++)
			if (out->kept[c] && (worst == nr_cov ||
					     alone_r2(d, z + c * n, n) <
						 alone_r2(d, z + worst * n, n)))
				worst = c;
		out->kept[worst] = false;
		kept--;
	}
	if (n < STATS_ADJ_MIN_BLOCKS)
		out->why = STATS_ADJ_FEW_BLOCKS;
	else if (!kept)
		out->why = STATS_ADJ_NO_COVARIATE;
	else if (fit(d, n, z, out)) {
		memset(out->kept, 0, sizeof(out->kept));
		out->why = STATS_ADJ_NO_COVARIATE;
	} else {
		struct stats_adjusted unit = *out;

		/* what the fit leaves of a constant shift: m = 1 - Z g,
		 * g the fit of 1 on the kept covariates */
		for (i = 0; i < n; i++)
			one[i] = 1;
		if (fit(one, n, z, &unit)) /* cannot: fit(d) went */
			memset(unit.beta, 0, sizeof(unit.beta));
		for (i = 0; i < n; i++) {
			for (c = 0; c < nr_cov; c++)
				if (out->kept[c]) {
					adj[i] -= out->beta[c] * z[c * n + i];
					one[i] -= unit.beta[c] * z[c * n + i];
				}
			ss_d += d[i] * d[i];
			ss_a += adj[i] * adj[i];
		}
		out->r2 = ss_d > 0 ? 1 - ss_a / ss_d : 0;
		/* the share of a shift the covariates would take with them
		 * (1 - sum(m^2) / n): it widens the interval as much as
		 * the spread they explain narrows it */
		for (i = 0, out->r2_shift = 1; i < n; i++)
			out->r2_shift -= one[i] * one[i] / (double)n;
		out->why = out->r2 - out->r2_shift >= STATS_ADJ_MIN_R2
			       ? STATS_ADJ_USED
			       : STATS_ADJ_WEAK;
	}
	out->used = out->why == STATS_ADJ_USED;
	if (!out->used) {
		memcpy(adj, d, n * sizeof(*adj));
		for (c = 0; c < nr_cov; c++)
			out->beta[c] = 0;
		memset(out->kept, 0, sizeof(out->kept));
	}
	ret = estimate(adj, out->used ? one : NULL, n, conf, out);
	if (!ret && out_d)
		memcpy(out_d, adj, n * sizeof(*adj));
	free(adj);
	free(one);
	return ret;
}
