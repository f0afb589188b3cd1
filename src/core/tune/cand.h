/*
 * A candidate of tune's search or of a bisection: one setting per
 * dimension of the space (a level, an index into the dimension's
 * values), and its metric in each block it ran in. The race (race.h)
 * and the bisection (bisect.h) keep their candidates here, so that a
 * driver runs either the same way: it makes an arm of each new
 * candidate's levels and runs the blocks it is handed.
 */
#ifndef IOTRIAL_TUNE_CAND_H
#define IOTRIAL_TUNE_CAND_H

#include "judge.h"

/* Where a candidate stands. */
enum tune_state {
	TUNE_ALIVE,	  /* in the race (or waiting for its stage) */
	TUNE_OUT_WORSE,	  /* shown worse than a leader beyond the margin */
	TUNE_OUT_FAILED,  /* its run failed; why says how */
	TUNE_OUT_REFUSED, /* could not be set up (a value refused) */
};

struct tune_cand {
	unsigned *level;     /* per dimension: an index into its values */
	int family;	     /* the dimension it changes alone; -1: none
				(the baseline); -2: several */
	unsigned stage;	     /* the stage it joined (1 or 2) */
	int in_combo;	     /* raced in stage 2 */
	unsigned nr_changed; /* dimensions not at their current value */
	enum tune_state state;
	char *why;		     /* why it left, owned; NULL while alive */
	int out_by;		     /* the leader that put it out, or -1 */
	struct tune_judgement out_j; /* that judgement (it against the
					leader) */
	double *metric;		     /* per block; NaN where it did not run */
	unsigned alloc_metric;
	unsigned nr_runs;  /* runs that counted */
	double score;	   /* the race's cache: goodness against the
			      baseline ... */
	unsigned score_at; /* ... as of this many blocks + 1 (0: none) */
};

/* The candidates of a search. */
struct tune_cands {
	struct tune_cand *v;
	unsigned nr, alloc;
	unsigned nr_dims;
	unsigned blocks; /* blocks so far: every metric array's length */
};

void tune_cands_init(struct tune_cands *cs, unsigned nr_dims);
void tune_cands_release(struct tune_cands *cs);

/* The index of the candidate with these levels, or -1. */
int tune_cands_find(const struct tune_cands *cs, const unsigned *level);

/*
 * Add a candidate with level[nr_dims] (copied); current[] says each
 * dimension's current value, for nr_changed. Returns its index.
 */
unsigned tune_cands_add(struct tune_cands *cs, const unsigned *level,
			const unsigned *current, int family, unsigned stage);

/* Start a new block: every candidate gets NaN there. */
void tune_cands_new_block(struct tune_cands *cs);

/* Put candidate i out with a reason (printf-like; replaces none). */
void tune_cands_out(struct tune_cands *cs, unsigned i, enum tune_state st,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Judge candidate b against a on the blocks where both ran (o as in
 * tune_judge()). Returns tune_judge()'s code.
 */
int tune_cands_judge(const struct tune_cands *cs, unsigned a, unsigned b,
		     const struct tune_judge_opts *o,
		     struct tune_judgement *out);

/* How much better b is than a, on the goodness scale (> 1: better), from
 * a judgement of b against a; 1 when it has no ratio. */
double tune_goodness(const struct tune_judgement *j, bool higher_is_better);

/* State names: "alive", "worse", "failed", "refused". */
const char *tune_state_name(enum tune_state s);

#endif
