/*
 * The answer of a tune or a bisection as members of its experiment
 * object (tune_drive_annotate()): "kind" and the "tune" or "bisect"
 * member (docs/schema/experiment.json, docs/COMPATIBILITY.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "tune_run.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static void add_num(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k,
			       isfinite(v) ? json_object_new_double(v) : NULL);
}

static void add_int(struct json_object *o, const char *k, long long v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

/* A judgement's members into o. */
static void judgement(struct json_object *o, const struct tune_judgement *j)
{
	add_num(o, "ratio", j->ratio);
	add_num(o, "ci_low", j->ci_low);
	add_num(o, "ci_high", j->ci_high);
	add_num(o, "p", j->p);
	add_int(o, "pairs", (long long)j->n);
	add_str(o, "call", tune_call_name(j->call));
}

/* Candidate i's arm, or NULL when it has none. */
static struct json_object *arm_json(const struct tune_drive *d, unsigned i)
{
	if (i >= d->nr_arm_of || d->arm_of[i] < 0)
		return NULL;
	return json_object_new_int(d->arm_of[i]);
}

/* The settings candidate i changes from the current ones (a race) or
 * sets to B's (a bisection). */
static struct json_object *changes(const struct tune_drive *d, unsigned i)
{
	const struct tune_cands *cs = d->bisect ? &d->bis.cs : &d->race.cs;
	struct json_object *o = json_object_new_object();
	unsigned k;

	for (k = 0; k < d->nr_dims; k++) {
		unsigned lv = cs->v[i].level[k];

		if (d->bisect && lv)
			add_str(o, d->diff[k].knob, d->diff[k].to);
		else if (!d->bisect && lv != d->dims[k].current)
			add_str(o, d->dims[k].name, d->dims[k].values[lv]);
	}
	return o;
}

/* One candidate of the race and how it fared. */
static struct json_object *cand_json(struct tune_drive *d, unsigned i)
{
	const struct tune_cand *c = &d->race.cs.v[i];
	struct json_object *o = json_object_new_object();
	struct tune_judgement j;

	json_object_object_add(o, "arm", arm_json(d, i));
	json_object_object_add(o, "changes", changes(d, i));
	add_int(o, "stage", c->in_combo ? 2 : c->stage);
	add_str(o, "state", tune_state_name(c->state));
	if (c->why)
		add_str(o, "why", c->why);
	add_int(o, "runs", c->nr_runs);
	if (i && !tune_cands_judge(&d->race.cs, 0, i, &d->race.o.j, &j) &&
	    j.n >= 2)
		judgement(o, &j);
	return o;
}

/* Why no run reached the regime knob acts in, from exp's "regimes"
 * (experiment/regime_json.c), or NULL. */
static const char *not_reached(struct json_object *exp, const char *knob)
{
	struct json_object *rg, *x, *v;
	size_t i;

	if (!json_object_object_get_ex(exp, "regimes", &rg) ||
	    !json_object_is_type(rg, json_type_array))
		return NULL;
	for (i = 0; i < json_object_array_length(rg); i++) {
		x = json_object_array_get_idx(rg, i);
		if (!json_object_object_get_ex(x, "factor", &v) ||
		    strcmp(json_object_get_string(v), knob) ||
		    !json_object_object_get_ex(x, "state", &v) ||
		    strcmp(json_object_get_string(v), "not_reached"))
			continue;
		if (json_object_object_get_ex(x, "values", &v) &&
		    (v = json_object_array_get_idx(v, 0)) &&
		    json_object_object_get_ex(v, "why", &v))
			return json_object_get_string(v);
		return "no run reached what it acts on";
	}
	return NULL;
}

/* Was a value of dimension dim told apart from the current one
 * (better or worse)? */
static int told_apart(const struct tune_drive *d, unsigned dim)
{
	struct tune_judgement j;
	unsigned i;

	for (i = 1; i < d->race.cs.nr; i++)
		if (d->race.cs.v[i].family == (int)dim &&
		    !tune_cands_judge(&d->race.cs, 0, i, &d->race.o.j, &j) &&
		    (j.call == TUNE_BETTER || j.call == TUNE_WORSE))
			return 1;
	return 0;
}

