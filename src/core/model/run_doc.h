/*
 * A run as a document: the iotrial/1 run object (`run --json`, the
 * "run" of each entry of an experiment's runs; docs/schema/
 * run.schema.json). It records a trial, not only its result: the
 * workload and its parameters, the target, the knobs in force, the
 * numbers, the device truth (truth_doc.h) and the environment
 * (env_doc.h). experiment/result_json.c writes it today.
 *
 * Units are in the names, as in the JSON: mbps is 10^6 bytes/s, *_ns
 * nanoseconds, *_s and seconds seconds, *_bytes bytes. Three shapes
 * share the struct: a measured run (every member below that has no
 * presence byte), a window of `observe` (warnings, warning_kinds,
 * seconds and one device row of doubles), and a run imported from an
 * iotrial file (whatever that file held).
 */
#ifndef IOTRIAL_RUN_DOC_H
#define IOTRIAL_RUN_DOC_H

#include "env_doc.h"
#include "truth_doc.h"

/* Where the run ran ("target"). */
struct run_target {
	char *spec;		      /* as given: a path, a device,
					 "scratch:SIZE[:FS]" */
	char *kind;		      /* "dir", "blockdev", "scratch" */
	char *path;		      /* the directory or device */
	uint64_t logical_block_bytes; /* bytes */
	struct model_kept *keep;
};

/* One direction's completion latency ("latency_ns.read"): ns. */
struct run_latency {
	uint64_t count; /* completions */
	uint64_t min;	/* ns */
	uint64_t p50;	/* ns */
	uint64_t p90;	/* ns */
	uint64_t p99;	/* ns */
	uint64_t p999;	/* ns */
	uint64_t max;	/* ns */
	double mean;	/* ns */
	struct model_kept *keep;
};

/* Latency by direction; a direction that moved nothing is NULL. */
struct run_latencies {
	struct run_latency *read;
	struct run_latency *write;
	struct model_kept *keep;
};

/* CPU time ("cpu"): the workers', the machine's, and a stored run's
 * whole process (process_s, workers_s, outside_s: `run` only). */
struct run_cpu {
	double user_s;	       /* the workload's user CPU, s */
	double sys_s;	       /* its system CPU, s */
	double system_busy_s;  /* all CPUs busy, steal included, s */
	double system_total_s; /* all CPUs' time, s */
	double system_steal_s; /* taken by the hypervisor, s */
	double process_s;      /* iotrial's whole process, s */
	uint8_t has_process_s;
	double workers_s; /* of it, the jobs' threads, s */
	uint8_t has_workers_s;
	double outside_s; /* of it, outside the jobs, s */
	uint8_t has_outside_s;
	struct model_kept *keep;
};

/* One job (thread) of the workload ("jobs[]"). */
struct run_job {
	uint64_t job;		/* its index */
	uint64_t ops;		/* I/Os */
	uint64_t bytes_read;	/* bytes */
	uint64_t bytes_written; /* bytes */
	double seconds;		/* its timed part, s */
	double iops;		/* I/O per second */
	double mbps;		/* 10^6 bytes/s */
	double user_s;		/* its thread's user CPU, s */
	double sys_s;		/* its thread's system CPU, s */
	uint64_t ops_read;	/* with latencies only */
	uint8_t has_ops_read;
	uint64_t ops_written;
	uint8_t has_ops_written;
	struct run_latencies *latency_ns; /* NULL: none kept per job */
	struct model_kept *keep;
};

/* The metric the run is judged by ("metric"). */
struct run_metric {
	char *name;	       /* "iops", "mbps", "p99", a workload's own */
	double value;	       /* in unit; NaN: null */
	bool higher_is_better; /* the direction of "faster" */
	char *unit;	       /* "IO/s", "MB/s", "ns", ... */
	struct model_kept *keep;
};

/* A file workload's operation ("file_ops.NAME"): latencies in us. */
struct run_file_op {
	char *name;	/* the operation: "open", "read", "fsync", ... */
	uint64_t count; /* completed */
	uint64_t errors;
	double mean_us; /* us */
	double p50_us;	/* us */
	double p99_us;	/* us */
	double max_us;	/* us */
	struct model_kept *keep;
};

