/*
 * Fidelity as distributions: beside the totals of fidelity.h, the
 * capture and the replay compared per class of operation (reads,
 * writes, flushes, name operations) on how the calls were spread, not
 * only how many there were:
 *
 *   gap      the time between the starts of two calls of the class
 *            (every thread's together), the capture's scaled by the
 *            speed; at the replay's time resolution: gaps under
 *            FDIST_GAP_FLOOR_NS count as one (timed replays only)
 *   size     the sizes asked (reads and writes)
 *   offset   where each call went against where the thread's previous
 *            call of the class on that file ended: at its end (a
 *            sequential call), how far before or after it by power of
 *            2, or a first call (reads and writes)
 *   latency  how long the calls took
 *
 * Sizes and offsets, which the replay makes as recorded, are compared
 * by the Kolmogorov-Smirnov distance (on buckets a quarter of a power
 * of 2 wide): the largest difference of the two sides' cumulative
 * shares, 0 for the same, 1 for disjoint. Gaps and latencies, which
 * the machine shapes, by how far apart they are in powers of 2: the
 * mean over the quantiles of |log2 capture - log2 replay| (1: twice or
 * half as long throughout; at most FDIST_OCTAVES_CAP), each value taken
 * as at least its floor (the replay's resolution: a sleep is not worth
 * less than FDIST_GAP_FLOOR_NS, a call's own time is not told under
 * FDIST_LATENCY_FLOOR_NS).
 *
 * A class with fewer than FDIST_MIN_CALLS calls in the capture is not
 * judged (too few to tell). A distance over its threshold (FDIST_*_MAX)
 * makes the replay poor; the latency is not judged when a setting that
 * moves it differs from the capture's (fidelity.h, FMOVE_LATENCY): it
 * is then that setting's effect, reported; nor as fast as the replay
 * goes (speed 0): calls that came at their own pace in the capture
 * wait on the device when they come back to back. The latency's percentiles
 * (p50, p90, p99) of both sides are kept for people.
 */
#ifndef IOTRIAL_TRACE_FIDELITY_DIST_H
#define IOTRIAL_TRACE_FIDELITY_DIST_H

#include <stddef.h>
#include <stdint.h>
#include "trace.h"

struct strbuf;

#define FDIST_MIN_CALLS	       100
#define FDIST_GAP_FLOOR_NS     200000ull /* the replay's time resolution */
#define FDIST_LATENCY_FLOOR_NS 1000ull	 /* a call's, as timed */
#define FDIST_OCTAVES_CAP      10.0
#define FDIST_GAP_MAX	       0.75 /* powers of 2 */
#define FDIST_SIZE_MAX	       0.05
#define FDIST_OFFSET_MAX       0.05
#define FDIST_LATENCY_MAX      2.0 /* powers of 2 */

enum fdist_class {
	FDC_READ,
	FDC_WRITE,
	FDC_SYNC,  /* fsync, fdatasync, sync_file_range, sync, syncfs */
	FDC_NAMES, /* open, stat, unlink, rename, mkdir, rmdir, getdents */
	FDC__NR
};

enum fdist_term { FDT_GAP, FDT_SIZE, FDT_OFFSET, FDT_LATENCY, FDT__NR };

/* One class compared. */
struct fdist_class_result {
	uint64_t calls[2];     /* capture, replay */
	double d[FDT__NR];     /* each distance: 0..1 (size, offset) or
				  powers of 2 (gap, latency) */
	int applies[FDT__NR];  /* computed (enough calls, the right kind) */
	int judged[FDT__NR];   /* and counted against the threshold */
	uint64_t lat_ns[2][3]; /* p50, p90, p99 of capture, replay */
	double seq[2];	       /* share of sequential calls (reads and
				  writes), capture and replay */
};

struct fidelity_dist {
	struct fdist_class_result c[FDC__NR];
	int poor; /* a judged distance over its threshold */
};

/*
 * Compare the replay's calls r[0..nr_r) with the capture's c[0..nr_c)
 * (both file-layer events; mmap and msync and block requests are left
 * out), at speed (0: as fast as it went, no gap term); moves: the
 * FMOVE_* of settings that differ (fidelity.h). why gets a clause per
 * judged distance over its threshold ("reads: their gaps differ by
 * 0.31"), reset first.
 */
void fidelity_dist_compute(const struct trace_event *c, size_t nr_c,
			   const struct trace_event *r, size_t nr_r,
			   double speed, unsigned moves,
			   struct fidelity_dist *out, struct strbuf *why);

/* "reads", "writes", "flushes", "names"; "read" ... as the run object
 * keys them (json 1). */
const char *fdist_class_name(enum fdist_class k, int json);
/* "gap", "size", "offset", "latency". */
const char *fdist_term_name(enum fdist_term t);

#endif
