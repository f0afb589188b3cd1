/*
 * tune and bisect for real (tune_run.h): the search's candidates as the
 * arms of a trial, its blocks run through an experiment_chooser.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tune_run.h"
#include "../knob/plan.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The candidates of the search d drives. */
static struct tune_cands *cands(struct tune_drive *d)
{
	return d->bisect ? &d->bis.cs : &d->race.cs;
}

static unsigned search_next(struct tune_drive *d, const unsigned **idx)
{
	return d->bisect ? tune_bisect_next(&d->bis, idx)
			 : tune_race_next(&d->race, idx);
}

static void search_stop(struct tune_drive *d, const char *why)
{
	if (d->bisect)
		tune_bisect_stop(&d->bis, why);
	else
		tune_race_stop(&d->race, why);
}

static const char *search_stopped(struct tune_drive *d)
{
	const char *s = d->bisect ? d->bis.stopped : d->race.stopped;

	return s ? s : "search over";
}

/* Make an arm of every candidate that has none yet; one that cannot be
 * planned keeps the reason (and, in a race, leaves it). */
static void make_arms(struct tune_drive *d)
{
	struct tune_cands *cs = cands(d);
	struct strbuf err = STRBUF_INIT;
	unsigned i, arm;

	ALLOC_GROW(d->arm_of, cs->nr + 1, d->alloc_arm_of);
	ALLOC_GROW(d->no_arm, cs->nr + 1, d->alloc_no_arm);
	for (i = d->nr_arm_of; i < cs->nr; i++) {
		d->no_arm[i] = NULL;
		d->arm_of[i] = -1;
		strbuf_reset(&err);
		if (!i && !d->tr->e.nr_arms)
			continue;
		if (!i) { /* the baseline is the trial's arm 0 */
			d->arm_of[0] = 0;
			continue;
		}
		if (trial_add_arm(d->tr, cs->v[i].level, &arm, &err)) {
			strbuf_setf(&d->scratch, "cannot be set: %s", err.buf);
			d->no_arm[i] = strbuf_detach(&d->scratch, NULL);
			if (!d->bisect)
				tune_race_refuse(&d->race, i, d->no_arm[i]);
			continue;
		}
		d->arm_of[i] = (int)arm;
	}
	d->nr_arm_of = cs->nr;
	strbuf_release(&err);
}

/* The value of metric name in the experiment runs' entry r: its
 * metric for "metric", else its run's "metrics" member; NaN when it
 * has none. */
static double run_value(const struct exp_run *r, const char *name)
{
	size_t i;

	if (!strcmp(name, "metric"))
		return r->metric;
	for (i = 0; r->run && i < r->run->nr_metrics; i++)
		if (r->run->metrics[i].name &&
		    !strcmp(r->run->metrics[i].name, name))
			return r->run->metrics[i].value;
	return NAN;
}

/* Keep the baseline's values of the --abort-if metrics of the runs
 * runs[nr] (a relative rule's limit is a multiple of their median). */
static void keep_base_values(struct tune_drive *d, const struct exp_run *runs,
			     size_t nr)
{
	size_t i, k, at;

	if (!d->nr_aborts)
		return;
	for (i = 0; i < nr; i++) {
		if (runs[i].arm)
			continue;
		at = d->nr_base_runs++ * d->nr_aborts;
		ALLOC_GROW(d->base_values, at + d->nr_aborts,
			   d->alloc_base_values);
		for (k = 0; k < d->nr_aborts; k++)
			d->base_values[at + k] =
			    run_value(&runs[i], d->aborts[k].metric);
	}
}

/* The median of --abort-if rule a's metric over the baseline's runs so
 * far, or NaN. */
static double base_median(const struct tune_drive *d, unsigned a)
{
	double *x = xcalloc(d->nr_base_runs + 1, sizeof(*x)), med = NAN;
	size_t i, k = 0;

	for (i = 0; i < d->nr_base_runs; i++) {
		x[k] = d->base_values[i * d->nr_aborts + a];
		if (isfinite(x[k]))
			k++;
	}
	if (k) {
		size_t p, b;

		for (p = 1; p < k; p++) /* few: insertion */
			for (b = p; b > 0 && x[b] < x[b - 1]; b--) {
				double t = x[b];

				x[b] = x[b - 1];
				x[b - 1] = t;
			}
		med = k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
	}
	free(x);
	return med;
}

