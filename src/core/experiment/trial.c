/*
 * An experiment run for real, around the block loop of experiment_loop.c: the
 * target, the knobs, device truth, the environment and the store.
 *
 * Knob changes of the whole trial go through one session: the fixed
 * knobs (run --set) first, then each arm's values on top of the previous
 * arm's, each journaled before it is written. The mark taken before the
 * first change is where trial_finish() rolls back to, which walks back
 * through every arm to the originals; a crash leaves a journal that the
 * next invocation restores the same way. A scratch target already holds
 * a session; the trial shares it rather than opening a second one.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trial.h"
#include "trial-int.h"
#include "../observe/env.h"
#include "noise.h"
#include "../targets/scratch.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Put prefix (formatted) before the message in err. */
static int prefix_err(struct strbuf *err, int ret, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int prefix_err(struct strbuf *err, int ret, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strbuf_addstr(&sb, err->buf);
	strbuf_reset(err);
	strbuf_addstr(err, sb.buf);
	strbuf_release(&sb);
	return ret;
}

void trial_init(struct trial *tr, enum trial_kind kind,
		const struct trial_hooks *hooks)
{
	memset(tr, 0, sizeof(*tr));
	experiment_config_init(&tr->c);
	tr->kind = kind;
	if (kind == TRIAL_ONE_RUN) {
		tr->c.single_run = 1;
		tr->c.runs_fixed = 1;
		tr->c.drop_caches = 0;
	}
	if (hooks)
		tr->hooks = *hooks;
	knob_ctx_init(&tr->kctx);
	knob_plan_init(&tr->fixed, &tr->kctx);
	strbuf_init(&tr->held, 0);
}

int trial_read_params(struct trial *tr, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct workload w;
	unsigned i;
	int ret = 0;

	workload_init(&w, tr->c.ops);
	for (i = 0; i < tr->c.nr_params && !ret; i++) {
		const struct param_setting *p = &tr->c.params[i];

		strbuf_reset(&why);
		ret = workload_set_param(&w, p->name, p->value, &why, err);
		if (!ret && why.len)
			trial_say(tr, SESSION_SAY_NOTE, "%s: %s", p->name,
				  why.buf);
	}
	workload_release(&w);
	strbuf_release(&why);
	return ret;
}

/*
 * Does tr's workload, with its fixed parameters, answer yes to is (a
 * workload_reads_only() or workload_needs_files())? 0 without one.
 */
static int workload_is(const struct trial *tr,
		       int (*is)(const struct workload *w))
{
	struct workload w;
	unsigned i;
	int ret = 0;

	if (!tr->c.ops)
		return 0;
	workload_init(&w, tr->c.ops);
	for (i = 0; i < tr->c.nr_params && !ret; i++)
		ret = workload_set_param(&w, tr->c.params[i].name,
					 tr->c.params[i].value, NULL, NULL);
	ret = !ret && is(&w);
	workload_release(&w);
	return ret;
}

int trial_open(struct trial *tr, const char *spec, unsigned target_flags,
	       struct strbuf *err)
{
	int ret;

	if (!(target_flags & TARGET_ALLOW_DESTROY) &&
	    workload_is(tr, workload_reads_only))
		target_flags |= TARGET_READS_ONLY;
	if (workload_is(tr, workload_needs_files))
		target_flags |= TARGET_FILES;
	ret = target_open(&tr->t, spec, target_flags, tr->c.stop, err);
	if (ret)
		return ret;
	if (scratch_auto_fs(&tr->t))
		trial_say(
		    tr, SESSION_SAY_NOTE,
		    "%s works on files, so '%s' gets an %s file system (as "
		    "'%s:%s')",
		    tr->c.ops->name, spec, scratch_auto_fs(&tr->t), spec,
		    scratch_auto_fs(&tr->t));
	tr->c.target = &tr->t;
	scratch_set_log(&tr->t, &tr->hooks.log); /* its fill's notes */
	return knob_ctx_from_target(&tr->kctx, &tr->t, err);
}

int trial_plan(struct trial *tr, struct strbuf *err)
{
	int ret = experiment_plan(&tr->e, &tr->c, err);

	return ret ? ret : experiment_validate(&tr->e, &tr->c, err);
}

/*
 * A plan for the knob settings s[n] of one arm (built; release it
 * either way; trial_check() makes one per arm and keeps it).
 */
/* A plan of the knob settings s[n] in the knobs of kctx. */
static int arm_plan_in(struct knob_ctx *kctx, const struct arm_setting *s,
		       unsigned n, struct knob_plan *plan, struct strbuf *err)
{
	struct strbuf as = STRBUF_INIT;
	unsigned i;
	int ret = 0;

	knob_plan_init(plan, kctx);
	for (i = 0; i < n && !ret; i++) {
		if (!s[i].is_knob)
			continue;
		strbuf_setf(&as, "%s=%s", s[i].name, s[i].value);
		ret = knob_plan_add(plan, as.buf, err);
	}
	if (!ret)
		ret = knob_plan_build(plan, err);
	strbuf_release(&as);
	return ret;
}

int trial_arm_plan(struct trial *tr, const struct arm_setting *s, unsigned n,
		   struct knob_plan *plan, struct strbuf *err)
{
	return arm_plan_in(&tr->kctx, s, n, plan, err);
}

/* Parse the fixed knobs; say how values were read; check for root. */
static int check_fixed(struct trial *tr, struct strbuf *err)
{
	unsigned i;
	int ret = 0;

	for (i = 0; i < tr->nr_set && !ret; i++)
		ret = knob_plan_add(&tr->fixed, tr->set[i], err);
	if (!ret)
		ret = knob_plan_build(&tr->fixed, err);
	if (ret)
		return ret;
	for (i = 0; i < tr->fixed.nr; i++)
		if (tr->fixed.v[i].note.len)
			session_say(&(struct session_log){.say = trial_hold_say,
							  .data = tr},
				    SESSION_SAY_NOTE, "%s: %s",
				    tr->fixed.v[i].input_name,
				    tr->fixed.v[i].note.buf);
	return knob_plan_need_root(&tr->fixed, err);
}

/* Release the kept plans of the arms. */
static void release_arm_plans(struct trial *tr)
{
	unsigned i;

	for (i = 0; tr->arm_plans && i < tr->nr_arm_plans; i++)
		knob_plan_release(&tr->arm_plans[i]);
	free(tr->arm_plans);
	tr->arm_plans = NULL;
	tr->nr_arm_plans = 0;
	tr->arm_plan = NULL;
}

/*
 * Plan every arm's knob values once and keep the plans for the runs
 * (apply_arm, the regimes); check for root.
 */
static int check_arms(struct trial *tr, struct strbuf *err)
{
	const struct experiment_config *c = &tr->c;
	unsigned i, nr_knobs = 0;
	int ret = 0;

	release_arm_plans(tr);
	for (i = 0; i < c->nr_factors; i++)
		nr_knobs += c->factors[i].is_knob;
	if (!nr_knobs)
		return 0;
	tr->arm_plans = xcalloc(tr->e.nr_arms + 1, sizeof(*tr->arm_plans));
	for (i = 0; i < tr->e.nr_arms && !ret; i++) {
		ret = trial_arm_plan(tr, tr->e.arms[i].settings, c->nr_factors,
				     &tr->arm_plans[i], err);
		tr->nr_arm_plans = i + 1;
		if (ret)
			prefix_err(err, ret, "arm '%s': ", tr->e.arms[i].label);
	}
	if (ret)
		release_arm_plans(tr);
	if (ret || geteuid() == 0)
		return ret;
	for (i = 0; i < c->nr_factors; i++)
		if (c->factors[i].is_knob)
			break;
	return err_set(err, -EPERM,
		       "changing '%s' needs root; run compare as root, or "
		       "vary only workload parameters",
		       c->factors[i].name);
}

/* Release the twins of a duet, their knobs and plans. */
static void release_twins(struct trial *tr)
{
	unsigned i, j;

	for (i = 0; i < tr->nr_twins; i++) {
		struct trial_twin *tw = &tr->twins[i];

		for (j = 0; tw->arm_plans && j < tw->nr_arm_plans; j++)
			knob_plan_release(&tw->arm_plans[j]);
		free(tw->arm_plans);
		knob_ctx_release(&tw->kctx);
		if (tw->open)
			target_release(&tw->t);
	}
	free(tr->twins);
	tr->twins = NULL;
	tr->nr_twins = 0;
	tr->c.places = NULL;
	tr->c.nr_places = 0;
}

/* Can this experiment be a duet? Each arm's knobs must be its place's. */
static int check_duet(struct trial *tr, struct strbuf *err)
{
	unsigned i, j;

	if (!scratch_session(&tr->t))
		return err_set(err, -EINVAL,
			       "--duet runs every arm on a scratch target of "
			       "its own and needs one: -t scratch:SIZE[:FS]");
	if (tr->e.nr_arms < 2 || tr->e.nr_arms > EXPERIMENT_MAX_PLACES)
		return err_set(err, -EINVAL,
			       "--duet runs the arms at the same time, at most "
			       "%d of them; this experiment has %u",
			       EXPERIMENT_MAX_PLACES, tr->e.nr_arms);
	if (cgroup_limits_set(&tr->limits))
		return err_set(err, -EINVAL,
			       "--duet runs the arms at the same time; "
			       "--memory-limit, --cpus and --mems would put "
			       "them in one cgroup");
	for (i = 0; i < tr->nr_arm_plans; i++)
		for (j = 0; j < tr->arm_plans[i].nr; j++) {
			const struct knob *k = &tr->arm_plans[i].v[j].k;

			if (k->scope == KNOB_SCOPE_SYSTEM)
				return err_set(
				    err, -EINVAL,
				    "'%s' is set for the whole system; --duet "
				    "runs the arms at the same time, so each "
				    "arm's knobs must be of its own device or "
				    "mount",
				    k->name);
		}
	return 0;
}

/* Open the twins of a duet and plan every arm's knobs on each. */
static int open_twins(struct trial *tr, struct strbuf *err)
{
	unsigned i, j;
	int ret = check_duet(tr, err);

	if (ret)
		return ret;
	tr->nr_twins = tr->e.nr_arms - 1;
	tr->twins = xcalloc(tr->nr_twins, sizeof(*tr->twins));
	tr->places[0] = &tr->t;
	for (i = 0; i < tr->nr_twins && !ret; i++) {
		struct trial_twin *tw = &tr->twins[i];

		knob_ctx_init(&tw->kctx);
		ret = target_open_twin(&tw->t, &tr->t, tr->c.stop, err);
		if (ret)
			break;
		tw->open = 1;
		scratch_set_log(&tw->t, &tr->hooks.log);
		ret = knob_ctx_from_target(&tw->kctx, &tw->t, err);
		if (ret || !tr->nr_arm_plans)
			continue;
		tw->arm_plans = xcalloc(tr->e.nr_arms, sizeof(*tw->arm_plans));
		for (j = 0; j < tr->e.nr_arms && !ret; j++) {
			ret = arm_plan_in(&tw->kctx, tr->e.arms[j].settings,
					  tr->c.nr_factors, &tw->arm_plans[j],
					  err);
			tw->nr_arm_plans = j + 1;
		}
	}
	for (i = 0; i < tr->nr_twins; i++)
		tr->places[i + 1] = &tr->twins[i].t;
	if (ret) {
		release_twins(tr);
		return ret;
	}
	tr->c.places = tr->places;
	tr->c.nr_places = tr->e.nr_arms;
	return 0;
}

int trial_check(struct trial *tr, struct strbuf *err)
{
	int ret = tr->nr_set ? check_fixed(tr, err) : 0;

	if (!ret)
		ret = check_arms(tr, err);
	if (!ret)
		ret = trial_check_fixed_vs_arms(tr, err);
	if (!ret)
		ret = cgroup_check(&tr->limits, err);
	if (!ret && tr->duet && tr->kind == TRIAL_EXPERIMENT)
		ret = open_twins(tr, err);
	if (ret)
		return ret;
	if (tr->c.drop_caches && geteuid() != 0) {
		trial_say(
		    tr, SESSION_SAY_WARN,
		    "not root: caches cannot be dropped between runs, so runs "
		    "may start warm; run as root or pass --no-drop-caches to "
		    "silence this");
		tr->c.drop_caches = 0;
	}
	trial_flush_held(tr);
	return 0;
}

int trial_add_arm(struct trial *tr, const unsigned *levels, unsigned *out,
		  struct strbuf *err)
{
	long in_force = tr->arm_plan ? tr->arm_plan - tr->arm_plans : -1;
	const struct experiment_config *c = &tr->c;
	struct arm_setting *s = xcalloc(c->nr_factors + 1, sizeof(*s));
	struct knob_plan plan;
	unsigned f, i;
	int ret = 0;

	/* planned first: an arm whose knobs do not plan is never made */
	for (f = 0; f < c->nr_factors; f++) {
		if (levels[f] >= c->factors[f].nr_values) {
			free(s);
			return err_set(err, -EINVAL, "no value %u of '%s'",
				       levels[f], c->factors[f].name);
		}
		s[f].name = c->factors[f].name;
		s[f].value = c->factors[f].values[levels[f]];
		s[f].is_knob = c->factors[f].is_knob;
	}
	if (tr->arm_plans)
		ret = trial_arm_plan(tr, s, c->nr_factors, &plan, err);
	free(s);
	if (!ret)
		ret = experiment_add_arm(&tr->e, c, levels, &i, err);
	if (ret) {
		if (tr->arm_plans)
			knob_plan_release(&plan);
		return ret;
	}
	*out = i;
	if (!tr->arm_plans)
		return 0;
	/* plans are kept per arm, in the arms' order */
	tr->arm_plans = xrealloc(tr->arm_plans, (tr->nr_arm_plans + 2) *
						    sizeof(*tr->arm_plans));
	tr->arm_plans[tr->nr_arm_plans++] = plan;
	if (in_force >= 0)
		tr->arm_plan = &tr->arm_plans[in_force];
	return 0;
}

int trial_has_undo(const struct trial *tr)
{
	return tr->nr_set || scratch_session(&tr->t);
}

/* Apply the fixed knobs; say what each became; keep them for the runs. */
static int apply_fixed(struct trial *tr, struct strbuf *err)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, subj = STRBUF_INIT;
	size_t i;
	int ret = trial_apply(tr, &tr->fixed, err);

	if (ret)
		return ret;
	tr->fixed_settings =
	    xcalloc(tr->fixed.nr + 1, sizeof(*tr->fixed_settings));
	for (i = 0; i < tr->fixed.nr; i++) {
		const struct knob_change *c = &tr->fixed.v[i];

		strbuf_reset(&subj);
		strbuf_reset(&b);
		strbuf_reset(&a);
		knob_subject(&subj, c->k.name, c->k.object);
		knob_show_value(&c->k, c->before.buf, &b);
		knob_show_value(&c->k, c->after.buf, &a);
		trial_say(tr, SESSION_SAY_NOTE, "%s: %s -> %s (%s)", subj.buf,
			  b.buf, a.buf,
			  tr->kind == TRIAL_ONE_RUN
			      ? "for this run"
			      : "in every arm, until the end");
		if (c->side.len)
			trial_say(tr, SESSION_SAY_NOTE, "%s: %s", c->k.name,
				  c->side.buf);
		tr->fixed_settings[i].name = c->k.name;
		tr->fixed_settings[i].value = c->after.buf;
	}
	tr->c.knobs = tr->fixed_settings;
	tr->c.nr_knobs = (unsigned)tr->fixed.nr;
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&subj);
	return 0;
}

