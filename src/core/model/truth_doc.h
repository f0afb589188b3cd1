/*
 * Device truth as a document: what reached each device of the target's
 * stack during a run (a run's "devices"), what the page cache absorbed
 * and what the sampler saw over time (its "truth"). observe/truth_json.c
 * and observe/regime_obs.c write them today; the numbers are rounded
 * where they are printed (MK_RND: 12.5, not 12.500000000000002).
 */
#ifndef IOTRIAL_TRUTH_DOC_H
#define IOTRIAL_TRUTH_DOC_H

#include "model.h"

/*
 * A device's numbers over an interval, iostat's and more: the members
 * of a "devices[]" row after name, kind and via (and every line of
 * `watch --json`). An `observe` window has only r_s, w_s, rmbps, wmbps,
 * read_bytes and write_bytes, unrounded.
 */
struct disk_delta_doc {
	double r_s;		/* reads completed per second */
	double w_s;		/* writes completed per second */
	double rmbps;		/* 10^6 bytes read per second */
	double wmbps;		/* 10^6 bytes written per second */
	double r_await_ms;	/* mean read time in the device, ms */
	double w_await_ms;	/* mean write time, ms */
	double aqu_sz;		/* mean requests in flight */
	double util_pct;	/* time busy, percent */
	uint64_t flushes;	/* flush requests */
	uint8_t has_flushes;	/* MODEL_NULL: the kernel does not count them */
	uint64_t discards;	/* discard requests */
	uint8_t has_discards;	/* MODEL_NULL: not counted */
	uint64_t reads;		/* reads completed */
	uint64_t writes;	/* writes completed */
	uint64_t read_bytes;	/* bytes */
	uint64_t write_bytes;	/* bytes */
	uint64_t discard_bytes; /* bytes */
	uint8_t has_discard_bytes; /* MODEL_NULL: not counted */
	double rrqm_s;		   /* reads merged per second */
	double wrqm_s;		   /* writes merged per second */
	double rareq_kib;	   /* mean read request, KiB */
	double wareq_kib;	   /* mean write request, KiB */
	double f_s;		   /* flushes per second; NaN: null */
	double f_await_ms;	   /* ms; NaN: null */
	double d_s;		   /* discards per second; NaN: null */
	double dmbps;	   /* 10^6 bytes discarded per second; NaN: null */
	double d_await_ms; /* ms; NaN: null */
	double seconds;	   /* the interval, s */
	struct model_kept *keep;
};

/* One device of the target's stack ("devices[]"). */
struct truth_device_doc {
	char *name;		      /* "vda", "loop0" */
	char *kind;		      /* "disk", "loop", ...; NULL: null */
	char *via;		      /* how it is under the target; NULL:
					 null */
	struct disk_delta_doc *delta; /* NULL: its counters were not read */
	struct model_kept *keep;
};

/* Where the global dirty thresholds stood ("truth.dirty_thresholds"). */
struct truth_dirty_thresholds {
	uint64_t dirtyable_bytes;	     /* bytes */
	uint64_t background_bytes;	     /* background writeback, bytes */
	uint64_t throttle_bytes;	     /* writers throttled, bytes */
	uint64_t dirty_writeback_peak_bytes; /* dirty + writeback, bytes */
	struct model_kept *keep;
};

/* The run's cgroup's dirty memory ("truth.cgroup_dirty"). */
struct truth_cgroup_dirty {
	int64_t version;	   /* cgroup 1 or 2 */
	uint64_t memory_max_bytes; /* bytes */
	uint64_t dirty_peak_bytes; /* bytes */
	uint8_t has_dirty_peak_bytes;
	uint64_t dirty_writeback_peak_bytes; /* bytes */
	uint8_t has_dirty_writeback_peak_bytes;
	uint64_t dirtyable_bytes; /* bytes */
	uint8_t has_dirtyable_bytes;
	uint64_t background_bytes; /* bytes */
	uint8_t has_background_bytes;
	uint64_t throttle_bytes; /* bytes */
	uint8_t has_throttle_bytes;
	struct model_kept *keep;
};

