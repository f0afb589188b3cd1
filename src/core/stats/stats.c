/*
 * Statistics for comparing settings; see stats.h for each method.
 *
 * Why these methods: benchmark results are few (5 to 30 runs per arm),
 * skewed and prone to outliers, so everything is rank-based and
 * distribution-free. Ratios are shifts on log(metric), which makes "arm is
 * 3% faster" a symmetric statement. Small samples get exact null
 * distributions, counted with integer dynamic programming, so a p-value
 * of 0.043 means 0.043 and not an approximation of it.
 *
 * How the exact distributions are counted: the number of ways to reach
 * U = u with samples of m and n is the coefficient of q^u in the Gaussian
 * binomial [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i);
 * multiplying by (1 - q^a) and dividing by (1 - q^i) are each one pass
 * over the coefficients. For the signed-rank W+, each rank k either joins
 * the positive sum or not: a subset-sum count.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"
#include "stats-int.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Up to these sizes (runs per arm for U, pairs for the signed-rank
 * test) and without ties, p comes from the exact null distribution
 * (stats_dist.c); beyond them from the normal approximation, as stats.h
 * documents at stats_mwu() and stats_wilcoxon(). */
#define MWU_EXACT_MAX	   20
#define SIGNRANK_EXACT_MAX 25

/* A value and where it came from, for ranking. */
struct stats_vi {
	double v;
	size_t i;
};

/* qsort comparator for doubles (no NaN reaches it). */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* qsort comparator for stats_vi: by value, then by index (stable). */
static int cmp_vi(const void *a, const void *b)
{
	const struct stats_vi *x = a, *y = b;

	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}

