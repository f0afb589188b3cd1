/*
 * The sampler: a thread that reads, every interval (250 ms by default),
 * each device's stat file, /proc/meminfo (Dirty, Writeback), /proc/stat
 * and /proc/self/io, and appends one point to a time series. A run takes
 * a point when its timed region opens and one when it closes; the
 * difference between those is the run's device truth, and the points in
 * between show how it got there (dirty memory peaking, writeback bursts)
 * for reports.
 *
 * Cost matters: the files stay open and are re-read with pread(), the
 * thread sleeps on a condition variable until its next absolute deadline,
 * and the CPU time it uses is measured (CLOCK_THREAD_CPUTIME_ID) and
 * reported, so the promise of "under 0.5% of a core" is checked, not
 * assumed. `iotrial watch` uses the same readers without the thread.
 */
#ifndef IOTRIAL_SAMPLER_H
#define IOTRIAL_SAMPLER_H

#include <pthread.h>
#include <stdint.h>
#include "diskstats.h"
#include "procio.h"
#include "schedstat.h"
#include "../../util/strbuf.h"

#define SAMPLER_DEFAULT_INTERVAL_NS 250000000ull

/* Which sources a point holds (the others could not be read). */
enum sampler_have {
	SAMPLER_HAVE_MEM = 1 << 0,    /* dirty_bytes, writeback_bytes */
	SAMPLER_HAVE_CPU = 1 << 1,    /* cpu_*_ticks */
	SAMPLER_HAVE_IO = 1 << 2,     /* io */
	SAMPLER_HAVE_VMSTAT = 1 << 3, /* the dirty_*thresh_bytes, dirtyable */
	SAMPLER_HAVE_CG = 1 << 4,     /* cg_* (sampler_watch_cgroup) */
	SAMPLER_HAVE_SCHED = 1 << 5,  /* sched_*_ns (schedstat.h) */
	SAMPLER_HAVE_RUNQ = 1 << 6,   /* runnable */
};

/* One device to sample. */
struct sampler_dev {
	const char *name;      /* "vda" */
	const char *stat_path; /* "/sys/block/vda/stat" */
};

/* One moment. Device readings live in the series' disk array. */
struct sampler_point {
	uint64_t t_ns;		  /* CLOCK_MONOTONIC */
	uint64_t dirty_bytes;	  /* /proc/meminfo Dirty */
	uint64_t writeback_bytes; /* /proc/meminfo Writeback */
	uint64_t cpu_busy_ticks;  /* /proc/stat, all CPUs */
	uint64_t cpu_total_ticks;
	struct procio io;	     /* /proc/self/io: every thread of ours */
	uint64_t dirty_thresh_bytes; /* /proc/vmstat nr_dirty_threshold */
	uint64_t dirty_bg_thresh_bytes; /* nr_dirty_background_threshold */
	uint64_t dirtyable_bytes;	/* MemFree + Active(file) +
					   Inactive(file) */
	uint64_t cg_dirty_bytes;	/* the cgroup's memory.stat */
	uint64_t cg_writeback_bytes;
	uint64_t cg_file_lru_bytes; /* active_file + inactive_file */
	uint64_t cg_current_bytes;  /* its memory use now */
	uint64_t sched_run_ns;	    /* our threads on a CPU, and runnable */
	uint64_t sched_wait_ns;	    /* but waiting, since the first point
				       (schedstat.h) */
	uint64_t wake_late_ns;	    /* the sampler's own wake-ups: how late
				       past their deadlines, summed */
	unsigned runnable;	    /* tasks running or runnable now, ours
				       included (/proc/loadavg) */
	unsigned have;		    /* enum sampler_have */
};

/*
 * A time series: nr_points points, and for each nr_devs device readings
 * (disk[p * nr_devs + d]; nr_fields 0 where a read failed).
 */
struct sampler_series {
	struct sampler_point *points;
	struct diskstats *disk;
	unsigned nr_points, alloc_points;
	unsigned nr_devs;
	char **dev_names; /* nr_devs, owned */
	int cg_version;	  /* of the watched cgroup: 0 none, 1 or 2 */
	uint64_t cg_memory_max_bytes; /* its limit; 0: none or unknown */
};

struct sampler {
	struct sampler_series series;
	int *dev_fds;		      /* one per device */
	int mem_fd, stat_fd, io_fd;   /* -1 when not available */
	int vmstat_fd;		      /* /proc/vmstat, or -1 */
	int loadavg_fd;		      /* /proc/loadavg, or -1 */
	struct schedstat_tasks tasks; /* our threads' scheduling */
	uint64_t wake_late_ns;	      /* summed lateness of the thread */
	int cg_stat_fd, cg_cur_fd;    /* the watched cgroup's, or -1 */
	uint64_t page_bytes;	      /* /proc/vmstat counts pages */
	uint64_t interval_ns;
	unsigned max_points;  /* keep only the newest this many; 0: all */
	uint64_t cpu_ns;      /* CPU time spent sampling (all threads) */
	unsigned read_errors; /* reads that failed after init */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* on CLOCK_MONOTONIC */
	int stop;	     /* under lock: the thread should exit */
	int running;	     /* the thread was started */
	int ready;	     /* sampler_init ran: there is something to
				release (a zeroed sampler has not) */
};

/*
 * Open the files for nr devices. interval_ns 0 means the default;
 * max_points 0 keeps every point. Returns 0, or -errno with err set when
 * a device's stat file cannot be opened. The memory and process files
 * may be missing (containers): their fields are then simply absent.
 */
int sampler_init(struct sampler *s, const struct sampler_dev *devs, unsigned nr,
		 uint64_t interval_ns, unsigned max_points, struct strbuf *err);

/*
 * Also sample the memory cgroup at dir (its memory.stat and its current
 * use; version 1 or 2 decides the file and key names) in every point
 * from now on. Returns 0 or -errno (the files cannot be opened: the
 * points then simply have no cgroup numbers).
 */
int sampler_watch_cgroup(struct sampler *s, const char *dir, int version);

/*
 * Append one point now. Returns 0, or the first read error (-errno or
 * -EINVAL for unparsable text); the point is appended either way, with
 * what could be read. Not while the thread runs.
 */
int sampler_sample(struct sampler *s);

/*
 * Forget earlier points, take the first point and start the thread.
 * Returns 0 or -errno with err set (the thread could not be created).
 */
int sampler_start(struct sampler *s, struct strbuf *err);

/* Stop and join the thread (if running), then take the last point. */
void sampler_stop(struct sampler *s);

/* Device d's reading in point p. */
const struct diskstats *sampler_disk(const struct sampler_series *ser,
				     unsigned p, unsigned d);

/* Move the series out to the caller (who frees it with
 * sampler_series_release); the sampler keeps an empty one. */
void sampler_take_series(struct sampler *s, struct sampler_series *out);
void sampler_series_release(struct sampler_series *ser);

/* Stop the thread if needed, close the files, free the series. NULL and
 * a zeroed, never initialised sampler are fine. */
void sampler_release(struct sampler *s);

#endif
