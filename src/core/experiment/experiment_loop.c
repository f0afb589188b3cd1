/*
 * The experiment loop: every arm runs once per block, in an order
 * shuffled anew for each block, so slow drift of the machine (a warming
 * SSD, a neighbour's backup) spreads over all arms instead of biasing
 * the one that ran last. Each block ends with an analysis; an adaptive
 * experiment stops when every ratio's confidence interval is narrow
 * enough (precision), never because a p-value happened to dip (that
 * would inflate false positives), or when it hits its run or time limit.
 *
 * Knobs are applied through the caller's hook (which journals them), and
 * caches are dropped before every run so each starts cold, as a fresh
 * layout would.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "experiment.h"
#include "experiment-int.h"
#include "eta.h"
#include "../workload/live.h"
#include "metrics.h"
#include "result_json.h"
#include "analyze_doc.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static void progress(struct exp_loop *l, unsigned block, unsigned arm,
		     unsigned planned, double halfwidth)
{
	struct experiment_progress p;
	struct budget_opts bo;
	double elapsed = (double)(clock_now_ns() - l->start_ns) / 1e9;

	if (!l->h->progress)
		return;
	p.run = l->runs_done;
	p.planned = planned;
	p.block = block;
	p.arm = l->e->arms[arm].label;
	p.elapsed_s = elapsed;
	p.run_s = exp_run_s_estimate(l);
	p.halfwidth = halfwidth;
	experiment_budget_opts(l->c, &bo);
	p.eta_s =
	    experiment_eta(&bo,
			   &(struct eta_in){l->e->nr_arms, p.run, planned,
					    block, elapsed, p.run_s, halfwidth},
			   &p.eta_by);
	l->h->progress(l->h->ctx, &p);
}
/* Record the run r of arm in the experiment. */
static void record(struct exp_loop *l, unsigned arm, int block,
		   const struct run_meta *meta, const struct run_result *r)
{
	struct run_doc *run = xcalloc(1, sizeof(*run));

	result_to_doc(meta, r, run);
	exp_record(
	    l, arm, block,
	    metric_value(meta->metric ? meta->metric : metric_default(meta->w),
			 meta->w, r),
	    run, -1);
}

/*
 * A run whose --verify found blocks not as written fails the experiment:
 * -EIO with err naming the first and the count; else 0.
 */
static int verify_failed(struct exp_loop *l, const struct run_result *r,
			 struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!r->verify || !r->verify->mismatches)
		return 0;
	l->e->failed_verify = 1;
	run_verify_describe(r->verify, &sb);
	ret = err_set(err, -EIO,
		      "data verification failed: %llu of %llu blocks not as "
		      "written; the first: %s",
		      (unsigned long long)r->verify->mismatches,
		      (unsigned long long)r->verify->blocks, sb.buf);
	strbuf_release(&sb);
	return ret;
}

/*
 * One run of arm; block < 0 for a warm-up, whose result is discarded.
 * block_seed is the seed of a workload that takes one per block
 * (workload_ops.seed_per_block); the others draw their own.
 */
