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
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "experiment.h"
#include "eta.h"
#include "../workload/live.h"
#include "metrics.h"
#include "result_json.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

int experiment_drop_caches(void)
{
	int fd, ret = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

void experiment_config_init(struct experiment_config *c)
{
	struct analysis_opts ao;

	analysis_opts_init(&ao);
	*c = (struct experiment_config){
	    .min_blocks = 6,
	    .max_runs = 30,
	    .precision = 0.02,
	    .equivalence = ao.margin,
	    .alpha = ao.alpha,
	    .max_arms = EXPERIMENT_MAX_ARMS,
	    .drop_caches = 1,
	};
}

void experiment_budget_opts(const struct experiment_config *c,
			    struct budget_opts *out)
{
	*out = (struct budget_opts){
	    .alpha = c->alpha,
	    .precision = c->precision,
	    .budget_ns = c->budget_ns,
	    .time_ns = c->ro.time_ns,
	    .ramp_ns = c->ro.ramp_ns,
	    .ios = c->ro.ios,
	    .max_runs = c->max_runs,
	    .runs_fixed = c->runs_fixed,
	    .warmup = c->warmup,
	    .drop_caches = c->drop_caches,
	};
}

/* Parse a workload for arm: fixed parameters, then the arm's own. */
static int parse_arm_workload(struct workload *w, const struct experiment *e,
			      unsigned arm, const struct experiment_config *c,
			      struct strbuf *err)
{
	const struct experiment_arm *a = &e->arms[arm];
	unsigned i;
	int ret = 0;

	workload_init(w, c->ops);
	w->ro = c->ro;
	for (i = 0; i < c->nr_params && !ret; i++)
		ret = workload_set_param(w, c->params[i].name,
					 c->params[i].value, NULL, err);
	for (i = 0; i < c->nr_factors && !ret; i++)
		if (!a->settings[i].is_knob)
			ret =
			    workload_set_param(w, a->settings[i].name,
					       a->settings[i].value, NULL, err);
	if (!ret)
		ret = workload_validate(w, err);
	if (ret && c->nr_factors) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "arm '%s': %s", a->label, err->buf);
		strbuf_reset(err);
		strbuf_addstr(err, msg.buf);
		strbuf_release(&msg);
	}
	return ret;
}

int experiment_arm_workload(struct workload *w, const struct experiment *e,
			    unsigned arm, const struct experiment_config *c,
			    struct strbuf *err)
{
	if (!e->arm_w)
		return parse_arm_workload(w, e, arm, c, err);
	workload_copy(w, &e->arm_w[arm]);
	w->ro = c->ro;
	return 0;
}

/* Release e's parsed workloads. */
static void release_arm_workloads(struct experiment *e)
{
	unsigned i;

	for (i = 0; e->arm_w && i < e->nr_arms; i++)
		workload_release(&e->arm_w[i]);
	free(e->arm_w);
	e->arm_w = NULL;
}

int experiment_validate(struct experiment *e, const struct experiment_config *c,
			struct strbuf *err)
{
	struct workload *w = xcalloc(e->nr_arms + 1, sizeof(*w));
	unsigned i;
	int ret = 0;

	release_arm_workloads(e);
	for (i = 0; i < e->nr_arms && !ret; i++)
		ret = parse_arm_workload(&w[i], e, i, c, err);
	e->arm_w = w;
	if (ret)
		release_arm_workloads(e);
	return ret;
}

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

/* Arm i's entry of "arms" before any analysis: its label and settings. */
static struct json_object *arm_object(const struct experiment *e,
				      const struct experiment_config *c,
				      unsigned i)
{
	const struct arm_setting *s = e->arms[i].settings;
	struct json_object *a = json_object_new_object();
	struct json_object *set = json_object_new_object();
	struct json_object *asked = NULL;
	unsigned f;

	json_object_object_add(a, "arm", json_object_new_int((int)i));
	add_str(a, "label", e->arms[i].label);
	for (f = 0; f < c->nr_factors; f++) {
		add_str(set, s[f].name, s[f].canon ? s[f].canon : s[f].value);
		if (!s[f].canon)
			continue;
		if (!asked)
			asked = json_object_new_object();
		add_str(asked, s[f].name, s[f].value);
	}
	json_object_object_add(a, "settings", set);
	if (asked)
		json_object_object_add(a, "asked", asked);
	return a;
}

