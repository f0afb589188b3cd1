/*
 * Planning an experiment so that it can answer: how long a block takes,
 * how many blocks the limits (--budget, --max-runs) allow, whether that
 * is enough for a faster/slower verdict at all, and, when an experiment
 * stopped on a limit, how many more blocks its own variation says it
 * needs for --precision.
 */
#ifndef IOTRIAL_BUDGET_H
#define IOTRIAL_BUDGET_H

#include <stdint.h>
#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/*
 * What a run costs besides its timed part: syncing and dropping caches,
 * the workload's set-up. A guess until the first block is measured.
 */
#define BUDGET_RUN_OVERHEAD_S	   0.25
#define BUDGET_RUN_OVERHEAD_WARM_S 0.05

/* What of an experiment's configuration the plan depends on
 * (experiment_budget_opts() fills it). */
struct budget_opts {
	double alpha;	    /* significance level */
	double precision;   /* the CI half-width that ends it */
	uint64_t budget_ns; /* 0: no budget */
	uint64_t time_ns;   /* each run's length, or 0 with ios */
	uint64_t ramp_ns;
	uint64_t ios;
	unsigned max_runs;   /* per arm; 0: no limit */
	unsigned runs_fixed; /* 0: adaptive */
	unsigned warmup;
	int drop_caches;
	unsigned places; /* a duet's: its arms run at once (> 1) */
};

/* What the limits of an experiment allow. */
struct experiment_budget {
	unsigned nr_arms;
	unsigned nr_tests;	  /* comparisons with the baseline */
	unsigned min_blocks;	  /* fewest blocks for faster/slower; 0: none */
	double run_s;		  /* seconds per run, overhead included; < 0
				     unknown (--ios before any run) */
	double block_s;		  /* nr_arms x run_s */
	double warmup_s;	  /* the warm-up runs */
	unsigned blocks;	  /* blocks the limits allow; -1u no limit */
	const char *limit;	  /* "--budget", "--max-runs" or NULL */
	int measured;		  /* run_s comes from runs made (1) or the
				     options (0) */
	unsigned measured_blocks; /* the blocks run_s was measured over,
				     when said (0: not said) */
};

/*
 * Estimate what the limits of c allow for nr_arms arms. run_s > 0 is
 * the measured mean time of a run; otherwise it is estimated from the
 * run length (--time, --ramp) and a per-run overhead, and stays unknown
 * (< 0) for a run bounded by --ios. Only an adaptive experiment has
 * limits; a fixed one (runs_fixed) allows exactly its runs.
 */
void experiment_budget_estimate(const struct budget_opts *c, unsigned nr_arms,
				double run_s, struct experiment_budget *out);

/*
 * 1 when the limits stop before a verdict is possible, with msg set to a
 * sentence that says so and what would reach one ("--budget 40s allows
 * about 1 block of 12 arms (38 s each); ..."); 0 when they do not or
 * cannot be judged yet (an unknown run length).
 */
int experiment_budget_short(const struct experiment_budget *b,
			    const struct budget_opts *c, struct strbuf *msg);

/*
 * The widest sd of the per-block log ratios of each arm to baseline,
 * over the arms; m holds nr_blocks rows of nr_arms metrics (a block's
 * value <= 0 where it is missing), and a ratio needs both values. The
 * arm it is in and its count of ratios go to out_arm and out_blocks
 * (either may be NULL); NaN, and neither set, when no arm has two
 * ratios.
 */
double budget_worst_spread(const double *m, unsigned nr_arms,
			   unsigned nr_blocks, unsigned baseline,
			   unsigned *out_arm, unsigned *out_blocks);

/*
 * After an adaptive experiment stopped on a limit, fill doc's advice
 * (an advice already there is replaced): how many blocks the spread of
 * the per-block log ratios of its runs suggests for --precision (a CI
 * half-width shrinking with 1 / sqrt(blocks)), what budget that takes
 * at block_s seconds a block, and whether it is an A/A experiment
 * (only 'label' varied), whose text says how many runs per arm resolve
 * +-precision. With one block there is no spread yet: the advice is
 * then the fewest blocks for a verdict. Nothing is set when the
 * experiment did not stop on a limit.
 */
void experiment_advice_doc(struct experiment_doc *doc,
			   const struct budget_opts *c,
			   const struct experiment_budget *b);

#endif