/* Does a run (the experiment runs' entry r) break an --abort-if rule?
 * 1 with why set ("broke --abort-if 'p99>5ms': p99 is 7.1e+06"). */
static int abort_fires(const struct tune_drive *d, const struct exp_run *r,
		       struct strbuf *why)
{
	unsigned i;

	for (i = 0; i < d->nr_aborts; i++) {
		const struct tune_abort *a = &d->aborts[i];
		double v = run_value(r, a->metric), lim = a->limit;

		if (!isfinite(v))
			continue;
		if (a->relative) {
			lim *= base_median(d, i);
			if (!isfinite(lim))
				continue;
		}
		if (a->above ? v > lim : v < lim) {
			strbuf_setf(why,
				    "broke --abort-if '%s': %s was %.4g, the "
				    "limit %.4g",
				    a->text, a->metric, v, lim);
			return 1;
		}
	}
	return 0;
}

/* Keep the reason of arm's run this block (see fail[]); it is why's
 * text, now owned by d. */
static const char *keep_why(struct tune_drive *d, unsigned arm,
			    struct strbuf *why)
{
	unsigned k;

	if (arm >= d->nr_fail) {
		d->fail = xrealloc(d->fail, (arm + 1) * sizeof(*d->fail));
		for (k = d->nr_fail; k <= arm; k++)
			d->fail[k] = NULL;
		d->nr_fail = arm + 1;
	}
	free(d->fail[arm]);
	d->fail[arm] = strbuf_detach(why, NULL);
	return d->fail[arm];
}

/* The metric of each candidate of the block handed out, from the runs
 * the experiment exp recorded since the last block; NaN with the reason
 * for one that failed or has no arm. 1 when every run of the block is
 * accounted for. */
static int block_metrics(struct tune_drive *d, const struct experiment_doc *exp,
			 unsigned b, double *m, const char **why)
{
	const struct exp_run *runs = exp->runs + d->runs_seen;
	size_t i,
	    n = exp->nr_runs > d->runs_seen ? exp->nr_runs - d->runs_seen : 0;
	unsigned k, seen = 0;

	if (!n)
		runs = NULL;
	keep_base_values(d, runs, n);
	for (k = 0; k < d->nr_block; k++) {
		int arm = d->arm_of[d->block_cands[k]];

		m[k] = NAN;
		why[k] = NULL;
		if (arm < 0) {
			why[k] = d->no_arm[d->block_cands[k]];
			seen++;
		} else if ((unsigned)arm < d->nr_fail && d->fail[arm]) {
			why[k] = d->fail[arm];
			seen++;
		}
	}
	for (i = 0; i < n; i++) {
		const struct exp_run *r = &runs[i];

		if (r->block != (int64_t)b)
			continue;
		for (k = 0; k < d->nr_block; k++)
			if (d->arm_of[d->block_cands[k]] == r->arm &&
			    isnan(m[k]) && !why[k]) {
				m[k] = r->metric;
				seen++;
				if (abort_fires(d, r, &d->scratch)) {
					m[k] = NAN;
					why[k] = keep_why(d, (unsigned)r->arm,
							  &d->scratch);
				}
				break;
			}
	}
	d->runs_seen += n;
	return seen >= d->nr_block;
}

/* Give the search the block it handed out, when it ran whole. */
static void record_block(struct tune_drive *d, const struct experiment_doc *exp,
			 unsigned b)
{
	double *m = xcalloc(d->nr_block + 1, sizeof(*m));
	const char **why = xcalloc(d->nr_block + 1, sizeof(*why));
	unsigned k;

	if (block_metrics(d, exp, b, m, why) > 0) {
		for (k = 0; k < d->nr_block; k++)
			if (!(m[k] > 0) && !isnan(m[k]))
				m[k] = NAN; /* a metric of 0: nothing moved */
		if (d->bisect)
			tune_bisect_record(&d->bis, m, why);
		else
			tune_race_record(&d->race, m, why);
	}
	for (k = 0; k < d->nr_fail; k++) {
		free(d->fail[k]);
		d->fail[k] = NULL;
	}
	d->nr_block = 0;
	free(m);
	free(why);
}