/* The race's answer into exp. */
static void race_json(struct tune_drive *d, struct json_object *exp)
{
	struct json_object *t = json_object_new_object();
	struct json_object *a, *x;
	struct tune_result res;
	const char *why;
	unsigned i, k;

	tune_race_result(&d->race, &res);
	add_str(t, "stopped", d->race.stopped);
	add_num(t, "equivalence", d->race.o.j.margin);
	add_int(t, "runs", res.runs);
	add_int(t, "winner_runs", res.winner_runs);
	add_int(t, "grid_arms", (long long)res.grid_arms);
	add_int(t, "grid_runs", (long long)res.grid_runs);
	a = json_object_new_array();
	for (i = 0; i < d->nr_dims; i++) {
		x = json_object_new_object();
		add_str(x, "knob", d->dims[i].name);
		json_object_object_add(x, "values", json_object_new_array());
		for (k = 0; k < d->dims[i].nr_values; k++)
			json_object_array_add(
			    json_object_object_get(x, "values"),
			    json_object_new_string(d->dims[i].values[k]));
		add_str(x, "current", d->dims[i].values[d->dims[i].current]);
		add_str(x, "leader", d->dims[i].values[res.best_level[i]]);
		why = not_reached(exp, d->dims[i].name);
		/* the runs show it had nothing to act on, and no value of
		 * it was told apart from the current one */
		add_str(x, "finding",
			why && !told_apart(d, i)
			    ? "irrelevant"
			    : tune_dim_finding_name(res.finding[i]));
		add_str(x, "irrelevant_why", why);
		add_str(x, "settled", d->race.settle_why[i]);
		json_object_array_add(a, x);
	}
	json_object_object_add(t, "space", a);
	a = json_object_new_array();
	for (i = 0; d->sp && i < d->sp->nr_out; i++) {
		x = json_object_new_object();
		add_str(x, "knob", d->sp->out[i].knob);
		add_str(x, "why", d->sp->out[i].why);
		json_object_array_add(a, x);
	}
	json_object_object_add(t, "left_out", a);
	a = json_object_new_array();
	for (i = 0; d->sp && i < d->sp->nr_refused; i++)
		json_object_array_add(
		    a, json_object_new_string(d->sp->refused[i]));
	json_object_object_add(t, "refused", a);
	a = json_object_new_array();
	for (i = 0; i < d->race.cs.nr; i++)
		json_object_array_add(a, cand_json(d, i));
	json_object_object_add(t, "candidates", a);
	x = json_object_new_object();
	json_object_object_add(x, "arm", arm_json(d, (unsigned)res.winner));
	json_object_object_add(x, "changes", changes(d, (unsigned)res.winner));
	judgement(x, &res.win_vs_base);
	json_object_object_add(t, "winner", x);
	a = json_object_new_array();
	for (i = 0; i < res.nr_equiv; i++)
		json_object_array_add(a, arm_json(d, res.equiv[i]));
	json_object_object_add(t, "equivalent", a);
	x = json_object_new_object();
	json_object_object_add(x, "arm", arm_json(d, (unsigned)res.smallest));
	json_object_object_add(x, "changes",
			       changes(d, (unsigned)res.smallest));
	judgement(x, &res.small_vs_base);
	json_object_object_add(t, "recommended", x);
	a = json_object_new_array();
	for (i = 0; i < res.nr_inter; i++) {
		x = json_object_new_object();
		json_object_object_add(x, "knobs", json_object_new_array());
		json_object_array_add(
		    json_object_object_get(x, "knobs"),
		    json_object_new_string(d->dims[res.inter[i].dim_a].name));
		json_object_array_add(
		    json_object_object_get(x, "knobs"),
		    json_object_new_string(d->dims[res.inter[i].dim_b].name));
		judgement(x, &res.inter[i].j);
		json_object_array_add(a, x);
	}
	json_object_object_add(t, "interactions", a);
	json_object_object_add(t, "half_fraction",
			       json_object_new_boolean(d->race.half_fraction));
	add_str(t, "combined", d->race.stage2_why);
	json_object_object_add(exp, "tune", t);
	tune_result_release(&res);
}