/* A device's busiest interval ("truth.queue_peaks[]"). */
struct truth_queue_peak {
	char *name;
	uint64_t max_in_flight; /* requests */
	double max_aqu_sz;	/* mean requests in flight */
	double max_rareq_kib;	/* mean read request, KiB */
	uint64_t intervals;	/* sampled */
	struct model_kept *keep;
};

/* The sampler's own cost ("truth.sampler"). */
struct truth_sampler {
	double interval_ms; /* between samples, ms */
	uint64_t samples;
	double cpu_s;	      /* its CPU, s */
	double cpu_pct;	      /* of the run's time, percent; NaN: null */
	uint64_t read_errors; /* reads of /proc and /sys that failed */
	struct model_kept *keep;
};

/* A device's rates between samples ("truth.series.devices[]"): one
 * entry per interval, NaN where a sample was missing. */
struct truth_series_device {
	char *name;
	double *r_s; /* reads per second */
	size_t nr_r_s;
	double *w_s; /* writes per second */
	size_t nr_w_s;
	double *rmbps; /* 10^6 bytes/s */
	size_t nr_rmbps;
	double *wmbps; /* 10^6 bytes/s */
	size_t nr_wmbps;
	double *util_pct; /* percent */
	size_t nr_util_pct;
	double *aqu_sz; /* requests in flight */
	size_t nr_aqu_sz;
	struct model_kept *keep;
};

/* The sampler's points over time ("truth.series"). */
struct truth_series {
	double *t_s; /* each point's time from the first, s */
	size_t nr_t_s;
	uint64_t *dirty_bytes; /* per point; UINT64_MAX: null */
	size_t nr_dirty_bytes;
	uint64_t *writeback_bytes; /* per point; UINT64_MAX: null */
	size_t nr_writeback_bytes;
	struct truth_series_device *devices;
	size_t nr_devices;
	struct model_kept *keep;
};

/* What reached the device and what the page cache held ("truth"). */
struct truth_doc {
	char *device;			/* the target's device; NULL: null */
	double seconds;			/* observed, s */
	uint64_t logical_write_bytes;	/* the workload wrote, bytes */
	uint64_t logical_read_bytes;	/* the workload read, bytes */
	uint64_t device_write_bytes;	/* reached the device, bytes */
	uint8_t has_device_write_bytes; /* MODEL_NULL: no device */
	uint64_t device_read_bytes;
	uint8_t has_device_read_bytes;
	char *bottom_device; /* the stack's bottom; NULL: null */
	uint64_t bottom_write_bytes;
	uint8_t has_bottom_write_bytes;
	uint64_t bottom_read_bytes;
	uint8_t has_bottom_read_bytes;
	uint64_t process_write_bytes; /* /proc/self/io, bytes */
	uint8_t has_process_write_bytes;
	uint64_t process_read_bytes;
	uint8_t has_process_read_bytes;
	uint64_t cancelled_write_bytes;
	uint8_t has_cancelled_write_bytes;
	double absorbed_fraction;    /* of writes not on the device; NaN:
					null */
	double cached_read_fraction; /* of reads the cache served; NaN:
					null */
	uint64_t dirty_start_bytes;  /* /proc/meminfo Dirty, bytes */
	uint8_t has_dirty_start_bytes;
	uint64_t dirty_end_bytes;
	uint8_t has_dirty_end_bytes;
	uint64_t dirty_peak_bytes;
	uint8_t has_dirty_peak_bytes;
	uint64_t writeback_peak_bytes;
	uint8_t has_writeback_peak_bytes;
	double burst_seconds;	/* until writeback began, s; NaN: null */
	double burst_mbps;	/* 10^6 bytes/s before it; NaN: null */
	double settled_mbps;	/* after it; NaN: null */
	char *no_device_reason; /* why there is no device, or NULL */
	struct truth_dirty_thresholds *dirty_thresholds;
	struct truth_cgroup_dirty *cgroup_dirty;
	struct truth_queue_peak *queue_peaks;
	size_t nr_queue_peaks;
	uint8_t has_queue_peaks;
	struct truth_sampler *sampler;
	struct truth_series *series; /* NULL: no points */
	struct model_kept *keep;
};

#endif