/* experiment_chooser.next_block: the search's next block as arms. */
static unsigned next_block(void *ctx, struct experiment *e, unsigned b,
			   const unsigned **arms, const char **why)
{
	struct tune_drive *d = ctx;
	const unsigned *idx;
	unsigned n, k;

	if (!d->start_ns)
		d->start_ns = clock_now_ns();
	if (d->nr_block)
		record_block(d, e->doc, d->block_no);
	if (d->budget_ns && d->runs_seen) {
		double per_run = (double)(clock_now_ns() - d->start_ns) /
				 (double)d->runs_seen;
		double next = per_run * (double)(d->nr_block_arms + 1);

		if ((double)(clock_now_ns() - d->start_ns) + next >
		    (double)d->budget_ns)
			search_stop(d, "the budget is spent");
	}
	n = search_next(d, &idx);
	if (!n) {
		*why = search_stopped(d);
		return 0;
	}
	make_arms(d);
	free(d->block_arms);
	d->block_arms = xcalloc(n + 1, sizeof(*d->block_arms));
	d->block_cands = idx;
	d->block_no = b;
	d->nr_block = n;
	d->nr_block_arms = 0;
	for (k = 0; k < n; k++)
		if (d->arm_of[idx[k]] >= 0)
			d->block_arms[d->nr_block_arms++] =
			    (unsigned)d->arm_of[idx[k]];
	*arms = d->block_arms;
	if (!d->nr_block_arms) {
		*why = "no candidate could be set";
		return 0;
	}
	return d->nr_block_arms;
}

/* experiment_chooser.run_failed: keep the reason for the block. */
static void run_failed(void *ctx, unsigned arm, unsigned b, const char *why)
{
	struct tune_drive *d = ctx;
	unsigned k;

	(void)b;
	if (arm >= d->nr_fail) {
		d->fail = xrealloc(d->fail, (arm + 1) * sizeof(*d->fail));
		for (k = d->nr_fail; k <= arm; k++)
			d->fail[k] = NULL;
		d->nr_fail = arm + 1;
	}
	free(d->fail[arm]);
	strbuf_setf(&d->scratch, "its run failed: %s",
		    why && *why ? why : "no reason given");
	d->fail[arm] = strbuf_detach(&d->scratch, NULL);
}

/* The factor "knob=v1,v2,..." of values[nr]. */
static int add_factor(struct trial *tr, const char *knob, char *const *values,
		      unsigned nr, struct strbuf *err)
{
	struct strbuf spec = STRBUF_INIT;
	unsigned v;
	int ret;

	strbuf_addf(&spec, "%s=", knob);
	for (v = 0; v < nr; v++)
		strbuf_addf(&spec, "%s%s", v ? "," : "", values[v]);
	ret = trial_add_factor(tr, spec.buf, err);
	strbuf_release(&spec);
	return ret;
}

/* Plan and check the trial of d with the baseline arm levels[]; hook
 * the chooser. */
static int start(struct tune_drive *d, struct trial *tr, const unsigned *levels,
		 struct strbuf *err)
{
	int ret;

	d->tr = tr;
	tr->c.arm_levels = levels;
	tr->c.nr_arm_levels = 1;
	tr->c.runs_fixed = 0;
	ret = trial_plan(tr, err);
	tr->c.arm_levels = NULL;
	tr->c.nr_arm_levels = 0;
	if (!ret)
		ret = trial_check(tr, err);
	if (ret)
		return ret;
	d->ch.ctx = d;
	d->ch.next_block = next_block;
	d->ch.run_failed = run_failed;
	tr->c.chooser = &d->ch;
	make_arms(d);
	return 0;
}

int tune_drive_race(struct tune_drive *d, struct trial *tr,
		    const struct tune_space *sp, const struct tune_race_opts *o,
		    struct strbuf *err)
{
	unsigned *levels, i;
	int ret;

