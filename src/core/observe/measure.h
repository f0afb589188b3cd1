/*
 * The timed region. A workload calls measure_begin() when its warm-up is
 * over and measure_end() when the last byte it owes is done; both ends
 * take the clock and CPU samples, and run the observer hook that the
 * caller supplied (the device sampler, which adds what reached the
 * device). Keeping this seam in one place means every workload measures
 * the same way and observers need no knowledge of workloads.
 */
#ifndef IOTRIAL_MEASURE_H
#define IOTRIAL_MEASURE_H

#include <stdint.h>
#include "../result/result.h"
#include "cpustat.h"

/* An observer of the timed region; any member may be NULL. */
struct measure_hook {
	void *ctx;
	/* The timed region starts now. */
	void (*begin)(void *ctx);
	/* It ended; add device truth, warnings or notes to r. */
	void (*end)(void *ctx, struct run_result *r);
};

struct measure {
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC */
	struct cpustat_sample cpu0, cpu1;
	const struct measure_hook *hook; /* may be NULL */
	int begun;
	int children; /* count the CPU of waited-for children
			 too (a workload that runs a command);
			 set after measure_init() */
	double child_user_s, child_sys_s; /* their CPU at the start */
};

void measure_init(struct measure *m, const struct measure_hook *hook);
void measure_begin(struct measure *m);
/* Fill r->seconds and r->cpu from the region, then call the hook. */
void measure_end(struct measure *m, struct run_result *r);

#endif
