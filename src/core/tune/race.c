/*
 * tune's race (race.h): stage 1 races each dimension's values against
 * the baseline and its leaders, stage 2 the combinations of the
 * dimensions that matter. A block runs only the candidates still in a
 * race that is not settled, so the runs go to the close contenders.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "race.h"
#include "../stats/stats.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void tune_race_opts_init(struct tune_race_opts *o)
{
	memset(o, 0, sizeof(*o));
	tune_judge_opts_init(&o->j);
	o->alpha_out = 0.005;
	o->min_blocks = 6;
	o->max_blocks = 20;
	o->leaders = 2;
	o->max_combos = 16;
}

const char *tune_dim_finding_name(enum tune_dim_finding f)
{
	switch (f) {
	case TUNE_DIM_MATTERS:
		return "matters";
	case TUNE_DIM_NO_DIFFERENCE:
		return "no difference";
	case TUNE_DIM_CURRENT_BEST:
		return "current is best";
	case TUNE_DIM_CANNOT_TELL:
		break;
	}
	return "cannot tell";
}

int tune_race_init(struct tune_race *r, const struct tune_dim *dims,
		   unsigned nr_dims, const struct tune_race_opts *o,
		   struct strbuf *err)
{
	unsigned *cur, d, v;

	memset(r, 0, sizeof(*r));
	if (!nr_dims)
		return err_set(err, -EINVAL, "the space has no knob");
	for (d = 0; d < nr_dims; d++)
		if (dims[d].current >= dims[d].nr_values)
			return err_set(err, -EINVAL,
				       "'%s': the current value is not among "
				       "its values",
				       dims[d].name);
	r->o = *o;
	if (r->o.min_blocks < TUNE_JUDGE_MIN_PAIRS)
		r->o.min_blocks = TUNE_JUDGE_MIN_PAIRS;
	if (r->o.max_blocks < r->o.min_blocks)
		r->o.max_blocks = r->o.min_blocks;
	if (!r->o.leaders)
		r->o.leaders = 1;
	r->dims = dims;
	r->nr_dims = nr_dims;
	r->stage = 1;
	rng_seed(&r->rng, o->seed);
	tune_cands_init(&r->cs, nr_dims);
	r->settled = xcalloc(nr_dims, sizeof(*r->settled));
	r->settle_why = xcalloc(nr_dims, sizeof(*r->settle_why));
	r->leader = xcalloc(nr_dims, sizeof(*r->leader));
	r->base_out = xcalloc(nr_dims + 1, sizeof(*r->base_out));
	cur = xcalloc(nr_dims, sizeof(*cur));
	for (d = 0; d < nr_dims; d++)
		cur[d] = dims[d].current;
	tune_cands_add(&r->cs, cur, cur, -1, 1);
	for (d = 0; d < nr_dims; d++)
		for (v = 0; v < dims[d].nr_values; v++) {
			unsigned *lv;

			if (v == dims[d].current)
				continue;
			lv = xcalloc(nr_dims, sizeof(*lv));
			memcpy(lv, cur, nr_dims * sizeof(*lv));
			lv[d] = v;
			tune_cands_add(&r->cs, lv, cur, (int)d, 1);
			free(lv);
		}
	free(cur);
	return 0;
}

void tune_race_refuse(struct tune_race *r, unsigned i, const char *why)
{
	if (i && i < r->cs.nr)
		tune_cands_out(&r->cs, i, TUNE_OUT_REFUSED, "%s", why);
}

void tune_race_stop(struct tune_race *r, const char *why)
{
	if (!r->stopped)
		r->stopped = xstrdup(why);
	r->stage = 3;
	r->nr_pending = 0;
}

/* Is candidate i a member of group g: stage 1, dimension g; or, g < 0,
 * the stage-2 combinations? The baseline is in every group. */
static int member(const struct tune_race *r, unsigned i, int g)
{
	const struct tune_cand *c = &r->cs.v[i];

	if (!i)
		return 1;
	if (g < 0)
		return c->in_combo;
	return c->stage == 1 && c->family == g;
}

/* Is candidate i of group g still in that group's race? The baseline
 * runs in every block, but leaves each group's race on its own. */
static int alive_in(const struct tune_race *r, unsigned i, int g)
{
	if (!member(r, i, g))
		return 0;
	if (!i)
		return !r->base_out[g < 0 ? r->nr_dims : (unsigned)g];
	return r->cs.v[i].state == TUNE_ALIVE;
}

