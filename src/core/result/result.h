/*
 * What a run yields: the workload's own view (ops, bytes, latency, CPU)
 * and, filled by observers, what reached the device. One struct for all
 * workloads so experiments, the store and every report read the same
 * thing. Serialised as the "iotrial/1" run object by result_json.c.
 */
#ifndef IOTRIAL_RESULT_H
#define IOTRIAL_RESULT_H

#include <stdint.h>
#include "hist.h"
#include "../engine/engine.h"
#include "../../util/strbuf.h"

/*
 * What reached the device, filled by the truth observer (observe/truth.h).
 * result/ sits below observe/: observers fill results, never the reverse,
 * so a result knows a truth by name only and frees it through the
 * function its attacher left in free_truth (not truth_free(), which the
 * observer defines: result/ never calls into observe/).
 */
struct truth;

/* CPU cost of the timed region. */
struct cpu_usage {
	double user_s;	       /* this process, user time */
	double sys_s;	       /* this process, system time */
	double system_busy_s;  /* all CPUs, non-idle, from /proc/stat: kernel
				  threads (kworker, flush) included */
	double system_total_s; /* all CPUs, every state: busy_s/total_s is the
				  machine's busy fraction */
	double system_steal_s; /* of system_busy_s: time the hypervisor gave
				  this guest's CPUs to others */
};

/* One worker's share, for per-job throughput ("two readers"). */
/* One job's completion latency in one direction, summarised from its own
 * histogram before the run merges them (the run keeps the histogram). */
struct job_lat {
	uint64_t count, min_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
	double mean_ns;
};

struct job_result {
	uint64_t ops[IO_DIRS];
	uint64_t bytes[IO_DIRS];
	double seconds;
	double user_s, sys_s; /* this thread's CPU (RUSAGE_THREAD) */
	int have_lat;	      /* lat is set (workloads that time each I/O) */
	struct job_lat lat[IO_DIRS];
};

/* Summarise h into *l. */
void job_lat_from_hist(struct job_lat *l, const struct hist *h);

/* The cgroup limits a run had (cgroup.h), as set and as used. */
struct run_limits {
	uint64_t memory_max;  /* bytes; 0: no memory limit */
	uint64_t memory_peak; /* the cgroup's peak memory use, bytes; 0:
				 unknown */
	char *cpus, *mems;    /* as set, owned; NULL: not limited */
	char *cgroup;	      /* the cgroup's path, owned */
};

/* What the command of an exec run did (workload/exec.c). */
struct run_exec {
	char *cmd;	   /* as run by /bin/sh -c, {dir} replaced; owned */
	int status;	   /* its exit status; 128+N for signal N */
	char *stdout_tail; /* the last lines of its output, owned */
	char *stderr_tail;
	double printed; /* the number --metric-from or --metric-cmd read */
	int have_printed;
};

/* The identity a verified block carries in its header (workload/verify.h). */
struct run_verify_hdr {
	uint64_t file_id;      /* the job (block I/O) or file number */
	uint64_t offset_bytes; /* the block's offset in its file */
	uint64_t seed;	       /* the run's seed */
	uint64_t seq;	       /* the write's sequence number, from 1 */
};

/* What --verify found: blocks checked and the first that did not match. */
struct run_verify {
	const char *method;    /* "crc32c", static */
	uint64_t blocks;       /* blocks checked, read-back pass and reads */
	uint64_t mismatches;   /* of them, how many did not match */
	double cpu_s;	       /* filling headers, crc32c and checking */
	double readback_s;     /* wall time of the read-back pass */
	int have_first;	       /* the fields below describe one */
	char *file;	       /* the first mismatch's file or device, owned */
	uint64_t offset_bytes; /* its block's offset in the file */
	uint64_t bad_byte;     /* the first byte (file offset) not as
				  written; UINT64_MAX if none differs */
	int magic_ok;	       /* the header was ours at all */
	int crc_ok;	       /* the crc32c matched the block */
	int in_read;	       /* a workload read found it, not the pass */
	struct run_verify_hdr want, found;
};

