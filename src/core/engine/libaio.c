/*
 * libaio: Linux native AIO (io_submit/io_getevents), the asynchronous
 * engine that works on kernels without io_uring and the one most storage
 * tuning advice of the last decade was measured with. It is only truly
 * asynchronous with O_DIRECT; buffered requests complete inside
 * io_submit, which is still what users of --engine=libaio expect to see.
 *
 * Every request in the kernel owns one preallocated iocb, picked from a
 * free list of slots, so nothing is allocated per I/O and a batch goes
 * down in one io_submit. Requests the kernel refuses at submit time (a
 * bad descriptor, an fsync it cannot do asynchronously) are finished
 * here and parked in a queue that reap empties first. An aio fsync the
 * kernel rejects with EINVAL makes every later fsync synchronous.
 */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include "engine-int.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The engine's state. */
struct aio_engine {
	io_context_t ctx;
	struct iocb *iocbs;	 /* iodepth of them, indexed by slot */
	struct iocb **batch;	 /* iodepth pointers for io_submit */
	struct io_event *events; /* iodepth, for io_getevents */
	unsigned *free_slots;	 /* stack of unused iocb slots */
	unsigned nr_free;
	unsigned depth;	       /* opts.iodepth */
	unsigned in_kernel;    /* iocbs submitted, not yet reaped */
	struct done_fifo done; /* finished without the kernel's events */
	int sync_fsync;	       /* aio fsync refused once: do it inline */
	const int *fds;	       /* opts.fds */
};

/* Free everything; the context must be destroyed already (or never made). */
static void aio_free(struct aio_engine *a)
{
	free(a->iocbs);
	free(a->batch);
	free(a->events);
	free(a->free_slots);
	done_fifo_release(&a->done);
	free(a);
}

/* Create the AIO context and the per-slot iocbs. */
static int aio_init(struct engine *e, const struct engine_opts *o,
		    struct strbuf *err)
{
	struct aio_engine *a = xcalloc(1, sizeof(*a));
	int ret;

	a->depth = o->iodepth;
	a->fds = o->fds;
	ret = io_setup((int)o->iodepth, &a->ctx);
	if (ret < 0) {
		if (ret == -EAGAIN)
			err_set(err, ret,
				"cannot set up libaio for iodepth %u: the "
				"system-wide limit fs.aio-max-nr is reached; "
				"raise it or lower --iodepth",
				o->iodepth);
		else if (ret == -ENOSYS)
			err_set(err, ret,
				"kernel AIO is not available on this kernel; "
				"use --engine=io_uring or psync");
		else
			err_set(err, ret,
				"cannot set up libaio for iodepth %u: %s",
				o->iodepth, strerror(-ret));
		aio_free(a);
		return ret;
	}
	a->iocbs = xcalloc(a->depth, sizeof(*a->iocbs));
	a->batch = xcalloc(a->depth, sizeof(*a->batch));
	a->events = xcalloc(a->depth, sizeof(*a->events));
	a->free_slots = xcalloc(a->depth, sizeof(*a->free_slots));
	for (unsigned i = 0; i < a->depth; i++)
		a->free_slots[i] = a->depth - 1 - i;
	a->nr_free = a->depth;
	done_fifo_init(&a->done, a->depth);
	e->priv = a;
	return 0;
}

/* Fill iocb for what remains of r (r->result bytes are done already). */
static void aio_prep(struct aio_engine *a, struct iocb *iocb, struct io_req *r)
{
	int fd = a->fds[r->file_idx];
	uint32_t done = (uint32_t)r->result;
	char *buf = (char *)r->buf + done;
	long long at = (long long)(r->offset_bytes + done);

	switch (r->dir) {
	case IO_READ:
		io_prep_pread(iocb, fd, buf, r->len_bytes - done, at);
		break;
	case IO_WRITE:
		io_prep_pwrite(iocb, fd, buf, r->len_bytes - done, at);
		break;
	case IO_FDATASYNC:
		io_prep_fdsync(iocb, fd);
		break;
	default:
		io_prep_fsync(iocb, fd);
		break;
	}
	iocb->data = r;
}

/* Give iocb's slot back. */
static void aio_put_slot(struct aio_engine *a, struct iocb *iocb)
{
	a->free_slots[a->nr_free++] = (unsigned)(iocb - a->iocbs);
}

/* io_submit refused iocb with code: finish its request without the
 * kernel, running an fsync synchronously if aio fsync is unsupported. */
static void aio_refused(struct aio_engine *a, struct iocb *iocb, int code)
{
	struct io_req *r = iocb->data;

	if (!io_dir_is_rw(r->dir) && code == -EINVAL) {
		a->sync_fsync = 1;
		r->result = engine_sync_flush(a->fds[r->file_idx], r);
	} else if (io_dir_is_rw(r->dir) && r->result > 0) {
		/* The rest of a short transfer: report what was done. */
	} else {
		r->result = code;
	}
	aio_put_slot(a, iocb);
	done_fifo_push(&a->done, r);
}

static struct io_req *aio_complete(struct aio_engine *a,
				   const struct io_event *ev);

/*
 * Wait for one kernel completion and park its request in the done queue,
 * to make room in the kernel's ring. Uses its own event, not a->events,
 * because it runs while aio_collect() may be walking those.
 */
