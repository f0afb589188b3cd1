/*
 * tune's bisection (bisect.h): delta debugging over the settings two
 * sets differ in, each step a small sequential compare of A, B and A
 * with a subset set to B's values.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bisect.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void tune_bisect_opts_init(struct tune_bisect_opts *o)
{
	memset(o, 0, sizeof(*o));
	tune_judge_opts_init(&o->j);
	o->min_blocks = 6;
	o->max_blocks = 20;
	o->share_margin = 0.2;
}

const char *tune_carry_name(enum tune_carry c)
{
	switch (c) {
	case TUNE_CARRY_NONE:
		return "none";
	case TUNE_CARRY_ALL:
		return "all";
	case TUNE_CARRY_PART:
		return "part";
	case TUNE_CARRY_CANNOT_TELL:
		break;
	}
	return "cannot tell";
}

const char *tune_role_name(enum tune_role r)
{
	switch (r) {
	case TUNE_ROLE_CARRIES:
		return "carries";
	case TUNE_ROLE_NONE:
		return "none";
	case TUNE_ROLE_UNDECIDED:
		return "undecided";
	case TUNE_ROLE_UNKNOWN:
		break;
	}
	return "not reached";
}

/* A candidate of A with the settings set[n] at B's values. */
static unsigned cand_of(struct tune_bisect *b, const unsigned *set, unsigned n)
{
	unsigned *lv = xcalloc(b->n + 1, sizeof(*lv));
	unsigned *zero = xcalloc(b->n + 1, sizeof(*zero));
	unsigned i;
	int k;

	for (i = 0; i < n; i++)
		lv[set[i]] = 1;
	k = tune_cands_find(&b->cs, lv);
	if (k < 0)
		k = (int)tune_cands_add(&b->cs, lv, zero,
					n == 1 ? (int)set[0] : -2, 1);
	free(lv);
	free(zero);
	return (unsigned)k;
}

int tune_bisect_init(struct tune_bisect *b, unsigned n,
		     const struct tune_bisect_opts *o, struct strbuf *err)
{
	unsigned i;

	memset(b, 0, sizeof(*b));
	if (!n)
		return err_set(err, -EINVAL,
			       "the two sets of settings do not differ");
	b->o = *o;
	if (b->o.min_blocks < TUNE_JUDGE_MIN_PAIRS)
		b->o.min_blocks = TUNE_JUDGE_MIN_PAIRS;
	if (b->o.max_blocks < b->o.min_blocks)
		b->o.max_blocks = b->o.min_blocks;
	b->n = n;
	/* no ratio until a block is in */
	b->a_vs_b.ratio = b->a_vs_b.ci_low = b->a_vs_b.ci_high = NAN;
	b->a_vs_b.coverage = NAN;
	b->a_vs_b.p = b->a_vs_b.p_worse = 1;
	rng_seed(&b->rng, o->seed);
	tune_cands_init(&b->cs, n);
	b->role = xcalloc(n, sizeof(*b->role));
	b->sub = xcalloc(n, sizeof(*b->sub));
	b->half1 = xcalloc(n, sizeof(*b->half1));
	b->half2 = xcalloc(n, sizeof(*b->half2));
	cand_of(b, NULL, 0); /* A */
	for (i = 0; i < n; i++)
		b->sub[i] = i;
	cand_of(b, b->sub, n); /* B */
	/* the whole set carries the difference (checked as steps go) */
	ALLOC_GROW(b->queue, 1, b->alloc_queue);
	b->queue[0] = xcalloc(n, sizeof(**b->queue));
	memcpy(b->queue[0], b->sub, n * sizeof(**b->queue));
	b->queue_len = xcalloc(b->alloc_queue, sizeof(*b->queue_len));
	b->alloc_qlen = b->alloc_queue;
	b->queue_len[0] = n;
	b->nr_queue = 1;
	b->nr_sub = 0;
	return 0;
}

/* Queue the set s[n] as one that carries some of the difference. */
static void push(struct tune_bisect *b, const unsigned *s, unsigned n)
{
	if (!n)
		return;
	ALLOC_GROW(b->queue, b->nr_queue + 1, b->alloc_queue);
	if (b->alloc_qlen < b->alloc_queue) {
		b->queue_len = xrealloc(b->queue_len,
					b->alloc_queue * sizeof(*b->queue_len));
		b->alloc_qlen = b->alloc_queue;
	}
	b->queue[b->nr_queue] = xcalloc(n, sizeof(**b->queue));
	memcpy(b->queue[b->nr_queue], s, n * sizeof(**b->queue));
	b->queue_len[b->nr_queue++] = n;
}

static void set_roles(struct tune_bisect *b, const unsigned *s, unsigned n,
		      enum tune_role r)
{
	unsigned i;

