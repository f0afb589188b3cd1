/*
 * What one window of a live experiment measured: the device's counters
 * (/sys/block/DISK/stat, the fields of /proc/diskstats) and dirty
 * memory (/proc/meminfo) differenced over the window, and the user's own
 * number: a command that prints a number (a gauge, or a counter that is
 * differenced per window: "requests served"), or a log file followed as
 * it grows, its new lines matched by a regular expression (counted per
 * second, or, with a group in the expression, the group's numbers
 * averaged).
 */
#ifndef IOTRIAL_LIVE_WINDOW_H
#define IOTRIAL_LIVE_WINDOW_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "../observe/diskstats.h"
#include "../observe/meminfo.h"
#include "../../util/strbuf.h"

/* Where the user's number comes from. */
enum lw_source_kind {
	LW_SRC_NONE,
	LW_SRC_CMD,  /* --metric-cmd */
	LW_SRC_FILE, /* --metric-file with --metric-regex */
};

/* The user's metric source; its state between windows. */
struct lw_source {
	enum lw_source_kind kind;
	char *cmd;	       /* sh -c CMD */
	bool counter;	       /* differenced per window, per second */
	char *path;	       /* the log file */
	regex_t re;	       /* --metric-regex */
	bool re_ok;	       /* re compiled */
	bool extract;	       /* re has a group: average its numbers */
	int fd;		       /* the log, or -1 */
	off_t pos;	       /* read up to here */
	struct strbuf partial; /* a line not yet ended */
	bool too_long;	       /* the line read now is over LW_LINE_MAX:
				  skipped to its end */
	double last;	       /* the counter's previous value */
	bool have_last;
};

/* Set up src; 0 or -errno with err set (a regex that does not compile,
 * a log that is not a regular file: -EINVAL, a FIFO is never waited
 * on). The log is followed from its end. */
int lw_source_cmd(struct lw_source *src, const char *cmd, bool counter,
		  struct strbuf *err);
int lw_source_file(struct lw_source *src, const char *path, const char *re,
		   struct strbuf *err);
void lw_source_release(struct lw_source *src);

/*
 * --cgroup: the service's own I/O on the device, from its cgroup's
 * io.stat (v2: "MAJ:MIN rbytes= wbytes= rios= wios=") or, on a v1
 * blkio hierarchy, blkio.throttle.io_service_bytes and io_serviced.
 */
struct lw_cgroup {
	char *dir;	/* the cgroup's directory */
	char devno[32]; /* "7:3" */
	bool v2;
};

/* Check dir is a cgroup with I/O statistics and find disk's number.
 * 0 or -errno with err set. */
int lw_cgroup_open(struct lw_cgroup *cg, const char *dir, const char *disk,
		   struct strbuf *err);
void lw_cgroup_release(struct lw_cgroup *cg);

/* A reading at one instant. */
struct lw_reading {
	uint64_t t_ns;
	struct diskstats ds;
	struct meminfo mi;
	bool have_ds, have_mi;
	uint64_t cg_rbytes, cg_wbytes, cg_rios, cg_wios;
	bool have_cg;
};

/* One window's numbers. */
struct lw_measure {
	double seconds;
	struct disk_delta d; /* zero when the device could not be read */
	bool have_disk;
	double requests;		     /* reads + writes completed */
	double mb;			     /* 10^6 bytes read + written */
	double dirty_bytes, writeback_bytes; /* at the end */
	double user; /* the user's number; NaN when none */
	bool user_ok;
	bool have_cg; /* scoped: the cgroup's share was read */
	double cg_mb, cg_iops, cg_mbps;
	double other_mb; /* device MB that were not the cgroup's: negative
			    when the cgroup's were issued in this window and
			    complete in the next */
};

/*
 * Read the device's stat file (open at stat_fd, or -1 for none) and
 * /proc/meminfo into *out. 0; a file that cannot be read leaves its
 * have_ flag false.
 */
void lw_read(int stat_fd, const struct lw_cgroup *cg, struct lw_reading *out);

/*
 * The window from a to b: the device deltas, dirty memory at b, and the
 * user's number read now (a command run, the log's new lines). 0, or
 * -errno with err set when the user's number cannot be had (the
 * command failed or printed no number); the device part is filled
 * either way.
 */
int lw_measure(const struct lw_reading *a, const struct lw_reading *b,
	       struct lw_source *src, struct lw_measure *out,
	       struct strbuf *err);

/* The longest line of a --metric-file matched; a longer one is skipped
 * (it would otherwise be held whole, however long it grows). */
#define LW_LINE_MAX (64u << 10)

/*
 * The number --metric-cmd printed: its output (out[0..len), any bytes)
 * with white space trimmed, read as a decimal number (what follows the
 * number is ignored: "812 requests"). 0 with *v finite, or -EINVAL with
 * err quoting the output's start, made printable.
 */
int lw_cmd_number(const char *cmd, const char *out, size_t len, double *v,
		  struct strbuf *err);

/* What the new lines of a log amounted to. */
struct lw_tally {
	double lines; /* lines matching the regex */
	double sum;   /* of the numbers its group captured */
	double nr;    /* numbers captured */
};

/*
 * n more bytes of src's log: each line they end is matched against the
 * regex and counted in t; what follows the last newline is kept for the
 * next call (at most LW_LINE_MAX bytes of it: a longer line is skipped
 * whole). The tally does not depend on how the bytes are split.
 */
void lw_log_feed(struct lw_source *src, const char *buf, size_t n,
		 struct lw_tally *t);

/* Prime src at the experiment's start: a counter's first value, the
 * log's end. 0 or -errno with err set. */
int lw_source_start(struct lw_source *src, struct strbuf *err);

/*
 * The value of metric name in m ("mbps", "iops", "r_await", "w_await",
 * "await", "aqu_sz", "util", "dirty", "writeback", "metric"); NaN when
 * not measured. Scoped to a cgroup, mbps and iops are the cgroup's. *hib (may
 * be NULL) says whether higher is better. lw_metric_known() says whether name
 * is one of them.
 */
double lw_metric(const struct lw_measure *m, const char *name);
bool lw_metric_known(const char *name, bool *hib, const char **unit);

#endif
