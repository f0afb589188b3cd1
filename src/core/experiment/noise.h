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

#include <json-c/json.h>
#include "experiment.h"
#include "../store/store_noise.h"
#include "../../util/strbuf.h"

/*
 * The key of c's comparison: its workload, metric, target, run length
 * (time and ramp, or ios), fixed parameters and places (duet): "crashdump
 * dumps_per_min scratch:2G:ext4 time=3s ramp=0s places=2 producers=4".
 */
void noise_key(const struct experiment_config *c, struct strbuf *out);

/*
 * What the finished experiment object exp adds: its complete blocks,
 * the sd of its per-block log-ratios (the widest over its arms against
 * the baseline) and its "block_s". -EINVAL when it has fewer than 2
 * blocks or no block_s (nothing to learn).
 */
int noise_row_of(struct json_object *exp, struct noise_row *out);

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