	for (i = 0; i < n; i++)
		b->role[s[i]] = r;
}

/* S carries all of the difference: every setting neither in s nor
 * already found to carry carries none; the queue is emptied. */
static void clear_others(struct tune_bisect *b, const unsigned *s, unsigned n)
{
	unsigned i, k;

	for (i = 0; i < b->n; i++) {
		int in = 0;

		for (k = 0; k < n; k++)
			in |= s[k] == i;
		if (!in && b->role[i] != TUNE_ROLE_CARRIES)
			b->role[i] = TUNE_ROLE_NONE;
	}
	for (i = 0; i < b->nr_queue; i++)
		free(b->queue[i]);
	b->nr_queue = 0;
}

/* The settings found to carry, into out; their number. */
static unsigned carriers(const struct tune_bisect *b, unsigned *out)
{
	unsigned i, n = 0;

	for (i = 0; i < b->n; i++)
		if (b->role[i] == TUNE_ROLE_CARRIES)
			out[n++] = i;
	return n;
}

/* Choose the next step: 1 with b->sub set, 0 when nothing is left. */
static int pick_step(struct tune_bisect *b)
{
	unsigned *s, n, h, i;

	if (b->phase == 1) {
		memcpy(b->sub, b->half2, b->nr_half2 * sizeof(*b->sub));
		b->nr_sub = b->nr_half2;
		return 1;
	}
	while (b->nr_queue) {
		s = b->queue[--b->nr_queue];
		n = b->queue_len[b->nr_queue];
		if (n == 1 && b->n == 1) {
			/* the one setting the sets differ in: nothing shows
			 * yet that it carries anything; its own step (A
			 * against B) tells */
			free(s);
			b->sub[0] = 0;
			b->nr_sub = 1;
			b->phase = 2;
			b->confirmed = 1;
			return 1;
		}
		if (n == 1) {
			b->role[s[0]] = TUNE_ROLE_CARRIES;
			free(s);
			continue;
		}
		h = n / 2;
		for (i = 0; i < h; i++)
			b->half1[i] = s[i];
		for (i = h; i < n; i++)
			b->half2[i - h] = s[i];
		b->nr_half1 = h;
		b->nr_half2 = n - h;
		free(s);
		memcpy(b->sub, b->half1, h * sizeof(*b->sub));
		b->nr_sub = h;
		return 1;
	}
	/* the minimal set's share: measured by a step of its own unless
	 * one ran already */
	if (b->confirmed)
		return 0;
	b->confirmed = 1;
	n = carriers(b, b->sub);
	if (!n)
		return 0;
	i = cand_of(b, b->sub, n);
	if (b->cs.v[i].nr_runs >= b->o.min_blocks)
		return 0;
	b->nr_sub = n;
	b->phase = 2;
	return 1;
}

void tune_bisect_stop(struct tune_bisect *b, const char *why)
{
	if (!b->stopped)
		b->stopped = xstrdup(why);
	b->nr_pending = 0;
	b->in_step = 0;
}

unsigned tune_bisect_next(struct tune_bisect *b, const unsigned **out)
{
	unsigned i;

	*out = NULL;
	b->nr_pending = 0;
	if (b->stopped)
		return 0;
	if (!b->in_step) {
		if (!pick_step(b)) {
			tune_bisect_stop(b, "every set settled");
			return 0;
		}
		b->in_step = 1;
		b->step_start = b->cs.blocks;
	}
	if (b->o.max_runs && b->runs + 3 > b->o.max_runs) {
		tune_bisect_stop(b, "the budget is spent");
		return 0;
	}
	b->pending[0] = 0;
	b->pending[1] = 1;
	b->pending[2] = cand_of(b, b->sub, b->nr_sub);
	/* a set that is all of B's settings is B: it runs once */
	b->nr_pending = b->pending[2] > 1 ? 3 : 2;
	for (i = b->nr_pending; i > 1; i--) {
		unsigned j = (unsigned)rng_below(&b->rng, i);
		unsigned t = b->pending[i - 1];

		b->pending[i - 1] = b->pending[j];
		b->pending[j] = t;
	}
	tune_cands_new_block(&b->cs);
	*out = b->pending;
	return b->nr_pending;
}