/* The members of group g still in the race, into out; their number. */
static unsigned alive_of(const struct tune_race *r, int g, unsigned *out)
{
	unsigned i, n = 0;

	for (i = 0; i < r->cs.nr; i++)
		if (alive_in(r, i, g))
			out[n++] = i;
	return n;
}

/* How many members of group g are still in the race. */
static unsigned alive_count(const struct tune_race *r, int g)
{
	unsigned i, n = 0;

	for (i = 0; i < r->cs.nr; i++)
		n += alive_in(r, i, g);
	return n;
}

/* How much better candidate i is than the baseline (> 1: better). */
static double score(const struct tune_race *r, unsigned i)
{
	struct tune_cand *c = &r->cs.v[i];
	struct tune_judgement j;

	if (!i)
		return 1;
	/* the same until a block is recorded: computed once per block */
	if (c->score_at && c->score_at == r->cs.blocks + 1)
		return c->score;
	c->score = tune_cands_judge(&r->cs, 0, i, &r->o.j, &j)
		       ? 1
		       : tune_goodness(&j, r->o.j.higher_is_better);
	c->score_at = r->cs.blocks + 1;
	return c->score;
}

/* Sort idx[n] by score, best first (few: insertion). */
static void by_score(const struct tune_race *r, unsigned *idx, unsigned n,
		     double *sc)
{
	unsigned i, j;

	for (i = 0; i < n; i++)
		sc[i] = score(r, idx[i]);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && sc[j] > sc[j - 1]; j--) {
			double t = sc[j];
			unsigned u = idx[j];

			sc[j] = sc[j - 1];
			sc[j - 1] = t;
			idx[j] = idx[j - 1];
			idx[j - 1] = u;
		}
}

/* Does j's interval lie wholly below 1 - margin on the goodness
 * scale: b shown worse than a beyond the equivalence margin? */
static int worse_beyond(const struct tune_judgement *j,
			const struct tune_judge_opts *o)
{
	double hi = o->higher_is_better ? j->ci_high : 1 / j->ci_low;

	return hi < 1 - o->margin;
}

/*
 * Put out the members of group g shown worse than a leader beyond the
 * margin (Holm across the leaders each met); then say whether the group
 * is settled (1) and why.
 */
static int eliminate(struct tune_race *r, int g, const char **why)
{
	unsigned *al = xcalloc(r->cs.nr + 1, sizeof(*al));
	double *sc = xcalloc(r->cs.nr + 1, sizeof(*sc));
	unsigned n = alive_of(r, g, al), k, l, nl;
	unsigned in_stage = r->cs.blocks - r->stage_start;
	int *by = xcalloc(r->cs.nr + 1, sizeof(*by));
	/* the interval of an elimination at its own level, 1 - 2 alpha:
	 * the race looks after every block, so each look must be strict */
	struct tune_judge_opts jo = r->o.j;
	struct tune_judgement *byj = xcalloc(r->cs.nr + 1, sizeof(*byj));
	int settled = 0;

	*why = NULL;
	if (n <= 1) {
		*why = "one candidate left";
		settled = 1;
		goto done;
	}
	if (in_stage < r->o.min_blocks)
		goto done;
	jo.conf = 1 - 2 * r->o.alpha_out;
	by_score(r, al, n, sc);
	for (k = 0; k < n; k++)
		by[k] = -1;
	nl = n < r->o.leaders ? n : r->o.leaders;
	for (k = 0; k < n; k++) {
		struct tune_judgement js[8];
		double p[8], adj[8];
		int lead[8];
		unsigned m = 0, best = 0;

		for (l = 0; l < nl && m < 8; l++) {
			if (al[l] == al[k] || sc[l] <= sc[k])
				continue;
			if (tune_cands_judge(&r->cs, al[l], al[k], &jo, &js[m]))
				continue;
			if (js[m].n < r->o.min_blocks)
				continue;
			p[m] = js[m].p_worse;
			lead[m] = (int)al[l];
			m++;
		}
		if (!m || stats_holm(p, m, adj))
			continue;
		for (l = 1; l < m; l++)
			if (adj[l] < adj[best])
				best = l;
		/* the test and the interval both: worse beyond the margin */
		if (adj[best] >= r->o.alpha_out ||
		    !worse_beyond(&js[best], &jo))
			continue;
		by[k] = lead[best];
		byj[k] = js[best];
	}
	for (k = 0; k < n; k++) {
		struct tune_cand *c = &r->cs.v[al[k]];

		if (by[k] < 0)
			continue;
		if (!al[k]) { /* out of this group only */
			r->base_out[g < 0 ? r->nr_dims : (unsigned)g] = 1;
			continue;
		}
		c->out_by = by[k];
		c->out_j = byj[k];
		tune_cands_out(&r->cs, al[k], TUNE_OUT_WORSE,
			       "worse than candidate %d: ratio %.3f, CI "
			       "%.3f-%.3f, p %.2g (Holm)",
			       c->out_by, c->out_j.ratio, c->out_j.ci_low,
			       c->out_j.ci_high, c->out_j.p_worse);
	}
	n = alive_of(r, g, al);
	if (n <= 1) {
		*why = "one candidate left";
		settled = 1;
		goto done;
	}
	by_score(r, al, n, sc);
	settled = 1;
	for (k = 1; k < n && settled; k++) {
		struct tune_judgement j;

		if (tune_cands_judge(&r->cs, al[0], al[k], &r->o.j, &j) ||
		    j.call != TUNE_EQUIVALENT)
			settled = 0;
	}
	if (settled) {
		*why = "the rest equivalent to the leader";
	} else if (in_stage >= r->o.max_blocks) {
		*why = "the last could not be told apart";
		settled = 1;
	}
done:
	free(al);
	free(sc);
	free(by);
	free(byj);
	return settled;
}

