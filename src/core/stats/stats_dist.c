/*
 * The distributions behind the tests of stats.c: the normal, Student's t
 * and binomial laws, the regularized incomplete beta function, and the
 * exact null distributions of the Mann-Whitney U and Wilcoxon signed-rank
 * statistics, counted by dynamic programming. Split from stats.c so each
 * file stays small; stats-int.h shares the helpers the tests reuse.
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

/* --- Distributions --- */

/* Phi(x) through erfc, which keeps relative accuracy in the tails. */
double stats_norm_cdf(double x)
{
	return 0.5 * erfc(-x * M_SQRT1_2);
}

/* 1 - Phi(x), accurate for large x. */
double stats_norm_sf(double x)
{
	return 0.5 * erfc(x * M_SQRT1_2);
}

/*
 * Start from Abramowitz and Stegun 26.2.23 (error below 4.5e-4) and
 * polish with Halley's method on Phi(x) - p, which converges cubically:
 * two steps reach double precision, the rest are insurance. The upper
 * half is mirrored, 1 - p being exact for p >= 0.5.
 */
double stats_norm_quantile(double p)
{
	double t, x;
	int i;

	if (isnan(p) || p < 0.0 || p > 1.0)
		return NAN;
	if (p == 0.0)
		return -INFINITY;
	if (p == 1.0)
		return INFINITY;
	if (p == 0.5)
		return 0.0;
	if (p > 0.5)
		return -stats_norm_quantile(1.0 - p);
	t = sqrt(-2.0 * log(p));
	x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
		      (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
	for (i = 0; i < 4; i++) {
		double e = stats_norm_cdf(x) - p;
		double u = e * sqrt(2.0 * M_PI) * exp(x * x / 2.0);

		if (e == 0.0 || !isfinite(u))
			break;
		x -= u / (1.0 + x * u / 2.0);
	}
	return x;
}

/* Sum of the binomial probabilities 0..k, each from lgamma in logs. */
double stats_binom_cdf(long k, unsigned long n, double p)
{
	double lp, lq, lnf, sum = 0.0;
	long i;

	if (k < 0)
		return 0.0;
	if ((unsigned long)k >= n)
		return 1.0;
	if (p <= 0.0)
		return 1.0;
	if (p >= 1.0)
		return 0.0;
	lp = log(p);
	lq = log1p(-p);
	lnf = lgamma((double)n + 1.0);
	for (i = 0; i <= k; i++)
		sum += exp(lnf - lgamma((double)i + 1.0) -
			   lgamma((double)(n - i) + 1.0) + i * lp +
			   (double)(n - i) * lq);
	return sum < 1.0 ? sum : 1.0;
}

/*
 * The continued fraction for I_x(a, b) (the one that converges fast for
 * x < (a + 1) / (a + b + 2)), evaluated by the modified Lentz method.
 */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1.0, d, h;
	int m;

	d = 1.0 - (a + b) * x / (a + 1.0);
	d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
	h = d;
	for (m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, num, step;

		num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		d = 1.0 + num * d;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		c = 1.0 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		d = 1.0 + num * d;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		c = 1.0 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		step = d * c;
		h *= step;
		if (fabs(step - 1.0) < 1e-16)
			break;
	}
	return h;
}

/* I_x(a, b) given both x and y = 1 - x, so neither loses digits. */
static double betainc2(double a, double b, double x, double y)
{
	double lfront;

	if (x <= 0.0)
		return 0.0;
	if (y <= 0.0)
		return 1.0;
	lfront =
	    lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(y);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * betacf(a, b, x) / a;
	return 1.0 - exp(lfront) * betacf(b, a, y) / b;
}

/* Regularized incomplete beta; NaN for invalid arguments. */
double stats_betainc(double a, double b, double x)
{
	if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0))
		return NAN;
	return betainc2(a, b, x, 1.0 - x);
}

/* P(|T| >= |t|) for Student's t: I_{df/(df+t^2)}(df/2, 1/2). */
double stats_t_two_sided(double t, double df)
{
	double t2 = t * t;

	if (isinf(t))
		return 0.0;
	return betainc2(df / 2.0, 0.5, df / (df + t2), t2 / (df + t2));
}

/* Upper tail of Student's t. */
double stats_t_sf(double t, double df)
{
	double half;

	if (isnan(t) || !(df > 0.0))
		return NAN;
	half = stats_t_two_sided(t, df) / 2.0;
	return t > 0.0 ? half : 1.0 - half;
}

/*
 * Counts of U = 0..m*n over the C(m + n, m) orderings, as the
 * coefficients of the Gaussian binomial (see the top of the file).
 * Returns an array of m * n + 1 counts; the caller frees it.
 */
int64_t *stats_mwu_counts(unsigned m, unsigned n)
{
	size_t len = (size_t)m * n + m + n + 1, deg = 0, u;
	int64_t *c = xcalloc(len, sizeof(*c));
	unsigned i;

	c[0] = 1;
	for (i = 1; i <= m; i++) {
		size_t a = (size_t)n + i;

		for (u = deg + a; u >= a; u--) /* times (1 - q^a) */
			c[u] -= c[u - a];
		deg += a;
		for (u = i; u <= deg; u++) /* over (1 - q^i) */
			c[u] += c[u - i];
		deg -= i;
	}
	return c;
}

/* P(U <= u) from counts c[0..mn]; u is clamped by the caller. */
double stats_mwu_cdf_counts(const int64_t *c, size_t mn, long u)
{
	int64_t below = 0, total = 0;
	size_t i;

	for (i = 0; i <= mn; i++) {
		total += c[i];
		if ((long)i <= u)
			below += c[i];
	}
	return (double)below / (double)total;
}

/* Exact P(U <= u) for sizes m, n. */
double stats_mwu_cdf(long u, unsigned m, unsigned n)
{
	size_t mn = (size_t)m * n;
	int64_t *c;
	double p;

	if (m + n > 60)
		return NAN;
	if (u < 0)
		return 0.0;
	if ((size_t)u >= mn)
		return 1.0;
	c = stats_mwu_counts(m, n);
	p = stats_mwu_cdf_counts(c, mn, u);
	free(c);
	return p;
}

/* Exact P(W+ <= w) for n untied nonzero differences. */
double stats_signrank_cdf(long w, unsigned n)
{
	size_t total = (size_t)n * (n + 1) / 2, s;
	int64_t *c, below = 0;
	unsigned k;

	if (n > 60)
		return NAN;
	if (w < 0)
		return 0.0;
	if ((size_t)w >= total)
		return 1.0;
	c = xcalloc(total + 1, sizeof(*c));
	c[0] = 1;
	for (k = 1; k <= n; k++) /* rank k joins the positive sum or not */
		for (s = (size_t)k * (k + 1) / 2; s >= k; s--)
			c[s] += c[s - k];
	for (s = 0; s <= (size_t)w; s++)
		below += c[s];
	free(c);
	return ldexp((double)below, -(int)n);
}

unsigned stats_signrank_min_blocks(double alpha, size_t nr_tests)
{
	unsigned n;

	if (!(alpha > 0 && alpha < 1) || !nr_tests)
		return 0;
	/*
	 * The smallest two-sided p of n untied differences all of one sign
	 * is 2 P(W+ <= 0); Holm multiplies the smallest p by nr_tests.
	 */
	for (n = 1; n <= 60; n++)
		if ((double)nr_tests * 2 * stats_signrank_cdf(0, n) < alpha)
			return n;
	return 0;
}
