/*
 * The covariates of a run that the analysis may adjust a comparison for
 * (stats/adjust.h): what the machine did to the run that the setting
 * under test cannot have caused. Each is read from the run document, so
 * a stored experiment is analysed again the same way:
 *
 *   steal            the hypervisor's steal over the run, as a fraction
 *                    of the machine's CPU time (cpu.system_steal_s /
 *                    cpu.system_total_s, result/steal.h); not
 *                    measured (NaN) below RUN_STEAL_MIN_S of that
 *                    time: the kernel counts it in clock ticks
 *                    (10 ms), so a short run gets 0 or 1 of them,
 *                    and whether it gets one follows how busy its
 *                    own CPU was (a CPU-hungry arm is charged the
 *                    ticks a light one is not);
 *   others_runnable  the tasks running or runnable that were not ours,
 *                    on average (truth.sampler.runnable_mean less
 *                    runnable_ours): the CPU the others wanted; not for
 *                    a duet's runs (compare --duet), whose others
 *                    include the other arms' runs;
 *   others_io_mbps   the other processes' I/O over the run, 10^6 bytes
 *                    a second (truth.sampler.others_read_bytes and
 *                    others_write_bytes over the run's seconds; our
 *                    process group, a duet's other runs too, left
 *                    out).
 *
 * Not offered, though they explain a run's speed: the process's own CPU
 * time, the devices' latency, the share of time our threads waited for
 * a CPU. A faster setting moves those itself, and adjusting for them
 * would take its effect away (or add a false one: tests/unit/
 * test_adjust.c shows how far).
 */
#ifndef IOTRIAL_COVARIATES_H
#define IOTRIAL_COVARIATES_H

#include "../model/experiment_doc.h"

#define RUN_NR_COV 3

/* Their names, in the order run_covariates() fills them. */
extern const char *const run_cov_names[RUN_NR_COV];

/* The covariates of the run document run (NULL: none) into
 * out[RUN_NR_COV]; NaN where the run did not measure one (an older or
 * imported run). */
void run_covariates(const struct run_doc *run, double *out);

/* The most covariates an experiment's runs may carry. */
#define RUN_MAX_COV 4

/*
 * Which covariates the nr runs of an experiment carry, for the
 * analysis: the names of the first run's "covariates" (up to
 * RUN_MAX_COV), then each run's values by name into cov[i * *out_nr +
 * c] (NaN where missing); when no run has "covariates" (stored before
 * they were kept, or imported), run_covariates() of each run's
 * document. cov has room for nr * RUN_MAX_COV values; names for
 * RUN_MAX_COV pointers, valid while runs are.
 */
void runs_covariates(const struct exp_run *runs, size_t nr, double *cov,
		     const char **names, unsigned *out_nr);

#endif
