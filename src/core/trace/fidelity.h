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

/*
 * The device terms (format 1.2): what reached the device holding the
 * traced files during the capture (its meta device.*) against what
 * reached the replay target's device (the run's device truth). Each is
 * 0..1 like the components above:
 *   dev-read   |R - C| / max(C, 1 MiB) of the bytes read at the device
 *   dev-write  the same of the bytes written
 *   dev-size   |size_r / size_c - 1| of the mean request size
 *   dev-depth  |depth_r / depth_c - 1| of the mean queue depth while
 *              the device was busy (weighted time in queue / busy time)
 * They are judged only when both sides were measured, neither while
 * another process dropped the page cache (cache_drops: drop_caches
 * syncs and empties the cache, so the device did what the calls would
 * not have), and the traced
 * calls could explain at least half of the capture's device bytes (the
 * counters are the whole device's: other processes' I/O is in them);
 * dev-read only when they could explain half of its bytes read (or it
 * read under 1 MiB), dev-write likewise, and the same of the replay's
 * device against the replay's calls; dev-size and dev-depth only when
 * both are judged and each device moved 32 MiB at least (under it the
 * file system's own small I/O weighs as much as the calls'), and
 * dev-depth only when both devices were busy for
 * FDEV_DEPTH_BUSY_MS at least (the counters tick in ms: a depth over
 * a few of them is their rounding).
 * With device terms the score is 100 * (1 - (3 * file mean + device
 * mean) / 4): the file components weigh 3/4, the device ones 1/4.
 * dev-read or dev-write is poor past 25% and 1 MiB apart, dev-size and
 * dev-depth past 50%.
 */
#define FDEV_DEPTH_BUSY_MS 100.0

enum fidelity_dev_component {
	FDEV_READ,
	FDEV_WRITE,
	FDEV_SIZE,
	FDEV_DEPTH,
	FDEV__NR
};

/* One side's device numbers. */
struct fidelity_dev {
	int have;	     /* measured */
	uint64_t read_bytes; /* at the device */
	uint64_t write_bytes;
	uint64_t requests;     /* reads and writes completed */
	double busy_depth;     /* mean requests in flight while busy */
	double busy_ms;	       /* the time it was busy, ms */
	uint64_t cache_drops;  /* another process dropped the page cache
				  so many times meanwhile (drop_caches) */
	int have_traced;       /* traced_* are known */
	uint64_t traced_read;  /* what the traced (replayed) calls read */
	uint64_t traced_write; /* and wrote */
};

struct fidelity_devterms {
	double err[FDEV__NR];
	int applies[FDEV__NR];
	unsigned moved; /* FMOVE_DEV_* of terms that would apply but a
			   setting moved: err holds them, not judged */
	int judged;	/* some term applies */
	double share;	/* of the capture's device bytes the traced calls
			   could explain, 0..1 (1 when nothing moved) */
	int poor;
};

/*
 * Compare replay r with capture c at the device. logical_read and
 * logical_write: what the capture's traced calls read and wrote
 * (c->traced_*, what they moved on that device, win when known); moves:
 * the FMOVE_DEV_* terms settings that differ moved, not judged (f->moved
 * says which of them would have been). why gets the
 * plain sentences of the poor terms ("the capture's reads reached the device (X
 * MiB); the replay's came from the page cache (Y MiB)"), unjudged why the terms
 * were not judged (not recorded, not measured, other I/O). Both are reset
 * first.
 */
void fidelity_device(const struct fidelity_dev *c, const struct fidelity_dev *r,
		     uint64_t logical_read, uint64_t logical_write,
		     unsigned moves, struct fidelity_devterms *f,
		     struct strbuf *why, struct strbuf *unjudged);

/*
 * What a setting moves: the terms a difference of that setting between
 * the capture and the replay changes by itself. There the replay's
 * difference is the setting's effect, the result of the experiment that
 * set it, not infidelity: such a term is reported, not judged (it does
 * not count in the score and does not warn). No setting moves the calls,
 * their bytes, names, order or timing (ops, bytes, names, rate, sizes,
 * mix, namemix, lag, and the distributions of sizes, offsets and
 * inter-arrival times): the replay makes them whatever is set.
 */
enum fidelity_move {
	FMOVE_DEV_READ = 1u << FDEV_READ,
	FMOVE_DEV_WRITE = 1u << FDEV_WRITE,
	FMOVE_DEV_SIZE = 1u << FDEV_SIZE,
	FMOVE_DEV_DEPTH = 1u << FDEV_DEPTH,
	FMOVE_LATENCY = 1u << FDEV__NR, /* the calls' latencies */
	FMOVE_ALL = (1u << (FDEV__NR + 1)) - 1,
};

/*
 * The terms a setting moves, by its meta key (trace/settings.h):
 *   knob.read_ahead_kb           dev-read, dev-size, dev-depth, latency
 *   knob.scheduler, iosched.*    dev-size, dev-depth, latency
 *   knob.nr_requests, max_sectors_kb, nomerges
 *                                dev-size, dev-depth, latency
 *   knob.wbt_lat_usec            dev-write, dev-depth, latency
 *   knob.rq_affinity             latency
 *   knob.atime, knob.vm.dirty*, bdi.*
 *                                dev-write, dev-size, dev-depth, latency
 *   knob.vm.vfs_cache_pressure   dev-read, dev-size, dev-depth, latency
 *   any other                    every device term and latency
 */
unsigned fidelity_moved_by(const char *key);
/* The terms of moves as words: "dev-read, dev-size and latency". */
void fidelity_moves_text(unsigned moves, struct strbuf *out);

/* The score with the device terms: file_score (fidelity.score) when
 * none applies, else as above. */
double fidelity_combine(double file_score, const struct fidelity_devterms *f);

/* The capture's side from t's meta device.*: have is 0 when they are
 * absent or not numbers (a trace before 1.2 still replays). */
void fidelity_dev_from_meta(const struct trace *t, struct fidelity_dev *d);

/* "dev-read", "dev-write", "dev-size", "dev-depth". */
const char *fidelity_dev_name(enum fidelity_dev_component k);

#endif
