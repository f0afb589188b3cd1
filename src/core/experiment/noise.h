/*
 * The noise model of this machine (store/store_noise.h keeps it): what
 * makes two comparisons alike enough to share it, what one experiment
 * adds to it, and what --precision will cost, said before the first
 * run. The cost follows from the spread of the per-block log-ratios
 * (sd): the signed-rank interval of n blocks is about
 * +-z * sd / sqrt(n) wide (z the normal quantile of the confidence), so
 * +-p needs n = (z * sd / atanh(p))^2 blocks, as the advice of a
 * stopped experiment says (budget.h).
 */
#ifndef IOTRIAL_NOISE_H
#define IOTRIAL_NOISE_H

#include "experiment.h"
#include "../model/experiment_doc.h"
#include "../store/store_noise.h"
#include "../../util/strbuf.h"

/*
 * The key of c's comparison: its workload, metric, target, ramp (or
 * ios), places (duet) and fixed parameters, not its run length (the
 * store keeps that beside the key): "crashdump dumps_per_min
 * scratch:2G:ext4 ramp=0ms places=2 producers=4".
 */
void noise_key(const struct experiment_config *c, struct strbuf *out);

/*
 * What the finished experiment exp adds: its complete blocks,
 * the sd of its per-block log-ratios (the widest over its arms against
 * the baseline) and its "block_s". -EINVAL when it has fewer than 2
 * blocks or no block_s (nothing to learn).
 */
int noise_row_of(const struct experiment_doc *exp, struct noise_row *out);

/*
 * compare --time auto: the run length that gives the narrowest interval
 * for the time spent, from the models of a comparison at several run
 * lengths. Longer runs average more of a run's own noise away (the b/T
 * part of the per-block spread, sd^2 = a + b / T) but leave what
 * changes from run to run (a), and fewer of them fit in the time; a
 * block takes c1 T + c0 (its runs and their overhead). The interval's
 * width for the time goes as (a + b / T) (c1 T + c0), least at
 * T = sqrt(b c0 / (a c1)).
 */
struct noise_pick {
	double run_s;	  /* chosen */
	unsigned lengths; /* run lengths the models know */
	double a, b;	  /* sd^2 = a + b / T, fitted */
	double c0, c1;	  /* block_s = c1 T + c0, fitted */
	const char *why;  /* "fitted", "longer runs do not help", "the
			     run's own noise dominates", "one run length
			     measured", "nothing measured" */
};

/*
 * Pick from the models m[nr] (store_noise_lengths()), def_s when they
 * know fewer than two run lengths. The choice stays within half the
 * shortest and twice the longest measured length, and 0.25..60 s.
 */
void noise_pick_time(const struct noise_model *m, unsigned nr, double def_s,
		     struct noise_pick *out);

/* What --precision costs by a model. */
struct noise_cost {
	unsigned blocks; /* blocks needed: at least min_blocks */
	double seconds;	 /* blocks x the model's block_s */
};

/*
 * The cost of +-precision at confidence 1 - alpha by model m (which
 * must know something: m->experiments > 0), at least min_blocks.
 */
void noise_cost(const struct noise_model *m, double precision, double alpha,
		unsigned min_blocks, struct noise_cost *out);

#endif