	memset(d, 0, sizeof(*d));
	strbuf_init(&d->scratch, 0);
	d->sp = sp;
	if (!sp->nr_rows)
		return err_set(err, -EINVAL, "the space has no knob to tune");
	for (i = 0; i < sp->nr_rows; i++) {
		ret = add_factor(tr, sp->rows[i].knob, sp->rows[i].values,
				 sp->rows[i].nr_values, err);
		if (ret)
			return ret;
	}
	d->nr_dims = sp->nr_rows;
	d->dims = xcalloc(d->nr_dims, sizeof(*d->dims));
	levels = xcalloc(d->nr_dims, sizeof(*levels));
	for (i = 0; i < d->nr_dims; i++) {
		const struct experiment_factor *f = &tr->c.factors[i];

		d->dims[i].name = f->name;
		d->dims[i].values = (const char *const *)f->values;
		d->dims[i].nr_values = f->nr_values;
		d->dims[i].current = sp->rows[i].current;
		levels[i] = sp->rows[i].current;
	}
	ret = tune_race_init(&d->race, d->dims, d->nr_dims, o, err);
	if (!ret)
		ret = start(d, tr, levels, err);
	free(levels);
	return ret;
}

/* Parse "KNOB=VALUE" into the plan-canonical value of knob on tr's
 * knobs, and its current value. 0 or -errno with err. */
static int canon_of(struct trial *tr, const char *assign, struct strbuf *knob,
		    struct strbuf *canon, struct strbuf *now,
		    struct strbuf *err)
{
	struct knob_plan p;
	int ret;

	knob_plan_init(&p, &tr->kctx);
	ret = knob_plan_add(&p, assign, err);
	if (!ret)
		ret = knob_plan_build(&p, err);
	if (!ret && p.nr != 1)
		ret = err_set(err, -EINVAL, "'%s' is not one knob", assign);
	if (!ret) {
		strbuf_setf(knob, "%s", p.v[0].k.name);
		strbuf_setf(canon, "%s", p.v[0].canon.buf);
		strbuf_setf(now, "%s", p.v[0].before.buf);
	}
	knob_plan_release(&p);
	return ret;
}

/* The index of knob in diff[nr], or nr. */
static unsigned find_diff(const struct tune_diff *diff, unsigned nr,
			  const char *knob)
{
	unsigned i;

	for (i = 0; i < nr; i++)
		if (!strcmp(diff[i].knob, knob))
			break;
	return i;
}

int tune_diffs(struct trial *tr, const char *const *from, unsigned nr_from,
	       const char *const *to, unsigned nr_to, struct tune_diff **out,
	       unsigned *nr_out, struct strbuf *err)
{
	struct strbuf knob = STRBUF_INIT, canon = STRBUF_INIT;
	struct strbuf now = STRBUF_INIT;
	struct tune_diff *diff = xcalloc(nr_from + nr_to + 1, sizeof(*diff));
	unsigned nr = 0, i, k, side;
	int ret = 0;

	for (side = 0; side < 2 && !ret; side++) {
		const char *const *set = side ? to : from;
		unsigned n = side ? nr_to : nr_from;

		for (i = 0; i < n && !ret; i++) {
			struct tune_diff *x;

			strbuf_reset(&now);
			ret = canon_of(tr, set[i], &knob, &canon, &now, &now);
			if (ret) {
				ret = err_set(err, ret, "--%s %s",
					      side ? "to" : "from", now.buf);
				break;
			}
			k = find_diff(diff, nr, knob.buf);
			x = &diff[k];
			if (k == nr) {
				x->knob = xstrdup(knob.buf);
				x->from = xstrdup(now.buf);
				x->to = xstrdup(now.buf);
				nr++;
			}
			if (side) {
				free(x->to);
				x->to = xstrdup(canon.buf);
			} else {
				free(x->from);
				x->from = xstrdup(canon.buf);
			}
		}
	}
	/* keep what differs */
	for (i = 0, k = 0; i < nr; i++) {
		if (!ret && strcmp(diff[i].from, diff[i].to)) {
			diff[k++] = diff[i];
			continue;
		}
		free(diff[i].knob);
		free(diff[i].from);
		free(diff[i].to);
	}
	if (ret) {
		tune_diffs_release(diff, k);
		diff = NULL;
		k = 0;
	}
	*out = diff;
	*nr_out = k;
	strbuf_release(&knob);
	strbuf_release(&canon);
	strbuf_release(&now);
	return ret;
}

void tune_diffs_release(struct tune_diff *d, unsigned nr)
{
	unsigned i;

	for (i = 0; d && i < nr; i++) {
		free(d[i].knob);
		free(d[i].from);
		free(d[i].to);
	}
	free(d);
}

