/*
 * Which arm of an experiment to roll out (export.h): the one whose
 * verdict is "faster" with the best ratio, or the one --arm names (by
 * label, with or without its "(asked: ...)" notes, or by number), and
 * its knob assignments. An experiment that varied no knob, or in which
 * nothing won, is refused with what to run instead: exporting a setting
 * that was not shown to help would put a guess into every machine's
 * configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export.h"
#include "../report/expjson.h"
#include "../report/suspect.h"
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

/* The label of arm i, or "arm i". */
static const char *arm_label(struct json_object *exp, int i)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	struct json_object *a;
	const char *l;

	if (!arms || i < 0 || (size_t)i >= json_object_array_length(arms))
		return "?";
	a = json_object_array_get_idx(arms, (size_t)i);
	l = expjson_str(a, "label");
	return l ? l : "?";
}

/* Is a better than b as a ratio to the baseline? */
static int better(double a, double b, int higher_is_better)
{
	return higher_is_better ? a > b : a < b;
}

/* Fill out->why from verdict v. */
static void why_of(struct json_object *exp, struct json_object *v,
		   struct export_pick *out)
{
	struct strbuf s = STRBUF_INIT;
	const char *base = expjson_str(v, "baseline");
	const char *word = expjson_str(v, "verdict");
	int comparative =
	    word && (!strcmp(word, "faster") || !strcmp(word, "slower"));

	/* "faster than 'x'", but "inconclusive against 'x'" */
	strbuf_addf(&s, "%s %s '%s': %.3fx [%.3f, %.3f], p %.3g",
		    word ? word : "no verdict",
		    comparative ? "than" : "against",
		    base ? base : arm_label(exp, 0), expjson_num(v, "ratio"),
		    expjson_num(v, "ci_low"), expjson_num(v, "ci_high"),
		    expjson_num(v, "p_adjusted"));
	out->why = strbuf_detach(&s, NULL);
}

/* Choose the winning arm; -ENOENT with err when none won. */
static int pick_winner(struct json_object *exp, const char *id, int *arm,
		       struct export_pick *out, struct strbuf *err)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	struct json_object *m = expjson_get(exp, "metric"), *hb, *best = NULL;
	struct strbuf seen = STRBUF_INIT, others = STRBUF_INIT;
	int hib = 1, ret = 0;
	size_t i, n = vs ? json_object_array_length(vs) : 0;

	if (m && json_object_object_get_ex(m, "higher_is_better", &hb))
		hib = json_object_get_boolean(hb);
	if (!n)
		return err_set(
		    err, -ENOENT,
		    "experiment '%s' has no verdicts, so no arm won; "
		    "name the arm to export with --arm LABEL, or "
		    "compare settings first with 'iotrial compare "
		    "WORKLOAD --vary KNOB=A,B -t TARGET'",
		    id);
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		const char *word = expjson_str(v, "verdict");

		strbuf_addf(&seen, "%s'%s' %s", i ? ", " : "",
			    expjson_str(v, "label") ? expjson_str(v, "label")
						    : "?",
			    word ? word : "?");
		if (!word || strcmp(word, "faster"))
			continue;
		if (!best || better(expjson_num(v, "ratio"),
				    expjson_num(best, "ratio"), hib))
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
	if (suspect_is(exp, best)) {
		struct strbuf kinds = STRBUF_INIT;

		suspect_kinds(exp, best, &kinds);
		ret = err_set(err, -ENOENT,
			      "the winner '%s' of experiment '%s' is suspect "
			      "(%s): its runs measured the flaw iotrial "
			      "flagged, maybe not the setting; rerun without "
			      "it ('iotrial show %s' has the warnings), or "
			      "export it anyway with --arm '%s'",
			      expjson_str(best, "label"), id, kinds.buf, id,
			      expjson_str(best, "label"));
		strbuf_release(&kinds);
		goto out;
	}
	*arm = (int)expjson_num(best, "arm");
	why_of(exp, best, out);
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		const char *word = expjson_str(v, "verdict");

		if (v != best && word && !strcmp(word, "faster"))
			strbuf_addf(
			    &others, "%s'%s' (%.3fx)", others.len ? "; " : "",
			    expjson_str(v, "label"), expjson_num(v, "ratio"));
	}
	if (others.len)
		out->others = strbuf_detach(&others, NULL);
