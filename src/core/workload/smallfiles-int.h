/*
 * What the parts of the smallfiles workload share: smallfiles.c (the
 * parameters, the clients' threads and the tallies), sf_mix.c (a client
 * running the operation mix), sf_replay.c (a client replaying a dbench
 * load file) and sf_client.c (what both loops do around an operation).
 * Not for other modules.
 */
#ifndef IOTRIAL_SMALLFILES_INT_H
#define IOTRIAL_SMALLFILES_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "gate.h"
#include "loadfile.h"
#include "sizedist.h"
#include "verify.h"
#include "workload.h"
#include "../result/hist.h"
#include "../../util/rng.h"
#include "../../util/strbuf.h"

/* The operations of the mix, in the order of the table. */
enum sf_kind {
	SF_CREATE,
	SF_WRITE,
	SF_READ,
	SF_STAT,
	SF_RENAME,
	SF_DELETE,
	SF_KINDS,
};

enum sf_fsync {
	SF_FSYNC_NEVER,
	SF_FSYNC_CLOSE, /* every file written, before it is closed */
	SF_FSYNC_EVERY, /* the file of every Nth create or write */
};

#define SF_IO_CHUNK_BYTES (1u << 20) /* largest single read or write */

/* The workload's settings and what prepare made, until cleanup. */
struct sf_state {
	unsigned nr_clients;
	int replay;	    /* a loadfile replay, not the mix */
	struct loadfile lf; /* replay: parsed once, read by every client */
	struct sizedist sizes;
	unsigned mix[SF_KINDS]; /* weights */
	unsigned mix_total;
	uint64_t lifetime_ns;  /* 0: not by time */
	uint64_t lifetime_ops; /* 0: not by operations */
	enum sf_fsync fsync_mode;
	uint64_t fsync_every;
	unsigned dirs;	    /* per client */
	unsigned max_files; /* live files per client */
	int *root_fds;	    /* each client's directory, open */
};

enum sf_phase { SF_PHASE_RAMP, SF_PHASE_RUN, SF_PHASE_DRAIN };

/* Shared by the clients of one run; written by main, and failed. */
struct sf_shared {
	struct workload *w;
	struct sf_state *st;
	_Atomic int phase;
	_Atomic int failed; /* a client hit an error that ends the run */
	struct gate gate;   /* clients set up, then wait for main */
};

/* One kind of operation as one client saw it. */
struct sf_opstat {
	struct hist lat;
	uint64_t errors;
	unsigned first_line; /* replay: the line of the first error */
	int first_errno;     /* 0: it succeeded but should have failed */
};

/* One client: a thread in its own directory with private tallies. */
struct sf_client {
	struct sf_shared *sh;
	unsigned idx;
	pthread_t thread;
	int root_fd; /* its directory (borrowed from sf_state) */
	struct rng rng;
	uint64_t quota;	       /* count mode: operations to do */
	uint64_t counted;      /* operations in the timed region */
	struct sf_opstat *ops; /* nr_kinds of them */
	unsigned nr_kinds;
	uint64_t ios[2], bytes[2]; /* read/write calls and bytes */
	uint64_t fsyncs;
	uint64_t dbench_bytes; /* replay: ReadX + WriteX sizes */
	uint64_t run_start_ns, last_done_ns;
	struct thread_cpu cpu; /* from the region's start */
	double user_s, sys_s;
	uint8_t *buf; /* I/O buffer, random bytes */
	size_t buf_bytes;
	int ret; /* an error that ended the run */
	struct strbuf err;
	struct verify_job *vfy; /* --verify: tallies; NULL when off */
	void *vlive;		/* --verify: the mix's live files at its
				   end, for the read-back (sf_mix.c) */
};

/*
 * Is the client to count this operation (the timed region is open) and
 * to go on at all? Sets *timed; returns 0 when it must stop.
 */
int sf_client_next(struct sf_client *c, int *timed);

/* Count one finished operation of kind k that started at t0_ns. */
void sf_client_done(struct sf_client *c, unsigned k, uint64_t t0_ns, int timed);

/* An errno that ends a run (the filesystem is full or broken). */
int sf_errno_fatal(int e);

/* Set c's error from errno e while doing what; returns -e. */
int sf_client_fail(struct sf_client *c, int e, const char *what,
		   const char *path);

/* The loops: 0 when told to stop, -errno with c->err on a run-ending
 * error. */
int sf_mix_loop(struct sf_client *c);
/* --verify: read back the files the mix left (c->vlive) after the run.
 * 0, or -errno with err set when a file cannot be read. */
int sf_mix_readback(struct sf_client *c, struct strbuf *err);
int sf_replay_loop(struct sf_client *c);

/* The names of the mix's operations, for its table. */
extern const char *const sf_kind_names[SF_KINDS];

/* smallfiles' parameters (w->params), as the rows fill them. */
struct sf_params {
	struct workload_common common; /* none of them: zeros */
	uint64_t clients, dirs, files;
	const char *sizes, *mix, *lifetime, *fsync, *loadfile, *verify;
};
/* The parameter table (sf_params.c). */
extern const struct param_spec sf_rows[];
/* Read every text parameter of w into st; 0, or -EINVAL with err. */
int sf_read_settings(struct workload *w, struct sf_state *st,
		     struct strbuf *err);

#endif
