/*
 * What a trial says about its knobs beyond setting them: where each knob
 * factor is set (the plan line, the factors of the experiment object)
 * and, after every run, whether the run reached the regime of each knob
 * in force (knob_ops.regime), judged on the run's device truth.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trial_knobs.h"
#include "../../util/error.h"
#include "../observe/regime_obs.h"
#include "../targets/mountinfo.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Resolve knob factor f into k (zeroed first): where it is set. */
static int factor_place(const struct trial *tr,
			const struct experiment_factor *f, struct knob *k)
{
	struct strbuf why = STRBUF_INIT;
	int ret;

	memset(k, 0, sizeof(*k));
	ret = knob_resolve(&tr->kctx, f->name, k, NULL, &why);
	strbuf_release(&why);
	return ret;
}

void trial_knob_places(const struct trial *tr, struct strbuf *out)
{
	struct knob_list objects = {0};
	size_t o;
	unsigned i;

	for (i = 0; i < tr->c.nr_factors; i++) {
		struct knob k;

		memset(&k, 0, sizeof(k));
		if (tr->c.factors[i].is_knob &&
		    !factor_place(tr, &tr->c.factors[i], &k) &&
		    !knob_list_has(&objects, k.object))
			knob_list_add(&objects, k.object);
		knob_release(&k);
	}
	for (o = 0; o < objects.nr; o++) {
		struct knob_list names = {0};
		size_t j;

		strbuf_addstr(out, o ? "; " : "");
		for (i = 0; i < tr->c.nr_factors; i++) {
			struct knob k;

			memset(&k, 0, sizeof(k));
			if (tr->c.factors[i].is_knob &&
			    !factor_place(tr, &tr->c.factors[i], &k) &&
			    !strcmp(k.object, objects.v[o])) {
				struct strbuf w = STRBUF_INIT;

				strbuf_addstr(&w, tr->c.factors[i].name);
				if (strcmp(k.name, tr->c.factors[i].name))
					strbuf_addf(&w, " (%s)", k.name);
				knob_list_add(&names, w.buf);
				strbuf_release(&w);
			}
			knob_release(&k);
		}
		for (j = 0; j < names.nr; j++)
			strbuf_addf(out, "%s%s",
				    !j			? ""
				    : j + 1 == names.nr ? " and "
							: ", ",
				    names.v[j]);
		knob_list_release(&names);
		if (!strcmp(objects.v[o], "system"))
			strbuf_addstr(out, " for the whole system");
		else
			strbuf_addf(out, " on '%s'", objects.v[o]);
	}
	knob_list_release(&objects);
}

const char *trial_dir_knob_disk(const struct trial *tr)
{
	int device = 0;
	unsigned i;
	size_t j;

	if (tr->t.kind != TARGET_DIR || !tr->kctx.disk)
		return NULL;
	for (i = 0; i < tr->c.nr_factors && !device; i++) {
		struct knob k;

		memset(&k, 0, sizeof(k));
		if (tr->c.factors[i].is_knob &&
		    !factor_place(tr, &tr->c.factors[i], &k))
			device = k.scope == KNOB_SCOPE_DEVICE;
		knob_release(&k);
	}
	for (j = 0; j < tr->fixed.nr && !device; j++)
		device = tr->fixed.v[j].k.scope == KNOB_SCOPE_DEVICE;
	return device ? tr->kctx.disk : NULL;
}

/* Each knob factor of the experiment says where it was set:
 * "canonical", "scope" and "object" (the disk, the mount, "system"). */
void trial_annotate_factors(const struct trial *tr)
{
	struct experiment_doc *d = tr->e.doc;
	size_t i;
	unsigned f;

	for (i = 0; d && i < d->nr_factors; i++) {
		struct exp_factor *fo = &d->factors[i];

		for (f = 0; fo->name && f < tr->c.nr_factors; f++) {
			struct knob k;

			if (!tr->c.factors[f].is_knob ||
			    strcmp(tr->c.factors[f].name, fo->name))
				continue;
			if (!factor_place(tr, &tr->c.factors[f], &k)) {
				free(fo->canonical);
				fo->canonical = xstrdup(k.name);
				free(fo->scope);
				fo->scope = xstrdup(knob_scope_name(k.scope));
				free(fo->object);
				fo->object = xstrdup(k.object);
			}
			knob_release(&k);
		}
	}
}

/*
 * Whether r reached the regime of change c (knob_ops.regime), into r;
 * a raw knob that spells a named knob's file is judged as that knob,
 * and is entered under its canonical name.
 */
static void regime_of(struct run_result *r, const struct knob_change *c,
		      const struct knob_obs *o)
{
	struct strbuf why = STRBUF_INIT, as = STRBUF_INIT;
	enum knob_regime g = knob_judge(&c->k, c->canon.buf, o, &as, &why);

	run_result_add_regime(r, c->input_name, as.buf, c->k.object,
			      c->canon.buf, knob_regime_name(g), why.buf);
	strbuf_release(&as);
	strbuf_release(&why);
}

