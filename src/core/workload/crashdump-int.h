/*
 * What the parts of the crashdump workload share: crashdump.c (the
 * parameters, the spool, starting the threads and folding their tallies
 * into the run result) and cd_spool.c (the producers and consumers on
 * the spool). Not for other modules.
 */
#ifndef IOTRIAL_CRASHDUMP_INT_H
#define IOTRIAL_CRASHDUMP_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "gate.h"
#include "sizedist.h"
#include "workload.h"
#include "../result/hist.h"
#include "../../util/rng.h"
#include "../../util/strbuf.h"

#define SPOOL	     "spool"
#define READY_SLOTS  4096u	 /* dumps written, not yet picked up */
#define KEPT_SLOTS   65536u	 /* keep: dumps read and left in place */
#define WAIT_STEP_NS 20000000ull /* re-check stop and phase */

/* The rows of the per-operation table. */
enum cd_kind { CD_WRITE, CD_READ, CD_DELETE, CD_KINDS };

/* One dump in the spool. */
struct cd_dump {
	uint64_t id;
	uint64_t bytes;
};

/* A ring of dumps, oldest first. */
struct cd_ring {
	struct cd_dump *slots;
	unsigned cap, head, nr;
	uint64_t bytes; /* of the dumps in it */
};

/* crashdump's parameters (w->params), as crashdump.c's rows fill them. */
struct cd_params {
	struct workload_common common; /* none of them: zeros */
	uint64_t producers, consumers, dirs, bs_bytes;
	const char *sizes;
	int fsync, evict, keep;
};

/* The workload's settings and what prepare made, until cleanup. */
struct cd_state {
	unsigned nr_producers, nr_consumers;
	struct sizedist sizes;
	int fsync_on, evict, keep;
	unsigned dirs, hex_digits;
	size_t bs_bytes;
	uint64_t budget_bytes; /* half for dumps waiting, half for kept */
	int spool_fd;
};

enum cd_phase { CD_PHASE_RAMP, CD_PHASE_RUN, CD_PHASE_DRAIN };

/* Shared by the threads of one run. */
struct cd_shared {
	struct workload *w;
	struct cd_state *st;
	_Atomic int phase;
	_Atomic int failed;
	_Atomic uint64_t next_id;
	_Atomic uint64_t read_timed; /* dumps read in the timed region */
	pthread_mutex_t mu;	     /* the rings and producing_* */
	pthread_cond_t room_cv;	     /* a dump was picked up */
	pthread_cond_t ready_cv;     /* a dump was handed over */
	struct cd_ring ready;	     /* renamed, not yet picked up */
	struct cd_ring kept;	     /* keep: read, left in the spool */
	unsigned producing;	     /* producers writing a dump */
	uint64_t producing_bytes;
	uint64_t recycled; /* kept dumps deleted to bound the spool */
	struct gate gate;  /* threads set up, then wait for main */
};

/* One producer or consumer thread with private tallies. */
struct cd_thread {
	struct cd_shared *sh;
	unsigned idx; /* among its kind */
	int consumer;
	pthread_t thread;
	struct rng rng;
	struct hist lat[CD_KINDS];
	uint64_t ios[2], bytes[2], fsyncs;
	uint64_t last_done_ns;
	struct thread_cpu cpu; /* from the region's start */
	double user_s, sys_s;
	uint8_t *buf;
	int ret;
	struct strbuf err;
};

/* The subdirectory of dump id: a hash, so that the ids of one producer
 * spread over all of them. */
unsigned cd_dump_dir(const struct cd_state *st, uint64_t id);

/* The name of subdirectory d ("3f"), in buf of len bytes. */
void cd_dir_name(const struct cd_state *st, unsigned d, char *buf, size_t len);

/* An empty ring of cap slots (freed with free(r->slots)). */
void cd_ring_init(struct cd_ring *r, unsigned cap);

/* The body of a producer or consumer thread (arg: its struct cd_thread):
 * waits at sh's gate, then loops until the drain, a stop or a failure;
 * a failure is left in its ret and err. */
void *cd_thread_main(void *arg);

#endif
