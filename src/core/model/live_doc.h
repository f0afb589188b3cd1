/*
 * The parts of an `observe` experiment (live/live_json.c writes them
 * today): its windows over time, the switchback analysis, and the
 * --abort-if rule that ended it. A fleet host that ran observe keeps
 * its own windows and switchback in the fleet part (fleet_doc.h).
 */
#ifndef IOTRIAL_LIVE_DOC_H
#define IOTRIAL_LIVE_DOC_H

#include "model.h"

/* The device's own numbers in a window ("windows[].device"); each is
 * absent when the device was not read, NaN when null. */
struct live_window_device {
	double mbps; /* 10^6 bytes/s */
	uint8_t has_mbps;
	double iops; /* I/O per second */
	uint8_t has_iops;
	double r_await; /* ms */
	uint8_t has_r_await;
	double w_await; /* ms */
	uint8_t has_w_await;
	double aqu_sz; /* requests in flight */
	uint8_t has_aqu_sz;
	double util; /* percent */
	uint8_t has_util;
	struct model_kept *keep;
};

/* The cgroup's share of a window ("windows[].cgroup"). */
struct live_window_cgroup {
	double mbps;	 /* 10^6 bytes/s; NaN: null */
	double iops;	 /* NaN: null */
	double other_mb; /* others' I/O on the device, 10^6 bytes */
	struct model_kept *keep;
};

/* One window of the schedule ("windows[]"). */
struct live_window {
	int64_t seq; /* its place in the schedule */
	int64_t block;
	int64_t arm;
	char *label;	/* the arm's */
	bool settle;	/* a settle window after a switch, not analysed */
	bool cut_short; /* ended early */
	double start_s; /* from the start, s; NaN: null */
	double seconds; /* s; NaN: null */
	double metric;	/* NaN: null */
	double load;	/* the load it carried; NaN: null */
	struct live_window_device *device;
	double dirty_bytes;	/* bytes (a mean); NaN: null */
	double writeback_bytes; /* bytes; NaN: null */
	double user;		/* the user's number (--user-metric) */
	uint8_t has_user;	/* NaN: null */
	char *note;		/* why it is doubtful, or NULL */
	char *other_io;		/* others' I/O beside the cgroup's, or NULL */
	struct live_window_cgroup *cgroup; /* scoped to a cgroup */
	struct model_kept *keep;
};

/* The randomisation test of an arm ("switchback.arms[]"). */
struct live_sb_rand {
	double rand_p; /* NaN: null */
	bool rand_exact;
	struct model_kept *keep;
};

/* The ratio adjusted for time and load ("switchback.arms[]"): the
 * paired analysis's adjusted comparison (stats/adjust.h). */
struct live_sb_adjusted {
	double adj_ratio;   /* NaN: null */
	double adj_ci_low;  /* NaN: null */
	double adj_ci_high; /* NaN: null */
	double adj_p;	    /* its signed-rank p; NaN: null */
	uint8_t has_adj_p;  /* an older observe has none of these three */
	bool adj_used;	    /* the verdict rests on it */
	uint8_t has_adj_used;
	char *adj_why; /* "used", "few blocks", ...; or NULL */
	struct model_kept *keep;
};

/* An arm in the switchback analysis. */
struct live_sb_arm {
	int64_t arm;
	double mean_time_frac;	   /* when its windows ran, 0..1; NaN: null */
	double mean_load;	   /* the load they carried; NaN: null */
	struct live_sb_rand *rand; /* NULL: not tested */
	struct live_sb_adjusted *adjusted; /* NULL: not adjusted */
	struct model_kept *keep;
};

/* The switchback analysis ("switchback"). */
struct live_switchback {
	double window_s; /* s; NaN: null */
	double settle_s; /* s; NaN: null */
	int64_t blocks_planned;
	int64_t blocks;	  /* analysed */
	int64_t dropped;  /* left out */
	double trend_rho; /* the load's trend over time; NaN: null */
	double trend_p;	  /* NaN: null */
	bool trend;
	int64_t suspect_windows; /* with other I/O */
	bool carryover_warning;
	char *per_load; /* the metric is per this unit of load, or
			   NULL */
	struct live_sb_arm *arms;
	size_t nr_arms;
	struct model_kept *keep;
};

/* The --abort-if rule that ended an observe ("abort"). */
struct live_abort {
	char *rule;		 /* as given */
	char *why;		 /* the numbers that fired it */
	double value;		 /* the value it saw */
	int64_t window;		 /* 0-based: the window just measured */
	double restored_after_s; /* until the settings were back, s */
	uint8_t has_restored_after_s;
	struct model_kept *keep;
};

/* A window's device row in its run object ("runs[].run.devices[]"). */
struct live_run_device {
	const char *name;
	double r_s, w_s;		/* requests per second */
	double rmbps, wmbps;		/* 10^6 bytes per second */
	double read_bytes, write_bytes; /* bytes */
};

/* What an analysed window says as a run ("runs[].run" of observe). */
struct live_run {
	const char *const *warnings;	  /* why it is doubtful */
	const char *const *warning_kinds; /* the kind of each */
	size_t nr_warnings;
	double seconds;			      /* s; NaN: null */
	const struct live_run_device *device; /* NULL: not read */
};

/*
 * The run object of r (model_live.c): these members alone, the device
 * row's numbers unrounded and its byte counts printed as measurements
 * (1234.0), as observe writes a window's run; the run_doc a decode of
 * a stored observe gives. A new one (run_doc_free()), or NULL when a
 * number cannot be one of a run (a bug).
 */
struct run_doc;
struct run_doc *live_run_doc(const struct live_run *r);

/* Free what a part holds (NULL is fine); free also frees it. */
void live_window_release(struct live_window *w);
void live_switchback_free(struct live_switchback *sb);
void live_abort_free(struct live_abort *a);

#endif