static int one_run(struct exp_loop *l, unsigned arm, int block,
		   uint64_t block_seed, struct strbuf *err)
{
	const struct experiment_config *c = l->c;
	const struct experiment_arm *a = &l->e->arms[arm];
	struct knob_setting *ks =
	    xcalloc(c->nr_knobs + c->nr_factors + 1, sizeof(*ks));
	struct run_meta meta = {0};
	struct workload w;
	struct run_result r;
	uint64_t t0 = clock_now_ns(), t_prep;
	unsigned arm_knobs;
	int ret, stopped;

	run_result_init(&r);
	if (c->nr_knobs)
		memcpy(ks, c->knobs, c->nr_knobs * sizeof(*ks));
	arm_knobs = exp_knob_settings(a, c->nr_factors, ks + c->nr_knobs);
	meta.nr_knobs = c->nr_knobs + arm_knobs;
	meta.knobs = ks;
	ret = experiment_arm_workload(&w, l->e, arm, c, err);
	if (ret)
		goto out;
	/* a device with data on it was opened for reads only */
	if (!workload_reads_only(&w) &&
	    (ret = target_refuse_writes(c->target, w.ops->name, err)))
		goto out;
	w.ro.seed = c->single_run ? c->seed
		    : c->ops->seed_per_block && block >= 0
			? block_seed
			: rng_next(&l->rng) & 0xffffffffu;
	w.ro.keep_files = !c->single_run;
	w.stop = c->stop;
	w.live = c->live;
	if (l->h->apply_knobs && (int)arm != l->applied_arm && arm_knobs) {
		ret = l->h->apply_knobs(l->h->ctx, a->settings, c->nr_factors,
					err);
		if (ret)
			goto out;
		l->applied_arm = (int)arm;
	}
	t_prep = clock_now_ns();
	ret = c->ops->prepare(&w, c->target, err);
	if (block <= 0) /* the files later blocks reuse are laid out now */
		l->once_s += (double)(clock_now_ns() - t_prep) / 1e9;
	if (ret)
		l->e->failed_in_prepare = 1;
	/* before the caches are dropped: whatever it reads goes with them */
	if (!ret && l->h->laid_out && !(c->stop && *c->stop))
		l->h->laid_out(l->h->ctx, &w);
	if (!ret)
		exp_drop_caches(l);
	/* a run that a stop request would discard is not made */
	if (!ret && !(c->stop && *c->stop)) {
		if (l->h->run_begin)
			ret = l->h->run_begin(l->h->ctx, &w, &w.hook, err);
		workload_live_begin(w.live, clock_now_ns());
		if (!ret)
			ret = c->ops->run(&w, &r, err);
		workload_live_end(w.live);
		if (l->h->run_end)
			l->h->run_end(l->h->ctx, &r);
	}
	c->ops->cleanup(&w);
	stopped = c->stop && *c->stop;
	if (!ret && block < 0)
		ret = verify_failed(l, &r, err);
	if (ret || block < 0 || (stopped && !(c->single_run && r.seconds > 0)))
		goto out;
	if (r.interrupted)
		run_result_warn(&r,
				"interrupted by a signal after %.2f s; the "
				"numbers cover only that part",
				r.seconds);
	meta.w = &w;
	meta.t = c->target;
	meta.metric = c->metric;
	if (c->metric && !isfinite(metric_value(c->metric, &w, &r))) {
		ret = err_set(err, -EINVAL,
			      "%s%s%sthe run has no '%s' (%s); choose a "
			      "metric this workload measures",
			      *a->label ? "arm '" : "", a->label,
			      *a->label ? "': " : "", c->metric->name,
			      c->metric->help);
		goto out;
	}
	record(l, arm, block, &meta, &r);
	if (l->h->run_done)
		l->h->run_done(l->h->ctx, &meta, &r);
	/* recorded and shown first: the run object says what was found */
	ret = verify_failed(l, &r, err);
out:
	exp_count_runs(l, 1, block, t0);
	workload_release(&w);
	run_result_release(&r);
	free(ks);
	return ret;
}

/* The ratio CIs of the current verdicts, for the stop rule. */
static size_t current_cis(const struct experiment_doc *doc, double *lo,
			  double *hi)
{
	size_t i;

	for (i = 0; i < doc->nr_verdicts; i++) {
		const struct exp_verdict *v = &doc->verdicts[i];

		lo[i] = hi[i] = NAN;
		/* the interval the verdict rests on */
		if (v->verdict_from && !strcmp(v->verdict_from, "adjusted") &&
		    v->adjusted) {
			lo[i] = v->adjusted->ci_low;
			hi[i] = v->adjusted->ci_high;
		} else if (v->cmp) {
			lo[i] = v->cmp->ci_low;
			hi[i] = v->cmp->ci_high;
		}
	}
	return doc->nr_verdicts;
}

/* "arm 'L': 15 of 15 runs warned; most often (14 runs): TEXT; also:
 * short (1 run)": the example is of the kind most runs carried, so that
 * one odd run does not stand for the others. */
static void arm_warn_line(const struct arm_warn *aw, const char *label,
			  struct strbuf *out)
{
	unsigned k, best = 0, others = 0;

	for (k = 0; k < RUN_WARN_KINDS; k++)
		if (aw->kind_runs[k] > aw->kind_runs[best])
			best = k;
	strbuf_setf(out, "arm '%s': %u of %u runs warned", label, aw->warned,
		    aw->runs);
	if (!aw->example[best])
		return;
	if (aw->kind_runs[best] == aw->warned)
		strbuf_addf(out, ", each like this: %s", aw->example[best]);
	else
		strbuf_addf(
		    out, "; most often (%u run%s): %s", aw->kind_runs[best],
		    aw->kind_runs[best] == 1 ? "" : "s", aw->example[best]);
	for (k = 0; k < RUN_WARN_KINDS; k++) {
		if (k == best || !aw->kind_runs[k])
			continue;
		strbuf_addf(out, "%s%s (%u run%s)",
			    others++ ? ", " : "; also: ",
			    run_warn_kind_name((enum run_warn_kind)k),
			    aw->kind_runs[k], aw->kind_runs[k] == 1 ? "" : "s");
	}
}