/* The best value of dimension d: the leader of its stage-1 group. */
static unsigned best_level(const struct tune_race *r, unsigned d)
{
	unsigned *al = xcalloc(r->cs.nr + 1, sizeof(*al));
	double *sc = xcalloc(r->cs.nr + 1, sizeof(*sc));
	unsigned n = alive_of(r, (int)d, al);
	unsigned lv = r->dims[d].current;

	by_score(r, al, n, sc);
	if (n)
		lv = r->cs.v[al[0]].level[d];
	free(al);
	free(sc);
	return lv;
}

/*
 * Is candidate k (one knob changed) better than the baseline, its p
 * Holm-adjusted across every one-knob candidate that ran: with a dozen
 * of them, one would pass at 5% by chance alone.
 */
static int better_holm(const struct tune_race *r, unsigned k)
{
	double *p = xcalloc(r->cs.nr + 1, sizeof(*p));
	double *adj = xcalloc(r->cs.nr + 1, sizeof(*adj));
	struct tune_judgement j, jk;
	unsigned i, n = 0, at = 0;
	int ret = 0;

	if (tune_cands_judge(&r->cs, 0, k, &r->o.j, &jk) ||
	    jk.call != TUNE_BETTER)
		goto out;
	for (i = 1; i < r->cs.nr; i++) {
		const struct tune_cand *c = &r->cs.v[i];

		if (c->stage != 1 || c->family < 0 ||
		    c->nr_runs < TUNE_JUDGE_MIN_PAIRS ||
		    tune_cands_judge(&r->cs, 0, i, &r->o.j, &j))
			continue;
		if (i == k)
			at = n;
		p[n++] = j.p;
	}
	if (n && !stats_holm(p, n, adj))
		ret = adj[at] < r->o.j.alpha;
out:
	free(p);
	free(adj);
	return ret;
}

/* Stage 2: the 2-level factorial (current, leader) of the dimensions
 * whose leader is not the current value, or half of it. */
