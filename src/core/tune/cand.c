/*
 * Candidates and their per-block metrics (cand.h): what the race and
 * the bisection share.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cand.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void tune_cands_init(struct tune_cands *cs, unsigned nr_dims)
{
	memset(cs, 0, sizeof(*cs));
	cs->nr_dims = nr_dims;
}

void tune_cands_release(struct tune_cands *cs)
{
	unsigned i;

	if (!cs)
		return;
	for (i = 0; i < cs->nr; i++) {
		free(cs->v[i].level);
		free(cs->v[i].why);
		free(cs->v[i].metric);
	}
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}

int tune_cands_find(const struct tune_cands *cs, const unsigned *level)
{
	unsigned i;

	for (i = 0; i < cs->nr; i++)
		if (!memcmp(cs->v[i].level, level,
			    cs->nr_dims * sizeof(*level)))
			return (int)i;
	return -1;
}

/* Grow c's metric array to blocks entries, NaN where new. */
static void fill_blocks(struct tune_cand *c, unsigned blocks)
{
	unsigned b, had = c->alloc_metric;

	if (blocks <= had)
		return;
	ALLOC_GROW(c->metric, blocks, c->alloc_metric);
	for (b = had; b < c->alloc_metric; b++)
		c->metric[b] = NAN;
}

unsigned tune_cands_add(struct tune_cands *cs, const unsigned *level,
			const unsigned *current, int family, unsigned stage)
{
	struct tune_cand *c;
	unsigned d;

	ALLOC_GROW(cs->v, cs->nr + 1, cs->alloc);
	c = &cs->v[cs->nr];
	memset(c, 0, sizeof(*c));
	c->level = xcalloc(cs->nr_dims + 1, sizeof(*c->level));
	memcpy(c->level, level, cs->nr_dims * sizeof(*level));
	for (d = 0; d < cs->nr_dims; d++)
		c->nr_changed += level[d] != current[d];
	c->family = family;
	c->stage = stage;
	c->out_by = -1;
	fill_blocks(c, cs->blocks);
	return cs->nr++;
}

void tune_cands_new_block(struct tune_cands *cs)
{
	unsigned i;

	cs->blocks++;
	for (i = 0; i < cs->nr; i++)
		fill_blocks(&cs->v[i], cs->blocks);
}

void tune_cands_out(struct tune_cands *cs, unsigned i, enum tune_state st,
		    const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(cs->v[i].why);
	cs->v[i].why = strbuf_detach(&sb, NULL);
	cs->v[i].state = st;
}

int tune_cands_judge(const struct tune_cands *cs, unsigned a, unsigned b,
		     const struct tune_judge_opts *o,
		     struct tune_judgement *out)
{
	const struct tune_cand *ca = &cs->v[a], *cb = &cs->v[b];
	double *x = xcalloc(cs->blocks + 1, sizeof(*x));
	double *y = xcalloc(cs->blocks + 1, sizeof(*y));
	unsigned k, n = 0;
	int ret;

	for (k = 0; k < cs->blocks; k++) {
		if (k >= ca->alloc_metric || k >= cb->alloc_metric ||
		    isnan(ca->metric[k]) || isnan(cb->metric[k]))
			continue;
		x[n] = ca->metric[k];
		y[n] = cb->metric[k];
		n++;
	}
	ret = tune_judge(x, y, n, o, out);
	free(x);
	free(y);
	return ret;
}

double tune_goodness(const struct tune_judgement *j, bool higher_is_better)
{
	if (!(j->ratio > 0))
		return 1;
	return higher_is_better ? j->ratio : 1 / j->ratio;
}

const char *tune_state_name(enum tune_state s)
{
	switch (s) {
	case TUNE_ALIVE:
		return "alive";
	case TUNE_OUT_WORSE:
		return "worse";
	case TUNE_OUT_FAILED:
		return "failed";
	case TUNE_OUT_REFUSED:
		return "refused";
	}
	return "?";
}