/* Add the experiment-level warnings: per-arm run warnings, outliers,
 * drift. */
static void final_warnings(struct exp_loop *l)
{
	const struct experiment_doc *d = l->e->doc;
	struct strbuf sb = STRBUF_INIT;
	unsigned i;

	for (i = 0; i < l->e->nr_arms && i < d->nr_arms; i++) {
		const struct exp_arm *a = &d->arms[i];
		struct arm_warn *aw = &l->warns[i];

		if (aw->warned) {
			arm_warn_line(aw, l->e->arms[i].label, &sb);
			experiment_doc_add_warning(l->e->doc, sb.buf);
		}
		if (a->summary && a->summary->outliers > 0) {
			strbuf_setf(&sb,
				    "arm '%s': %d run(s) are outliers "
				    "(modified z > 3.5); they are kept "
				    "in the analysis",
				    l->e->arms[i].label,
				    (int)a->summary->outliers);
			experiment_doc_add_warning(l->e->doc, sb.buf);
		}
		if (a->drift && a->drift->drifting) {
			strbuf_setf(&sb,
				    "arm '%s': the metric drifts across blocks "
				    "(Spearman rho %.2f, p %.3f); the machine "
				    "changed during the experiment",
				    l->e->arms[i].label, a->drift->drift_rho,
				    a->drift->drift_p);
			experiment_doc_add_warning(l->e->doc, sb.buf);
		}
	}
	strbuf_release(&sb);
}

/*
 * After the first block, with its time measured (the files it laid out
 * once left out), and after the second: when the limits now turn out to stop
 * before a verdict is possible (and the estimate made before the first run did
 * not say so), warn while there is time to stop.
 */
static void check_budget(struct exp_loop *l)
{
	struct experiment_budget before, now;
	struct strbuf msg = STRBUF_INIT;
	struct budget_opts bo;

	experiment_budget_opts(l->c, &bo);
	experiment_budget_estimate(&bo, l->e->nr_arms, -1, &before);
	if (experiment_budget_short(&before, &bo, &msg))
		goto out;
	strbuf_reset(&msg);
	experiment_budget_estimate(&bo, l->e->nr_arms, exp_run_s_estimate(l),
				   &now);
	if (!experiment_budget_short(&now, &bo, &msg))
		goto out;
	l->budget_warning = (int)experiment_doc_add_warning(l->e->doc, msg.buf);
	if (l->h->warn)
		l->h->warn(l->h->ctx, msg.buf);
out:
	strbuf_release(&msg);
}

/*
 * At the end: check_budget()'s warning estimated from one block. Say it
 * again from every block run, or take it back when they show that the
 * limits allowed a verdict after all.
 */
static void recheck_budget(struct exp_loop *l, unsigned blocks)
{
	struct experiment_doc *d = l->e->doc;
	struct strbuf msg = STRBUF_INIT;
	struct experiment_budget now;
	struct budget_opts bo;
	size_t i = (size_t)l->budget_warning;

	if (l->budget_warning < 0 || i >= d->nr_warnings)
		return;
	experiment_budget_opts(l->c, &bo);
	experiment_budget_estimate(&bo, l->e->nr_arms, exp_run_s_estimate(l),
				   &now);
	if (blocks > now.blocks)
		now.blocks = blocks; /* it ran them: they fitted */
	now.measured_blocks = blocks;
	if (experiment_budget_short(&now, &bo, &msg)) {
		free(d->warnings[i]);
		d->warnings[i] = strbuf_detach(&msg, NULL);
	} else {
		free(d->warnings[i]);
		memmove(&d->warnings[i], &d->warnings[i + 1],
			(d->nr_warnings - i - 1) * sizeof(*d->warnings));
		d->nr_warnings--;
	}
	strbuf_release(&msg);
}

/*
 * Block b of an experiment whose chooser picks the arms: run them in its
 * order; a failed run is the chooser's news, not the end. *stopped set
 * when the chooser or a stop request ends it. 0 or -errno.
 */
static int chosen_block(struct exp_loop *l, unsigned b, const char **stopped,
			struct strbuf *err)
{
	const struct experiment_chooser *ch = l->c->chooser;
	const unsigned *arms = NULL;
	const char *why = NULL;
	unsigned n, i, had = l->e->nr_arms;
	uint64_t block_seed = 0;
	int ret = 0;

