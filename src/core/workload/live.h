/*
 * What a run has done so far, for a progress line while it runs: the
 * I/Os and bytes its timed part completed, and when the run began. The
 * run's own tallies are private to its threads until it ends; these
 * counters are what they publish meanwhile, for another thread (the
 * command's progress) to read at any time.
 *
 * Publishing is off the hot path: a job adds what it completed since its
 * last publication at most every WORKLOAD_LIVE_EVERY_NS, on a clock it
 * reads anyway, and once more when it ends, so the shared cache line is
 * written a few times a second per job, never per I/O. A workload that
 * publishes nothing leaves counts 0: the progress then shows the time
 * alone. The experiment stamps begin_ns around each run
 * (experiment_config.live); the counters belong to the caller.
 */
#ifndef IOTRIAL_WORKLOAD_LIVE_H
#define IOTRIAL_WORKLOAD_LIVE_H

#include <stdatomic.h>
#include <stdint.h>

#define WORKLOAD_LIVE_EVERY_NS 100000000ull /* 100 ms */

struct workload_live {
	_Atomic uint64_t ops;	   /* I/Os completed in the timed part */
	_Atomic uint64_t bytes;	   /* bytes they moved */
	_Atomic uint64_t begin_ns; /* CLOCK_MONOTONIC when the run began;
				      0: no run going on */
	_Atomic int counts;	   /* the run publishes ops and bytes */
};

/* A run begins at now_ns: the counts start from zero. NULL is fine. */
static inline void workload_live_begin(struct workload_live *l, uint64_t now_ns)
{
	if (!l)
		return;
	atomic_store(&l->ops, 0);
	atomic_store(&l->bytes, 0);
	atomic_store(&l->counts, 0);
	atomic_store(&l->begin_ns, now_ns);
}

/* The run is over. NULL is fine. */
static inline void workload_live_end(struct workload_live *l)
{
	if (l)
		atomic_store(&l->begin_ns, 0);
}

/* A job's completions since its last call. NULL is fine. */
static inline void workload_live_add(struct workload_live *l, uint64_t ops,
				     uint64_t bytes)
{
	if (!l)
		return;
	atomic_store_explicit(&l->counts, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&l->ops, ops, memory_order_relaxed);
	atomic_fetch_add_explicit(&l->bytes, bytes, memory_order_relaxed);
}

#endif
