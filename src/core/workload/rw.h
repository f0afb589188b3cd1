/*
 * The block-I/O workloads: sequential and random reads and writes and a
 * random mix, one file (or device region) per job, driven through an
 * engine. All five are rw.c with one parameter table; they differ only
 * in their struct rw_kind (sequential or random offsets, the share of
 * reads), which rw.c derives from the workload's name. Their ops
 * (workload_seqread, ...) are declared with the others in workload.h,
 * so the registry needs nothing from here.
 */
#ifndef IOTRIAL_RW_H
#define IOTRIAL_RW_H

#include "workload.h"

/* The parameters of every rw workload (w->params), as rw_setup.c's
 * rows fill them. */
struct rw_params {
	struct workload_common common; /* size, jobs, direct, settle, ... */
	uint64_t bs_bytes, iodepth;
	const char *engine;
	int sqpoll;
	uint64_t batch_submit, batch_complete_min, batch_complete_max;
	uint64_t fsync_every; /* "fsync": after every N writes, 0: never */
	uint64_t rwmixread;   /* percent */
	int randommap, fadvise;
	const char *verify;
};

int rw_validate(struct workload *w, struct strbuf *err);
int rw_prepare(struct workload *w, struct target *t, struct strbuf *err);
int rw_run(struct workload *w, struct run_result *r, struct strbuf *err);
void rw_cleanup(struct workload *w);

#endif