	if (l->c->stop && *l->c->stop) {
		*stopped = "interrupted";
		return 0;
	}
	n = ch->next_block(ch->ctx, l->e, b, &arms, &why);
	if (l->e->nr_arms > had) {
		l->warns =
		    xrealloc(l->warns, l->e->nr_arms * sizeof(*l->warns));
		memset(&l->warns[had], 0,
		       (l->e->nr_arms - had) * sizeof(*l->warns));
	}
	if (!n) {
		*stopped = why ? why : "search over";
		return 0;
	}
	if (l->c->ops->seed_per_block)
		block_seed = rng_next(&l->rng) & 0xffffffffu;
	for (i = 0; i < n && !ret; i++) {
		if (l->c->stop && *l->c->stop)
			break;
		if (arms[i] >= l->e->nr_arms)
			return err_set(err, -EINVAL, "no arm %u", arms[i]);
		progress(l, b, arms[i], l->runs_done + n - i, -1);
		ret = one_run(l, arms[i], (int)b, block_seed, err);
		if (!ret || (l->c->stop && *l->c->stop))
			continue;
		/* its knobs may be half set: the next run sets them anew */
		l->applied_arm = -1;
		if (ch->run_failed)
			ch->run_failed(ch->ctx, arms[i], b, err->buf);
		strbuf_reset(err);
		ret = 0;
	}
	if (l->c->stop && *l->c->stop)
		*stopped = "interrupted";
	return ret;
}

/*
 * At the end, from every run: the advice of a limit that stopped an
 * adaptive experiment (budget.h) and each arm's median of every metric
 * (metrics.h).
 */
static void advice_and_medians(struct exp_loop *l)
{
	struct experiment_budget eb;
	struct budget_opts bo;

	if (!l->c->chooser) {
		experiment_budget_opts(l->c, &bo);
		experiment_budget_estimate(&bo, l->e->nr_arms,
					   exp_run_s_estimate(l), &eb);
		experiment_advice_doc(l->e->doc, &bo, &eb);
	}
	metric_arm_medians_doc(l->e->doc, l->c->ops);
}

/* The members of an experiment first analysed after its last block (a
 * search's, one of a single arm, one stopped in its first block): its
 * blocks and why it stopped before the analysis, as they were set. */
static const char *const late_order[] = {
    "schema",	 "type",	 "id",		"created",  "workload",
    "target",	 "params",	 "seed",	"command",  "metric",
    "factors",	 "baseline",	 "arms",	"runs",	    "windows",
    "runs_mode", "precision",	 "equivalence", "alpha",    "drop_caches",
    "duet",	 "warnings",	 "load_unit",	"blocks",   "block_s",
    "stopped",	 "abort",	 "switchback",	"verdicts", "regimes",
    "effects",	 "interactions", "scaling",	"advice",   "metrics",
    "env",
};

/* The fewest blocks of an adaptive experiment: enough for a verdict. */
static unsigned min_blocks(const struct experiment *e,
			   const struct experiment_config *c)
{
	unsigned need = stats_signrank_min_blocks(c->alpha, e->nr_arms - 1);
	unsigned n = c->min_blocks > need ? c->min_blocks : need;

	return c->max_runs && n > c->max_runs ? c->max_runs : n;
}