/*
 * What a warning is about, for the code that weighs a verdict by the
 * warnings of its runs (report/suspect.h). The text says it to people;
 * the kind says it to programs, and is kept beside the text in the run
 * object ("warning_kinds").
 */
enum run_warn_kind {
	RUN_WARN_UNKNOWN,     /* none of the below ("unknown") */
	RUN_WARN_PAGE_CACHE,  /* reads measured the page cache */
	RUN_WARN_ABSORBED,    /* written bytes never reached the device */
	RUN_WARN_CPU_BOUND,   /* the workers were CPU-bound */
	RUN_WARN_SHORT,	      /* too short to trust */
	RUN_WARN_INTERRUPTED, /* a signal cut the run short */
	RUN_WARN_OTHER_IO,    /* other I/O ran on the device */
	RUN_WARN_UNREACHED,   /* the device's I/O never reached the disk
				 under it (a sparse loop image) */
	RUN_WARN_FIDELITY,    /* a replay did not do what its trace did */
	RUN_WARN_STEAL,	      /* the hypervisor took much of the CPU */
	RUN_WARN_KINDS
};

/*
 * Whether a run reached the regime one of its knobs controls (knob.h,
 * knob_ops.regime): a knob cannot change a run that never got where it
 * acts. Strings owned.
 */
struct run_regime {
	char *knob;	   /* as given: "bdflush.nfract" */
	char *canonical;   /* "vm.dirty_background_ratio" */
	char *object;	   /* where it was set: "loop1", "system" */
	char *value;	   /* the canonical value in force: "10" */
	const char *state; /* "reached", "not_reached", "unknown"; static */
	char *why;	   /* the numbers behind it, one clause */
};

/*
 * One kind of operation of a file workload (smallfiles: create, read,
 * ...; a loadfile replay: NTCreateX, ReadX, ...): its latency and how
 * often it did not end as expected.
 */
struct op_result {
	const char *name; /* static */
	struct hist lat;  /* one value per operation */
	uint64_t errors;  /* failed, or succeeded when it should fail */
};

/*
 * A replay's setting that differed from its capture's (fidelity_settings):
 * what it was there and here, and the terms of the fidelity it moves,
 * as bits in the order dev-read, dev-write, dev-size, dev-depth,
 * latency (trace/fidelity.h FMOVE_*). Strings owned.
 */
struct run_fid_setting {
	char *name;	/* "read_ahead_kb", "bdi.max_ratio" */
	char *capture;	/* NULL: the trace did not record it */
	char *replay;	/* NULL: it cannot be read where the replay ran */
	unsigned moves; /* FMOVE_* bits */
};

/* One class of a replay's calls against the capture's, as
 * distributions (trace/fidelity_dist.h): fidelity_dist. */
struct run_fid_class {
	const char *name;      /* "read", "write", "sync", "names"; static */
	uint64_t calls[2];     /* capture, replay */
	double d[4];	       /* gap, size, offset, latency; NaN: none */
	int latency_judged;    /* d[3] counted (no setting moved it) */
	uint64_t lat_ns[2][3]; /* p50, p90, p99 of capture, replay */
	double seq[2];	       /* sequential share of capture, replay */
};

