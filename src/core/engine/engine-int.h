/*
 * What the engines share but workloads never see: a fixed-size queue of
 * finished requests (the synchronous engines complete inside submit and
 * park requests here until reap) and the synchronous transfer loops that
 * psync uses for every request and libaio for an fsync the kernel will
 * not do asynchronously. Kept out of engine.h so the seam stays small.
 */
#ifndef IOTRIAL_ENGINE_INT_H
#define IOTRIAL_ENGINE_INT_H

#include <errno.h>
#include <stdint.h>
#include "engine.h"

/* Finished requests waiting for reap, oldest first. */
struct done_fifo {
	struct io_req **slots; /* cap of them, owned */
	unsigned cap;	       /* capacity: the engine's iodepth */
	unsigned head;	       /* index of the oldest */
	unsigned nr;	       /* requests held */
};

/* Allocate room for cap requests. */
void done_fifo_init(struct done_fifo *q, unsigned cap);
/* Free the slots; q is left empty. NULL is fine. */
void done_fifo_release(struct done_fifo *q);

/* Append r; the caller has checked there is room (nr < cap). */
static inline void done_fifo_push(struct done_fifo *q, struct io_req *r)
{
	unsigned tail = q->head + q->nr;

	if (tail >= q->cap)
		tail -= q->cap;
	q->slots[tail] = r;
	q->nr++;
}

/* Move up to max of the oldest requests into out[]; returns how many. */
static inline unsigned done_fifo_pop(struct done_fifo *q, struct io_req **out,
				     unsigned max)
{
	unsigned n = q->nr < max ? q->nr : max;

	for (unsigned i = 0; i < n; i++) {
		out[i] = q->slots[q->head];
		if (++q->head == q->cap)
			q->head = 0;
	}
	q->nr -= n;
	return n;
}

/*
 * Do r (a read or write) on fd with pread/pwrite, continuing after short
 * transfers and EINTR. Returns the bytes moved (fewer than len_bytes only
 * at end of file or device) or -errno when nothing was moved.
 */
int32_t engine_sync_rw(int fd, const struct io_req *r);

/* fsync or fdatasync fd as r->dir says, retrying EINTR; 0 or -errno. */
int32_t engine_sync_flush(int fd, const struct io_req *r);

/* Whether a request moves data (read or write) rather than flushing. */
static inline int io_dir_is_rw(uint8_t dir)
{
	return dir == IO_READ || dir == IO_WRITE;
}

/* The -errno a malformed request gets before reaching the kernel, or 0:
 * an unknown direction, a file index out of range, a length that cannot
 * be reported in result. */
static inline int32_t engine_check_req(const struct engine_opts *o,
				       const struct io_req *r)
{
	if (r->file_idx >= o->nr_files)
		return -EBADF;
	if (r->dir > IO_FDATASYNC || r->len_bytes > INT32_MAX)
		return -EINVAL;
	return 0;
}

#endif
