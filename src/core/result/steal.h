/*
 * A run's steal as a share of the machine's CPU time: the one reading of
 * cpu.system_steal_s that both the run's warning (observe/truth_warn.c)
 * and the comparison's covariate (experiment/covariates.c) use. No
 * structs here, so both the result and the model side can include it.
 */
#ifndef IOTRIAL_STEAL_H
#define IOTRIAL_STEAL_H

#include <math.h>

/* The machine's CPU time (all CPUs) a run needs for its steal share to
 * be a measurement: 100 clock ticks, so that one is 1% of it (why a
 * tick matters: experiment/covariates.h). */
#define RUN_STEAL_MIN_S 1.0

/* steal_s of total_s (the machine's, every CPU), or NaN below
 * RUN_STEAL_MIN_S of it. */
static inline double run_steal_share(double steal_s, double total_s)
{
	return total_s >= RUN_STEAL_MIN_S ? steal_s / total_s : NAN;
}

#endif
