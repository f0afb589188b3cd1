/*
 * What a trace amounts to: operations by kind, bytes, sizes, the rate
 * second by second, the files, the threads and their think times. `trace
 * stats` prints it, and a replay compares its own run against it.
 */
#ifndef IOTRIAL_TRACE_SUMMARY_H
#define IOTRIAL_TRACE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include "trace.h"

#define TRACE_SIZE_BUCKETS 24 /* 2^0 .. 2^23 bytes and above */

/* The numbers of one trace. */
struct trace_summary {
	uint64_t duration_ns;	  /* the capture's, or the last event's end */
	uint64_t ops[TOP__NR];	  /* events by op */
	uint64_t errors[TOP__NR]; /* of them, failed (ret < 0) */
	uint64_t bytes_read, bytes_written;	 /* moved (ret > 0) */
	uint64_t read_sizes[TRACE_SIZE_BUCKETS]; /* by floor(log2(size)) */
	uint64_t write_sizes[TRACE_SIZE_BUCKETS];
	uint64_t *sec_ops;   /* events entered in each second */
	uint64_t *sec_bytes; /* bytes moved by reads and writes in it */
	size_t nr_secs;
	size_t nr_threads;
	uint64_t think_p50_ns, think_p90_ns, think_max_ns; /* per thread gaps */
	size_t files_regular, files_dirs, files_existed, files_created;
	uint64_t existed_bytes; /* the size of the files that existed */
	/* block requests (TOP_BLK_*): */
	uint64_t blk_depth_max;	    /* most in flight at an issue */
	uint64_t blk_depth_sum;	    /* over the requests: mean = / n */
	uint64_t blk_flush_writes;  /* writes with a preflush */
	uint64_t blk_fua_writes;    /* writes with FUA */
	uint64_t blk_discard_bytes; /* bytes discarded */
	/* io_uring requests (TOP_URING_*): */
	uint64_t uring_depth_max; /* most in flight on a ring at a submission */
	uint64_t uring_depth_sum; /* over the requests: mean = / n */
	uint32_t uring_rings;	  /* the highest ring number */
	uint64_t uring_fixed;	  /* on registered files */
	uint64_t uring_sqpoll;	  /* submitted by a ring's kernel thread */
	uint64_t uring_undone;	  /* not completed when the trace ended */
};

/* Summarize t. */
void trace_summarize(const struct trace *t, struct trace_summary *s);
void trace_summary_release(struct trace_summary *s);
/* Summarize the events of one layer of t only: its block requests
 * (block 1) or its calls (0), as a replay of that layer compares. */
void trace_summarize_layer(const struct trace *t, int block,
			   struct trace_summary *s);

/* The name operations (open, stat, unlink, rename, mkdir, rmdir,
 * getdents) of s. */
uint64_t trace_summary_name_ops(const struct trace_summary *s);
/* All events of s. */
uint64_t trace_summary_total(const struct trace_summary *s);
/* The io_uring requests of s. */
uint64_t trace_summary_uring(const struct trace_summary *s);

struct strbuf;
/* `trace stats`: s of t as text. */
void trace_stats_text(const struct trace *t, const struct trace_summary *s,
		      struct strbuf *out);
/* `trace show`: the header, the files, and events [0, limit) (0: all),
 * one line each. Paths are made printable. */
void trace_show_text(const struct trace *t, size_t limit, struct strbuf *out);

#endif