int experiment_add_arm(struct experiment *e, const struct experiment_config *c,
		       const unsigned *levels, unsigned *out,
		       struct strbuf *err)
{
	unsigned i = e->nr_arms;
	int ret = experiment_arms_append(e, c, levels, err);

	if (ret)
		return ret;
	if (e->arm_w) {
		e->arm_w = xrealloc(e->arm_w, (i + 2) * sizeof(*e->arm_w));
		memset(&e->arm_w[i], 0, 2 * sizeof(*e->arm_w));
		ret = parse_arm_workload(&e->arm_w[i], e, i, c, err);
		if (ret) {
			workload_release(&e->arm_w[i]);
			free(e->arms[i].label);
			free(e->arms[i].settings);
			e->nr_arms--;
			return ret;
		}
	}
	if (e->obj)
		json_object_array_add(json_object_object_get(e->obj, "arms"),
				      arm_object(e, c, i));
	*out = i;
	return 0;
}

/* The experiment object before any run. */
static struct json_object *skeleton(const struct experiment *e,
				    const struct experiment_config *c)
{
	struct json_object *o = json_object_new_object();
	struct json_object *factors = json_object_new_array();
	struct json_object *arms = json_object_new_array();
	struct json_object *params = json_object_new_object();
	char when[32], seed[32];
	time_t now = time(NULL);
	struct tm tm;
	unsigned i, f;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)c->seed);
	add_str(o, "schema", RESULT_SCHEMA);
	add_str(o, "type", "experiment");
	add_str(o, "id", "");
	add_str(o, "created", when);
	add_str(o, "workload", c->ops->name);
	add_str(o, "target", c->target->spec);
	for (i = 0; i < c->nr_params; i++)
		add_str(params, c->params[i].name, c->params[i].value);
	json_object_object_add(o, "params", params);
	add_str(o, "seed", seed);
	json_object_object_add(
	    o, "metric",
	    metric_to_json(c->metric ? c->metric
				     : metric_default_for(c->ops, c->params,
							  c->nr_params)));
	for (f = 0; f < c->nr_factors; f++) {
		struct json_object *fo = json_object_new_object();
		struct json_object *vals = json_object_new_array();

		add_str(fo, "name", c->factors[f].name);
		add_str(fo, "kind", c->factors[f].is_knob ? "knob" : "param");
		for (i = 0; i < c->factors[f].nr_values; i++)
			json_object_array_add(
			    vals,
			    json_object_new_string(c->factors[f].values[i]));
		json_object_object_add(fo, "values", vals);
		json_object_array_add(factors, fo);
	}
	json_object_object_add(o, "factors", factors);
	json_object_object_add(o, "baseline",
			       json_object_new_int((int)e->baseline));
	for (i = 0; i < e->nr_arms; i++)
		json_object_array_add(arms, arm_object(e, c, i));
	json_object_object_add(o, "arms", arms);
	json_object_object_add(o, "runs", json_object_new_array());
	add_str(o, "runs_mode", c->runs_fixed ? "fixed" : "auto");
	json_object_object_add(o, "precision",
			       json_object_new_double(c->precision));
	json_object_object_add(o, "equivalence",
			       json_object_new_double(c->equivalence));
	json_object_object_add(o, "alpha", json_object_new_double(c->alpha));
	json_object_object_add(o, "drop_caches",
			       json_object_new_boolean(c->drop_caches));
	json_object_object_add(o, "warnings", json_object_new_array());
	return o;
}

/* Per-arm warning tallies, folded into the experiment's warnings: how
 * many runs carried each kind, and the first text of each kind. */
struct arm_warn {
	unsigned runs, warned;
	unsigned kind_runs[RUN_WARN_KINDS];
	char *example[RUN_WARN_KINDS];
};

