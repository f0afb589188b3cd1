/*
 * A budget that cannot reach a verdict wastes the minutes it was given:
 * the paired signed-rank test cannot reach p < 0.05 with 5 blocks or
 * fewer, whatever the data, and Holm's adjustment over many arms needs
 * more. So before the first run we estimate a block's length from the
 * run length and a per-run overhead, count the blocks the limits allow
 * and compare with the fewest blocks the exact test needs; after the
 * first block the estimate is redone with the time measured.
 *
 * When an experiment stops on a limit anyway, its per-block log ratios
 * tell how noisy the comparison is: a ratio's confidence interval
 * shrinks with the square root of the number of blocks, which gives the
 * blocks (and the budget) that --precision would take.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"
#include "../stats/stats.h"
#include "../../util/xalloc.h"
#include "../../util/units.h"
#include "../../util/banned.h"

void experiment_budget_estimate(const struct budget_opts *c, unsigned nr_arms,
				double run_s, struct experiment_budget *out)
{
	double overhead =
	    c->drop_caches ? BUDGET_RUN_OVERHEAD_S : BUDGET_RUN_OVERHEAD_WARM_S;
	unsigned by_budget;

	memset(out, 0, sizeof(*out));
	out->nr_arms = nr_arms;
	out->nr_tests = nr_arms > 1 ? nr_arms - 1 : 0;
	out->min_blocks = stats_signrank_min_blocks(c->alpha, out->nr_tests);
	out->blocks = -1u;
	out->measured = run_s > 0;
	if (run_s > 0)
		out->run_s = run_s;
	else if (c->ios)
		out->run_s = -1;
	else /* a duet's runs share their time: a block takes one run */
		out->run_s = (double)(c->time_ns + c->ramp_ns) / 1e9 /
				 (c->places > 1 ? c->places : 1) +
			     overhead;
	out->block_s = out->run_s > 0 ? out->run_s * nr_arms : -1;
	out->warmup_s = out->run_s > 0 ? out->run_s * c->warmup : 0;
	if (c->runs_fixed) {
		out->blocks = c->runs_fixed;
		return;
	}
	if (c->max_runs) {
		out->blocks = c->max_runs;
		out->limit = "--max-runs";
	}
	if (!c->budget_ns || out->block_s <= 0)
		return;
	/* the loop starts a block only when it fits; the first always runs */
	by_budget = (unsigned)fmax(
	    1,
	    floor(((double)c->budget_ns / 1e9 - out->warmup_s) / out->block_s));
	if (by_budget < out->blocks) {
		out->blocks = by_budget;
		out->limit = "--budget";
	}
}

/* A duration for people: "38 s", "3.2 s". */
static void shown_duration(struct strbuf *out, double s)
{
	strbuf_addf(out, s >= 10 ? "%.0f s" : "%.1f s", s);
}

/* The most arms (at least 2) whose verdict blocks fit the budget, or 0. */
static unsigned arms_that_fit(const struct experiment_budget *b,
			      const struct budget_opts *c)
{
	double budget_s = (double)c->budget_ns / 1e9;
	unsigned a;

	for (a = b->nr_arms - 1; a >= 2; a--) {
		unsigned need = stats_signrank_min_blocks(c->alpha, a - 1);

		if (need && b->warmup_s + need * a * b->run_s <= budget_s)
			return a;
	}
	return 0;
}

/* The --time at which the verdict blocks fit the budget, or 0. */
static double time_that_fits(const struct experiment_budget *b,
			     const struct budget_opts *c)
{
	double runs = (double)c->warmup + (double)b->min_blocks * b->nr_arms;
	double timed = (double)c->time_ns / 1e9;
	double per_run = (double)c->budget_ns / 1e9 / runs;
	double t = per_run - (b->run_s - timed);

	if (c->ios || t < 0.1 || t >= timed)
		return 0;
	return t >= 1 ? floor(t) : floor(t * 10) / 10;
}

