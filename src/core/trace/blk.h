/*
 * The block layer of a capture: the requests of one device, from the
 * block_rq_insert, block_rq_issue and block_rq_complete tracepoints,
 * paired here (a completion with the request in flight at its sector)
 * into one trace event per request (TOP_BLK_*), with the number of
 * requests in flight at its issue. What the device is (its geometry and
 * queue settings) goes into the trace as meta entries.
 */
#ifndef IOTRIAL_TRACE_BLK_H
#define IOTRIAL_TRACE_BLK_H

#include <stddef.h>
#include <stdint.h>
#include "trace.h"
#include "../../bpf/iotrace.h"

struct strbuf;
struct trace_writer;

#define BLK_INFLIGHT_MAX 65536 /* requests followed at once */

/* A request seen issued (or inserted), not completed yet. */
struct blk_inflight {
	uint64_t sector;
	uint64_t insert_ns, issue_ns; /* 0: not seen */
	uint32_t bytes, pid;
	uint16_t op, flags;
	uint32_t depth; /* in flight at issue, itself included */
};

/* Pairs a device's request events and writes them as trace events. */
struct blk_tracker {
	struct trace_writer *w;	     /* where requests go, or: */
	struct trace *mem;	     /* appended here (w NULL) */
	uint64_t start_ns;	     /* the capture's start (monotonic) */
	struct blk_inflight *issued; /* in flight, oldest first */
	size_t nr_issued, alloc_issued;
	struct blk_inflight *inserted; /* queued, not issued yet */
	size_t nr_inserted, alloc_inserted;
	uint64_t lost;	    /* requests not followed: a table was full */
	uint64_t unpaired;  /* completions of requests issued before */
	uint64_t nr_events; /* written */
};

/*
 * The operation (TOP_BLK_*) and flags (TEV_PREFLUSH, TEV_FUA, ...) of a
 * request from its rwbs string ("W", "WS", "FWFS", "R", "RA", "D",
 * "FF", "N"). 0, or -EINVAL for an op it does not know (*op is TOP_NONE).
 */
int blk_parse_rwbs(const char *rwbs, unsigned *op, unsigned *flags);

/* Start pairing, writing to w, times relative to start_ns (set
 * b->mem after, with w NULL, to append to a trace in memory). */
void blk_tracker_init(struct blk_tracker *b, struct trace_writer *w,
		      uint64_t start_ns);
/* One ring buffer record. 0, or -errno from the writer with err set. */
int blk_tracker_event(struct blk_tracker *b, const struct iot_blk *r,
		      struct strbuf *err);
/* At the end: the requests still in flight, written with TEV_UNDONE. */
int blk_tracker_finish(struct blk_tracker *b, struct strbuf *err);
void blk_tracker_release(struct blk_tracker *b);

/*
 * The whole-disk block device at path: *kdev as the block tracepoints
 * number it (major << 20 | minor), *rdev as makedev() does. -ENOTBLK
 * (not a block device), -EINVAL (a partition: its disk is named), or
 * -errno, with err set.
 */
int blk_device_resolve(const char *path, uint32_t *kdev, uint64_t *rdev,
		       struct strbuf *err);

/*
 * Where tracepoint tp (enum iot_blk_tp) keeps its fields, from its
 * format file, into off[IOT_BF__NR]. -ENOENT if the tracepoint is not
 * there, -ENOTSUP if dev, sector or rwbs is missing.
 */
int blk_tp_offsets(unsigned tp, uint32_t off[IOT_BF__NR]);

/* The parse of a format file's text, for blk_tp_offsets() and tests. */
int blk_parse_format(const char *text, uint32_t off[IOT_BF__NR]);

/*
 * The device's meta entries: block.device (path), block.dev (M:m),
 * block.logical_block_size, block.physical_block_size, block.size_bytes,
 * block.scheduler, block.nr_requests, block.read_ahead_kb,
 * block.rotational (each skipped if sysfs does not have it).
 */
int blk_write_meta(struct trace_writer *w, const char *path, uint64_t rdev,
		   struct strbuf *err);

#endif
