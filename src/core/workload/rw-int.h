/*
 * What rw.c (the run) and rw_setup.c (parameters, layout) share: the
 * kind of a workload and the state prepare leaves for the runs.
 */
#ifndef IOTRIAL_RW_INT_H
#define IOTRIAL_RW_INT_H

#include <stdint.h>
#include "workload.h"

/* What a workload name means for the loop. */
struct rw_kind {
	int random;   /* offsets uniformly random, else sequential */
	int read_pct; /* 100: reads only, 0: writes only, else a mix */
};

/* Per-workload state between prepare and cleanup. */
struct rw_state {
	struct rw_kind kind;
	unsigned nr_jobs;
	char **paths;	       /* one per job (all the device for blockdev) */
	char **names;	       /* work file names in the target's work dir */
	uint64_t region_bytes; /* per job, a multiple of bs */
	int blockdev;	       /* regions of one device, not files */
	int made_files;	       /* we created files that cleanup removes */
	int shared;	       /* all jobs on job 0's file */
	char *note;	       /* for the run: how job 0's file was shared */
};

/* The kind a workload's name means. */
struct rw_kind rw_kind_of(const struct workload *w);
/* The I/Os a job keeps in flight: iodepth, or 1 for a synchronous
 * engine. */
unsigned rw_effective_iodepth(const struct workload *w);
/* How a job of iodepth slots submits and reaps: batch_submit I/Os per
 * submit call, waits for complete_min completions and takes at most
 * complete_max per reap; the parameters' 0s resolved (all slots, one,
 * all in flight), each from 1 to iodepth. */
void rw_batch_of(const struct workload *w, unsigned iodepth,
		 unsigned *batch_submit, unsigned *complete_min,
		 unsigned *complete_max);

#endif
