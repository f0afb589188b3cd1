/*
 * The answer of a tune or a bisection (tune_drive_annotate()): its
 * document (model/tune_doc.h) filled from the search, then encoded by
 * the model into the experiment object as "kind" and the "tune" or
 * "bisect" member (docs/schema/experiment.json, docs/COMPATIBILITY.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tune_run.h"
#include "../model/model_json.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A number of a judgement as the model holds it: NaN (null) when it is
 * not finite. */
static double num(double v)
{
	return isfinite(v) ? v : NAN;
}

/* A judgement as the model holds one. */
static struct tune_call_doc *call_doc(const struct tune_judgement *j)
{
	struct tune_call_doc *c = xcalloc(1, sizeof(*c));

	c->ratio = num(j->ratio);
	c->ci_low = num(j->ci_low);
	c->ci_high = num(j->ci_high);
	c->p = num(j->p);
	c->pairs = (int64_t)j->n;
	c->call = xstrdup(tune_call_name(j->call));
	return c;
}

/* Candidate i's arm into *arm, *has: null when it has none. */
static void cand_arm(const struct tune_drive *d, unsigned i, int64_t *arm,
		     uint8_t *has)
{
	if (i >= d->nr_arm_of || d->arm_of[i] < 0) {
		*has = MODEL_NULL;
		return;
	}
	*arm = d->arm_of[i];
	*has = MODEL_SET;
}

/* The settings candidate i changes from the current ones (a race) or
 * sets to B's (a bisection), into *out (*nr of them). */
static void cand_changes(const struct tune_drive *d, unsigned i,
			 struct model_param **out, size_t *nr)
{
	const struct tune_cands *cs = d->bisect ? &d->bis.cs : &d->race.cs;
	const char *knob, *value;
	unsigned k;

	*out = xcalloc(d->nr_dims + 1, sizeof(**out));
	*nr = 0;
	for (k = 0; k < d->nr_dims; k++) {
		unsigned lv = cs->v[i].level[k];

		if (d->bisect && lv) {
			knob = d->diff[k].knob;
			value = d->diff[k].to;
		} else if (!d->bisect && lv != d->dims[k].current) {
			knob = d->dims[k].name;
			value = d->dims[k].values[lv];
		} else {
			continue;
		}
		(*out)[*nr].name = xstrdup(knob);
		model_value_set_str(&(*out)[(*nr)++].value, value);
	}
}

/* One candidate of the race and how it fared, into o. */
static void cand_doc(struct tune_drive *d, unsigned i, struct tune_cand_doc *o)
{
	const struct tune_cand *c = &d->race.cs.v[i];
	struct tune_judgement j;

	cand_arm(d, i, &o->arm, &o->has_arm);
	cand_changes(d, i, &o->changes, &o->nr_changes);
	o->stage = c->in_combo ? 2 : c->stage;
	o->has_stage = MODEL_SET;
	o->state = xstrdup(tune_state_name(c->state));
	o->why = dup_or_null(c->why);
	o->runs = c->nr_runs;
	o->has_runs = MODEL_SET;
	if (i && !tune_cands_judge(&d->race.cs, 0, i, &d->race.o.j, &j) &&
	    j.n >= 2)
		o->call = call_doc(&j);
}

/* The winner or the recommendation: candidate i against the current
 * settings. */
static struct tune_cand_doc *pick_doc(struct tune_drive *d, unsigned i,
				      const struct tune_judgement *j)
{
	struct tune_cand_doc *o = xcalloc(1, sizeof(*o));

	cand_arm(d, i, &o->arm, &o->has_arm);
	cand_changes(d, i, &o->changes, &o->nr_changes);
	o->call = call_doc(j);
	return o;
}

/* Why no run reached the regime knob acts in, from exp's regimes
 * (experiment/regime.c), or NULL. */
