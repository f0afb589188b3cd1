/*
 * Which arm of an experiment document to roll out (export.h): the one
 * whose verdict is "faster" with the best ratio (of a tune: the arm it
 * recommends), or the one --arm names (any of its names:
 * experiment/arm_name.h), and its knob assignments.
 * An experiment that varied no knob, or in which nothing won, is
 * refused with what to run instead: exporting a setting that was not
 * shown to help would put a guess into every machine's configuration.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export.h"
#include "../model/experiment_doc.h"
#include "../experiment/regression.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void export_pick_release(struct export_pick *p)
{
	size_t i;

	if (!p)
		return;
	free(p->id);
	free(p->label);
	free(p->created);
	free(p->why);
	free(p->target);
	free(p->disk);
	for (i = 0; i < p->nr_assign; i++)
		free(p->assign[i]);
	free(p->assign);
	free(p->others);
	free(p->not_knobs);
	free(p->base_label);
	for (i = 0; i < p->nr_base_assign; i++)
		free(p->base_assign[i]);
	free(p->base_assign);
	memset(p, 0, sizeof(*p));
}

/* The label of arm i: "?" when there is no such arm. */
static const char *arm_label(const struct experiment_doc *exp, int64_t i)
{
	if (i < 0 || (size_t)i >= exp->nr_arms)
		return "?";
	return exp->arms[i].label ? exp->arms[i].label : "";
}

/* Is a better than b as a ratio to the baseline? */
static int better(double a, double b, int higher_is_better)
{
	return higher_is_better ? a > b : a < b;
}

/* A verdict's ratio, NaN when it has none. */
static double ratio_of(const struct exp_verdict *v)
{
	return v->cmp ? v->cmp->ratio : NAN;
}

/* Fill out->why from verdict v. */
static void why_of(const struct exp_verdict *v, struct export_pick *out)
{
	struct strbuf s = STRBUF_INIT;
	const char *word = v->verdict ? v->verdict : "";
	int comparative = !strcmp(word, "faster") || !strcmp(word, "slower");

	/* "faster than 'x'", but "inconclusive against 'x'" */
	strbuf_addf(
	    &s, "%s %s '%s': %.3fx [%.3f, %.3f], p %.3g", word,
	    comparative ? "than" : "against", v->baseline ? v->baseline : "",
	    ratio_of(v), v->cmp ? v->cmp->ci_low : NAN,
	    v->cmp ? v->cmp->ci_high : NAN, v->cmp ? v->cmp->p_adjusted : NAN);
	out->why = strbuf_detach(&s, NULL);
}

static const struct exp_verdict *verdict_of(const struct experiment_doc *exp,
					    int idx);

/*
 * A tune's arm to roll out is its recommendation (the smallest change
 * shown as good as the winner), not the arm with the best ratio: the
 * same answer its text gives. -ENOENT with err when it recommends
 * keeping the current settings, or when the recommendation is suspect.
 */
static int pick_tune(const struct experiment_doc *exp, const char *id, int *arm,
		     struct export_pick *out, struct strbuf *err)
{
	const struct tune_cand_doc *r = exp->tune->recommended;
	const struct exp_verdict *v;

	if (!r || !r->has_arm || !r->nr_changes || r->arm < 0 ||
	    (size_t)r->arm >= exp->nr_arms)
		return err_set(err, -ENOENT,
			       "tune '%s' recommends keeping the current "
			       "settings (no candidate was shown better than "
			       "them), so there is nothing to export; name an "
			       "arm with --arm LABEL to export it anyway",
			       id);
	v = verdict_of(exp, (int)r->arm);
	if (v && regression_verdict_suspect(exp, v, NULL)) {
		struct strbuf kinds = STRBUF_INIT;

		regression_verdict_suspect(exp, v, &kinds);
		err_set(err, -ENOENT,
			"tune '%s' recommends '%s', but it is suspect (%s): "
			"its runs measured the flaw iotrial flagged, maybe not "
			"the setting; rerun without it ('iotrial show %s' has "
			"the warnings), or export it anyway with --arm '%s'",
			id, arm_label(exp, r->arm), kinds.buf, id,
			arm_label(exp, r->arm));
		strbuf_release(&kinds);
		return -ENOENT;
	}
	*arm = (int)r->arm;
	if (v)
		why_of(v, out);
	else
		out->why = xstrdup("tune's recommendation");
	return 0;
}