out:
	strbuf_release(&seen);
	strbuf_release(&others);
	return ret;
}

/* Is label name, once its " (asked: ...)" notes are left out? */
static int same_label(const char *label, const char *name)
{
	struct strbuf s = STRBUF_INIT;
	const char *p = label, *a, *close;
	int ret;

	while ((a = strstr(p, " (asked: ")) && (close = strchr(a, ')'))) {
		strbuf_add(&s, p, (size_t)(a - p));
		p = close + 1;
	}
	strbuf_addstr(&s, p);
	ret = !strcmp(s.buf, name);
	strbuf_release(&s);
	return ret;
}

/* The number "N" (digits only, no sign) names, 1.. ; 0 when it is none. */
static size_t arm_number(const char *name)
{
	size_t k = 0;

	if (!*name || strspn(name, "0123456789") != strlen(name) ||
	    strlen(name) > 6)
		return 0;
	for (; *name; name++)
		k = k * 10 + (size_t)(*name - '0');
	return k;
}

/*
 * The index of the arm named by name into *out_idx: 0, or -ENOENT (no
 * such arm) or -EINVAL (ambiguous) with err set. Arms are
 * numbered from 1 in the order the tables (and --dry-run) list them:
 * "#N" is always the N-th arm; otherwise a label (with or without its
 * "(asked: ...)" notes) is that arm, and a bare number N the N-th. A
 * bare number that is also the label of another arm is refused: it
 * could mean either, and '#' says which.
 */
static int find_arm(struct json_object *exp, struct json_object *arms,
		    const char *id, const char *name, int *out_idx,
		    struct strbuf *err)
{
	size_t i, n = json_object_array_length(arms), k;
	struct strbuf list = STRBUF_INIT;
	int by_label = -1;

	k = arm_number(name[0] == '#' ? name + 1 : name);
	if (name[0] != '#')
		for (i = 0; i < n && by_label < 0; i++) {
			const char *l = expjson_str(
			    json_object_array_get_idx(arms, i), "label");

			if (l && (!strcmp(l, name) || same_label(l, name)))
				by_label = (int)i;
		}
	if (by_label >= 0 && k >= 1 && k <= n && (size_t)by_label != k - 1)
		return err_set(
		    err, -EINVAL,
		    "'%s' is both the label of arm %d and the number of "
		    "arm %zu ('%s'); give '#%zu' for arm %zu, or '#%d' "
		    "for the arm labelled '%s'",
		    name, by_label + 1, k, arm_label(exp, (int)k - 1), k, k,
		    by_label + 1, name);
	if (by_label >= 0 || (k >= 1 && k <= n)) {
		*out_idx = by_label >= 0 ? by_label : (int)k - 1;
		return 0;
	}
	for (i = 0; i < n; i++)
		strbuf_addf(&list, "%s'%s'", i ? ", " : "",
			    arm_label(exp, (int)i));
	err_set(err, -ENOENT,
		"experiment '%s' has no arm '%s'; its arms: %s (or their "
		"numbers, 1 to %zu, in that order)",
		id, name, list.buf, n);
	strbuf_release(&list);
	return -ENOENT;
}

/* The disk the experiment measured: the queue of its stack's first
 * device, or NULL. */
static char *measured_disk(struct json_object *exp)
{
	struct json_object *env = expjson_env(exp), *st, *devs;
	const char *q;

	st = env ? expjson_get(env, "stack") : NULL;
	devs = st ? expjson_get_type(st, "devices", json_type_array) : NULL;
	if (!devs || !json_object_array_length(devs))
		return NULL;
	q = expjson_str(json_object_array_get_idx(devs, 0), "queue_dev");
	return q ? xstrdup(q) : NULL;
}

/*
 * The baseline arm of exp (its "baseline" index, else arm 0) and the
 * values its knob factors had, into out's base_label and base_assign.
 */