/* A replay's device terms ("fidelity_device"): each error, NaN when
 * not judged, and why; the terms a setting moved, with their values. */
struct run_fidelity_dev {
	double dev_read;  /* relative error of bytes read at the device */
	double dev_write; /* of bytes written */
	double dev_size;  /* of the request size */
	double dev_depth; /* of the queue depth */
	char *not_judged; /* why some are null, or NULL */
	struct model_num *moved; /* "moved": a setting's effect, by term */
	size_t nr_moved;
	uint8_t has_moved;
	struct model_kept *keep;
};

/* A replay's setting otherwise than its capture's ("fidelity_settings"). */
struct run_fidelity_setting {
	char *name;    /* "read_ahead_kb", "bdi.max_ratio" */
	char *capture; /* NULL: null (not recorded) */
	char *replay;  /* NULL: null (not readable there) */
	char **moves;  /* the terms it moves: "dev_read", ..., "latency" */
	size_t nr_moves;
	struct model_kept *keep;
};

/* One class of a replay's calls against the capture's ("fidelity_dist",
 * keyed by class: "read", "write", "sync", "names"). */
struct run_fidelity_class {
	char *name;		/* the member's key */
	uint64_t calls_capture; /* calls of the class */
	uint64_t calls_replay;
	double gap;		 /* powers of 2; NaN: null */
	double size;		 /* 0..1; NaN: null */
	double offset;		 /* 0..1; NaN: null */
	double latency;		 /* powers of 2; NaN: null */
	bool latency_judged;	 /* no setting moved it */
	uint64_t p50_capture_ns; /* ns */
	uint64_t p90_capture_ns; /* ns */
	uint64_t p99_capture_ns; /* ns */
	uint64_t p50_replay_ns;	 /* ns */
	uint64_t p90_replay_ns;	 /* ns */
	uint64_t p99_replay_ns;	 /* ns */
	double seq_capture;	 /* share of sequential calls */
	double seq_replay;
	struct model_kept *keep;
};

/* The run's cgroup ("limits"): what it allowed, what was used. */
struct run_limits_doc {
	char *cgroup;		 /* its path */
	uint64_t memory_max;	 /* bytes */
	uint8_t has_memory_max;	 /* MODEL_NULL: no limit */
	uint64_t memory_peak;	 /* bytes */
	uint8_t has_memory_peak; /* MODEL_NULL: not read */
	char *cpus;		 /* the CPU list, NULL: null */
	char *mems;		 /* the memory nodes, NULL: null */
	struct model_kept *keep;
};

/* The exec workload's command ("exec"). */
struct run_exec_doc {
	char *cmd;	   /* the command line */
	int64_t status;	   /* its exit status */
	double printed;	   /* the number it printed last; NaN: null */
	char *stdout_tail; /* the end of what it printed */
	char *stderr_tail;
	struct model_kept *keep;
};

/* A verified block's header ("verify.first.expected", ".found"). */
struct run_verify_hdr_doc {
	uint64_t file_id;
	uint64_t offset; /* bytes */
	uint64_t seed;
	uint64_t seq;
	struct model_kept *keep;
};

/* The first block not as written ("verify.first"). */
struct run_verify_first {
	char *file;	      /* its file */
	uint64_t offset;      /* bytes */
	uint64_t bad_byte;    /* the first byte that differs */
	uint8_t has_bad_byte; /* MODEL_NULL: the header was bad */
	bool header_ok;
	bool crc_ok;
	char *found_by; /* "read" or "read-back" */
	struct run_verify_hdr_doc *expected;
	struct run_verify_hdr_doc *found;
	struct model_kept *keep;
};

/* --verify ("verify"). */
struct run_verify_doc {
	char *method;			/* "crc32c" */
	uint64_t blocks;		/* checked */
	uint64_t mismatches;		/* not as written */
	double cpu_s;			/* the check's CPU, s */
	double readback_s;		/* the read-back pass, s */
	struct run_verify_first *first; /* NULL: null (none bad) */
	struct model_kept *keep;
};

/* A knob in force and whether the run reached where it acts
 * ("regime[]"). */