/* Choose the winning arm; -ENOENT with err when none won. */
static int pick_winner(const struct experiment_doc *exp, const char *id,
		       int *arm, struct export_pick *out, struct strbuf *err)
{
	const struct exp_verdict *best = NULL;
	struct strbuf seen = STRBUF_INIT, others = STRBUF_INIT;
	int hib = exp->metric ? exp->metric->higher_is_better : 1, ret = 0;
	size_t i, n = exp->nr_verdicts;

	if (!n)
		return err_set(
		    err, -ENOENT,
		    "experiment '%s' has no verdicts, so no arm won; "
		    "name the arm to export with --arm LABEL, or "
		    "compare settings first with 'iotrial compare "
		    "WORKLOAD --vary KNOB=A,B -t TARGET'",
		    id);
	for (i = 0; i < n; i++) {
		const struct exp_verdict *v = &exp->verdicts[i];
		const char *word = v->verdict ? v->verdict : "";

		strbuf_addf(&seen, "%s'%s' %s", i ? ", " : "",
			    v->label ? v->label : "", word);
		if (strcmp(word, "faster"))
			continue;
		if (!best || better(ratio_of(v), ratio_of(best), hib))
			best = v;
	}
	if (!best) {
		ret = err_set(err, -ENOENT,
			      "no arm of experiment '%s' was faster than its "
			      "baseline '%s' (%s), so there is no winner to "
			      "export; name an arm with --arm LABEL, or run "
			      "more blocks ('iotrial compare ... --runs N')",
			      id, arm_label(exp, 0), seen.buf);
		goto out;
	}
	if (regression_verdict_suspect(exp, best, NULL)) {
		struct strbuf kinds = STRBUF_INIT;

		regression_verdict_suspect(exp, best, &kinds);
		ret = err_set(err, -ENOENT,
			      "the winner '%s' of experiment '%s' is suspect "
			      "(%s): its runs measured the flaw iotrial "
			      "flagged, maybe not the setting; rerun without "
			      "it ('iotrial show %s' has the warnings), or "
			      "export it anyway with --arm '%s'",
			      best->label ? best->label : "", id, kinds.buf, id,
			      best->label ? best->label : "");
		strbuf_release(&kinds);
		goto out;
	}
	*arm = (int)best->arm;
	why_of(best, out);
	for (i = 0; i < n; i++) {
		const struct exp_verdict *v = &exp->verdicts[i];

		if (v != best && v->verdict && !strcmp(v->verdict, "faster"))
			strbuf_addf(&others, "%s'%s' (%.3fx)",
				    others.len ? "; " : "",
				    v->label ? v->label : "", ratio_of(v));
	}
	if (others.len)
		out->others = strbuf_detach(&others, NULL);
out:
	strbuf_release(&seen);
	strbuf_release(&others);
	return ret;
}

/* The value a pair list sets name to, or NULL. */
static const char *pair_of(const struct model_pair *v, size_t nr,
			   const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (v[i].name && !strcmp(v[i].name, name))
			return v[i].value;
	return NULL;
}

/*
 * The spellings of exp's arms for arm_find() into names[] (nr_arms)
 * and sp[] (nr_arms x nr_factors): each knob factor under the name it
 * was asked by and its canonical one, each value as asked and as set.
 */
static void arm_spellings(const struct experiment_doc *exp,
			  struct arm_names *names, struct arm_spelling *sp)
{
	size_t i, f, nf = exp->nr_factors;

	for (i = 0; i < exp->nr_arms; i++) {
		const struct exp_arm *a = &exp->arms[i];

		names[i].label = arm_label(exp, (int64_t)i);
		names[i].s = &sp[i * nf];
		names[i].nr = 0;
		if (a->has_settings != MODEL_SET)
			continue;
		for (f = 0; f < nf; f++) {
			const struct exp_factor *fa = &exp->factors[f];
			struct arm_spelling *s = &sp[i * nf + names[i].nr];
			const char *set, *asked;

			if (!fa->name)
				break;
			set = pair_of(a->settings, a->nr_settings, fa->name);
			if (!set)
				break;
			asked = a->has_asked == MODEL_SET
				    ? pair_of(a->asked, a->nr_asked, fa->name)
				    : NULL;
			s->name = fa->name;
			s->set_name =
			    fa->canonical && strcmp(fa->canonical, fa->name)
				? fa->canonical
				: NULL;
			s->asked = asked ? asked : set;
			s->set = set;
			names[i].nr++;
		}
		if (f < nf) /* settings that do not spell the label */
			names[i].nr = 0;
	}
}

/*
 * The index of the arm named by name (arm_name.h) into *out_idx: 0, or
 * -ENOENT (no such arm) or -EINVAL (ambiguous) with err set.
 */