/* State of one experiment_run call. */
struct exp_loop {
	struct experiment *e;
	const struct experiment_config *c;
	const struct experiment_hooks *h;
	struct rng rng;
	struct arm_warn *warns;
	int applied_arm; /* arm whose knobs are in force, -1 none */
	int drop_ok;	 /* dropping caches still works */
	unsigned runs_done;
	uint64_t start_ns;
	double run_s_sum; /* for the ETA */
	double first_s;	  /* of it: the warm-up and first block */
	unsigned first_runs;
	double once_s;	    /* of first_s: their set-up (laying out the files
			       later blocks reuse) */
	int budget_warning; /* index of check_budget()'s warning in the
			       object's warnings, or -1 */
};

/*
 * Seconds a run takes from here on: the mean of the runs after the first
 * block, which reuse its files; before there are any, the first block's
 * without the set-up it did once (laying out those files). -1 before any
 * run.
 */
static double run_s_estimate(const struct exp_loop *l)
{
	double s = l->first_s - l->once_s;

	if (l->runs_done > l->first_runs)
		return (l->run_s_sum - l->first_s) /
		       (l->runs_done - l->first_runs);
	if (!l->runs_done)
		return -1;
	return (s > 0 ? s : l->first_s) / l->runs_done;
}

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
	p.run_s = run_s_estimate(l);
	p.halfwidth = halfwidth;
	experiment_budget_opts(l->c, &bo);
	p.eta_s =
	    experiment_eta(&bo,
			   &(struct eta_in){l->e->nr_arms, p.run, planned,
					    block, elapsed, p.run_s, halfwidth},
			   &p.eta_by);
	l->h->progress(l->h->ctx, &p);
}

/* The knob settings of arm, as knob_setting pairs for the run object. */
static unsigned knob_settings(const struct experiment_arm *a, unsigned nr,
			      struct knob_setting *out)
{
	unsigned i, n = 0;

	for (i = 0; i < nr; i++)
		if (a->settings[i].is_knob) {
			out[n].name = a->settings[i].name;
			out[n].value = a->settings[i].canon
					   ? a->settings[i].canon
					   : a->settings[i].value;
			n++;
		}
	return n;
}

/* Record the run r of arm in the experiment object. */
static void record(struct exp_loop *l, unsigned arm, int block,
		   const struct run_meta *meta, const struct run_result *r)
{
	struct json_object *runs = json_object_object_get(l->e->obj, "runs");
	struct json_object *run = json_object_new_object();
	struct arm_warn *aw = &l->warns[arm];
	unsigned i, seen = 0; /* the kinds this run's warnings have */

	json_object_object_add(run, "arm", json_object_new_int((int)arm));
	json_object_object_add(run, "block", json_object_new_int(block));
	json_object_object_add(
	    run, "seq",
	    json_object_new_int((int)json_object_array_length(runs)));
	json_object_object_add(
	    run, "metric",
	    json_object_new_double(metric_value(
		meta->metric ? meta->metric : metric_default(meta->w), meta->w,
		r)));
	json_object_object_add(run, "run", result_to_json(meta, r));
	json_object_array_add(runs, run);
	aw->runs++;
	if (r->nr_warnings)
		aw->warned++;
	for (i = 0; i < r->nr_warnings; i++) {
		enum run_warn_kind k =
		    r->warn_kinds ? r->warn_kinds[i] : RUN_WARN_UNKNOWN;

		if ((unsigned)k >= RUN_WARN_KINDS)
			k = RUN_WARN_UNKNOWN;
		if (seen & (1u << k))
			continue;
		seen |= 1u << k;
		aw->kind_runs[k]++;
		if (!aw->example[k])
			aw->example[k] = xstrdup(r->warnings[i]);
	}
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

/* One run of arm; block < 0 for a warm-up, whose result is discarded. */
static int one_run(struct exp_loop *l, unsigned arm, int block,
		   struct strbuf *err)
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
	arm_knobs = knob_settings(a, c->nr_factors, ks + c->nr_knobs);
	meta.nr_knobs = c->nr_knobs + arm_knobs;
	meta.knobs = ks;
	ret = experiment_arm_workload(&w, l->e, arm, c, err);
	if (ret)
		goto out;
	/* a device with data on it was opened for reads only */
	if (!workload_reads_only(&w) &&
	    (ret = target_refuse_writes(c->target, w.ops->name, err)))
		goto out;
	w.ro.seed = c->single_run ? c->seed : rng_next(&l->rng) & 0xffffffffu;
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
	if (!ret && c->drop_caches && l->drop_ok &&
	    experiment_drop_caches() < 0) {
		l->drop_ok = 0;
		json_object_array_add(
		    json_object_object_get(l->e->obj, "warnings"),
		    json_object_new_string(
			"could not drop caches between runs; runs "
			"may start with a warm page cache"));
	}
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
	l->runs_done++;
	l->run_s_sum += (double)(clock_now_ns() - t0) / 1e9;
	if (block <= 0) {
		l->first_runs++;
		l->first_s += (double)(clock_now_ns() - t0) / 1e9;
	}
	workload_release(&w);
	run_result_release(&r);
	free(ks);
	return ret;
}