struct run_regime_doc {
	char *knob;	 /* as asked */
	char *canonical; /* the knob set */
	char *object;	 /* its device, mount or "system" */
	char *value;	 /* its value */
	char *state;	 /* "reached", "not_reached", "unknown" */
	char *why;	 /* the numbers behind the state */
	struct model_kept *keep;
};

/* The run object. */
struct run_doc {
	char *schema;		    /* "iotrial/1" */
	char *iotrial_version;	    /* the iotrial that ran it */
	char *workload;		    /* "randread", "smallfiles", "exec", ... */
	struct model_param *params; /* every parameter, as typed */
	size_t nr_params;
	struct model_pair *knobs; /* knob -> canonical value in force */
	size_t nr_knobs;
	struct run_target *target;
	char *described;	/* what ran where, in words, or NULL */
	uint64_t ios_requested; /* an I/O count run */
	uint8_t has_ios_requested;
	double time_requested_s; /* a timed run, s */
	uint8_t has_time_requested_s;
	double ramp_s;		 /* ramp before the timed part, s */
	struct model_value seed; /* an integer (a string in old files) */
	double seconds;		 /* the timed part, s; NaN: null */
	double burst_seconds;	 /* s */
	uint64_t ops;		 /* I/Os in the timed part */
	double iops;		 /* I/O per second; NaN: null */
	double mbps;		 /* 10^6 bytes/s; NaN: null */
	uint64_t bytes_read;	 /* bytes */
	uint64_t bytes_written;	 /* bytes */
	uint64_t ops_read;
	uint64_t ops_written;
	uint64_t fsyncs;
	uint64_t file_ops_total; /* a file workload's operations */
	uint8_t has_file_ops_total;
	double ops_per_s; /* of them, per second */
	uint8_t has_ops_per_s;
	struct run_file_op *file_ops;
	size_t nr_file_ops;
	uint8_t has_file_ops;
	double dbench_mbps; /* dbench's own figure, 10^6 bytes/s */
	uint8_t has_dbench_mbps;
	double fidelity; /* a replay's score, 0..1 */
	uint8_t has_fidelity;
	struct run_fidelity_dev *fidelity_device; /* NULL: not judged */
	struct run_fidelity_setting *fidelity_settings;
	size_t nr_fidelity_settings;
	uint8_t has_fidelity_settings;
	struct run_fidelity_class *fidelity_dist; /* a map by class */
	size_t nr_fidelity_dist;
	uint8_t has_fidelity_dist;
	bool interrupted; /* a signal cut the run short */
	struct run_latencies *latency_ns;
	struct run_cpu *cpu;
	struct run_job *jobs;
	size_t nr_jobs;
	struct run_metric *metric;
	struct run_limits_doc *limits; /* --memory-limit, --cpus, --mems */
	struct run_exec_doc *exec;     /* the exec workload */
	struct run_verify_doc *verify; /* --verify */
	struct model_num *metrics;     /* every metric's value */
	size_t nr_metrics;
	struct truth_device_doc *devices; /* what reached each device */
	size_t nr_devices;
	uint8_t has_devices;
	struct truth_doc *truth; /* NULL: null or not observed */
	uint8_t has_truth;
	struct env_doc *env;
	char **warnings; /* each with the numbers behind it */
	size_t nr_warnings;
	char **warning_kinds; /* the kind of each warning, in order
				 ("page_cache", "short", "other_io", ...);
				 an older run has none: the kind is then
				 the text's (result.h, run_warn_kind_of_text) */
	size_t nr_warning_kinds;
	char **notes; /* what is worth knowing, not a doubt */
	size_t nr_notes;
	char **engine_features; /* the engine's, by name */
	size_t nr_engine_features;
	uint8_t has_engine_features;
	struct run_regime_doc *regime; /* per knob in force */
	size_t nr_regime;
	uint8_t has_regime;
	struct model_kept *keep;
};

/* Lifecycle: init zeroes; release frees the contents and leaves doc
 * as init did; free releases and frees doc itself (NULL is fine). */
void run_doc_init(struct run_doc *doc);
void run_doc_release(struct run_doc *doc);
void run_doc_free(struct run_doc *doc);

/* A deep copy of src into dst (not initialised). */
void run_doc_copy(struct run_doc *dst, const struct run_doc *src);

#endif