static int find_arm(const struct experiment_doc *exp, const char *id,
		    const char *name, arm_same_fn same, void *same_ctx,
		    int *out_idx, struct strbuf *err)
{
	size_t i, n = exp->nr_arms, idx = 0;
	struct arm_names *names = xcalloc(n + 1, sizeof(*names));
	struct arm_spelling *sp = xcalloc(n * exp->nr_factors + 1, sizeof(*sp));
	struct strbuf list = STRBUF_INIT;
	int ret;

	arm_spellings(exp, names, sp);
	ret = arm_find(names, n, name, same, same_ctx, &idx, err);
	if (!ret)
		*out_idx = (int)idx;
	if (ret == -ENOENT) {
		for (i = 0; i < n; i++)
			strbuf_addf(&list, "%s'%s'", i ? ", " : "",
				    arm_label(exp, (int64_t)i));
		err_set(err, -ENOENT,
			"experiment '%s' has no arm '%s'; its arms: %s (or "
			"their numbers, 1 to %zu, in that order)",
			id, name, list.buf, n);
	}
	strbuf_release(&list);
	free(names);
	free(sp);
	return ret;
}

/* The environment exp recorded: its own, or its first run's (an
 * imported experiment keeps one per run); NULL when none. */
static const struct env_doc *env_of(const struct experiment_doc *exp)
{
	if (exp->env)
		return exp->env;
	if (exp->nr_runs && exp->runs[0].run)
		return exp->runs[0].run->env;
	return NULL;
}

/* The disk the experiment measured: the queue of its stack's first
 * device, or NULL. */
static char *measured_disk(const struct experiment_doc *exp)
{
	const struct env_doc *env = env_of(exp);
	const char *q;

	if (!env || !env->stack || !env->stack->nr_devices)
		return NULL;
	q = env->stack->devices[0].queue_dev;
	return xstrdup(q ? q : "");
}

/* The value arm a sets factor name to: NULL when a has no settings, ""
 * when they do not name it. */
static const char *setting_of(const struct exp_arm *a, const char *name)
{
	size_t i;

	if (!a || a->has_settings != MODEL_SET)
		return NULL;
	for (i = 0; i < a->nr_settings; i++)
		if (!strcmp(a->settings[i].name, name))
			return a->settings[i].value ? a->settings[i].value : "";
	return "";
}

/* Is factor f a knob? */
static int is_knob(const struct exp_factor *f)
{
	return f->kind && !strcmp(f->kind, "knob");
}

/*
 * The baseline arm of exp (its "baseline" index, else arm 0) and the
 * values its knob factors had, into out's base_label and base_assign.
 */
static void base_of(const struct experiment_doc *exp, struct export_pick *out)
{
	struct strbuf sb = STRBUF_INIT;
	const struct exp_arm *a;
	size_t i, nf = exp->nr_factors;
	int64_t idx = exp->has_baseline == MODEL_SET ? exp->baseline : 0;

	if (idx < 0 || (size_t)idx >= exp->nr_arms)
		idx = 0;
	a = exp->nr_arms ? &exp->arms[idx] : NULL;
	out->base_label = xstrdup(arm_label(exp, idx));
	out->base_assign = xcalloc(nf + 1, sizeof(*out->base_assign));
	for (i = 0; i < nf; i++) {
		const struct exp_factor *f = &exp->factors[i];
		const char *name = f->name ? f->name : "";
		const char *val = setting_of(a, name);

		if (!*name || !val || !*val || !is_knob(f))
			continue;
		strbuf_setf(&sb, "%s=%s", name, val);
		out->base_assign[out->nr_base_assign++] = xstrdup(sb.buf);
	}
	strbuf_release(&sb);
}

/* exp's origin: one of the EXP_ORIGIN_* strings (static). None is
 * local (stored before origins were kept); one that is none of the
 * three is imported, the cautious answer. */
static const char *origin_of(const struct experiment_doc *exp)
{
	if (!exp->origin || !strcmp(exp->origin, EXP_ORIGIN_LOCAL))
		return EXP_ORIGIN_LOCAL;
	if (!strcmp(exp->origin, EXP_ORIGIN_FLEET))
		return EXP_ORIGIN_FLEET;
	return EXP_ORIGIN_IMPORTED;
}

/* The verdict of arm idx of exp, or NULL. */
static const struct exp_verdict *verdict_of(const struct experiment_doc *exp,
					    int idx)
{
	size_t i;

	for (i = 0; i < exp->nr_verdicts; i++)
		if (exp->verdicts[i].arm == idx)
			return &exp->verdicts[i];
	return NULL;
}