/* The step under way is over with carry: note it, and what follows. */
static void end_step(struct tune_bisect *b, enum tune_carry carry,
		     const struct tune_judgement *va,
		     const struct tune_judgement *vb)
{
	struct tune_step *st;
	int phase = b->phase;

	ALLOC_GROW(b->steps, b->nr_steps + 1, b->alloc_steps);
	st = &b->steps[b->nr_steps++];
	st->cand = cand_of(b, b->sub, b->nr_sub);
	st->carry = carry;
	st->vs_a = *va;
	st->vs_b = *vb;
	st->blocks = b->cs.blocks - b->step_start;
	b->in_step = 0;
	b->phase = 0;
	if (phase == 2 && b->n == 1) { /* the lone setting's own step */
		b->role[0] = carry == TUNE_CARRY_ALL || carry == TUNE_CARRY_PART
				 ? TUNE_ROLE_CARRIES
			     : carry == TUNE_CARRY_NONE ? TUNE_ROLE_NONE
							: TUNE_ROLE_UNDECIDED;
		return;
	}
	if (phase == 2) /* the confirmation changes no role */
		return;
	if (phase == 0) {
		b->first = carry;
		switch (carry) {
		case TUNE_CARRY_NONE:
			set_roles(b, b->half1, b->nr_half1, TUNE_ROLE_NONE);
			push(b, b->half2, b->nr_half2);
			break;
		case TUNE_CARRY_ALL:
			clear_others(b, b->half1, b->nr_half1);
			push(b, b->half1, b->nr_half1);
			break;
		case TUNE_CARRY_PART:
			push(b, b->half1, b->nr_half1);
			b->phase = 1;
			break;
		case TUNE_CARRY_CANNOT_TELL:
			b->phase = 1;
			break;
		}
		return;
	}
	switch (carry) {
	case TUNE_CARRY_NONE:
		set_roles(b, b->half2, b->nr_half2, TUNE_ROLE_NONE);
		if (b->first == TUNE_CARRY_CANNOT_TELL)
			push(b, b->half1, b->nr_half1);
		break;
	case TUNE_CARRY_ALL:
		clear_others(b, b->half2, b->nr_half2);
		if (b->first == TUNE_CARRY_PART) {
			/* each half alone moves it: keep both */
			set_roles(b, b->half1, b->nr_half1, TUNE_ROLE_UNKNOWN);
			push(b, b->half1, b->nr_half1);
		}
		push(b, b->half2, b->nr_half2);
		break;
	case TUNE_CARRY_PART:
		push(b, b->half2, b->nr_half2);
		if (b->first == TUNE_CARRY_CANNOT_TELL)
			set_roles(b, b->half1, b->nr_half1,
				  TUNE_ROLE_UNDECIDED);
		break;
	case TUNE_CARRY_CANNOT_TELL:
		set_roles(b, b->half2, b->nr_half2, TUNE_ROLE_UNDECIDED);
		if (b->first == TUNE_CARRY_CANNOT_TELL)
			set_roles(b, b->half1, b->nr_half1,
				  TUNE_ROLE_UNDECIDED);
		break;
	}
}

/*
 * The share of the difference the set under test carries, as an
 * interval: the log of its ratio's interval against A over the log of
 * B's ratio to A (its estimate; the larger effect, measured in every
 * block). Sorted; NaN when there is no ratio yet.
 */
static void share_ci(const struct tune_bisect *b,
		     const struct tune_judgement *va, double *lo, double *hi)
{
	double l = log(b->a_vs_b.ratio), x, y;

	*lo = *hi = NAN;
	if (!(fabs(l) > 0) || !(va->ci_low > 0) || !(va->ci_high > 0))
		return;
	x = log(va->ci_low) / l;
	y = log(va->ci_high) / l;
	*lo = x < y ? x : y;
	*hi = x < y ? y : x;
}

/* Is a judgement a difference (better or worse)? */
static int differs(const struct tune_judgement *j)
{
	return j->call == TUNE_BETTER || j->call == TUNE_WORSE;
}