static void start_stage2(struct tune_race *r)
{
	unsigned *cur = xcalloc(r->nr_dims, sizeof(*cur));
	unsigned *lv = xcalloc(r->nr_dims, sizeof(*lv));
	unsigned d, k, nr = 0, mask, rows;

	r->combo_dims = xcalloc(r->nr_dims, sizeof(*r->combo_dims));
	for (d = 0; d < r->nr_dims; d++)
		cur[d] = r->dims[d].current;
	r->leaders_known = 1;
	for (d = 0; d < r->nr_dims; d++) {
		int i;

		r->leader[d] = best_level(r, d);
		if (r->leader[d] == cur[d])
			continue;
		/* combined only when its leader beats the current value */
		memcpy(lv, cur, r->nr_dims * sizeof(*lv));
		lv[d] = r->leader[d];
		i = tune_cands_find(&r->cs, lv);
		if (i > 0 && better_holm(r, (unsigned)i))
			r->combo_dims[r->nr_combo_dims++] = d;
	}
	if (r->nr_combo_dims < 2 || r->nr_combo_dims > 16) {
		r->stage2_why =
		    r->nr_combo_dims
			? (r->nr_combo_dims == 1 ? "one knob's leader differs "
						   "from its current value: "
						   "nothing to combine"
						 : "too many knobs to combine")
			: "no knob's leader differs from its "
			  "current value";
		r->stage = 3;
		goto out;
	}
	rows = 1u << r->nr_combo_dims;
	r->half_fraction = rows > r->o.max_combos;
	for (mask = 0; mask < rows; mask++) {
		unsigned bits = (unsigned)__builtin_popcount(mask);
		int i, fam = bits == 1 ? -3 : bits ? -2 : -1;

		if (r->half_fraction && mask && mask != rows - 1 &&
		    bits % 2 != r->nr_combo_dims % 2)
			continue;
		memcpy(lv, cur, r->nr_dims * sizeof(*lv));
		for (k = 0; k < r->nr_combo_dims; k++)
			if (mask & (1u << k)) {
				d = r->combo_dims[k];
				lv[d] = r->leader[d];
				if (fam == -3)
					fam = (int)d;
			}
		if (!mask)
			continue; /* the baseline is in every group */
		i = tune_cands_find(&r->cs, lv);
		if (i < 0)
			i = (int)tune_cands_add(&r->cs, lv, cur, fam, 2);
		if (r->cs.v[i].state == TUNE_ALIVE) {
			r->cs.v[i].in_combo = 1;
			nr++;
		}
	}
	r->stage = nr ? 2 : 3;
	r->stage_start = r->cs.blocks;
	if (!nr)
		r->stage2_why = "no combination could run";
out:
	free(cur);
	free(lv);
}

/*
 * The leader of the dimensions already settled: the best of their
 * candidates still in the race that beats the baseline, or -1. It goes
 * on running beside the rest, so that the answer is measured in every
 * block.
 */
static int settled_leader(const struct tune_race *r)
{
	double best = 1, g;
	unsigned i;
	int lead = -1;

	for (i = 1; i < r->cs.nr; i++) {
		const struct tune_cand *c = &r->cs.v[i];

		if (c->state != TUNE_ALIVE || c->stage != 1 || c->family < 0 ||
		    !r->settled[c->family] || c->nr_runs < r->o.min_blocks)
			continue;
		g = score(r, i);
		if (g > best) {
			best = g;
			lead = (int)i;
		}
	}
	return lead;
}

unsigned tune_race_next(struct tune_race *r, const unsigned **out)
{
	unsigned i, d, n = 0;
	int all, lead;

	*out = NULL;
	r->nr_pending = 0;
	if (r->stage == 1) {
		for (d = 0, all = 1; d < r->nr_dims; d++) {
			/* a dimension with nothing left to race */
			if (!r->settled[d] && alive_count(r, (int)d) <= 1) {
				r->settled[d] = 1;
				r->settle_why[d] = "nothing left to race";
			}
			all &= r->settled[d];
		}
		if (all)
			start_stage2(r);
	}
	if (r->stage >= 3) {
		if (!r->stopped)
			r->stopped = xstrdup("every candidate settled");
		return 0;
	}
	free(r->pending);
	r->pending = xcalloc(r->cs.nr + 1, sizeof(*r->pending));
	r->pending[n++] = 0;
	for (i = 1; i < r->cs.nr; i++) {
		const struct tune_cand *c = &r->cs.v[i];

		if (c->state != TUNE_ALIVE)
			continue;
		if (r->stage == 1 &&
		    (c->stage != 1 || c->family < 0 || r->settled[c->family]))
			continue;
		if (r->stage == 2 && !c->in_combo)
			continue;
		r->pending[n++] = i;
	}
	if (r->stage == 1 && (lead = settled_leader(r)) > 0)
		r->pending[n++] = (unsigned)lead;
	if (r->o.max_runs && r->runs + n > r->o.max_runs) {
		tune_race_stop(r, "the budget is spent");
		return 0;
	}
	for (i = n; i > 1; i--) {
		unsigned j = (unsigned)rng_below(&r->rng, i);
		unsigned t = r->pending[i - 1];

		r->pending[i - 1] = r->pending[j];
		r->pending[j] = t;
	}
	r->nr_pending = n;
	tune_cands_new_block(&r->cs);
	*out = r->pending;
	return n;
}