/* The number of runs the experiment holds. */
static size_t nr_runs(const struct trial *tr)
{
	return tr->e.doc ? tr->e.doc->nr_runs : 0;
}

/* A single run stopped before it measured anything. */
static int nothing_measured(struct strbuf *err)
{
	return err_set(err, -EINTR,
		       "interrupted before the timed part began; nothing "
		       "measured");
}

int trial_run(struct trial *tr, struct strbuf *err)
{
	struct experiment_hooks h;
	int single = tr->kind == TRIAL_ONE_RUN;
	int ret;

	trial_experiment_hooks(tr, &h);
	tr->failed = 0;
	if (single && tr->c.stop && *tr->c.stop) {
		tr->failed = TRIAL_FAILED_RUN;
		return nothing_measured(err);
	}
	if (tr->fixed.nr) {
		ret = trial_open_session(tr, err);
		if (ret) {
			tr->failed = TRIAL_FAILED_SESSION;
			return ret;
		}
		ret = apply_fixed(tr, err);
		if (ret) {
			tr->failed = TRIAL_FAILED_KNOBS;
			return ret;
		}
	}
	if (cgroup_limits_set(&tr->limits)) {
		ret = trial_open_session(tr, err);
		if (!ret)
			ret = cgroup_enter(&tr->cg, &tr->limits, tr->s, err);
		if (ret) {
			tr->failed = TRIAL_FAILED_LIMITS;
			return ret;
		}
	}
	ret = experiment_run(&tr->e, &tr->c, &h, err);
	if (ret) {
		tr->failed = tr->e.failed_in_prepare ? TRIAL_FAILED_PREPARE
			     : tr->e.failed_verify   ? TRIAL_FAILED_VERIFY
						     : TRIAL_FAILED_RUN;
		/* bad data: the run is still shown as any run is */
		if (single && tr->failed == TRIAL_FAILED_VERIFY &&
		    nr_runs(tr) == 1) {
			struct strbuf e = STRBUF_INIT;

			experiment_seal_single_run(
			    tr->e.doc, experiment_process_cpu_s(), &e);
			strbuf_release(&e);
		}
		return ret;
	}
	if (single && !nr_runs(tr)) {
		tr->failed = TRIAL_FAILED_RUN;
		return nothing_measured(err);
	}
	if (single) {
		ret = experiment_seal_single_run(
		    tr->e.doc, experiment_process_cpu_s(), err);
		/* stopped so early that the run has no metric to analyse */
		if (ret && tr->c.stop && *tr->c.stop) {
			tr->failed = TRIAL_FAILED_RUN;
			return err_set(err, -EINTR,
				       "interrupted before the run measured "
				       "anything; nothing to show");
		}
		return ret;
	}
	return 0;
}

