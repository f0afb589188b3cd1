/*
 * Device truth: what a run really did to the device, next to what the
 * workload believes it did. The page cache can swallow writes (files
 * deleted before writeback: the dbench effect) and serve reads from RAM
 * (a buffered read of a file that fits in memory), and then a benchmark
 * measures memory while claiming to measure a disk. Each run therefore
 * carries devices[] (iostat -x columns and byte totals per device of the
 * target's stack, over the timed region), a truth summary (logical vs
 * device bytes, cancelled bytes, the fraction the cache absorbed, the
 * dirty-memory peak) and warnings that quote the numbers behind them.
 *
 * It plugs into the measurement seam (measure.h): truth_hook_init() fills
 * a measure_hook whose begin snapshots the environment and starts the
 * sampler, and whose end stops it and attaches a struct truth to the run
 * result (r->truth, freed through r->free_truth).
 */
#ifndef IOTRIAL_TRUTH_H
#define IOTRIAL_TRUTH_H

#include <stdint.h>
#include "diskstats.h"
#include "sampler.h"
#include "../targets/devstack.h"
#include "env.h"
#include "measure.h"
#include "../result/result.h"
#include "../targets/target.h"
#include "../../util/strbuf.h"

struct json_object;

/* One device of the stack over the timed region. */
struct truth_device {
	char *name;	     /* "vda" */
	const char *kind;    /* devstack_kind_name(): static */
	const char *via;     /* devstack_via_name(): static, NULL = top */
	struct disk_delta d; /* columns and byte totals */
	int valid;	     /* both end readings were parsed */
};

/* The truth about one run. Owned by the run result once attached. */
struct truth {
	struct truth_device *devs; /* the stack, top first */
	unsigned nr_devs;
	char *device;			/* the device device_* bytes are of:
					   the one under the filesystem */
	char *no_device_reason;		/* nr_devs == 0: why */
	double seconds;			/* between the first and last sample */
	uint64_t logical_write_bytes;	/* what the workload wrote */
	uint64_t logical_read_bytes;	/* what the workload read */
	uint64_t device_write_bytes;	/* what reached the top device */
	uint64_t device_read_bytes;	/* what the top device delivered */
	int have_device;		/* device_* are known */
	char *bottom_device;		/* the disk(s) at the bottom of the
					   stack, "vda" ("sdy+sdz" for more) */
	uint64_t bottom_write_bytes;	/* what reached them */
	uint64_t bottom_read_bytes;	/* what they delivered */
	int have_bottom;		/* bottom_* are known */
	uint64_t process_write_bytes;	/* /proc/self/io write_bytes */
	uint64_t process_read_bytes;	/* /proc/self/io read_bytes */
	uint64_t cancelled_write_bytes; /* dirtied, then deleted/truncated */
	int have_procio;		/* process_* and cancelled known */
	double absorbed_fraction;	/* of logical writes that never
					   reached the device; NAN if unknown */
	double cached_read_fraction;	/* of logical reads the device did
					   not deliver (0 when it delivered
					   all or more); NAN if unknown */
	uint64_t dirty_start_bytes;	/* Dirty when the region opened */
	uint64_t dirty_end_bytes;	/* ... and when it closed */
	uint64_t dirty_peak_bytes;	/* the highest Dirty sampled */
	uint64_t writeback_peak_bytes;	/* the highest Writeback sampled */
	int have_mem;			/* the dirty_* fields are known */
	double burst_seconds;		/* r->burst_seconds: 0 = not separate */
	double burst_mbps;		/* bytes / burst_seconds, 10^6 B/s */
	double settled_mbps;		/* bytes / seconds incl. the flush */
	double interval_ms;		/* sampling interval */
	double sampler_cpu_s;		/* CPU the sampler used */
	unsigned read_errors;		/* sampler reads that failed */
	double cpu_wait_fraction;	/* of our threads' runnable time, the
					   share spent waiting for a CPU
					   (schedstat.h); NAN if unknown */
	double runnable_mean;		/* tasks running or runnable, mean over
					   the points; NAN if unknown */
	double runnable_ours;	     /* of them ours: our threads' running and
					waiting time over the seconds; NAN */
	double wake_late_ms;	     /* the sampler's mean lateness per
					wake-up; NAN with no wake-up */
	uint64_t others_read_bytes;  /* other processes' I/O over the run */
	uint64_t others_write_bytes; /* (schedstat_others_io()) */
	int have_others;
	struct sampler_series series; /* every point, for reports */
	struct env env;		      /* captured as the region opened */
	int have_env;
	int run_applied; /* logical bytes and warnings done */
};

/* Whether the workload flushed its writes before the timed region closed. */
enum truth_settle {
	TRUTH_SETTLE_UNKNOWN, /* the workload does not say (no settle param) */
	TRUTH_SETTLE_NONE,    /* settle=none: writes may be left dirty */
	TRUTH_SETTLE_SYNC,    /* settle=sync or end_fsync: flushed inside */
};

/*
 * The parameters a warning's advice may name (--direct=1, --size...),
 * as bits of truth_opts.lacks: those the workload does not have, so
 * that no advice names an option the workload would refuse. 0 is the
 * block-I/O workloads', which have them all.
 */