int tune_race_record(struct tune_race *r, const double *metric,
		     const char *const *why)
{
	unsigned k, d, b = r->cs.blocks - 1;
	const char *w;

	if (!r->nr_pending)
		return -EINVAL;
	for (k = 0; k < r->nr_pending; k++)
		if (!isnan(metric[k]) &&
		    !(metric[k] > 0 && isfinite(metric[k])))
			return -EINVAL;
	for (k = 0; k < r->nr_pending; k++) {
		struct tune_cand *c = &r->cs.v[r->pending[k]];

		if (!isnan(metric[k])) {
			c->metric[b] = metric[k];
			c->nr_runs++;
			continue;
		}
		if (c->state == TUNE_OUT_REFUSED)
			continue; /* it never ran: refused already */
		w = why && why[k] ? why[k] : "its run failed";
		if (!r->pending[k]) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "the current settings: %s", w);
			tune_race_stop(r, sb.buf);
			r->base_failed = 1;
			strbuf_release(&sb);
			return 0;
		}
		tune_cands_out(&r->cs, r->pending[k], TUNE_OUT_FAILED, "%s", w);
	}
	r->runs += r->nr_pending;
	r->nr_pending = 0;
	if (r->stage == 1) {
		for (d = 0; d < r->nr_dims; d++) {
			const char *sw;

			if (!r->settled[d] && eliminate(r, (int)d, &sw)) {
				r->settled[d] = 1;
				r->settle_why[d] = sw;
			}
		}
	} else if (r->stage == 2) {
		const char *sw;

		if (eliminate(r, -1, &sw)) {
			r->stage2_why = sw;
			r->stage = 3;
		}
	}
	return 0;
}

/* Can candidate i be an answer: it ran enough and was not refused? */
static int answerable(const struct tune_race *r, unsigned i)
{
	const struct tune_cand *c = &r->cs.v[i];

	return c->state != TUNE_OUT_REFUSED && c->state != TUNE_OUT_FAILED &&
	       c->nr_runs >= TUNE_JUDGE_MIN_PAIRS;
}

/* What the race found of dimension d (its stage-1 group). */
static enum tune_dim_finding finding(const struct tune_race *r, unsigned d,
				     int best)
{
	struct tune_judgement j;
	unsigned i, members = 0, equiv = 0, worse = 0;

	for (i = 1; i < r->cs.nr; i++) {
		const struct tune_cand *c = &r->cs.v[i];

		if (c->family != (int)d || !answerable(r, i))
			continue;
		members++;
		if (tune_cands_judge(&r->cs, 0, i, &r->o.j, &j))
			j.call = TUNE_CANNOT_TELL;
		/* put out, or shown worse than the current value though
		 * the race's stricter level did not put it out */
		if (c->state == TUNE_OUT_WORSE || j.call == TUNE_WORSE)
			worse++;
		else if (j.call == TUNE_EQUIVALENT)
			equiv++;
	}
	if (members && equiv == members)
		return TUNE_DIM_NO_DIFFERENCE;
	if (best != (int)r->dims[d].current) {
		unsigned lv[64];

		if (r->nr_dims <= 64) {
			int k;

			for (i = 0; i < r->nr_dims; i++)
				lv[i] = r->dims[i].current;
			lv[d] = (unsigned)best;
			k = tune_cands_find(&r->cs, lv);
			if (k > 0 && better_holm(r, (unsigned)k))
				return TUNE_DIM_MATTERS;
		}
		return TUNE_DIM_CANNOT_TELL;
	}
	if (members && worse + equiv >= members)
		return TUNE_DIM_CURRENT_BEST;
	return TUNE_DIM_CANNOT_TELL;
}

/* The interactions of the dimensions combined in stage 2, pair by pair:
 * both changed against the product of each changed alone. */