bool stats_all_finite(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

/* A sorted copy of x[n]; the caller frees it. */
static double *sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

/* Median of sorted s[n], n > 0: the mean of the middle two when even. */
static double median_sorted(const double *s, size_t n)
{
	if (n % 2)
		return s[n / 2];
	return (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

/*
 * Midranks of x[n] into ranks[n] (may be NULL) and the tie term
 * sum(t^3 - t) over groups of t equal values into *out_ties.
 */
static void rank_ties(const double *x, size_t n, double *ranks,
		      double *out_ties)
{
	struct stats_vi *p = xmalloc((n ? n : 1) * sizeof(*p));
	double ties = 0.0;
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		p[i].v = x[i];
		p[i].i = i;
	}
	qsort(p, n, sizeof(*p), cmp_vi);
	for (i = 0; i < n; i = j + 1) {
		double t;

		for (j = i; j + 1 < n && p[j + 1].v == p[i].v; j++)
			;
		t = (double)(j - i + 1);
		ties += t * t * t - t;
		if (ranks)
			for (k = i; k <= j; k++)
				ranks[p[k].i] = (double)(i + j) / 2.0 + 1.0;
	}
	free(p);
	*out_ties = ties;
}

/* --- Per-arm description --- */

/* Median; NaN for n = 0 or a NaN in x. */
double stats_median(const double *x, size_t n)
{
	double *s, m;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		if (isnan(x[i]))
			return NAN;
	s = sorted_copy(x, n);
	m = median_sorted(s, n);
	free(s);
	return m;
}

/* Mean by plain summation (the inputs are a few dozen runs). */
double stats_mean(const double *x, size_t n)
{
	double sum = 0.0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

/* Two-pass sample standard deviation. */
double stats_sd(const double *x, size_t n)
{
	double mean, ss = 0.0;
	size_t i;

	if (!n)
		return NAN;
	if (n == 1)
		return 0.0;
	mean = stats_mean(x, n);
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

/* See stats.h: order statistics whose binomial coverage reaches conf. */
int stats_summarize(const double *x, size_t n, double conf,
		    struct stats_summary *out)
{
	size_t k, best = 1;
	double *s, best_cov;

	if (!n || !stats_all_finite(x, n) || !(conf > 0.0) || !(conf < 1.0))
		return -EINVAL;
	s = sorted_copy(x, n);
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->median = median_sorted(s, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->mean = stats_mean(x, n);
	out->sd = stats_sd(x, n);
	out->cv = out->mean != 0.0 ? out->sd / out->mean : NAN;

	/* Coverage of [x(k), x(n+1-k)] falls as k grows: take the last k
	 * that still reaches conf, or k = 1 when none does. */
	best_cov = 1.0 - 2.0 * stats_binom_cdf(0, n, 0.5);
	for (k = 2; k <= (n + 1) / 2; k++) {
		double cov = 1.0 - 2.0 * stats_binom_cdf((long)k - 1, n, 0.5);

		if (cov < conf)
			break;
		best = k;
		best_cov = cov;
	}
	out->ci_low_rank = best;
	out->ci_high_rank = n + 1 - best;
	out->median_ci_low = s[best - 1];
	out->median_ci_high = s[n - best];
	out->ci_coverage = best_cov;
	free(s);
	return 0;
}

/* Public midranks. */
int stats_rank(const double *x, size_t n, double *out_ranks)
{
	double ties;
	size_t i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (isnan(x[i]))
			return -EINVAL;
	rank_ties(x, n, out_ranks, &ties);
	return 0;
}

/* --- Two samples --- */

/* See stats.h for the method and its match with scipy. */
int stats_mwu(const double *x, size_t nx, const double *y, size_t ny,
	      struct stats_test *out)
{
	size_t nn = nx + ny, i;
	double *all, *ranks, ties, r1 = 0.0, u1, u, mn;

	if (!nx || !ny || !stats_all_finite(x, nx) || !stats_all_finite(y, ny))
		return -EINVAL;
	all = xmalloc(nn * sizeof(*all));
	ranks = xmalloc(nn * sizeof(*ranks));
	memcpy(all, x, nx * sizeof(*all));
	memcpy(all + nx, y, ny * sizeof(*all));
	rank_ties(all, nn, ranks, &ties);
	for (i = 0; i < nx; i++)
		r1 += ranks[i];
	free(all);
	free(ranks);

	mn = (double)nx * (double)ny;
	u1 = r1 - (double)nx * (nx + 1) / 2.0;
	u = u1 > mn - u1 ? u1 : mn - u1;
	memset(out, 0, sizeof(*out));
	out->statistic = u1;
	out->n_used = nn;
	if (nx <= MWU_EXACT_MAX && ny <= MWU_EXACT_MAX && ties == 0.0) {
		/* P(U >= u) = P(U <= mn - u) by symmetry. */
		out->method = STATS_EXACT;
		out->p = 2.0 * stats_mwu_cdf((long)(mn - u), nx, ny);
	} else {
		double n1 = (double)nn;
		double var =
		    mn / 12.0 * ((n1 + 1.0) - ties / (n1 * (n1 - 1.0)));

		out->method = STATS_NORMAL;
		if (var > 0.0) {
			out->z = (u - mn / 2.0 - 0.5) / sqrt(var);
			out->p = 2.0 * stats_norm_sf(out->z);
		} else {
			out->p = 1.0; /* every value equal */
		}
	}
	if (out->p > 1.0)
		out->p = 1.0;
	return 0;
}

/* See stats.h: HL estimate and Moses interval by inverting the U test. */
int stats_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny,
			 double conf, struct stats_shift *out)
{
	size_t mn = nx * ny, i, j, k;
	double alpha = 1.0 - conf, tx, ty, *d;

	if (!nx || !ny || !stats_all_finite(x, nx) ||
	    !stats_all_finite(y, ny) || !(conf > 0.0) || !(conf < 1.0))
		return -EINVAL;
	d = xmalloc(mn * sizeof(*d));
	for (j = 0; j < ny; j++)
		for (i = 0; i < nx; i++)
			d[j * nx + i] = y[j] - x[i];
	qsort(d, mn, sizeof(*d), cmp_double);
	rank_ties(x, nx, NULL, &tx);
	rank_ties(y, ny, NULL, &ty);

	memset(out, 0, sizeof(*out));
	out->shift = median_sorted(d, mn);
	out->ratio = out->ratio_low = out->ratio_high = NAN;
	if (nx <= MWU_EXACT_MAX && ny <= MWU_EXACT_MAX && tx == 0.0 &&
	    ty == 0.0) {
		int64_t *c = stats_mwu_counts(nx, ny), cum = 0, total = 0;
		long kk = -1;

		for (i = 0; i <= mn; i++)
			total += c[i];
		for (i = 0; i <= mn; i++) {
			cum += c[i];
			if ((double)cum / (double)total > alpha / 2.0)
				break;
			kk = (long)i;
		}
		k = kk < 0 ? 0 : (size_t)kk;
		out->coverage =
		    1.0 - 2.0 * stats_mwu_cdf_counts(c, mn, (long)k);
		out->method = STATS_EXACT;
		free(c);
	} else {
		double nn = (double)(nx + ny), fmn = (double)mn, kf, sd, zk;

		sd = sqrt(fmn / 12.0 *
			  ((nn + 1.0) - (tx + ty) / (nn * (nn - 1.0))));
		kf = floor(fmn / 2.0 - 0.5 -
			   stats_norm_quantile(1.0 - alpha / 2.0) * sd);
		k = kf < 0.0 ? 0 : (size_t)kf;
		zk = ((double)k + 0.5 - fmn / 2.0) / sd;
		out->coverage = sd > 0.0 ? 1.0 - 2.0 * stats_norm_cdf(zk) : 0.0;
		out->method = STATS_NORMAL;
	}
	if (2 * k + 1 > mn) /* cannot happen for k <= mn/2 - 0.5; be safe */
		k = (mn - 1) / 2;
	out->ci_low = d[k];
	out->ci_high = d[mn - k - 1];
	free(d);
	return 0;
}

/* log() of x[n] into a new array, or NULL if a value is not positive. */
static double *log_copy(const double *x, size_t n)
{
	double *l = xmalloc((n ? n : 1) * sizeof(*l));
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(x[i] > 0.0)) {
			free(l);
			return NULL;
		}
		l[i] = log(x[i]);
	}
	return l;
}

/* HL on logs, then back to a ratio. */
int stats_log_ratio(const double *x, size_t nx, const double *y, size_t ny,
		    double conf, struct stats_shift *out)
{
	double *lx, *ly;
	int ret;

	if (!nx || !ny || !stats_all_finite(x, nx) || !stats_all_finite(y, ny))
		return -EINVAL;
	lx = log_copy(x, nx);
	ly = log_copy(y, ny);
	if (!lx || !ly) {
		ret = -EDOM;
		goto out;
	}
	ret = stats_hodges_lehmann(lx, nx, ly, ny, conf, out);
	if (ret)
		goto out;
	out->ratio = exp(out->shift);
	out->ratio_low = exp(out->ci_low);
	out->ratio_high = exp(out->ci_high);
out:
	free(lx);
	free(ly);
	return ret;
}

/* --- Paired differences --- */

/* See stats.h: zeros dropped, exact for small untied samples. */
int stats_wilcoxon(const double *d, size_t n, struct stats_test *out)
{
	double *a, *ranks, ties, wplus = 0.0, nz;
	size_t i, used = 0;

	if (!n || !stats_all_finite(d, n))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	a = xmalloc(n * sizeof(*a));
	ranks = xmalloc(n * sizeof(*ranks));
	for (i = 0; i < n; i++)
		if (d[i] != 0.0)
			a[used++] = fabs(d[i]);
	out->n_used = used;
	if (!used) {
		out->p = 1.0;
		out->method = STATS_NORMAL;
		goto out;
	}
	rank_ties(a, used, ranks, &ties);
	for (i = 0, used = 0; i < n; i++) {
		if (d[i] == 0.0)
			continue;
		if (d[i] > 0.0)
			wplus += ranks[used];
		used++;
	}
	out->statistic = wplus;
	nz = (double)used;
	if (used <= SIGNRANK_EXACT_MAX && used == n && ties == 0.0) {
		long w = (long)wplus, total = (long)(used * (used + 1) / 2);
		double lo = stats_signrank_cdf(w, used);
		double hi = stats_signrank_cdf(total - w, used);

		out->method = STATS_EXACT;
		out->p = 2.0 * (lo < hi ? lo : hi);
	} else {
		double mean = nz * (nz + 1.0) / 4.0;
		double var =
		    nz * (nz + 1.0) * (2.0 * nz + 1.0) / 24.0 - ties / 48.0;

		out->method = STATS_NORMAL;
		out->z = (wplus - mean) / sqrt(var);
		out->p = 2.0 * stats_norm_sf(fabs(out->z));
	}
	if (out->p > 1.0)
		out->p = 1.0;
out:
	free(a);
	free(ranks);
	return 0;
}

/* See stats.h: Walsh averages, cut at the signed-rank critical count. */
int stats_signrank_shift(const double *d, size_t n, double conf,
			 struct stats_shift *out)
{
	size_t m, i, j, k, nw = 0;
	double alpha = 1.0 - conf, ties, *w;

	if (!n || !stats_all_finite(d, n) || !(conf > 0.0) || !(conf < 1.0))
		return -EINVAL;
	m = n * (n + 1) / 2;
	w = xmalloc(m * sizeof(*w));
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[nw++] = (d[i] + d[j]) / 2.0;
	qsort(w, m, sizeof(*w), cmp_double);
	rank_ties(d, n, NULL, &ties);

	memset(out, 0, sizeof(*out));
	out->shift = median_sorted(w, m);
	out->ratio = out->ratio_low = out->ratio_high = NAN;
	if (n <= SIGNRANK_EXACT_MAX && ties == 0.0) {
		/* P(W+ <= k) grows with k: stop at the first above alpha/2 */
		for (k = 0; k + 1 < m; k++)
			if (stats_signrank_cdf((long)k + 1, (unsigned)n) >
			    alpha / 2.0)
				break;
		out->coverage =
		    1.0 - 2.0 * stats_signrank_cdf((long)k, (unsigned)n);
		out->method = STATS_EXACT;
	} else {
		double fn = (double)n, fm = (double)m, kf, sd;

		sd = sqrt(fn * (fn + 1.0) * (2.0 * fn + 1.0) / 24.0 -
			  ties / 48.0);
		kf = floor(fm / 2.0 -
			   stats_norm_quantile(1.0 - alpha / 2.0) * sd);
		k = kf < 0.0 ? 0 : (size_t)kf;
		out->coverage =
		    sd > 0.0
			? 1.0 - 2.0 * stats_norm_cdf(
					  ((double)k + 0.5 - fm / 2.0) / sd)
			: 0.0;
		out->method = STATS_NORMAL;
	}
	if (2 * k + 1 > m) /* k < m/2 by construction; be safe */
		k = (m - 1) / 2;
	out->ci_low = w[k];
	out->ci_high = w[m - k - 1];
	free(w);
	return 0;
}

/* --- Several comparisons --- */

/* Holm: multiply the i-th smallest by n - i, keep the running maximum. */
int stats_holm(const double *p, size_t n, double *out_adj)
{
	struct stats_vi *s;
	double running = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		if (!(p[i] >= 0.0 && p[i] <= 1.0))
			return -EINVAL;
	if (!n)
		return 0;
	s = xmalloc(n * sizeof(*s));
	for (i = 0; i < n; i++) {
		s[i].v = p[i];
		s[i].i = i;
	}
	qsort(s, n, sizeof(*s), cmp_vi);
	for (i = 0; i < n; i++) {
		double v = (double)(n - i) * s[i].v;

		if (v > 1.0)
			v = 1.0;
		if (v < running)
			v = running;
		running = v;
		out_adj[s[i].i] = v;
	}
	free(s);
	return 0;
}

/* --- One arm against the baseline --- */

/*
 * Unpaired: the ratio with its Moses CI, and MWU. Paired: the ratio, its
 * CI and p from the per-block log-ratios (signed-rank), MWU beside.
 */
int stats_compare(const double *base, size_t nb, const double *arm, size_t na,
		  bool paired, double conf, struct stats_comparison *out)
{
	double *d;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	if (paired && na != nb)
		return -EINVAL;
	if (!paired) {
		ret = stats_log_ratio(base, nb, arm, na, conf, &out->shift);
		if (ret)
			return ret;
	}
	ret = stats_mwu(base, nb, arm, na, &out->mwu);
	if (ret)
		return ret;
	out->p = out->mwu.p;
	if (!paired)
		return 0;
	out->paired = paired;
	d = xmalloc(na * sizeof(*d));
	for (i = 0; i < na; i++) {
		if (!(base[i] > 0.0) || !(arm[i] > 0.0)) {
			free(d);
			return -EDOM;
		}
		d[i] = log(arm[i]) - log(base[i]);
	}
	ret = stats_wilcoxon(d, na, &out->wilcoxon);
	if (!ret)
		ret = stats_signrank_shift(d, na, conf, &out->shift);
	free(d);
	if (ret)
		return ret;
	out->p = out->wilcoxon.p;
	out->shift.ratio = exp(out->shift.shift);
	out->shift.ratio_low = exp(out->shift.ci_low);
	out->shift.ratio_high = exp(out->shift.ci_high);
	return 0;
}