int tune_drive_bisect(struct tune_drive *d, struct trial *tr,
		      struct tune_diff *diff, unsigned nr,
		      const struct tune_bisect_opts *o, struct strbuf *err)
{
	unsigned *levels, i;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	strbuf_init(&d->scratch, 0);
	d->bisect = 1;
	d->diff = diff;
	d->nr_dims = nr;
	for (i = 0; i < nr && !ret; i++) {
		char *v[2] = {diff[i].from, diff[i].to};

		ret = add_factor(tr, diff[i].knob, v, 2, err);
	}
	if (ret)
		return ret;
	ret = tune_bisect_init(&d->bis, nr, o, err);
	levels = xcalloc(nr + 1, sizeof(*levels));
	if (!ret)
		ret = start(d, tr, levels, err);
	free(levels);
	return ret;
}

int tune_drive_afford(struct tune_drive *d, uint64_t budget_ns, double run_s,
		      struct strbuf *err)
{
	unsigned first = d->bisect ? 3 : 0, i, need;
	double affords, grid = 1;

	d->budget_ns = budget_ns;
	if (!budget_ns || !(run_s > 0))
		return 0;
	if (!d->bisect)
		for (i = 0; i < cands(d)->nr; i++)
			first += cands(d)->v[i].state == TUNE_ALIVE;
	for (i = 0; !d->bisect && i < d->nr_dims; i++)
		grid *= d->dims[i].nr_values;
	need = first * (d->bisect ? d->bis.o.min_blocks : d->race.o.min_blocks);
	affords = (double)budget_ns / 1e9 / run_s;
	if (affords >= need)
		return 0;
	if (d->bisect)
		return err_set(err, -E2BIG,
			       "--budget %.0f s affords about %.0f runs of "
			       "%.1f s; the first step of the bisection "
			       "alone needs %u (%u blocks of A, B and a "
			       "half): about %.0f s",
			       (double)budget_ns / 1e9, affords, run_s, need,
			       d->bis.o.min_blocks, need * run_s);
	return err_set(err, -E2BIG,
		       "--budget %.0f s affords about %.0f runs of %.1f s; "
		       "racing this space needs at least %u before a "
		       "candidate can leave (%u blocks of %u candidates), "
		       "about %.0f s, and a full grid %.0f (%.0f "
		       "combinations x %u); give a longer --budget or "
		       "fewer --space values",
		       (double)budget_ns / 1e9, affords, run_s, need,
		       d->race.o.min_blocks, first, need * run_s,
		       grid * d->race.o.min_blocks, grid, d->race.o.min_blocks);
}

void tune_drive_flush(struct tune_drive *d)
{
	if (d->nr_block && d->tr->e.doc)
		record_block(d, d->tr->e.doc, d->block_no);
}

int tune_abort_parse(struct tune_abort *r, const char *text, struct strbuf *err)
{
	const char *op = strpbrk(text, "<>");
	char *end;

	memset(r, 0, sizeof(*r));
	if (!op || op == text)
		return err_set(err, -EINVAL,
			       "cannot read --abort-if '%s': give METRIC>LIMIT "
			       "or METRIC<LIMIT (p99>5ms, metric<0.5x "
			       "baseline)",
			       text);
	r->above = *op == '>';
	r->limit = strtod(op + 1, &end);
	if (end == op + 1 || !isfinite(r->limit) || r->limit < 0)
		return err_set(err, -EINVAL,
			       "--abort-if '%s': '%s' is no limit", text,
			       op + 1);
	while (*end == ' ')
		end++;
	if (*end == 'x' && (!end[1] || !strcmp(end + 1, " baseline") ||
			    !strcmp(end + 1, "baseline")))
		r->relative = 1;
	else if (!strcmp(end, "ms"))
		r->limit *= 1e6; /* the latencies are in ns */
	else if (!strcmp(end, "us"))
		r->limit *= 1e3;
	else if (!strcmp(end, "s"))
		r->limit *= 1e9;
	else if (*end && strcmp(end, "ns"))
		return err_set(err, -EINVAL,
			       "--abort-if '%s': unit '%s' is none of ns, us, "
			       "ms, s or 'x baseline'",
			       text, end);
	r->metric = xstrndup(text, (size_t)(op - text));
	r->text = xstrdup(text);
	return 0;
}

void tune_abort_release(struct tune_abort *r)
{
	if (!r)
		return;
	free(r->metric);
	free(r->text);
	memset(r, 0, sizeof(*r));
}
