/*
 * compare's side effects, kept out of the loop: knobs, truth, env, store.
 *
 * Knob changes of all arms go through one session. Each arm's values are
 * applied on top of the previous arm's and journaled before each write,
 * so a rollback to the mark taken before the first change walks back
 * through every arm to the originals, and a crash leaves a journal the
 * next invocation restores the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "compare_knobs.h"
#include "../core/env.h"
#include "../core/knob/plan.h"
#include "../core/scratch.h"
#include "../core/store.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

void compare_knobs_init(struct compare_knobs *ck)
{
	memset(ck, 0, sizeof(*ck));
	knob_ctx_init(&ck->ctx);
}

int compare_knobs_bind(struct compare_knobs *ck, const struct target *t,
		       struct strbuf *err)
{
	ck->t = t;
	return knob_ctx_from_target(&ck->ctx, t, err);
}

int compare_knobs_classify(struct compare_knobs *ck, const char *name,
			   const struct workload_ops *ops, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_list names = { 0 };
	const struct param_spec *p;
	const char *near;
	struct knob k;
	int ret;

	memset(&k, 0, sizeof(k));
	ret = knob_resolve(&ck->ctx, name, &k, NULL, &why);
	knob_release(&k);
	if (!ret) {
		strbuf_release(&why);
		return 1;
	}
	if (ret != -ENOENT) {
		err_set(err, ret, "%s", why.buf);
		strbuf_release(&why);
		return ret;
	}
	knob_names(&ck->ctx, &names);
	for (p = ops->params; p->name; p++)
		knob_list_add(&names, p->name);
	near = suggest_nearest(name, (const char *const *)names.v, names.nr);
	if (near)
		err_set(err, -ENOENT,
			"'%s' is neither a knob nor a parameter of '%s'; did "
			"you mean '%s'?",
			name, ops->name, near);
	else
		err_set(err, -ENOENT,
			"'%s' is neither a knob nor a parameter of '%s'; see "
			"'iotrial knobs' and 'iotrial run %s --help'",
			name, ops->name, ops->name);
	knob_list_release(&names);
	strbuf_release(&why);
	return -ENOENT;
}

/* A plan for the knob settings of one arm. */
static int arm_plan(struct compare_knobs *ck, const struct arm_setting *s,
		    unsigned n, struct knob_plan *plan, struct strbuf *err)
{
	struct strbuf as = STRBUF_INIT;
	unsigned i;
	int ret = 0;

	knob_plan_init(plan, &ck->ctx);
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

int compare_knobs_check(struct compare_knobs *ck, const struct experiment *e,
			const struct experiment_config *c, struct strbuf *err)
{
	struct knob_plan plan;
	unsigned i, nr_knobs = 0;
	int ret = 0;

	for (i = 0; i < c->nr_factors; i++)
		nr_knobs += c->factors[i].is_knob;
	if (!nr_knobs)
		return 0;
	for (i = 0; i < e->nr_arms && !ret; i++) {
		ret = arm_plan(ck, e->arms[i].settings, c->nr_factors, &plan,
			       err);
		knob_plan_release(&plan);
		if (ret) {
			struct strbuf msg = STRBUF_INIT;

			strbuf_addf(&msg, "arm '%s': %s", e->arms[i].label,
				    err->buf);
			strbuf_reset(err);
			strbuf_addstr(err, msg.buf);
			strbuf_release(&msg);
		}
	}
	if (!ret && geteuid() != 0) {
		for (i = 0; i < c->nr_factors; i++)
			if (c->factors[i].is_knob)
				break;
		ret = err_set(err, -EPERM,
			      "changing '%s' needs root; run compare as root, "
			      "or vary only workload parameters",
			      c->factors[i].name);
	}
	return ret;
}

/* Session messages: warnings matter, per-arm "set" chatter does not. */
static void quiet_say(void *data, enum knob_say_level level, const char *msg)
{
	(void)data;
	if (level == KNOB_SAY_WARN)
		warning("%s", msg);
	else if (level == KNOB_SAY_NOTE)
		note("%s", msg);
}

static int apply_arm(void *ctx, const struct arm_setting *s, unsigned n,
		     struct strbuf *err)
{
	struct compare_knobs *ck = ctx;
	struct knob_log log = { quiet_say, NULL };
	struct knob_plan plan;
	int ret;

	if (!ck->s) {
		ck->s = knob_session_ref(scratch_session(ck->t));
		if (!ck->s) {
			ret = knob_session_open(&ck->s, "compare", 0, &log,
						err);
			if (ret)
				return ret;
		}
		ck->mark = knob_session_mark(ck->s);
		ck->applied = 1;
	}
	ret = arm_plan(ck, s, n, &plan, err);
	if (!ret)
		ret = knob_session_apply(ck->s, &plan, &log, err);
	knob_plan_release(&plan);
	return ret;
}

static const struct measure_hook *run_begin(void *ctx,
					    const struct workload *w)
{
	struct compare_knobs *ck = ctx;
	struct truth_opts o = { 0 };
	struct strbuf err = STRBUF_INIT;

	truth_opts_from_workload(&o, w);
	memset(&ck->th, 0, sizeof(ck->th));
	if (truth_hook_init(&ck->th, ck->t, &o, &err)) {
		truth_hook_release(&ck->th);
		strbuf_release(&err);
		return NULL;
	}
	ck->th_live = 1;
	strbuf_release(&err);
	return &ck->th.hook;
}

static void run_end(void *ctx, struct run_result *r)
{
	struct compare_knobs *ck = ctx;

	if (!ck->th_live)
		return;
	truth_hook_finish(&ck->th, r);
	truth_hook_release(&ck->th);
	ck->th_live = 0;
}

static void progress(void *ctx, const struct experiment_progress *p)
{
	struct compare_knobs *ck = ctx;

	if (ck->progress)
		ck->progress(ck->progress_ctx, p);
}

void compare_knobs_hooks(struct compare_knobs *ck, struct experiment_hooks *h)
{
	ck->progress_ctx = h->ctx;
	ck->progress = h->progress;
	h->ctx = ck;
	h->progress = progress;
	h->apply_knobs = apply_arm;
	h->run_begin = run_begin;
	h->run_end = run_end;
}

int compare_knobs_restore(struct compare_knobs *ck)
{
	struct knob_log log = { quiet_say, NULL };
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (ck->applied && ck->s) {
		ret = knob_session_rollback(ck->s, ck->mark, &log, &err);
		if (ret)
			error("%s", err.buf);
	}
	ck->applied = 0;
	knob_session_close(ck->s, &log);
	ck->s = NULL;
	strbuf_release(&err);
	return ret;
}

void compare_knobs_finish(struct compare_knobs *ck, const struct target *t,
			  struct json_object *exp)
{
	struct strbuf err = STRBUF_INIT;
	struct env e;

	(void)ck;
	memset(&e, 0, sizeof(e));
	if (!env_capture_target(&e, t, &err) || e.kernel_release)
		json_object_object_add(exp, "env", env_to_json_object(&e));
	env_release(&e);
	strbuf_release(&err);
}

void compare_knobs_release(struct compare_knobs *ck)
{
	if (ck->th_live)
		truth_hook_release(&ck->th);
	if (ck->s)
		compare_knobs_restore(ck);
	knob_ctx_release(&ck->ctx);
}

int compare_store_save(const char *db, struct json_object *exp,
		       struct strbuf *err)
{
	struct store s;
	char id[32];
	int ret;

	ret = store_open(&s, db, err);
	if (ret)
		return ret;
	ret = store_save_experiment(&s, exp, id, err);
	store_close(&s);
	return ret;
}