static void interactions(const struct tune_race *r, struct tune_result *res)
{
	unsigned *lv = xcalloc(r->nr_dims, sizeof(*lv));
	double *x = xcalloc(r->cs.blocks + 1, sizeof(*x));
	double *y = xcalloc(r->cs.blocks + 1, sizeof(*y));
	unsigned a, b, k, d;

	res->inter = xcalloc(r->nr_combo_dims * r->nr_combo_dims + 1,
			     sizeof(*res->inter));
	for (a = 0; a < r->nr_combo_dims; a++)
		for (b = a + 1; b < r->nr_combo_dims; b++) {
			unsigned da = r->combo_dims[a], db = r->combo_dims[b];
			int ia, ib, iab;
			unsigned n = 0;

			for (d = 0; d < r->nr_dims; d++)
				lv[d] = r->dims[d].current;
			lv[da] = (unsigned)res->best_level[da];
			ia = tune_cands_find(&r->cs, lv);
			lv[db] = (unsigned)res->best_level[db];
			iab = tune_cands_find(&r->cs, lv);
			lv[da] = r->dims[da].current;
			ib = tune_cands_find(&r->cs, lv);
			if (ia < 0 || ib < 0 || iab < 0)
				continue;
			for (k = 0; k < r->cs.blocks; k++) {
				double m0 = r->cs.v[0].metric[k];
				double ma = r->cs.v[ia].metric[k];
				double mb = r->cs.v[ib].metric[k];
				double mab = r->cs.v[iab].metric[k];

				if (isnan(m0) || isnan(ma) || isnan(mb) ||
				    isnan(mab))
					continue;
				x[n] = ma * mb;
				y[n] = mab * m0;
				n++;
			}
			if (n < TUNE_JUDGE_MIN_PAIRS)
				continue;
			res->inter[res->nr_inter].dim_a = da;
			res->inter[res->nr_inter].dim_b = db;
			if (!tune_judge(x, y, n, &r->o.j,
					&res->inter[res->nr_inter].j))
				res->nr_inter++;
		}
	free(lv);
	free(x);
	free(y);
}

void tune_race_result(struct tune_race *r, struct tune_result *res)
{
	double best = 0, g;
	unsigned i, d;
	struct tune_judgement j;

	memset(res, 0, sizeof(*res));
	res->winner = 0;
	for (i = 1; i < r->cs.nr; i++) {
		if (r->cs.v[i].state != TUNE_ALIVE || !answerable(r, i))
			continue;
		g = score(r, i);
		if (g > best ||
		    (g == best && res->winner &&
		     r->cs.v[i].nr_changed < r->cs.v[res->winner].nr_changed)) {
			best = g;
			res->winner = (int)i;
		}
	}
	/* the current settings win unless a candidate beats them */
	if (best <= 1)
		res->winner = 0;
	tune_cands_judge(&r->cs, 0, (unsigned)res->winner, &r->o.j,
			 &res->win_vs_base);
	res->equiv = xcalloc(r->cs.nr + 1, sizeof(*res->equiv));
	res->smallest = res->winner;
	for (i = 0; i < r->cs.nr; i++) {
		if ((int)i == res->winner || !answerable(r, i) ||
		    tune_cands_judge(&r->cs, (unsigned)res->winner, i, &r->o.j,
				     &j) ||
		    j.call != TUNE_EQUIVALENT)
			continue;
		res->equiv[res->nr_equiv++] = i;
		if (r->cs.v[i].nr_changed < r->cs.v[res->smallest].nr_changed ||
		    (r->cs.v[i].nr_changed ==
			 r->cs.v[res->smallest].nr_changed &&
		     score(r, i) > score(r, (unsigned)res->smallest)))
			res->smallest = (int)i;
	}
	/* a change is recommended only when it is shown better */
	if (res->win_vs_base.call != TUNE_BETTER)
		res->smallest = 0;
	tune_cands_judge(&r->cs, 0, (unsigned)res->smallest, &r->o.j,
			 &res->small_vs_base);
	res->finding = xcalloc(r->nr_dims, sizeof(*res->finding));
	res->best_level = xcalloc(r->nr_dims, sizeof(*res->best_level));
	for (d = 0; d < r->nr_dims; d++) {
		res->best_level[d] =
		    (int)(r->leaders_known ? r->leader[d] : best_level(r, d));
		res->finding[d] = finding(r, d, res->best_level[d]);
	}
	interactions(r, res);
	res->runs = r->runs;
	res->winner_runs = r->cs.v[res->winner].nr_runs;
	res->grid_arms = 1;
	for (d = 0; d < r->nr_dims; d++)
		res->grid_arms *= r->dims[d].nr_values;
	res->grid_runs = res->grid_arms * res->winner_runs;
}

void tune_result_release(struct tune_result *res)
{
	if (!res)
		return;
	free(res->equiv);
	free(res->finding);
	free(res->best_level);
	free(res->inter);
	memset(res, 0, sizeof(*res));
}

void tune_race_release(struct tune_race *r)
{
	if (!r)
		return;
	tune_cands_release(&r->cs);
	free(r->settled);
	free(r->settle_why);
	free(r->leader);
	free(r->base_out);
	free(r->pending);
	free(r->stopped);
	free(r->combo_dims);
	memset(r, 0, sizeof(*r));
}