static const char *not_reached(const struct experiment_doc *exp,
			       const char *knob)
{
	size_t i;

	for (i = 0; i < exp->nr_regimes; i++) {
		const struct exp_regime *x = &exp->regimes[i];

		if (!x->factor || strcmp(x->factor, knob) || !x->state ||
		    strcmp(x->state, "not_reached"))
			continue;
		if (x->nr_values && x->values[0].why)
			return x->values[0].why;
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

/* Knob dim of the race's space, into x. */
static void space_doc(struct tune_drive *d, const struct experiment_doc *exp,
		      const struct tune_result *res, unsigned dim,
		      struct tune_space_doc *x)
{
	const struct tune_dim *t = &d->dims[dim];
	const char *why = not_reached(exp, t->name);
	unsigned k;

	x->knob = xstrdup(t->name);
	x->values = xcalloc(t->nr_values + 1, sizeof(*x->values));
	for (k = 0; k < t->nr_values; k++)
		x->values[x->nr_values++] = xstrdup(t->values[k]);
	x->current = xstrdup(t->values[t->current]);
	x->leader = xstrdup(t->values[res->best_level[dim]]);
	/* the runs show it had nothing to act on, and no value of it was
	 * told apart from the current one */
	x->finding = xstrdup(why && !told_apart(d, dim)
				 ? "irrelevant"
				 : tune_dim_finding_name(res->finding[dim]));
	x->irrelevant_why = dup_or_null(why);
	x->settled = dup_or_null(d->race.settle_why[dim]);
}

/* The race's answer, read against the experiment exp. */
static struct tune_doc *race_doc(struct tune_drive *d,
				 const struct experiment_doc *exp)
{
	struct tune_doc *t = xcalloc(1, sizeof(*t));
	const struct tune_space *sp = d->sp;
	struct tune_result res;
	unsigned i, n;

	tune_race_result(&d->race, &res);
	t->stopped = dup_or_null(d->race.stopped);
	t->equivalence = num(d->race.o.j.margin);
	t->runs = res.runs;
	t->winner_runs = res.winner_runs;
	t->grid_arms = (int64_t)res.grid_arms;
	t->grid_runs = (int64_t)res.grid_runs;
	t->space = xcalloc(d->nr_dims + 1, sizeof(*t->space));
	for (i = 0; i < d->nr_dims; i++)
		space_doc(d, exp, &res, i, &t->space[t->nr_space++]);
	n = sp ? sp->nr_out : 0;
	t->left_out = xcalloc(n + 1, sizeof(*t->left_out));
	for (i = 0; i < n; i++, t->nr_left_out++) {
		t->left_out[i].knob = dup_or_null(sp->out[i].knob);
		t->left_out[i].why = dup_or_null(sp->out[i].why);
	}
	n = sp ? sp->nr_refused : 0;
	t->refused = xcalloc(n + 1, sizeof(*t->refused));
	for (i = 0; i < n; i++)
		t->refused[t->nr_refused++] = dup_or_null(sp->refused[i]);
	t->candidates = xcalloc(d->race.cs.nr + 1, sizeof(*t->candidates));
	for (i = 0; i < d->race.cs.nr; i++)
		cand_doc(d, i, &t->candidates[t->nr_candidates++]);
	t->winner = pick_doc(d, (unsigned)res.winner, &res.win_vs_base);
	/* a candidate equivalent to the winner ran, so it has an arm */
	t->equivalent = xcalloc(res.nr_equiv + 1, sizeof(*t->equivalent));
	for (i = 0; i < res.nr_equiv; i++) {
		uint8_t has;

		cand_arm(d, res.equiv[i], &t->equivalent[t->nr_equivalent],
			 &has);
		t->nr_equivalent += has == MODEL_SET;
	}
	t->recommended =
	    pick_doc(d, (unsigned)res.smallest, &res.small_vs_base);
	t->interactions = xcalloc(res.nr_inter + 1, sizeof(*t->interactions));
	for (i = 0; i < res.nr_inter; i++) {
		struct tune_inter_doc *x =
		    &t->interactions[t->nr_interactions++];

		x->knobs = xcalloc(3, sizeof(*x->knobs));
		x->knobs[x->nr_knobs++] =
		    xstrdup(d->dims[res.inter[i].dim_a].name);
		x->knobs[x->nr_knobs++] =
		    xstrdup(d->dims[res.inter[i].dim_b].name);
		x->call = call_doc(&res.inter[i].j);
	}
	t->half_fraction = d->race.half_fraction;
	t->combined = dup_or_null(d->race.stage2_why);
	tune_result_release(&res);
	return t;
}

/* The bisection's answer. */
static struct bisect_doc *bisect_doc(struct tune_drive *d)
{
	struct bisect_doc *t = xcalloc(1, sizeof(*t));
	struct tune_minimal_doc *x;
	struct tune_bisect_result r;
	unsigned i, k;

	tune_bisect_result(&d->bis, &r);
	t->stopped = dup_or_null(d->bis.stopped);
	t->equivalence = num(d->bis.o.j.margin);
	t->runs = r.runs;
	t->steps_done = d->bis.nr_steps;
	t->share_margin = num(d->bis.o.share_margin);
	t->settings = xcalloc(d->nr_dims + 1, sizeof(*t->settings));
	for (i = 0; i < d->nr_dims; i++, t->nr_settings++) {
		t->settings[i].knob = dup_or_null(d->diff[i].knob);
		t->settings[i].from = dup_or_null(d->diff[i].from);
		t->settings[i].to = dup_or_null(d->diff[i].to);
		t->settings[i].role = xstrdup(tune_role_name(d->bis.role[i]));
	}
	t->to_vs_from = call_doc(&r.a_vs_b);
	t->steps = xcalloc(d->bis.nr_steps + 1, sizeof(*t->steps));
	for (i = 0; i < d->bis.nr_steps; i++) {
		const struct tune_step *st = &d->bis.steps[i];
		struct tune_step_doc *y = &t->steps[t->nr_steps++];

		cand_arm(d, st->cand, &y->arm, &y->has_arm);
		cand_changes(d, st->cand, &y->changes, &y->nr_changes);
		y->carries = xstrdup(tune_carry_name(st->carry));
		y->blocks = st->blocks;
		y->vs_from = call_doc(&st->vs_a);
		y->vs_to = call_doc(&st->vs_b);
	}
	x = t->minimal = xcalloc(1, sizeof(*t->minimal));
	x->knobs = xcalloc(d->nr_dims + 1, sizeof(*x->knobs));
	for (k = 0; k < d->nr_dims; k++)
		if (d->bis.role[k] == TUNE_ROLE_CARRIES)
			x->knobs[x->nr_knobs++] = xstrdup(d->diff[k].knob);
	x->has_arm = MODEL_NULL;
	if (r.minimal >= 0) {
		cand_arm(d, (unsigned)r.minimal, &x->arm, &x->has_arm);
		x->call = call_doc(&r.min_vs_a);
	}
	x->share = num(r.share);
	x->share_low = num(r.share_low);
	x->share_high = num(r.share_high);
	return t;
}

void tune_drive_annotate(struct tune_drive *d, struct experiment_doc *exp)
{
	const char *kind = d->bisect ? "bisect" : "tune";

	if (!exp)
		return;
	/* the last block, when the search did not ask for another */
	if (d->nr_block && d->tr && d->tr->e.doc)
		tune_drive_flush(d);
	tune_doc_free(d->tune);
	bisect_doc_free(d->bisect_answer);
	d->tune = NULL;
	d->bisect_answer = NULL;
	tune_doc_free(exp->tune);
	bisect_doc_free(exp->bisect);
	exp->tune = NULL;
	exp->bisect = NULL;
	/* after what the experiment holds, as it has always been written */
	experiment_doc_order_last(exp, "kind");
	experiment_doc_order_last(exp, kind);
	free(exp->kind);
	exp->kind = xstrdup(kind);
	if (d->bisect) {
		d->bisect_answer = bisect_doc(d);
		exp->bisect = bisect_doc_dup(d->bisect_answer);
		return;
	}
	/* the regimes its runs reached */
	d->tune = race_doc(d, exp);
	exp->tune = tune_doc_dup(d->tune);
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
	free(d->base_values);
	strbuf_release(&d->scratch);
	tune_doc_free(d->tune);
	bisect_doc_free(d->bisect_answer);
	if (d->tr && d->tr->c.chooser == &d->ch)
		d->tr->c.chooser = NULL;
	memset(d, 0, sizeof(*d));
}