const struct run_doc *trial_run_doc(const struct trial *tr)
{
	if (tr->kind != TRIAL_ONE_RUN || nr_runs(tr) != 1)
		return NULL;
	return tr->e.doc->runs[0].run;
}

int trial_finish(struct trial *tr, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct env env;
	int ret = 0;

	if (tr->cg.nr)
		ret = cgroup_leave(&tr->cg, err);
	if (tr->applied && tr->s) {
		struct strbuf e = STRBUF_INIT;
		int r = session_rollback(tr->s, tr->mark, &tr->hooks.log, &e);

		if (r && !ret)
			ret = err_set(err, r, "%s", e.buf);
		strbuf_release(&e);
	}
	tr->applied = 0;
	session_close(tr->s, &tr->hooks.log);
	tr->s = NULL;
	if (tr->kind == TRIAL_ONE_RUN || !tr->e.doc)
		return ret;
	trial_annotate_factors(tr);
	/* a single run's object has its own, taken with its truth */
	memset(&env, 0, sizeof(env));
	if (!env_capture_target(&env, &tr->t, &why) || env.kernel_release) {
		env_doc_free(tr->e.doc->env);
		tr->e.doc->env = xcalloc(1, sizeof(*tr->e.doc->env));
		env_to_doc(&env, tr->e.doc->env);
	}
	env_release(&env);
	strbuf_release(&why);
	return ret;
}