int experiment_budget_short(const struct experiment_budget *b,
			    const struct budget_opts *c, struct strbuf *msg)
{
	unsigned arms;
	double t;

	if (c->runs_fixed || !b->limit || b->nr_tests == 0)
		return 0;
	if (b->min_blocks && b->blocks >= b->min_blocks)
		return 0;
	if (!strcmp(b->limit, "--budget")) {
		strbuf_addstr(msg, "--budget ");
		units_fmt_duration_arg(msg, (double)c->budget_ns / 1e9);
		strbuf_addf(msg, " allows about %u block%s of %u arms (",
			    b->blocks, b->blocks == 1 ? "" : "s", b->nr_arms);
		shown_duration(msg, b->block_s);
		strbuf_addf(msg, " each%s",
			    b->measured ? ", as measured" : ", estimated");
		if (b->measured && b->measured_blocks)
			strbuf_addf(msg, " over %u block%s", b->measured_blocks,
				    b->measured_blocks == 1 ? "" : "s");
		strbuf_addch(msg, ')');
	} else {
		strbuf_addf(msg, "--max-runs %u stops after %u blocks",
			    b->blocks, b->blocks);
	}
	if (!b->min_blocks) {
		strbuf_addf(msg,
			    "; with %u comparisons no number of blocks lets "
			    "the signed-rank test reach p < %g: vary fewer "
			    "values",
			    b->nr_tests, c->alpha);
		return 1;
	}
	strbuf_addf(msg,
		    "; a faster/slower verdict needs at least %u blocks "
		    "(with fewer, the exact signed-rank test",
		    b->min_blocks);
	if (b->nr_tests > 1)
		strbuf_addf(msg, ", Holm-adjusted for %u comparisons,",
			    b->nr_tests);
	strbuf_addf(msg, " cannot reach p < %g)", c->alpha);
	if (strcmp(b->limit, "--budget")) {
		strbuf_addf(msg, ": use --max-runs %u or more", b->min_blocks);
		return 1;
	}
	strbuf_addstr(msg, ": use --budget ");
	units_fmt_duration_arg(msg, b->warmup_s + b->min_blocks * b->block_s);
	arms = arms_that_fit(b, c);
	t = time_that_fits(b, c);
	if (arms)
		strbuf_addf(msg, ", at most %u arms", arms);
	else if (b->nr_arms > 2)
		strbuf_addstr(msg, ", fewer arms");
	if (t > 0) {
		strbuf_addstr(msg, " or --time ");
		if (t >= 1)
			strbuf_addf(msg, "%.0fs", t);
		else
			strbuf_addf(msg, "%.0fms", t * 1000);
	} else if (c->ios) {
		strbuf_addstr(msg, " or a smaller --ios");
	} else {
		strbuf_addstr(msg, " or a shorter --time");
	}
	return 1;
}

/* Is every factor of doc the workload's 'label' (an A/A experiment)? */
static int is_aa(const struct experiment_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nr_factors; i++)
		if (!doc->factors[i].name ||
		    strcmp(doc->factors[i].name, "label"))
			return 0;
	return doc->nr_factors > 0;
}

/* Per block, each arm's metric: m[block * nr_arms + arm], NaN when absent. */
static double *block_table(const struct experiment_doc *doc, unsigned nr_arms,
			   unsigned nr_blocks)
{
	double *m = xcalloc((size_t)nr_arms * nr_blocks, sizeof(*m));
	size_t i;

	for (i = 0; i < (size_t)nr_arms * nr_blocks; i++)
		m[i] = NAN;
	for (i = 0; i < doc->nr_runs; i++) {
		const struct exp_run *r = &doc->runs[i];

		if (r->has_block != MODEL_SET || r->arm < 0 ||
		    r->arm >= nr_arms || r->block < 0 || r->block >= nr_blocks)
			continue;
		m[(size_t)r->block * nr_arms + (size_t)r->arm] = r->metric;
	}
	return m;
}

