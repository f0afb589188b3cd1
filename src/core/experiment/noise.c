/*
 * The noise model's key, rows and costs; noise.h says what they are.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "noise.h"
#include "budget.h"
#include "metrics.h"
#include "../stats/stats.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* qsort: parameters by name. */
static int cmp_param(const void *a, const void *b)
{
	const struct param_setting *x = a, *y = b;

	return strcmp(x->name, y->name);
}

void noise_key(const struct experiment_config *c, struct strbuf *out)
{
	const struct metric_def *m =
	    c->metric ? c->metric
		      : metric_default_for(c->ops, c->params, c->nr_params);
	struct param_setting *p = xcalloc(c->nr_params + 1, sizeof(*p));
	unsigned i;

	strbuf_reset(out);
	strbuf_addf(out, "%s %s %s", c->ops->name, m ? m->name : "?",
		    c->target && c->target->spec ? c->target->spec : "?");
	if (c->ro.ios)
		strbuf_addf(out, " ios=%llu", (unsigned long long)c->ro.ios);
	strbuf_addf(out, " ramp=%llums places=%u",
		    (unsigned long long)(c->ro.ramp_ns / 1000000),
		    c->nr_places > 1 ? c->nr_places : 1);
	if (c->nr_params)
		memcpy(p, c->params, c->nr_params * sizeof(*p));
	qsort(p, c->nr_params, sizeof(*p), cmp_param);
	for (i = 0; i < c->nr_params; i++)
		strbuf_addf(out, " %s=%s", p[i].name, p[i].value);
	free(p);
}

int noise_row_of(const struct experiment_doc *exp, struct noise_row *out)
{
	unsigned nr_arms = (unsigned)exp->nr_arms;
	unsigned base = (unsigned)exp->baseline;
	int64_t blocks = exp->blocks;
	double *m, worst;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->block_s = exp->has_block_s == MODEL_SET ? exp->block_s : NAN;
	if (blocks < 2 || nr_arms < 2 || exp->has_baseline != MODEL_SET ||
	    exp->baseline < 0 || base >= nr_arms || !(out->block_s > 0) ||
	    blocks > 100000)
		return -EINVAL;
	m = xcalloc((size_t)blocks * nr_arms, sizeof(*m));
	for (i = 0; i < exp->nr_runs; i++) {
		const struct exp_run *r = &exp->runs[i];

		if (r->has_block == MODEL_SET && r->arm >= 0 &&
		    r->arm < nr_arms && r->block >= 0 && r->block < blocks)
			m[(size_t)r->block * nr_arms + (size_t)r->arm] =
			    r->metric;
	}
	worst = budget_worst_spread(m, nr_arms, (unsigned)blocks, base, NULL,
				    &out->blocks);
	free(m);
	out->log_ratio_sd = worst;
	return isnan(worst) ? -EINVAL : 0;
}

void noise_cost(const struct noise_model *m, double precision, double alpha,
		unsigned min_blocks, struct noise_cost *out)
{
	double z = stats_norm_quantile(1 - alpha / 2);
	double h = atanh(precision);
	double n = ceil(pow(z * m->log_ratio_sd / h, 2));

	if (!(n >= min_blocks))
		n = min_blocks;
	if (n > 1e6)
		n = 1e6;
	out->blocks = (unsigned)n;
	out->seconds = out->blocks * m->block_s;
}

/* Weighted least squares of y on x with an intercept: y = p0 + p1 x. */
static int wls(const double *x, const double *y, const double *w, unsigned n,
	       double *p0, double *p1)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, det;
	unsigned i;

	for (i = 0; i < n; i++) {
		sw += w[i];
		sx += w[i] * x[i];
		sy += w[i] * y[i];
		sxx += w[i] * x[i] * x[i];
		sxy += w[i] * x[i] * y[i];
	}
	det = sw * sxx - sx * sx;
	if (!(fabs(det) > 1e-12 * sw * sxx))
		return -EDOM;
	*p1 = (sw * sxy - sx * sy) / det;
	*p0 = (sy - *p1 * sx) / sw;
	return 0;
}

/* Two significant digits, in ms at least: 2.34 s is 2.3 s. */
static double round2(double s)
{
	double mag = pow(10, floor(log10(s)) - 1);
	double r = round(s / mag) * mag;

	return fmax(0.001, round(r * 1000) / 1000);
}

void noise_pick_time(const struct noise_model *m, unsigned nr, double def_s,
		     struct noise_pick *out)
{
	double x[STORE_NOISE_LENGTHS], y[STORE_NOISE_LENGTHS];
	double t[STORE_NOISE_LENGTHS], bs[STORE_NOISE_LENGTHS];
	double w[STORE_NOISE_LENGTHS], lo = INFINITY, hi = 0, best;
	unsigned i, n = 0;

	memset(out, 0, sizeof(*out));
	out->run_s = def_s;
	for (i = 0; i < nr && n < STORE_NOISE_LENGTHS; i++) {
		if (!(m[i].run_s > 0) || m[i].blocks < 2 ||
		    !(m[i].log_ratio_sd > 0))
			continue;
		t[n] = m[i].run_s;
		x[n] = 1 / m[i].run_s;
		y[n] = m[i].log_ratio_sd * m[i].log_ratio_sd;
		bs[n] = m[i].block_s;
		w[n] = m[i].blocks - 1;
		lo = fmin(lo, t[n]);
		hi = fmax(hi, t[n]);
		n++;
	}
	out->lengths = n;
	if (n < 2) {
		out->why = n ? "one run length measured" : "nothing measured";
		return;
	}
	if (wls(x, y, w, n, &out->a, &out->b) ||
	    wls(t, bs, w, n, &out->c0, &out->c1) || !(out->c1 > 0)) {
		out->why = "one run length measured";
		return;
	}
	if (out->c0 < 0)
		out->c0 = 0;
	if (!(out->b > 1e-9 * out->a * hi)) {
		best = lo; /* a run's own noise does not shrink with T */
		out->why = "longer runs do not help";
	} else if (!(out->a > 1e-9 * out->b)) {
		/* all of it averages out: long enough that the overhead is
		 * a tenth of a block */
		best = out->c0 > 0 ? 10 * out->c0 / out->c1 : hi;
		out->why = "the run's own noise dominates";
	} else {
		best = sqrt(out->b * out->c0 / (out->a * out->c1));
		out->why = "fitted";
	}
	best = fmin(fmax(best, lo / 2), 2 * hi);
	out->run_s = round2(fmin(fmax(best, 0.25), 60));
}