/*
 * Add what the stored experiment says of this machine's noise to the
 * model (noise.h); a failure costs only the model's next estimate.
 */
static void trial_store_noise(struct trial *tr, const char *db)
{
	struct strbuf key = STRBUF_INIT, e = STRBUF_INIT;
	struct noise_row row;
	struct store s;
	int ret;

	ret = noise_row_of(tr->e.doc, &row);
	if (!ret) {
		row.run_s = tr->c.ro.ios ? 0 : (double)tr->c.ro.time_ns / 1e9;
		noise_key(&tr->c, &key);
		if (!store_open(&s, db, &e))
			store_noise_add(&s, tr->id, key.buf, &row, &e);
		store_close(&s);
	}
	strbuf_release(&key);
	strbuf_release(&e);
}

int trial_plan_cost(struct trial *tr, const char *db, struct noise_model *m,
		    struct noise_cost *cost)
{
	struct strbuf key = STRBUF_INIT, e = STRBUF_INIT;
	struct store s;
	int ret;

	memset(m, 0, sizeof(*m));
	memset(cost, 0, sizeof(*cost));
	noise_key(&tr->c, &key);
	ret = store_open_flags(&s, db, STORE_NO_CREATE, &e);
	if (!ret)
		ret = store_noise_get(
		    &s, key.buf,
		    tr->c.ro.ios ? 0 : (double)tr->c.ro.time_ns / 1e9, m, &e);
	store_close(&s);
	if (!ret && m->experiments)
		noise_cost(
		    m, tr->c.precision, tr->c.alpha,
		    stats_signrank_min_blocks(tr->c.alpha, tr->e.nr_arms - 1),
		    cost);
	strbuf_release(&key);
	strbuf_release(&e);
	return !ret && m->experiments ? 1 : 0;
}