/* Does allow[nr] name change c? */
static int allowed(const struct knob_change *c, const char *const *allow,
		   size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(allow[i], c->k.name) ||
		    (c->input_name && !strcmp(allow[i], c->input_name)))
			return 1;
	return 0;
}

int export_pick_check_knobs(const struct export_pick *pick,
			    const struct knob_plan *p, const char *const *allow,
			    size_t nr_allow, struct strbuf *err)
{
	struct strbuf names = STRBUF_INIT, opts = STRBUF_INIT;
	size_t i, n = 0;
	int ret = 0;

	if (!pick->origin || !strcmp(pick->origin, EXP_ORIGIN_LOCAL))
		return 0;
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];

		/* every other family is the registry's, its values checked */
		if (c->k.ops != &knob_raw_ops || allowed(c, allow, nr_allow))
			continue;
		strbuf_addf(&names, "%s'%s'", n++ ? ", " : "", c->k.name);
		strbuf_addf(&opts, " --allow-knob '%s'", c->k.name);
	}
	if (n)
		ret = err_set(
		    err, -EPERM,
		    "experiment '%s' was %s, not measured here, and its arm "
		    "sets %s, %s outside iotrial's registry that can write "
		    "any value to any file under /proc/sys or /sys; nothing "
		    "is written: if you have checked the plan above, "
		    "give%s",
		    pick->id,
		    !strcmp(pick->origin, EXP_ORIGIN_FLEET) ? "merged from a "
							      "fleet's hosts"
							    : "imported",
		    names.buf, n == 1 ? "a raw knob" : "raw knobs", opts.buf);
	strbuf_release(&names);
	strbuf_release(&opts);
	return ret;
}

int export_pick(const struct experiment_doc *exp, const char *arm,
		arm_same_fn same, void *same_ctx, struct export_pick *out,
		struct strbuf *err)
{
	const struct exp_verdict *v;
	const struct exp_arm *a;
	struct strbuf params = STRBUF_INIT, names = STRBUF_INIT;
	size_t i, nf = exp->nr_factors;
	int idx = -1, ret = 0, knobs = 0;

	memset(out, 0, sizeof(*out));
	out->origin = origin_of(exp);
	out->id = xstrdup(exp->id ? exp->id : "");
	out->created = xstrndup(exp->created ? exp->created : "", 10);
	out->target = xstrdup(exp->target ? exp->target : "");
	out->disk = measured_disk(exp);
	for (i = 0; i < nf; i++) {
		strbuf_addf(&names, "%s%s", i ? ", " : "",
			    exp->factors[i].name ? exp->factors[i].name : "");
		knobs += is_knob(&exp->factors[i]);
	}
	if (!knobs || !exp->nr_arms) {
		ret = err_set(err, -ENOENT,
			      "experiment '%s' varied no knob (%s%s), so it "
			      "found no setting: there is nothing to export; "
			      "compare settings with 'iotrial compare WORKLOAD "
			      "--vary KNOB=A,B -t TARGET', or export a setting "
			      "directly with 'iotrial export --set KNOB=VALUE "
			      "--format FORMAT'",
			      out->id, nf ? "its factors: " : "it ran one arm",
			      names.buf);
		goto out;
	}
	if (arm) {
		ret = find_arm(exp, out->id, arm, same, same_ctx, &idx, err);
		if (ret)
			goto out;
		v = verdict_of(exp, idx);
		if (v)
			why_of(v, out);
		else
			out->why = xstrdup("the baseline, chosen with --arm");
	} else if (exp->tune) {
		ret = pick_tune(exp, out->id, &idx, out, err);
		if (ret)
			goto out;
	} else {
		ret = pick_winner(exp, out->id, &idx, out, err);
		if (ret)
			goto out;
	}
	out->arm = idx;
	out->label = xstrdup(arm_label(exp, idx));
	a = idx >= 0 && (size_t)idx < exp->nr_arms ? &exp->arms[idx] : NULL;
	out->assign = xcalloc(nf + 1, sizeof(*out->assign));
	for (i = 0; i < nf; i++) {
		const struct exp_factor *f = &exp->factors[i];
		const char *name = f->name ? f->name : "";
		const char *val = setting_of(a, name);

		if (!val)
			continue;
		if (is_knob(f)) {
			strbuf_setf(&names, "%s=%s", name, val);
			out->assign[out->nr_assign++] = xstrdup(names.buf);
		} else
			strbuf_addf(&params, "%s%s=%s", params.len ? " " : "",
				    name, val);
	}
	if (params.len)
		out->not_knobs = strbuf_detach(&params, NULL);
	base_of(exp, out);
out:
	strbuf_release(&params);
	strbuf_release(&names);
	return ret;
}