int experiment_run(struct experiment *e, const struct experiment_config *c,
		   const struct experiment_hooks *h, struct strbuf *err)
{
	struct analysis_opts ao;
	struct exp_loop l = {0};
	unsigned *order = xcalloc(e->nr_arms, sizeof(*order));
	double *lo = xcalloc(e->nr_arms, sizeof(*lo));
	double *hi = xcalloc(e->nr_arms, sizeof(*hi));
	const char *stopped = NULL;
	uint64_t block_seed;
	double halfwidth = -1;
	unsigned i, k, b, planned;
	bool analysed = false;
	int ret = 0;

	l.e = e;
	l.c = c;
	l.h = h;
	l.applied_arm = -1;
	l.budget_warning = -1;
	l.drop_ok = 1;
	l.warns = xcalloc(e->nr_arms, sizeof(*l.warns));
	l.place_arm = xcalloc(c->nr_places + 1, sizeof(*l.place_arm));
	for (i = 0; i < c->nr_places; i++)
		l.place_arm[i] = -1;
	l.start_ns = clock_now_ns();
	rng_seed(&l.rng, c->seed);
	e->doc = exp_skeleton(e, c);
	analysis_opts_init(&ao);
	ao.baseline = e->baseline;
	ao.alpha = c->alpha;
	ao.margin = c->equivalence;
	planned = c->warmup + e->nr_arms * (c->runs_fixed ? c->runs_fixed
							  : min_blocks(e, c));
	for (i = 0; i < c->warmup && !ret; i++) {
		if (c->stop && *c->stop)
			break;
		progress(&l, -1u, i % e->nr_arms, planned, -1);
		ret = one_run(&l, i % e->nr_arms, -1, 0, err);
	}
	for (b = 0; c->chooser && !ret; b++) {
		ret = chosen_block(&l, b, &stopped, err);
		if (stopped)
			break;
	}
	for (b = c->chooser ? b : 0; !c->chooser && !ret && !stopped; b++) {
		struct stats_stop_input si = {0};
		struct stats_stop_decision sd;

		if (c->stop && *c->stop) {
			stopped = "interrupted";
			break;
		}
		if (c->runs_fixed && b >= c->runs_fixed) {
			stopped = "fixed run count";
			break;
		}
		if (!c->runs_fixed && b > 0) {
			si.blocks_done = b;
			si.min_blocks = min_blocks(e, c);
			si.max_runs = c->max_runs;
			si.precision = c->precision;
			si.nr_arms = current_cis(e->doc, lo, hi);
			si.ci_low = lo;
			si.ci_high = hi;
			si.elapsed_s =
			    (double)(clock_now_ns() - l.start_ns) / 1e9;
			/* stop early if the next block would overrun */
			si.budget_s = (double)c->budget_ns / 1e9;
			if (si.budget_s > 0)
				si.budget_s -=
				    exp_run_s_estimate(&l) * e->nr_arms;
			if (c->budget_ns && si.budget_s <= 0)
				si.budget_s = 1e-9;
			/* after the first block, and again after the second
			 * (the first that reuses its files) if quiet then */
			if ((b == 1 || (b == 2 && l.budget_warning < 0)) &&
			    c->budget_ns && !c->single_run)
				check_budget(&l);
			stats_should_stop(&si, &sd);
			halfwidth = sd.worst_halfwidth;
			if (sd.stop) {
				stopped = stats_stop_reason_name(sd.reason);
				break;
			}
			if (b >= si.min_blocks)
				planned = c->warmup + e->nr_arms * (b + 1);
		}
		block_seed = rng_next(&l.rng) & 0xffffffffu;
		for (i = 0; i < e->nr_arms; i++)
			order[i] = i;
		for (i = e->nr_arms; i > 1; i--) {
			unsigned j = (unsigned)rng_below(&l.rng, i);
			unsigned t = order[i - 1];

			order[i - 1] = order[j];
			order[j] = t;
		}
		if (c->nr_places > 1) {
			progress(&l, b, order[0], planned, halfwidth);
			ret =
			    exp_duet_block(&l, order, (int)b, block_seed, err);
		}
		for (i = 0; c->nr_places <= 1 && i < e->nr_arms && !ret; i++) {
			if (c->stop && *c->stop)
				break;
			progress(&l, b, order[i], planned, halfwidth);
			ret = one_run(&l, order[i], (int)b, block_seed, err);
		}
		if (c->stop && *c->stop) {
			stopped = "interrupted";
			/* an incomplete block would unbalance the pairs */
			break;
		}
		if (!ret && e->nr_arms > 1 && !c->single_run) {
			ret = experiment_analyze_full(e->doc, &ao, err);
			analysed = true;
		}
	}
	if (!stopped)
		stopped = "failed";
	e->doc->blocks = b;
	if (!c->chooser && l.runs_done > l.first_runs) {
		e->doc->block_s = exp_run_s_estimate(&l) * e->nr_arms;
		e->doc->has_block_s = MODEL_SET;
	}
	e->doc->stopped = xstrdup(stopped);
	if (!analysed)
		experiment_doc_order(e->doc, late_order,
				     sizeof(late_order) /
					 sizeof(late_order[0]));
	if (!ret && !c->single_run) {
		recheck_budget(&l, b);
		ret = experiment_analyze_full(e->doc, &ao, err);
		if (!ret)
			final_warnings(&l);
	}
	if (!ret && !c->single_run && l.runs_done)
		advice_and_medians(&l);
	for (i = 0; i < e->nr_arms; i++)
		for (k = 0; k < RUN_WARN_KINDS; k++)
			free(l.warns[i].example[k]);
	free(l.warns);
	free(l.place_arm);
	free(order);
	free(lo);
	free(hi);
	return ret;
}