int tune_bisect_record(struct tune_bisect *b, const double *metric,
		       const char *const *why)
{
	struct tune_judgement va, vb;
	unsigned k, blk = b->cs.blocks - 1, in_step;
	unsigned s = cand_of(b, b->sub, b->nr_sub);
	int failed = 0;

	if (!b->nr_pending)
		return -EINVAL;
	for (k = 0; k < b->nr_pending; k++)
		if (!isnan(metric[k]) &&
		    !(metric[k] > 0 && isfinite(metric[k])))
			return -EINVAL;
	for (k = 0; k < b->nr_pending; k++) {
		struct tune_cand *c = &b->cs.v[b->pending[k]];
		const char *w = why && why[k] ? why[k] : "its run failed";

		if (!isnan(metric[k])) {
			c->metric[blk] = metric[k];
			c->nr_runs++;
			continue;
		}
		if (b->pending[k] <= 1) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "the %s set: %s",
				    b->pending[k] ? "--to" : "--from", w);
			tune_bisect_stop(b, sb.buf);
			b->set_failed = 1;
			strbuf_release(&sb);
			return 0;
		}
		tune_cands_out(&b->cs, b->pending[k], TUNE_OUT_FAILED, "%s", w);
		failed = 1;
	}
	b->runs += b->nr_pending;
	b->nr_pending = 0;
	in_step = b->cs.blocks - b->step_start;
	tune_cands_judge(&b->cs, 0, 1, &b->o.j, &b->a_vs_b);
	tune_cands_judge(&b->cs, 0, s, &b->o.j, &va);
	tune_cands_judge(&b->cs, 1, s, &b->o.j, &vb);
	if (b->a_vs_b.call == TUNE_EQUIVALENT) {
		tune_bisect_stop(b, "the two sets perform alike: there is "
				    "no difference to explain");
		return 0;
	}
	if (failed) {
		end_step(b, TUNE_CARRY_CANNOT_TELL, &va, &vb);
		return 0;
	}
	if (b->n == 1 && in_step >= b->o.min_blocks) {
		/* the lone setting is all of B: it carries the difference
		 * once there is one */
		if (differs(&b->a_vs_b)) {
			end_step(b, TUNE_CARRY_ALL, &va, &vb);
			return 0;
		}
		if (in_step >= b->o.max_blocks) {
			end_step(b, TUNE_CARRY_CANNOT_TELL, &va, &vb);
			tune_bisect_stop(b, "cannot tell whether the two sets "
					    "perform differently");
			return 0;
		}
	}
	if (in_step >= b->o.min_blocks && differs(&b->a_vs_b)) {
		double lo, hi;

		share_ci(b, &va, &lo, &hi);
		if (va.call == TUNE_EQUIVALENT ||
		    (lo > -b->o.share_margin && hi < b->o.share_margin)) {
			end_step(b, TUNE_CARRY_NONE, &va, &vb);
			return 0;
		}
		if (vb.call == TUNE_EQUIVALENT ||
		    (lo > 1 - b->o.share_margin &&
		     hi < 1 + b->o.share_margin)) {
			end_step(b, TUNE_CARRY_ALL, &va, &vb);
			return 0;
		}
		if (lo > b->o.share_margin && hi < 1 - b->o.share_margin) {
			end_step(b, TUNE_CARRY_PART, &va, &vb);
			return 0;
		}
		if (in_step >= b->o.max_blocks) {
			/* some of it for sure, how much not told */
			end_step(b,
				 lo > b->o.share_margin
				     ? TUNE_CARRY_PART
				     : TUNE_CARRY_CANNOT_TELL,
				 &va, &vb);
			return 0;
		}
	}
	if (in_step < b->o.max_blocks)
		return 0;
	if (!differs(&b->a_vs_b)) {
		tune_bisect_stop(b, "cannot tell whether the two sets "
				    "perform differently");
		return 0;
	}
	end_step(b, TUNE_CARRY_CANNOT_TELL, &va, &vb);
	return 0;
}

void tune_bisect_result(struct tune_bisect *b, struct tune_bisect_result *r)
{
	unsigned *set = xcalloc(b->n + 1, sizeof(*set));
	unsigned i, n;
	int k;

	memset(r, 0, sizeof(*r));
	r->a_vs_b = b->a_vs_b;
	r->minimal = -1;
	r->share = r->share_low = r->share_high = NAN;
	for (i = 0; i < b->n; i++) {
		r->nr_carries += b->role[i] == TUNE_ROLE_CARRIES;
		r->nr_none += b->role[i] == TUNE_ROLE_NONE;
		r->nr_undecided += b->role[i] == TUNE_ROLE_UNDECIDED;
	}
	r->runs = b->runs;
	n = carriers(b, set);
	if (n) {
		unsigned *lv = xcalloc(b->n + 1, sizeof(*lv));

		for (i = 0; i < n; i++)
			lv[set[i]] = 1;
		k = tune_cands_find(&b->cs, lv);
		free(lv);
		if (k >= 0 && b->cs.v[k].nr_runs >= TUNE_JUDGE_MIN_PAIRS &&
		    !tune_cands_judge(&b->cs, 0, (unsigned)k, &b->o.j,
				      &r->min_vs_a)) {
			double l = log(b->a_vs_b.ratio);

			r->minimal = k;
			if (fabs(l) > 0 && r->min_vs_a.ratio > 0) {
				double x = log(r->min_vs_a.ci_low) / l;
				double y = log(r->min_vs_a.ci_high) / l;

				r->share = log(r->min_vs_a.ratio) / l;
				r->share_low = x < y ? x : y;
				r->share_high = x < y ? y : x;
			}
		}
	}
	free(set);
}

void tune_bisect_release(struct tune_bisect *b)
{
	unsigned i;

	if (!b)
		return;
	tune_cands_release(&b->cs);
	for (i = 0; i < b->nr_queue; i++)
		free(b->queue[i]);
	free(b->queue);
	free(b->queue_len);
	free(b->steps);
	free(b->role);
	free(b->sub);
	free(b->half1);
	free(b->half2);
	free(b->stopped);
	memset(b, 0, sizeof(*b));
}
