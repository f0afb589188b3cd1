/*
 * What the block loop (experiment_run()) calls around each run of a
 * trial: set an arm's knobs, observe the devices and the cgroup while
 * the run goes, finish its truth and regimes, and pass warnings and
 * progress on; each also at place k of a duet.
 */
#include <errno.h>
#include <string.h>
#include "trial.h"
#include "trial-int.h"
#include "trial_knobs.h"
#include "trial_wrap.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/*
 * experiment_hooks: set the knobs of the arm about to run, from the
 * plan trial_check() made of it. session_apply() reads each knob again
 * before it journals and writes it, so a plan kept since then is as
 * safe as a new one.
 */
static int apply_arm(void *ctx, const struct arm_setting *s, unsigned n,
		     struct strbuf *err)
{
	struct trial *tr = ctx;
	unsigned i;
	int ret;

	(void)n;
	for (i = 0; i < tr->nr_arm_plans; i++)
		if (tr->e.arms[i].settings == s)
			break;
	if (i == tr->nr_arm_plans)
		return err_set(err, -EINVAL,
			       "the knobs of this arm were not checked "
			       "(trial_check() first)");
	ret = trial_apply(tr, &tr->arm_plans[i], err);
	if (!ret)
		tr->arm_plan = &tr->arm_plans[i];
	return ret;
}

/*
 * experiment_hooks: device truth for the run of w. A single run that
 * cannot observe its devices fails; an experiment's runs go on without.
 */
static int run_begin(void *ctx, const struct workload *w,
		     const struct measure_hook **out, struct strbuf *err)
{
	struct trial *tr = ctx;
	struct truth_opts o = {0};
	struct strbuf why = STRBUF_INIT;
	unsigned k;
	int ret;

	cgroup_peak_reset(&tr->cg);
	workload_truth_opts(w, &o);
	for (k = 0; k < tr->cg.nr && !o.cgroup_dir; k++)
		if (tr->cg.d[k].memory) {
			o.cgroup_dir = tr->cg.d[k].path;
			o.cgroup_version = tr->cg.d[k].v2 ? 2 : 1;
		}
	ret = truth_hook_init(&tr->th, &tr->t, &o, &why);
	if (ret) {
		truth_hook_release(&tr->th);
		if (tr->kind == TRIAL_ONE_RUN)
			err_set(err, ret, "%s", why.buf);
		else
			ret = 0;
	} else {
		tr->th_live = 1;
		*out = &tr->th.hook;
	}
	strbuf_release(&why);
	return ret;
}

/* The cgroup the run had, into r (run_end). */
static void run_limits(const struct trial *tr, struct run_result *r)
{
	struct run_limits *l = xcalloc(1, sizeof(*l));
	unsigned k;

	l->memory_max = tr->limits.memory_max;
	l->memory_peak = l->memory_max ? cgroup_memory_peak(&tr->cg) : 0;
	l->cpus = tr->limits.cpus ? xstrdup(tr->limits.cpus) : NULL;
	l->mems = tr->limits.mems ? xstrdup(tr->limits.mems) : NULL;
	for (k = 0; k < tr->cg.nr && !l->cgroup; k++)
		if (tr->cg.d[k].memory || !l->memory_max)
			l->cgroup = xstrdup(tr->cg.d[k].path);
	r->limits = l;
	if (l->memory_max && l->memory_peak >= l->memory_max / 100 * 98)
		run_result_note(r,
				"the workload used all of its memory limit: "
				"the kernel reclaimed and wrote back its pages "
				"to stay within it, which is what a limit is "
				"for, and part of what was measured");
}

/* experiment_hooks: the run is over; finish its truth. */
static void run_end(void *ctx, struct run_result *r)
{
	struct trial *tr = ctx;

	if (tr->cg.nr)
		run_limits(tr, r);
	trial_mark_knobs_above(tr, r);
	if (!tr->th_live)
		return;
	truth_hook_finish(&tr->th, r);
	if (r->truth)
		trial_run_regimes(tr, r);
	truth_hook_release(&tr->th);
	tr->th_live = 0;
}

