/*
 * tune's search: racing, not a grid.
 *
 * The space is a few dimensions (knobs), each with its values and the
 * one in force now. The baseline is the current settings. Stage 1
 * races the values of each dimension alone (every other knob at its
 * current value): each block runs the baseline and every candidate
 * still in the race once, in an order shuffled anew. After
 * min_blocks, in each dimension, the leaders are the candidates with
 * the best estimate against the baseline; a candidate leaves the race
 * when the one-sided signed-rank test shows it worse than a leader
 * beyond the equivalence margin (Holm across the leaders it met). A
 * dimension is settled when one candidate is left, when the rest are
 * equivalent to its leader, or after max_blocks. Stage 2 races the
 * combinations of the dimensions whose leader is not the current value
 * (a 2-level factorial: current and leader; half of it when that is
 * more than max_combos) the same way, and measures their interactions.
 *
 * The race is a step machine, so that a simulation (the unit tests)
 * and the real runs (tune_run.c) drive it alike:
 *
 *   tune_race_init()       the baseline and the stage-1 candidates
 *   loop:
 *     tune_race_next()     the next block's candidates, in run order;
 *                          0 when the race is over. Candidates added
 *                          since the last call (stage 2) are at the
 *                          end of r->c: make them runnable first, or
 *                          put them out with tune_race_refuse()
 *     tune_race_record()   that block's metrics (NaN: the run failed)
 *   tune_race_result()     the answer
 *
 * Nothing here runs anything, prints, or knows what a knob is.
 */
#ifndef IOTRIAL_TUNE_RACE_H
#define IOTRIAL_TUNE_RACE_H

#include <stdint.h>
#include "cand.h"
#include "../../util/rng.h"
#include "../../util/strbuf.h"

/* One dimension of the space: a knob and the values tried. */
struct tune_dim {
	const char *name;
	const char *const *values; /* nr_values of them */
	unsigned nr_values;
	unsigned current; /* the value in force now */
};

/* How to race. */
struct tune_race_opts {
	struct tune_judge_opts j;
	double alpha_out;    /* of a candidate's elimination at one look,
				after Holm; its interval is at 1 - 2
				alpha_out */
	unsigned min_blocks; /* before anyone leaves: 6 */
	unsigned max_blocks; /* a stage at most: 20 */
	unsigned max_runs;   /* the whole race at most; 0: no limit */
	unsigned leaders;    /* 2 */
	unsigned max_combos; /* stage 2 at most: 16 */
	uint64_t seed;	     /* the order of each block */
};

/* The defaults above; alpha_out 0.01 (the race looks after every
 * block: a strict level per look keeps false eliminations rare). */
void tune_race_opts_init(struct tune_race_opts *o);

/* What a dimension was found to do. */
enum tune_dim_finding {
	TUNE_DIM_MATTERS,	/* its best value is better than current */
	TUNE_DIM_NO_DIFFERENCE, /* every value equivalent to current */
	TUNE_DIM_CURRENT_BEST,	/* the current value leads, others worse */
	TUNE_DIM_CANNOT_TELL,	/* some values neither told apart nor
				   shown equivalent */
};

/* A measured interaction of two dimensions' leaders (stage 2). */
struct tune_interaction {
	unsigned dim_a, dim_b;
	struct tune_judgement j; /* ratio: both changed over the product of
				    each changed alone (1: additive) */
};

/* The race's answer (tune_race_result()). */
struct tune_result {
	int winner;			   /* candidate index */
	struct tune_judgement win_vs_base; /* winner against the baseline */
	unsigned *equiv;		   /* candidates equivalent to the
					      winner (itself excluded) */
	unsigned nr_equiv;
	int smallest; /* among winner and equiv: the fewest knobs changed;
			0 (keep the current settings) unless the winner is
			shown better */
	struct tune_judgement small_vs_base;
	enum tune_dim_finding *finding; /* per dimension */
	int *best_level;		/* per dimension: its leader */
	struct tune_interaction *inter;
	unsigned nr_inter;
	unsigned runs;	      /* runs the race made */
	unsigned winner_runs; /* of them, the winner's */
	uint64_t grid_arms;   /* the full grid's combinations */
	uint64_t grid_runs;   /* grid_arms x winner_runs */
};

void tune_result_release(struct tune_result *res);

/* The race's state. */
struct tune_race {
	struct tune_race_opts o;
	const struct tune_dim *dims; /* borrowed */
	unsigned nr_dims;
	struct tune_cands cs; /* [0] is the baseline; score() caches in
				 its candidates, so it is not const */
	unsigned stage;	      /* 1, 2; 3 when over */
	unsigned stage_start; /* the block the stage began at */
	int *settled;	      /* per dimension: stage 1 over for it */
	unsigned *pending;    /* the block handed out */
	unsigned nr_pending;
	unsigned runs;
	struct rng rng;
	char *stopped;		 /* why it ended, owned */
	int base_failed;	 /* it ended as a run of the current
				    settings failed or broke --abort-if */
	const char **settle_why; /* per dimension: why stage 1 ended */
	unsigned *leader;	 /* per dimension: its leader when stage 1
				    ended */
	int leaders_known;	 /* leader[] is filled */
	int *base_out;		 /* per dimension, then stage 2: the
				    baseline shown worse there */
	const char *stage2_why;	 /* why stage 2 ended, or was skipped */
	unsigned *combo_dims;	 /* the dimensions combined in stage 2 */
	unsigned nr_combo_dims;
	int half_fraction; /* stage 2 ran half of the factorial */
};

/*
 * Start a race over dims[nr_dims] (borrowed until release): the
 * baseline and one candidate per value other than the current one.
 * -EINVAL (err says why) for no dimension or a current out of range.
 */
int tune_race_init(struct tune_race *r, const struct tune_dim *dims,
		   unsigned nr_dims, const struct tune_race_opts *o,
		   struct strbuf *err);

/* Candidate i cannot run (a value refused): out of the race with why. */
void tune_race_refuse(struct tune_race *r, unsigned i, const char *why);

/*
 * The next block: *out (valid until the next call) the candidates to
 * run once each, in that order; returns their number, 0 when the race
 * is over (r->stopped says why).
 */
unsigned tune_race_next(struct tune_race *r, const unsigned **out);

/*
 * The metrics of the block next() handed out, in its order; NaN for a
 * failed run, with why[k] the sentence that says so ("its run failed:
 * ...", kept as the candidate's why; why may be NULL). A failed
 * baseline ends the race. Returns 0, or -EINVAL for a metric that is
 * not positive.
 */
int tune_race_record(struct tune_race *r, const double *metric,
		     const char *const *why);

/* End the race now (the budget, a stop request) and say why. */
void tune_race_stop(struct tune_race *r, const char *why);

/*
 * The answer after the race (or after it was stopped): into res,
 * released with tune_result_release().
 */
void tune_race_result(struct tune_race *r, struct tune_result *res);

void tune_race_release(struct tune_race *r);

/* "matters", "no difference", "current is best", "cannot tell". */
const char *tune_dim_finding_name(enum tune_dim_finding f);

#endif