void trial_pick_time(struct trial *tr, const char *db, double def_s,
		     struct noise_pick *out)
{
	struct noise_model m[STORE_NOISE_LENGTHS];
	struct strbuf key = STRBUF_INIT, e = STRBUF_INIT;
	unsigned nr = 0;
	struct store s;

	noise_key(&tr->c, &key);
	if (!store_open_flags(&s, db, STORE_NO_CREATE, &e))
		store_noise_lengths(&s, key.buf, m, &nr, &e);
	store_close(&s);
	noise_pick_time(m, nr, def_s, out);
	tr->c.ro.time_ns = (uint64_t)llround(out->run_s * 1e9);
	strbuf_release(&key);
	strbuf_release(&e);
}

int trial_store(struct trial *tr, const char *db, struct strbuf *err)
{
	int ret;

	tr->id[0] = '\0';
	if (tr->kind == TRIAL_ONE_RUN && !trial_run_doc(tr))
		return err_set(err, -EINVAL, "there is no run to store");
	/* a single run's object was sealed by trial_run(): stored as is */
	ret = store_save_doc_at(db, tr->e.doc, tr->id, err);
	if (!ret && tr->kind == TRIAL_EXPERIMENT)
		trial_store_noise(tr, db);
	return ret;
}

void trial_release(struct trial *tr)
{
	struct strbuf err = STRBUF_INIT;
	unsigned i;

	if (tr->th_live)
		truth_hook_release(&tr->th);
	if (tr->s && trial_finish(tr, &err))
		trial_say(tr, SESSION_SAY_WARN, "%s", err.buf);
	experiment_release(&tr->e);
	for (i = 0; i < tr->c.nr_factors; i++)
		trial_free_factor(&tr->c.factors[i]);
	free(tr->c.factors);
	release_arm_plans(tr);
	knob_plan_release(&tr->fixed);
	knob_ctx_release(&tr->kctx);
	free(tr->fixed_settings);
	release_twins(tr); /* in t's session: before t */
	target_release(&tr->t);
	strbuf_release(&tr->held);
	strbuf_release(&err);
	memset(tr, 0, sizeof(*tr));
}