/* experiment_hooks: set arm's knobs on place k of a duet. */
static int apply_arm_at(void *ctx, unsigned place, const struct arm_setting *s,
			unsigned n, struct strbuf *err)
{
	struct trial *tr = ctx;
	const struct trial_twin *tw;
	unsigned i;

	if (!place)
		return apply_arm(ctx, s, n, err);
	if (place > tr->nr_twins)
		return err_set(err, -EINVAL, "no place %u in this duet", place);
	tw = &tr->twins[place - 1];
	for (i = 0; i < tw->nr_arm_plans; i++)
		if (tr->e.arms[i].settings == s)
			break;
	if (i == tw->nr_arm_plans)
		return err_set(err, -EINVAL,
			       "the knobs of this arm were not checked "
			       "(trial_check() first)");
	return trial_apply(tr, &tw->arm_plans[i], err);
}

/* experiment_hooks: device truth for a duet's run on place k (in the
 * child that makes it). */
static int run_begin_at(void *ctx, unsigned place, const struct workload *w,
			const struct measure_hook **out, struct strbuf *err)
{
	struct trial *tr = ctx;
	struct truth_opts o = {0};
	struct strbuf why = STRBUF_INIT;

	(void)err;
	if (place >= tr->e.nr_arms || !tr->places[place])
		return 0;
	workload_truth_opts(w, &o);
	if (!truth_hook_init(&tr->th, tr->places[place], &o, &why)) {
		tr->th_live = 1;
		*out = &tr->th.hook;
	} else {
		truth_hook_release(&tr->th);
	}
	strbuf_release(&why);
	return 0;
}

/* experiment_hooks: that run is over; finish its truth. */
static void run_end_at(void *ctx, unsigned place, struct run_result *r)
{
	struct trial *tr = ctx;

	(void)place;
	if (!tr->th_live)
		return;
	truth_hook_finish(&tr->th, r);
	truth_hook_release(&tr->th);
	tr->th_live = 0;
}

/* experiment_hooks: a warning the caller hears at once. */
static void warn_now(void *ctx, const char *msg)
{
	trial_say(ctx, SESSION_SAY_WARN, "%s", msg);
}

/* experiment_hooks: how far the experiment is, to the caller. */
static void progress(void *ctx, const struct experiment_progress *p)
{
	struct trial *tr = ctx;

	if (tr->hooks.progress)
		tr->hooks.progress(tr->hooks.ctx, p);
}

/* experiment_hooks: after each run, its wrap warning, then the caller. */
static void run_done(void *ctx, const struct run_meta *meta,
		     const struct run_result *r)
{
	struct trial *tr = ctx;
	struct strbuf msg = STRBUF_INIT;

	if (trial_wrap_after_run(tr, meta, r, &msg))
		trial_say(tr, SESSION_SAY_WARN, "%s", msg.buf);
	strbuf_release(&msg);
	if (tr->hooks.run_done)
		tr->hooks.run_done(tr->hooks.ctx, meta, r);
}

/*
 * experiment_hooks: w's files are laid out and its timed run comes
 * next; the warnings of trial_wrap_check(), once.
 */
static void laid_out(void *ctx, const struct workload *w)
{
	struct trial *tr = ctx;
	struct strbuf msg = STRBUF_INIT, note = STRBUF_INIT;
	const char *line, *nl;

	trial_wrap_laid_out(tr, w, &msg, &note);
	if (note.len)
		trial_say(tr, SESSION_SAY_NOTE, "%s", note.buf);
	for (line = msg.buf; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		trial_say(tr, SESSION_SAY_WARN, "%.*s", (int)(nl - line), line);
		if (!*nl)
			break;
	}
	strbuf_release(&msg);
	strbuf_release(&note);
}

void trial_experiment_hooks(struct trial *tr, struct experiment_hooks *h)
{
	*h = (struct experiment_hooks){
	    .ctx = tr,
	    .apply_knobs = apply_arm,
	    .progress = progress,
	    .laid_out = laid_out,
	    .run_begin = run_begin,
	    .run_end = run_end,
	    .run_done = run_done,
	    .warn = warn_now,
	    .apply_knobs_at = apply_arm_at,
	    .run_begin_at = run_begin_at,
	    .run_end_at = run_end_at,
	};
}
