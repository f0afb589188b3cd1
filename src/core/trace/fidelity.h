/*
 * Fidelity: how closely a replay did what the capture recorded. Both
 * sides are trace summaries (the replay records what it did as trace
 * events too), compared on the operations a replay performs (mmap and
 * msync are noted in a trace, not replayed, and left out of both).
 *
 * Each component is a relative error, 0 for a perfect replay, capped at
 * 1:
 *   ops      |ops_r / ops_c - 1|             all operations
 *   bytes    |bytes_r / bytes_c - 1|         read and written, moved
 *   names    |names_r / names_c - 1|         name operations
 *   rate     sum_s |ops_r(s) - ops_c(s)| / sum_s ops_c(s), over the
 *            seconds of the capture scaled by the speed (timed replays
 *            only: not at --speed max)
 *   sizes    total variation distance of the request-size histograms
 *            (reads and writes, by power of 2)
 *   mix      |read share_r - read share_c| of the reads and writes
 *   namemix  total variation distance of the name operations by kind
 *   lag      max(0, replay duration / (capture duration / speed) - 1),
 *            open loop only
 *   depth    |mean queue depth_r / mean queue depth_c - 1|, block
 *            requests only (names and namemix do not apply there)
 * and the score is 100 * (1 - the mean of the components that apply).
 * A replay is poor (suspect) when ops, bytes or names differ by over
 * 2%, the rate by over 10%, an open loop fell behind by over 5%, or
 * the queue depth differs by over 25%.
 */
#ifndef IOTRIAL_TRACE_FIDELITY_H
#define IOTRIAL_TRACE_FIDELITY_H

#include "trace_summary.h"

struct strbuf;

enum fidelity_component {
	FID_OPS,
	FID_BYTES,
	FID_NAMES,
	FID_RATE,
	FID_SIZES,
	FID_MIX,
	FID_NAMEMIX,
	FID_LAG,
	FID_DEPTH, /* block layer: |mean depth_r / mean depth_c - 1| */
	FID__NR
};

struct fidelity {
	double err[FID__NR];  /* each component's error, 0..1 */
	int applies[FID__NR]; /* whether it counts (rate, lag) */
	double score;	      /* 0..100 */
	int poor;	      /* over a threshold: say why in why */
};

/*
 * Compare replay r against capture c. speed: the replay's speed factor
 * (0: as fast as it goes); open_loop: it ran on absolute timestamps.
 * why gets one clause per threshold crossed ("the rate differs by 14%").
 */
void fidelity_compute(const struct trace_summary *c,
		      const struct trace_summary *r, double speed,
		      int open_loop, struct fidelity *f, struct strbuf *why);

/* The component's name ("ops", "rate"). */
const char *fidelity_name(enum fidelity_component k);

#endif
