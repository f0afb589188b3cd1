/*
 * How long the whole experiment still takes, for its progress line. The
 * loop plans the fewest blocks first and adds one at a time while the
 * intervals are too wide, so "the runs planned so far" says little: at
 * 25 s of a 30 s budget it would say 1 s, and the total it implies
 * would grow from 12 s to 26 s as blocks were added. Here the end is
 * what stops the experiment first: the fixed run count; else the
 * blocks --precision needs, estimated from the widest interval so far
 * (a half-width shrinking with the square root of the blocks, as the
 * advice after a limit estimates it), never fewer than a verdict needs;
 * and --max-runs and --budget, which cap it. The ETA counts to that end
 * at the measured time of a run, and never past the budget.
 */
#ifndef IOTRIAL_ETA_H
#define IOTRIAL_ETA_H

#include "budget.h"

/* Where the experiment stands as a run begins. */
struct eta_in {
	unsigned nr_arms;
	unsigned run;	  /* runs done, warm-ups included */
	unsigned planned; /* runs planned so far */
	unsigned block;	  /* the current block, 0-based; -1u: a warm-up */
	double elapsed_s; /* since the experiment began */
	double run_s;	  /* seconds a run takes, measured; < 0: none yet */
	double halfwidth; /* widest ratio CI half-width so far, or < 0 */
};

/*
 * The seconds until the experiment of options c ends (< 0: unknown,
 * before any run of an I/O count), and in *by what ends it: "runs",
 * "precision", "max-runs" or "budget" (NULL when unknown).
 */
double experiment_eta(const struct budget_opts *c, const struct eta_in *in,
		      const char **by);

#endif