/* The ratio CIs of the current verdicts, for the stop rule. */
static size_t current_cis(struct json_object *obj, double *lo, double *hi)
{
	struct json_object *v = json_object_object_get(obj, "verdicts");
	size_t i, n = v ? json_object_array_length(v) : 0, k = 0;

	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(v, i);
		struct json_object *l, *h;

		lo[k] = hi[k] = NAN;
		if (json_object_object_get_ex(x, "ci_low", &l) && l &&
		    json_object_object_get_ex(x, "ci_high", &h) && h) {
			lo[k] = json_object_get_double(l);
			hi[k] = json_object_get_double(h);
		}
		k++;
	}
	return k;
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
	struct json_object *w = json_object_object_get(l->e->obj, "warnings");
	struct json_object *arms = json_object_object_get(l->e->obj, "arms");
	struct strbuf sb = STRBUF_INIT;
	unsigned i;

	for (i = 0; i < l->e->nr_arms; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		struct json_object *x;
		struct arm_warn *aw = &l->warns[i];

		if (aw->warned) {
			arm_warn_line(aw, l->e->arms[i].label, &sb);
			json_object_array_add(w,
					      json_object_new_string(sb.buf));
		}
		if (json_object_object_get_ex(a, "outliers", &x) &&
		    json_object_get_int(x) > 0) {
			strbuf_setf(&sb,
				    "arm '%s': %d run(s) are outliers "
				    "(modified z > 3.5); they are kept "
				    "in the analysis",
				    l->e->arms[i].label,
				    json_object_get_int(x));
			json_object_array_add(w,
					      json_object_new_string(sb.buf));
		}
		if (json_object_object_get_ex(a, "drifting", &x) &&
		    json_object_get_boolean(x)) {
			strbuf_setf(&sb,
				    "arm '%s': the metric drifts across blocks "
				    "(Spearman rho %.2f, p %.3f); the machine "
				    "changed during the experiment",
				    l->e->arms[i].label,
				    json_object_get_double(
					json_object_object_get(a, "drift_rho")),
				    json_object_get_double(
					json_object_object_get(a, "drift_p")));
			json_object_array_add(w,
					      json_object_new_string(sb.buf));
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
	struct json_object *w = json_object_object_get(l->e->obj, "warnings");

	experiment_budget_opts(l->c, &bo);
	experiment_budget_estimate(&bo, l->e->nr_arms, -1, &before);
	if (experiment_budget_short(&before, &bo, &msg))
		goto out;
	strbuf_reset(&msg);
	experiment_budget_estimate(&bo, l->e->nr_arms, run_s_estimate(l), &now);
	if (!experiment_budget_short(&now, &bo, &msg))
		goto out;
	l->budget_warning = (int)json_object_array_length(w);
	json_object_array_add(w, json_object_new_string(msg.buf));
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
	struct json_object *w = json_object_object_get(l->e->obj, "warnings");
	struct strbuf msg = STRBUF_INIT;
	struct experiment_budget now;
	struct budget_opts bo;

	if (l->budget_warning < 0 ||
	    (size_t)l->budget_warning >= json_object_array_length(w))
		return;
	experiment_budget_opts(l->c, &bo);
	experiment_budget_estimate(&bo, l->e->nr_arms, run_s_estimate(l), &now);
	if (blocks > now.blocks)
		now.blocks = blocks; /* it ran them: they fitted */
	now.measured_blocks = blocks;
	if (experiment_budget_short(&now, &bo, &msg)) {
		json_object_array_put_idx(w, (size_t)l->budget_warning,
					  json_object_new_string(msg.buf));
	} else {
		json_object_array_del_idx(w, (size_t)l->budget_warning, 1);
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
	for (i = 0; i < n && !ret; i++) {
		if (l->c->stop && *l->c->stop)
			break;
		if (arms[i] >= l->e->nr_arms)
			return err_set(err, -EINVAL, "no arm %u", arms[i]);
		progress(l, b, arms[i], l->runs_done + n - i, -1);
		ret = one_run(l, arms[i], (int)b, err);
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
	double halfwidth = -1;
	unsigned i, k, b, planned;
	int ret = 0;

	l.e = e;
	l.c = c;
	l.h = h;
	l.applied_arm = -1;
	l.budget_warning = -1;
	l.drop_ok = 1;
	l.warns = xcalloc(e->nr_arms, sizeof(*l.warns));
	l.start_ns = clock_now_ns();
	rng_seed(&l.rng, c->seed);
	e->obj = skeleton(e, c);
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
		ret = one_run(&l, i % e->nr_arms, -1, err);
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
			si.nr_arms = current_cis(e->obj, lo, hi);
			si.ci_low = lo;
			si.ci_high = hi;
			si.elapsed_s =
			    (double)(clock_now_ns() - l.start_ns) / 1e9;
			/* stop early if the next block would overrun */
			si.budget_s = (double)c->budget_ns / 1e9;
			if (si.budget_s > 0)
				si.budget_s -= run_s_estimate(&l) * e->nr_arms;
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
		for (i = 0; i < e->nr_arms; i++)
			order[i] = i;
		for (i = e->nr_arms; i > 1; i--) {
			unsigned j = (unsigned)rng_below(&l.rng, i);
			unsigned t = order[i - 1];

			order[i - 1] = order[j];
			order[j] = t;
		}
		for (i = 0; i < e->nr_arms && !ret; i++) {
			if (c->stop && *c->stop)
				break;
			progress(&l, b, order[i], planned, halfwidth);
			ret = one_run(&l, order[i], (int)b, err);
		}
		if (c->stop && *c->stop) {
			stopped = "interrupted";
			/* an incomplete block would unbalance the pairs */
			break;
		}
		if (!ret && e->nr_arms > 1 && !c->single_run)
			ret = experiment_analyze_json(e->obj, &ao, err);
	}
	if (!stopped)
		stopped = "failed";
	json_object_object_add(e->obj, "blocks", json_object_new_int((int)b));
	json_object_object_add(e->obj, "stopped",
			       json_object_new_string(stopped));
	if (!ret && !c->single_run) {
		recheck_budget(&l, b);
		ret = experiment_analyze_json(e->obj, &ao, err);
		if (!ret)
			final_warnings(&l);
	}
	if (!ret && !c->single_run && !c->chooser && l.runs_done) {
		struct experiment_budget eb;
		struct budget_opts bo;

		experiment_budget_opts(c, &bo);
		experiment_budget_estimate(&bo, e->nr_arms, run_s_estimate(&l),
					   &eb);
		experiment_add_advice(e->obj, &bo, &eb);
	}
	if (!ret && !c->single_run && l.runs_done)
		metric_add_arm_medians(e->obj, c->ops);
	for (i = 0; i < e->nr_arms; i++)
		for (k = 0; k < RUN_WARN_KINDS; k++)
			free(l.warns[i].example[k]);
	free(l.warns);
	free(order);
	free(lo);
	free(hi);
	return ret;
}

void experiment_release(struct experiment *e)
{
	unsigned i;

	if (!e)
		return;
	release_arm_workloads(e);
	for (i = 0; i < e->nr_arms; i++) {
		free(e->arms[i].label);
		free(e->arms[i].settings);
	}
	free(e->arms);
	if (e->obj)
		json_object_put(e->obj);
	memset(e, 0, sizeof(*e));
}