double budget_worst_spread(const double *m, unsigned nr_arms,
			   unsigned nr_blocks, unsigned baseline,
			   unsigned *out_arm, unsigned *out_blocks)
{
	double *d = xcalloc(nr_blocks, sizeof(*d));
	double worst = NAN;
	unsigned a, b;

	for (a = 0; a < nr_arms; a++) {
		size_t k = 0;
		double sd;

		if (a == baseline)
			continue;
		for (b = 0; b < nr_blocks; b++) {
			double x = m[(size_t)b * nr_arms + baseline];
			double y = m[(size_t)b * nr_arms + a];

			if (x > 0 && y > 0)
				d[k++] = log(y / x);
		}
		if (k < 2)
			continue;
		sd = stats_sd(d, k);
		if (isnan(worst) || sd > worst) {
			worst = sd;
			if (out_arm)
				*out_arm = a;
			if (out_blocks)
				*out_blocks = (unsigned)k;
		}
	}
	free(d);
	return worst;
}

/* Drop doc's advice, if any. */
static void drop_advice(struct experiment_doc *doc)
{
	struct experiment_doc gone;

	experiment_doc_init(&gone);
	gone.advice = doc->advice;
	experiment_doc_release(&gone);
	doc->advice = NULL;
}

void experiment_advice_doc(struct experiment_doc *doc,
			   const struct budget_opts *c,
			   const struct experiment_budget *b)
{
	const char *stopped = doc->stopped ? doc->stopped : "";
	unsigned nr_arms = (unsigned)doc->nr_arms;
	unsigned nr_blocks = (unsigned)doc->blocks, worst_arm = 0, needed;
	unsigned baseline = (unsigned)doc->baseline;
	struct exp_advice *a;
	double *m, sd, z, h, now;

	if (c->runs_fixed ||
	    (strcmp(stopped, "budget spent") && strcmp(stopped, "max runs")))
		return;
	/* a document's numbers, not trusted to fit an unsigned */
	if (doc->blocks <= 0 || doc->blocks > 100000 || doc->baseline < 0 ||
	    nr_arms < 2 || baseline >= nr_arms)
		return;
	m = block_table(doc, nr_arms, nr_blocks);
	sd = nr_blocks < 2 ? NAN
			   : budget_worst_spread(m, nr_arms, nr_blocks,
						 baseline, &worst_arm, NULL);
	free(m);
	z = stats_norm_quantile(1 - c->alpha / 2);
	h = atanh(c->precision); /* the log half-width of +-precision */
	now = isnan(sd) ? NAN : tanh(z * sd / sqrt(nr_blocks));
	needed = isnan(sd) ? 0 : (unsigned)fmin(1e6, ceil(pow(z * sd / h, 2)));
	if (needed < b->min_blocks)
		needed = b->min_blocks;
	if (needed <= nr_blocks)
		needed = nr_blocks + 1;
	drop_advice(doc);
	a = doc->advice = xcalloc(1, sizeof(*a));
	a->stopped = xstrdup(stopped);
	a->blocks = nr_blocks;
	a->precision = c->precision;
	if (!isnan(sd)) {
		/* with one block there is no spread to measure */
		if (doc->arms[worst_arm].label)
			a->arm = xstrdup(doc->arms[worst_arm].label);
		a->log_ratio_sd = sd;
		a->has_log_ratio_sd = MODEL_SET;
		a->halfwidth = now;
		a->has_halfwidth = MODEL_SET;
	}
	a->blocks_needed = needed;
	a->more_blocks = needed - nr_blocks;
	a->min_blocks = b->min_blocks;
	if (b->block_s > 0) {
		a->block_s = b->block_s;
		a->has_block_s = MODEL_SET;
		a->budget_s = ceil(b->warmup_s + needed * b->block_s);
		a->has_budget_s = MODEL_SET;
	}
	a->aa = is_aa(doc);
}