struct run_result {
	double seconds;	       /* timed region, wall clock, including
				  the final flush when settle=sync */
	double burst_seconds;  /* until the last I/O completed, before
				  any final flush; 0 if not separate */
	int interrupted;       /* stopped early by a signal */
	uint64_t ops[IO_DIRS]; /* completed I/Os per direction */
	uint64_t bytes[IO_DIRS];
	uint64_t fsyncs;	  /* fsync/fdatasync calls in the timed part */
	struct hist lat[IO_DIRS]; /* completion latency per direction */
	struct cpu_usage cpu;
	struct job_result *jobs; /* nr_jobs of them */
	unsigned nr_jobs;
	char **warnings; /* owned strings */
	unsigned nr_warnings, alloc_warnings;
	enum run_warn_kind *warn_kinds; /* of each warning, nr_warnings */
	unsigned alloc_warn_kinds;
	char **notes; /* informational, not suspicious */
	unsigned nr_notes, alloc_notes;
	struct run_limits *limits;  /* owned; NULL: the run had none */
	struct run_regime *regimes; /* one per knob in force, owned */
	unsigned nr_regimes, alloc_regimes;
	struct run_exec *exec; /* owned; NULL: not an exec run */
	int io_uncounted;      /* the workload's I/O is not in ops and bytes (a
				  command's own): no IOPS or MB/s of it, and the
				  device's traffic is not "other I/O" */
	struct run_verify *verify;    /* owned; NULL: no --verify */
	uint64_t file_ops;	      /* file workloads: operations done */
	struct op_result *op_results; /* per kind of operation, owned */
	unsigned nr_op_results;
	int have_dbench;     /* a loadfile replay: dbench_mbps is set */
	double dbench_mbps;  /* ReadX and WriteX bytes per second, 10^6 B/s,
				as dbench counts its throughput */
	int have_fidelity;   /* a replay: fidelity is set */
	double fidelity;     /* its score against the trace, 0..100 */
	struct truth *truth; /* device truth, owned; NULL if none */
	void (*free_truth)(struct truth *truth); /* frees truth; set with it */
	/* an engine ran the I/O: engine_features holds the first job's
	 * enum engine_feature bits (the jobs' engines are alike) */
	int have_engine;
	unsigned engine_features;
	/* a file-layer replay's device terms (replay_dev.c, fidelity.h):
	 * dev-read, dev-write, dev-size, dev-depth, each 0..1 or negative
	 * when not judged; why some are not (owned, NULL: all are) */
	int have_fidelity_dev;
	double fidelity_dev[4];
	char *fidelity_dev_why;
	/* of them, the terms a setting that differed moved (bit i is
	 * fidelity_dev[i]): their values are in fidelity_dev_moved */
	unsigned fidelity_dev_moved_bits;
	double fidelity_dev_moved[4];
	/* a file-layer replay's settings otherwise than its capture's, and
	 * its calls against the capture's as distributions (owned) */
	struct run_fid_setting *fid_settings;
	unsigned nr_fid_settings;
	struct run_fid_class *fid_dist;
	unsigned nr_fid_dist;
};

void run_result_init(struct run_result *r);
/* Free contents; r is left as after init. NULL is fine. */
void run_result_release(struct run_result *r);
void run_result_warn(struct run_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A warning of a known kind (run_result_warn() guesses it from the
 * text). */
void run_result_warn_kind(struct run_result *r, enum run_warn_kind kind,
			  const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void run_result_note(struct run_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Add a regime entry (the strings are copied; state is static). */
void run_result_add_regime(struct run_result *r, const char *knob,
			   const char *canonical, const char *object,
			   const char *value, const char *state,
			   const char *why);

/* The kind's name as the run object spells it: "page_cache", ... */
const char *run_warn_kind_name(enum run_warn_kind kind);
/* The kind of a name run_warn_kind_name() gives; RUN_WARN_UNKNOWN for
 * any other (NULL too). */
enum run_warn_kind run_warn_kind_parse(const char *name);
/*
 * The kind of a warning from its text alone, for runs stored before
 * warnings had kinds: the wording each kind's warning starts with.
 * RUN_WARN_UNKNOWN when none matches (NULL too).
 */
enum run_warn_kind run_warn_kind_of_text(const char *text);

/*
 * One sentence on v's first mismatch: the file, the block's offset, what
 * failed, the header fields expected and found.
 */
void run_verify_describe(const struct run_verify *v, struct strbuf *out);

/* Totals over both directions. */
uint64_t run_result_ops(const struct run_result *r);
uint64_t run_result_bytes(const struct run_result *r);
double run_result_iops(const struct run_result *r);
/* 10^6 bytes per second, as fio's MB/s. */
double run_result_mbps(const struct run_result *r);
/* File operations per second (file_ops over seconds). */
double run_result_ops_per_s(const struct run_result *r);

#endif