/*
 * The target's mount options now, while the run's knobs are in force
 * (an atime factor may switch lazytime), into o; nothing for a device
 * target or when the mount table cannot be read.
 */
static void mount_obs(const struct trial *tr, struct knob_obs *o)
{
	const struct mountinfo_entry *e;
	struct mountinfo mi = {0};

	if (!tr->kctx.mountpoint || mountinfo_read(&mi, NULL))
		return;
	e = mountinfo_find_mountpoint(&mi, tr->kctx.mountpoint);
	if (e) {
		o->have_mount = 1;
		o->lazytime = mountinfo_has_opt(e->super_opts, "lazytime") ||
			      mountinfo_has_opt(e->mnt_opts, "lazytime");
	}
	mountinfo_release(&mi);
}

/*
 * The regime of every knob in force for r: the fixed ones and the arm's,
 * judged on r's truth, from the plans that set them (their resolved
 * knobs and canonical values).
 */
void trial_run_regimes(struct trial *tr, struct run_result *r)
{
	struct knob_obs o;
	size_t i;

	truth_knob_obs(r->truth, r, tr->th.opts.direct, &o);
	mount_obs(tr, &o);
	for (i = 0; i < tr->fixed.nr; i++)
		regime_of(r, &tr->fixed.v[i], &o);
	for (i = 0; tr->arm_plan && i < tr->arm_plan->nr; i++)
		regime_of(r, &tr->arm_plan->v[i], &o);
}

const char *trial_knob_above(const struct trial *tr, const char *knob)
{
	const struct workload *w = tr->e.arm_w ? &tr->e.arm_w[0] : NULL;

	if (!w || !w->ops->knob_above || !knob)
		return NULL;
	return w->ops->knob_above(w, knob);
}

/* A warning on r when change c cannot act on the workload. */
static void mark_above(const struct trial *tr, struct run_result *r,
		       const struct knob_change *c)
{
	const char *why = trial_knob_above(tr, c->input_name);

	if (!why)
		why = trial_knob_above(tr, c->k.name);
	if (why)
		run_result_warn_kind(r, RUN_WARN_FIDELITY,
				     "'%s' with %s (--force): %s; a verdict "
				     "over this run is suspect",
				     c->input_name, tr->e.arm_w[0].ops->name,
				     why);
}

void trial_mark_knobs_above(const struct trial *tr, struct run_result *r)
{
	size_t i;

	for (i = 0; i < tr->fixed.nr; i++)
		mark_above(tr, r, &tr->fixed.v[i]);
	for (i = 0; tr->arm_plan && i < tr->arm_plan->nr; i++)
		mark_above(tr, r, &tr->arm_plan->v[i]);
}

/*
 * Does changing knob a (varied per arm) reset or move knob b (held by
 * --set) on the same device? A scheduler switch resets nr_requests and
 * replaces iosched/; max_sectors_kb may move read-ahead.
 */
static int resets(const struct knob *a, const struct knob *b)
{
	if (strcmp(a->object, b->object))
		return 0;
	if (a->prio == KNOB_PRIO_SCHED)
		return b->prio == KNOB_PRIO_IOSCHED ||
		       b->prio == KNOB_PRIO_NR_REQUESTS;
	return a->prio == KNOB_PRIO_MAX_SECTORS &&
	       b->prio == KNOB_PRIO_READAHEAD;
}

/* A knob held by --set against the knobs the arms change; see
 * trial_knobs.h. */
int trial_check_fixed_vs_arms(const struct trial *tr, struct strbuf *err)
{
	const struct knob_plan *arm = tr->arm_plans ? &tr->arm_plans[0] : NULL;
	size_t i, k;

	for (i = 0; arm && i < tr->fixed.nr; i++)
		for (k = 0; k < arm->nr; k++) {
			const struct knob *f = &tr->fixed.v[i].k;
			const struct knob *a = &arm->v[k].k;

			if (!strcmp(f->group, a->group) &&
			    !strcmp(f->object, a->object))
				return err_set(
				    err, -EINVAL,
				    !strcmp(f->name, a->name)
					? "'%s' is both held by --set and "
					  "varied by --vary; give it in one "
					  "of them"
					: "'%s' (--set) and '%s' (--vary) are "
					  "one setting in two units (writing "
					  "one zeroes the other); give only "
					  "one",
				    f->name, a->name);
			if (resets(a, f))
				return err_set(err, -EINVAL,
					       "--vary %s would undo --set "
					       "%s at each switch (changing "
					       "'%s' resets '%s' on '%s'); "
					       "vary both, or hold both",
					       a->name, f->name, a->name,
					       f->name, f->object);
		}
	return 0;
}