enum truth_param {
	TRUTH_LACKS_SIZE = 1 << 0,	 /* --size (and so --ios over it) */
	TRUTH_LACKS_DIRECT = 1 << 1,	 /* --direct=1 */
	TRUTH_LACKS_INVALIDATE = 1 << 2, /* --invalidate=1 */
	TRUTH_LACKS_RANDOMMAP = 1 << 3,	 /* --randommap=1 */
	TRUTH_LACKS_SETTLE = 1 << 4,	 /* --settle=sync */
	TRUTH_LACKS_FSYNC_N = 1 << 5,	 /* --fsync=N, every N writes */
};

/* What the hook needs to know that the run result does not say. */
struct truth_opts {
	uint64_t interval_ns;	      /* 0: SAMPLER_DEFAULT_INTERVAL_NS */
	uint64_t working_set_bytes;   /* bytes the workload spans; 0: unknown */
	int direct;		      /* the I/O bypassed the page cache */
	int invalidate;		      /* each pass over a file starts cold */
	enum truth_settle settle;     /* decides what the absorbed-writes
					 warning suggests */
	const char *cpu_bound_advice; /* the workload's, or NULL: the
					 block-I/O advice (workload.h) */
	const char *short_run_advice; /* likewise */
	const char *rewrite_advice;   /* likewise */
	unsigned lacks;		      /* enum truth_param bits */
	const char *cgroup_dir;	      /* the workload's memory cgroup, to
					 sample its dirty pages; NULL: none */
	int cgroup_version;	      /* 1 or 2 */
};

/* The measurement hook; everything in it is private but hook. */
struct truth_hook {
	struct measure_hook hook; /* give &th->hook to the workload */
	struct truth_opts opts;
	char *path;	       /* the target as resolved */
	struct devstack stack; /* which devices to sample */
	struct sampler sampler;
	int sampler_ok; /* sampler_init succeeded */
	int started;	/* begin ran and the sampler is going */
	struct env env; /* taken by begin, moved into the truth */
	uint64_t others_read0, others_write0; /* at begin */
	int have_others0;
	int have_env;
	struct strbuf problem; /* why sampling failed, for a note */
};

/*
 * Resolve t's device stack and prepare a sampler for it; fill th->hook.
 * o may be NULL (defaults). A target without a block device is fine:
 * runs then carry a truth without device columns that says why. Returns
 * 0 or -errno with err set (the target cannot be examined). Release th
 * with truth_hook_release either way.
 */
int truth_hook_init(struct truth_hook *th, const struct target *t,
		    const struct truth_opts *o, struct strbuf *err);

/*
 * Complete the truth of r once the workload has filled r (ops, bytes,
 * jobs, burst_seconds): the logical bytes, the absorbed fraction, burst
 * and settled throughput, and the warnings. The hook's end does this
 * itself when r is already filled as the region closes; a workload that
 * tallies after measure_end() needs this call after its run returns.
 * Calling it twice, or on a result without a truth, does nothing.
 */
void truth_hook_finish(struct truth_hook *th, struct run_result *r);

/* Stop sampling if a run was left open, free everything. NULL is fine. */
void truth_hook_release(struct truth_hook *th);

/*
 * Compute the device part of a truth from a series (first and last
 * points) of the devices in ds (the series' devices, in order, may be a
 * subset of ds's): the top device's bytes, and the bottom's (the disks
 * devstack_bottom() finds in ds, summed) when ds is given and they were
 * sampled. Moves nothing: t keeps no reference to ser.
 */
void truth_from_series(struct truth *t, const struct sampler_series *ser,
		       const struct devstack *ds);

/* Fill the parts that need the run: logical bytes, absorbed fraction,
 * burst and settled throughput. */
void truth_apply_run(struct truth *t, const struct run_result *r);

/*
 * Add the warnings the numbers justify to r, each quoting its numbers:
 * the page cache served the reads; most writes never reached the device
 * (with the remedy for the cause the numbers and o point to: files
 * deleted while dirty, writes left dirty at the end, or blocks rewritten
 * while dirty although the run synced);
 * workers were CPU-bound; the run was too short; other I/O ran on the
 * device; reads or writes of the top device never reached the disk at
 * the bottom of the stack (a sparse loop image). mem_total_bytes (0:
 * unknown) decides whether the working set fits in the page cache.
 */
void truth_warn(const struct truth *t, struct run_result *r,
		const struct truth_opts *o, uint64_t mem_total_bytes);

/* Free a truth and its contents (the r->free_truth of attached ones). */
void truth_free(struct truth *t);

struct run_doc;
struct disk_delta_doc;

/*
 * Fill "devices" (absent when there are none), "truth" and "env" of a
 * run document. t may be NULL (then nothing is filled).
 */
void truth_to_doc(const struct truth *t, struct run_doc *run);

/* One device's columns into o: the members a run's devices[] entries
 * and `iotrial watch --json` lines share. */
void disk_delta_to_doc(const struct disk_delta *d, struct disk_delta_doc *o);

#endif