static int aio_wait_one(struct aio_engine *a)
{
	struct io_event ev;
	struct io_req *r;
	int ret;

	do {
		ret = io_getevents(a->ctx, 1, 1, &ev, NULL);
	} while (ret == -EINTR);
	if (ret != 1)
		return ret < 0 ? ret : -EAGAIN;
	r = aio_complete(a, &ev);
	if (r)
		done_fifo_push(&a->done, r);
	return 0;
}

/*
 * Get list[0..nr-1] into the kernel. A refused iocb is finished with its
 * error; EAGAIN (the kernel's ring is full) first waits for a completion,
 * parked in the done queue, and tries again.
 */
static void aio_submit_list(struct aio_engine *a, struct iocb **list,
			    unsigned nr)
{
	unsigned i = 0;

	while (i < nr) {
		int ret = io_submit(a->ctx, (long)(nr - i), list + i);

		if (ret > 0) {
			i += (unsigned)ret;
			a->in_kernel += (unsigned)ret;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret == -EAGAIN && a->in_kernel && !aio_wait_one(a))
			continue;
		aio_refused(a, list[i], ret ? ret : -EAGAIN);
		i++;
	}
}

/* Queue up to the free slots' worth of requests with one io_submit. */
static int aio_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	struct aio_engine *a = e->priv;
	unsigned room = a->depth - a->in_kernel - a->done.nr;
	unsigned nb = 0;

	if (n > room)
		n = room;
	for (unsigned i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		int32_t bad = engine_check_req(&e->opts, r);
		struct iocb *iocb;

		if (bad) {
			r->result = bad;
			done_fifo_push(&a->done, r);
			continue;
		}
		if (!io_dir_is_rw(r->dir) && a->sync_fsync) {
			r->result = engine_sync_flush(a->fds[r->file_idx], r);
			done_fifo_push(&a->done, r);
			continue;
		}
		r->result = 0;
		iocb = &a->iocbs[a->free_slots[--a->nr_free]];
		aio_prep(a, iocb, r);
		a->batch[nb++] = iocb;
	}
	if (nb)
		aio_submit_list(a, a->batch, nb);
	return (int)n;
}

/*
 * Turn one event into a finished request, or send the rest of a short
 * transfer back to the kernel. Returns the request when it is finished,
 * NULL when it went back.
 */
static struct io_req *aio_complete(struct aio_engine *a,
				   const struct io_event *ev)
{
	struct iocb *iocb = ev->obj;
	struct io_req *r = iocb->data;
	long res = (long)ev->res;

	a->in_kernel--;
	if (!io_dir_is_rw(r->dir)) {
		r->result = res < 0 ? (int32_t)res : 0;
	} else if (res < 0) {
		if (!r->result)
			r->result = (int32_t)res;
	} else {
		r->result += (int32_t)res;
		if (res > 0 && (uint32_t)r->result < r->len_bytes) {
			aio_prep(a, iocb, r);
			aio_submit_list(a, &iocb, 1);
			/* Refused: aio_refused parked it as finished. */
			return NULL;
		}
	}
	aio_put_slot(a, iocb);
	return r;
}

/*
 * Wait for at least min kernel completions (min <= in_kernel) and put up
 * to max finished requests in done[]. Returns the count or -errno.
 */
static int aio_collect(struct aio_engine *a, struct io_req **done, unsigned min,
		       unsigned max)
{
	struct timespec no_wait = {0, 0};
	unsigned got = 0;

	do {
		unsigned want = max - got;
		int ret;

		if (want > a->in_kernel)
			want = a->in_kernel;
		if (!want)
			break;
		ret = io_getevents(a->ctx, min > got ? (long)(min - got) : 0,
				   (long)want, a->events,
				   min > got ? NULL : &no_wait);
		if (ret == -EINTR)
			continue;
		if (ret < 0)
			return ret;
		for (int i = 0; i < ret; i++) {
			struct io_req *r = aio_complete(a, &a->events[i]);

			if (r)
				done[got++] = r;
		}
		if (!ret)
			break;
		/* A short transfer went back; its rest still counts. */
		if (min > got && min - got > a->in_kernel)
			min = got + a->in_kernel;
	} while (got < min);
	return (int)got;
}

/* Return parked requests first, then the kernel's completions. */
static int aio_reap(struct engine *e, struct io_req **done, unsigned min,
		    unsigned max)
{
	struct aio_engine *a = e->priv;
	unsigned got;
	int ret;

	if (min > max)
		min = max;
	got = done_fifo_pop(&a->done, done, max);
	if (got == max || (got >= min && !a->in_kernel))
		return (int)got;
	min = got < min ? min - got : 0;
	if (min > a->in_kernel)
		min = a->in_kernel;
	ret = aio_collect(a, done + got, min, max - got);
	if (ret < 0)
		return got ? (int)got : ret;
	got += (unsigned)ret;
	/* A refused resubmission may have parked requests meanwhile. */
	got += done_fifo_pop(&a->done, done + got, max - got);
	return (int)got;
}

/* Destroy the context; the kernel waits for requests in flight so their
 * buffers are not written after we return. */
static void aio_cleanup(struct engine *e)
{
	struct aio_engine *a = e->priv;

	if (!a)
		return;
	io_destroy(a->ctx);
	aio_free(a);
	e->priv = NULL;
}

const struct engine_ops engine_libaio = {
    .name = "libaio",
    .init = aio_init,
    .submit = aio_submit,
    .reap = aio_reap,
    .cleanup = aio_cleanup,
};