/* The bisection's answer into exp. */
static void bisect_json(struct tune_drive *d, struct json_object *exp)
{
	struct json_object *t = json_object_new_object();
	struct json_object *a, *x, *y;
	struct tune_bisect_result r;
	unsigned i, k;

	tune_bisect_result(&d->bis, &r);
	add_str(t, "stopped", d->bis.stopped);
	add_num(t, "equivalence", d->bis.o.j.margin);
	add_int(t, "runs", r.runs);
	add_int(t, "nr_steps", d->bis.nr_steps);
	add_num(t, "share_margin", d->bis.o.share_margin);
	a = json_object_new_array();
	for (i = 0; i < d->nr_dims; i++) {
		x = json_object_new_object();
		add_str(x, "knob", d->diff[i].knob);
		add_str(x, "from", d->diff[i].from);
		add_str(x, "to", d->diff[i].to);
		add_str(x, "role", tune_role_name(d->bis.role[i]));
		json_object_array_add(a, x);
	}
	json_object_object_add(t, "settings", a);
	x = json_object_new_object();
	judgement(x, &r.a_vs_b);
	json_object_object_add(t, "to_vs_from", x);
	a = json_object_new_array();
	for (i = 0; i < d->bis.nr_steps; i++) {
		const struct tune_step *st = &d->bis.steps[i];

		x = json_object_new_object();
		json_object_object_add(x, "arm", arm_json(d, st->cand));
		json_object_object_add(x, "changes", changes(d, st->cand));
		add_str(x, "carries", tune_carry_name(st->carry));
		add_int(x, "blocks", st->blocks);
		y = json_object_new_object();
		judgement(y, &st->vs_a);
		json_object_object_add(x, "vs_from", y);
		y = json_object_new_object();
		judgement(y, &st->vs_b);
		json_object_object_add(x, "vs_to", y);
		json_object_array_add(a, x);
	}
	json_object_object_add(t, "steps", a);
	x = json_object_new_object();
	a = json_object_new_array();
	for (k = 0; k < d->nr_dims; k++)
		if (d->bis.role[k] == TUNE_ROLE_CARRIES)
			json_object_array_add(
			    a, json_object_new_string(d->diff[k].knob));
	json_object_object_add(x, "knobs", a);
	json_object_object_add(
	    x, "arm", r.minimal >= 0 ? arm_json(d, (unsigned)r.minimal) : NULL);
	if (r.minimal >= 0)
		judgement(x, &r.min_vs_a);
	add_num(x, "share", r.share);
	add_num(x, "share_low", r.share_low);
	add_num(x, "share_high", r.share_high);
	json_object_object_add(t, "minimal", x);
	json_object_object_add(exp, "bisect", t);
}

void tune_drive_annotate(struct tune_drive *d, struct json_object *exp)
{
	if (!exp)
		return;
	/* the last block, when the search did not ask for another */
	if (d->nr_block && d->tr && d->tr->e.obj)
		tune_drive_flush(d);
	json_object_object_add(
	    exp, "kind", json_object_new_string(d->bisect ? "bisect" : "tune"));
	if (d->bisect)
		bisect_json(d, exp);
	else
		race_json(d, exp);
}

void tune_drive_release(struct tune_drive *d)
{
	unsigned i;

	if (!d)
		return;
	tune_race_release(&d->race);
	tune_bisect_release(&d->bis);
	free(d->dims);
	tune_diffs_release(d->diff, d->nr_dims * (d->bisect != 0));
	for (i = 0; i < d->nr_arm_of && d->no_arm; i++)
		free(d->no_arm[i]);
	free(d->no_arm);
	free(d->arm_of);
	for (i = 0; i < d->nr_fail; i++)
		free(d->fail[i]);
	free(d->fail);
	free(d->block_arms);
	strbuf_release(&d->scratch);
	if (d->tr && d->tr->c.chooser == &d->ch)
		d->tr->c.chooser = NULL;
	memset(d, 0, sizeof(*d));
}