static void base_of(struct json_object *exp, struct json_object *factors,
		    struct json_object *arms, struct export_pick *out)
{
	struct json_object *b =
	    expjson_get_type(exp, "baseline", json_type_int);
	struct json_object *a, *settings;
	struct strbuf sb = STRBUF_INIT;
	size_t i, nf = json_object_array_length(factors);
	int idx = b ? json_object_get_int(b) : 0;

	if (idx < 0 || (size_t)idx >= json_object_array_length(arms))
		idx = 0;
	a = json_object_array_get_idx(arms, (size_t)idx);
	out->base_label = xstrdup(arm_label(exp, idx));
	settings = a ? expjson_get(a, "settings") : NULL;
	out->base_assign = xcalloc(nf + 1, sizeof(*out->base_assign));
	for (i = 0; i < nf; i++) {
		struct json_object *f = json_object_array_get_idx(factors, i);
		const char *name = expjson_str(f, "name");
		const char *kind = expjson_str(f, "kind");
		const char *val = settings ? expjson_str(settings, name) : "";

		if (!*name || !*val || strcmp(kind, "knob"))
			continue;
		strbuf_setf(&sb, "%s=%s", name, val);
		out->base_assign[out->nr_base_assign++] = xstrdup(sb.buf);
	}
	strbuf_release(&sb);
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

int export_pick(struct json_object *exp, const char *arm,
		struct export_pick *out, struct strbuf *err)
{
	struct json_object *factors, *arms, *a, *settings, *v;
	struct strbuf params = STRBUF_INIT, names = STRBUF_INIT;
	const char *id = expjson_str(exp, "id");
	const char *created = expjson_str(exp, "created");
	size_t i, nf;
	int idx = -1, ret = 0, knobs = 0;

	memset(out, 0, sizeof(*out));
	out->origin = expjson_origin(exp);
	out->id = xstrdup(id ? id : "?");
	out->created = xstrndup(created ? created : "", 10);
	out->target = xstrdup(expjson_target(exp));
	out->disk = measured_disk(exp);
	factors = expjson_get_type(exp, "factors", json_type_array);
	arms = expjson_get_type(exp, "arms", json_type_array);
	nf = factors ? json_object_array_length(factors) : 0;
	for (i = 0; i < nf; i++) {
		struct json_object *f = json_object_array_get_idx(factors, i);
		const char *kind = expjson_str(f, "kind");

		strbuf_addf(&names, "%s%s", i ? ", " : "",
			    expjson_str(f, "name"));
		if (kind && !strcmp(kind, "knob"))
			knobs++;
	}
	if (!knobs || !arms) {
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
		ret = find_arm(exp, arms, out->id, arm, &idx, err);
		if (ret)
			goto out;
		v = expjson_verdict(exp, idx);
		if (v)
			why_of(exp, v, out);
		else
			out->why = xstrdup("the baseline, chosen with --arm");
	} else {
		ret = pick_winner(exp, out->id, &idx, out, err);
		if (ret)
			goto out;
	}
	out->arm = idx;
	out->label = xstrdup(arm_label(exp, idx));
	a = json_object_array_get_idx(arms, (size_t)idx);
	settings = a ? expjson_get(a, "settings") : NULL;
	out->assign = xcalloc(nf, sizeof(*out->assign));
	for (i = 0; i < nf; i++) {
		struct json_object *f = json_object_array_get_idx(factors, i);
		const char *name = expjson_str(f, "name");
		const char *kind = expjson_str(f, "kind");
		const char *val = settings ? expjson_str(settings, name) : NULL;

		if (!name || !val)
			continue;
		if (kind && !strcmp(kind, "knob")) {
			strbuf_setf(&names, "%s=%s", name, val);
			out->assign[out->nr_assign++] = xstrdup(names.buf);
		} else
			strbuf_addf(&params, "%s%s=%s", params.len ? " " : "",
				    name, val);
	}
	if (params.len)
		out->not_knobs = strbuf_detach(&params, NULL);
	base_of(exp, factors, arms, out);
out:
	strbuf_release(&params);
	strbuf_release(&names);
	return ret;
}
