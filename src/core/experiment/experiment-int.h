/*
 * The experiment loop's state, shared by experiment_loop.c (one run
 * after another), experiment_duet.c (compare --duet: the arms of a
 * block at once) and experiment_record.c (what a run leaves in it);
 * not part of the API.
 */
#ifndef IOTRIAL_EXPERIMENT_INT_H
#define IOTRIAL_EXPERIMENT_INT_H

#include <stdint.h>
#include "experiment.h"
#include "../../util/rng.h"

/* Per-arm warning tallies, folded into the experiment's warnings: how
 * many runs carried each kind, and the first text of each kind. */
struct arm_warn {
	unsigned runs, warned;
	unsigned kind_runs[RUN_WARN_KINDS];
	char *example[RUN_WARN_KINDS];
};

/* State of one experiment_run call. */
struct exp_loop {
	struct experiment *e;
	const struct experiment_config *c;
	const struct experiment_hooks *h;
	struct rng rng;
	struct arm_warn *warns;
	int applied_arm; /* arm whose knobs are in force, -1 none */
	int drop_ok;	 /* dropping caches still works */
	unsigned runs_done;
	uint64_t start_ns;
	double run_s_sum; /* for the ETA */
	double first_s;	  /* of it: the warm-up and first block */
	unsigned first_runs;
	double once_s;	    /* of first_s: their set-up (laying out the files
			       later blocks reuse) */
	int budget_warning; /* index of check_budget()'s warning in the
			       object's warnings, or -1 */
	int *place_arm;	    /* duet: the arm whose knobs are in force on
			       each place, -1 none */
};

/* The experiment document of e before any run (experiment.c); the
 * caller owns it (experiment_doc_free()). */
struct experiment_doc *exp_skeleton(const struct experiment *e,
				    const struct experiment_config *c);

/*
 * Seconds a run takes from here on (for a duet block, the block's time
 * shared by its runs); -1 before any run.
 */
double exp_run_s_estimate(const struct exp_loop *l);

/*
 * Add a run of arm in block to the experiment: its metric, its run
 * object run (owned from now on: allocated, freed with the document),
 * its covariates (covariates.h) and, for a duet run, the place it ran on
 * (place >= 0).
 */
void exp_record(struct exp_loop *l, unsigned arm, int block, double metric,
		struct run_doc *run, int place);

/* The knob settings of arm a (nr factors) as knob_setting pairs in
 * out (room for nr); their count. */
unsigned exp_knob_settings(const struct experiment_arm *a, unsigned nr,
			   struct knob_setting *out);

/* Drop the caches before a run when the experiment asks it; warn in its
 * warnings the first time that fails. */
void exp_drop_caches(struct exp_loop *l);

/* Count n runs of block, begun at t0_ns and ended now, for
 * exp_run_s_estimate(). */
void exp_count_runs(struct exp_loop *l, unsigned n, int block, uint64_t t0_ns);

/*
 * One block of a duet (experiment_config.places): arm order[k] on place
 * k, every run at the same time, each in a child process of its own so
 * that its CPU, I/O and sampler are its own. 0 or -errno with err set.
 */
int exp_duet_block(struct exp_loop *l, const unsigned *order, int block,
		   uint64_t block_seed, struct strbuf *err);

#endif
