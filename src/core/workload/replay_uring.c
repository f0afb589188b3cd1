/*
 * The replay of io_uring requests (trace format 1.3): a recorded thread
 * that submitted io_uring requests replays them through an io_uring of
 * its own, asynchronously, and its other calls in between as the other
 * threads do theirs (replay_run.c).
 *
 * A request goes when fewer of its thread's requests are in flight
 * than the capture had at its submission (the recorded depth, itself
 * included), so the replay keeps the depth the capture had: no more,
 * and no fewer where the device keeps up. Which of them completes
 * first is the device's business, as it was in the capture, except
 * where the capture's completions set an order that matters: a request
 * waits for every earlier request of its thread on the same file that
 * had completed before it started in the capture, when either of them
 * writes (the ranges overlapping) or flushes; a call (not a request)
 * waits for every earlier request that had completed before it
 * started. Its ring is sized for the most the capture had in flight.
 *
 * Timing: open loop, a request is submitted at its recorded time (as a
 * call starts at its own); closed loop, after the previous event and
 * the time between them: from the previous one's start when that was a
 * request (the thread did not wait for it), from its end when it was a
 * call. SQEs are handed to the kernel in batches, before the thread
 * sleeps or waits, and before a call, so a call after a request finds
 * it submitted.
 *
 * Another thread's wait on this one is for a count of its events done
 * (rp_set_done): this thread says the longest prefix of its events all
 * done, and, before it waits on another thread, it waits for all its
 * own requests first, so that threads waiting on each other always
 * move (the waits follow the capture's order, which has no cycle).
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "workload.h"
#include "replay-int.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define RPU_DEPTH_MAX 4096u /* entries of a replay thread's ring */

/* A request in flight. */
struct rpu_flight {
	size_t k;		     /* the thread's event */
	const struct trace_event *e; /* as recorded */
	uint64_t cap_end;	     /* its completion in the capture (ns) */
	uint64_t t0;		     /* its submission here (CLOCK_MONOTONIC) */
};

/* A thread's io_uring replay. */
struct rp_uring {
	struct io_uring ring;
	int ready;	     /* ring set up */
	unsigned entries;    /* the most in flight, from the capture */
	uint32_t *depth;     /* per event: in flight at its submission there */
	unsigned queued;     /* SQEs not handed to the kernel yet */
	unsigned char *done; /* per event: done */
	size_t low;	     /* events [0, low) all done */
	struct rpu_flight *fl;
	size_t nr_fl;
	void *buf; /* for every request: what they read is not used */
	size_t buf_bytes;
};

static int by_time(const void *a, const void *b, void *arg)
{
	const struct trace *t = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint64_t tx = t->events[x].ts_ns, ty = t->events[y].ts_ns;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

void rp_uring_order(const struct trace *t, size_t *idx, size_t nr)
{
	qsort_r(idx, nr, sizeof(*idx), by_time, (void *)t);
}

/* A request's completion in the capture; none for one not completed. */
static uint64_t cap_end(const struct trace_event *e)
{
	if (e->flags & TEV_UNDONE)
		return UINT64_MAX;
	return e->ts_ns + e->dur_ns;
}

unsigned rp_uring_depth(const struct trace *t, const size_t *idx, size_t nr,
			uint32_t *depth)
{
	uint64_t *ends = xcalloc(nr + 1, sizeof(*ends));
	size_t i, j, n = 0;
	unsigned most = 0;

	/* in flight at each submission: the earlier requests not
	 * completed by then (a handful: a list is enough) */
	for (i = 0; i < nr; i++) {
		const struct trace_event *e = &t->events[idx[i]];

		if (depth)
			depth[i] = 0;
		if (!trace_op_is_uring(e->op))
			continue;
		for (j = 0; j < n;)
			if (ends[j] <= e->ts_ns)
				ends[j] = ends[--n];
			else
				j++;
		/* past the most a ring here takes, the oldest goes */
		if (n == RPU_DEPTH_MAX) {
			for (j = 1; j < n; j++)
				if (ends[j] < ends[0])
					ends[0] = ends[j];
			for (j = 0; j < n && ends[j] != ends[0]; j++)
				;
			ends[j] = ends[--n];
		}
		ends[n++] = cap_end(e);
		if (depth)
			depth[i] = (uint32_t)n;
		if (n > most)
			most = (unsigned)n;
	}
	free(ends);
	return most;
}

int rp_uring_ordered(const struct trace_event *r, const struct trace_event *e)
{
	unsigned a = trace_op_base(r->op), b = trace_op_base(e->op);

	if (!trace_op_is_uring(e->op))
		return 1; /* a call: after every such request */
	if (r->file != e->file || (a == TOP_READ && b == TOP_READ))
		return 0;
	if (a != TOP_READ && a != TOP_WRITE)
		return 1; /* a flush, and what comes after it */
	if (b != TOP_READ && b != TOP_WRITE)
		return 1;
	/* a write and a read or write: when their ranges meet */
	return r->offset < e->offset + e->size &&
	       e->offset < r->offset + r->size;
}

int rp_uring_prepare(struct rp_state *st, struct strbuf *err)
{
	struct io_uring probe;
	size_t i, k;
	int ret, any = 0;

	for (i = 0; i < st->nr_th; i++) {
		struct rp_thread *th = &st->th[i];
		struct rp_uring *u;
		size_t most = 0;

		for (k = 0; k < th->nr; k++)
			if (trace_op_is_uring(st->t.events[th->idx[k]].op))
				break;
		if (k == th->nr)
			continue;
		/* a thread's events by their start (a request is written
		 * at its completion, out of the order it was submitted) */
		rp_uring_order(&st->t, th->idx, th->nr);
		u = xcalloc(1, sizeof(*u));
		th->ur = u;
		u->depth = xcalloc(th->nr, sizeof(*u->depth));
		u->entries = rp_uring_depth(&st->t, th->idx, th->nr, u->depth);
		u->done = xcalloc(th->nr, 1);
		u->fl = xcalloc(u->entries + 1, sizeof(*u->fl));
		for (k = 0; k < th->nr; k++) {
			const struct trace_event *e = &st->t.events[th->idx[k]];

			if (trace_op_is_uring(e->op) && e->size > most)
				most = e->size > RP_IO_MAX ? RP_IO_MAX
							   : (size_t)e->size;
		}
		u->buf_bytes = (most + 4095) & ~(size_t)4095;
		if (!u->buf_bytes)
			u->buf_bytes = 4096;
		u->buf = xalloc_aligned(4096, u->buf_bytes);
		memset(u->buf, 0x5a, u->buf_bytes);
		any = 1;
	}
	if (!any)
		return 0;
	/* said now rather than in the timed part */
	ret = io_uring_queue_init(4, &probe, 0);
	if (ret)
		return err_set(
		    err, ret,
		    "the trace holds io_uring requests, and io_uring "
		    "is not available here: %s",
		    strerror(-ret));
	io_uring_queue_exit(&probe);
	return 0;
}

void rp_uring_free(struct rp_thread *th)
{
	struct rp_uring *u = th->ur;

	if (!u)
		return;
	if (u->ready)
		io_uring_queue_exit(&u->ring);
	free(u->done);
	free(u->depth);
	free(u->fl);
	free(u->buf);
	free(u);
	th->ur = NULL;
}

/* The ring, set up in the thread that uses it (its single issuer),
 * with the flags the kernel takes, best first; 0 or -errno. */
static int ring_setup(struct rp_uring *u)
{
	static const unsigned flags[] = {
	    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		IORING_SETUP_TASKRUN_FLAG,
	    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	    0,
	};
	struct io_uring_params p;
	size_t i;
	int ret = -EINVAL;

	for (i = 0; i < ARRAY_SIZE(flags) && ret; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = flags[i] | IORING_SETUP_CQSIZE;
		p.cq_entries = 2 * u->entries;
		ret = io_uring_queue_init_params(u->entries, &u->ring, &p);
	}
	u->ready = !ret;
	return ret;
}

/* Event k of th done: the prefix all done said to the waiters. */
static void mark_done(struct rp_thread *th, size_t k)
{
	struct rp_uring *u = th->ur;
	size_t low = u->low;

	u->done[k] = 1;
	while (u->low < th->nr && u->done[u->low])
		u->low++;
	if (u->low != low)
		rp_set_done(th, (uint32_t)u->low);
}

/* A completion: its result and time into th->done. */
static void completed(struct rp_thread *th, const struct io_uring_cqe *cqe,
		      uint64_t now)
{
	struct rp_uring *u = th->ur;
	size_t k = (size_t)io_uring_cqe_get_data64(cqe), i;

	for (i = 0; i < u->nr_fl && u->fl[i].k != k; i++)
		;
	if (i == u->nr_fl)
		return;
	th->done[k].ret = cqe->res;
	th->done[k].dur_ns = now - u->fl[i].t0;
	if ((th->done[k].ret < 0) != (th->st->t.events[th->idx[k]].ret < 0))
		th->mismatches++;
	u->fl[i] = u->fl[--u->nr_fl];
	mark_done(th, k);
}

/* Take the completions there are; with wait, hand over the SQEs
 * queued and wait for one at least. */
static void reap(struct rp_thread *th, int wait)
{
	struct rp_uring *u = th->ur;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	uint64_t now;

	if (wait || u->queued) {
		int r = io_uring_submit_and_wait(&u->ring, wait ? 1 : 0);

		if (r >= 0 || r == -EINTR)
			u->queued = 0;
	} else if (IO_URING_READ_ONCE(*u->ring.sq.kflags) & IORING_SQ_TASKRUN) {
		/* completions the kernel holds for our next enter */
		io_uring_get_events(&u->ring);
	}
	now = clock_now_ns();
	io_uring_for_each_cqe(&u->ring, head, cqe)
	{
		completed(th, cqe, now);
		n++;
	}
	io_uring_cq_advance(&u->ring, n);
}

/* Wait until none of th's requests that completed before e started in
 * the capture, and that e must come after (rp_uring_ordered()), is in
 * flight; e NULL: none at all (those the capture saw no completion of
 * too). */
static void reap_before(struct rp_thread *th, const struct trace_event *e)
{
	struct rp_uring *u = th->ur;
	size_t i;

	for (;;) {
		for (i = 0; i < u->nr_fl; i++)
			if (!e || (u->fl[i].cap_end <= e->ts_ns &&
				   rp_uring_ordered(u->fl[i].e, e)))
				break;
		if (i == u->nr_fl)
			return;
		reap(th, 1);
	}
}

/* A request's descriptor here: a registered file's is any descriptor
 * open on its file (the index names none), else one opened for it. */
static int request_fd(struct rp_state *st, const struct trace_event *e)
{
	struct trace_event copy;
	size_t i;
	int fd = -1;

	if (!(e->flags & TEV_FIXED))
		return rp_fd_of(st, e);
	pthread_mutex_lock(&st->lock);
	for (i = 0; i < st->nr_fds && fd < 0; i++)
		if (st->fds[i].refs && st->fds[i].file == e->file)
			fd = st->fds[i].fd;
	pthread_mutex_unlock(&st->lock);
	if (fd >= 0)
		return fd;
	copy = *e;
	copy.fd = -1 - (e->fd & INT32_MAX); /* a number no call has */
	return rp_fd_of(st, &copy);
}

/* Submit request e (event k of th) at t0; a request that cannot go (its
 * file cannot be replayed) is done at once with its error. */
static void submit(struct rp_thread *th, size_t k, const struct trace_event *e,
		   uint64_t t0)
{
	struct rp_uring *u = th->ur;
	struct io_uring_sqe *sqe;
	size_t n = e->size > u->buf_bytes ? u->buf_bytes : (size_t)e->size;
	int fd = e->file ? request_fd(th->st, e) : -1;

	if (fd < 0) {
		th->done[k].ret = -EBADF;
		if (e->ret >= 0)
			th->mismatches++;
		mark_done(th, k);
		return;
	}
	/* at the depth the capture had then, this one included */
	while (u->nr_fl && u->nr_fl >= u->depth[k])
		reap(th, 1);
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe) {
		reap(th, 0);
		sqe = io_uring_get_sqe(&u->ring);
	}
	if (!sqe) { /* cannot be: as many SQEs as may be in flight */
		th->done[k].ret = -EBUSY;
		mark_done(th, k);
		return;
	}
	switch (e->op) {
	case TOP_URING_READ:
		io_uring_prep_read(sqe, fd, u->buf, (unsigned)n, e->offset);
		break;
	case TOP_URING_WRITE:
		io_uring_prep_write(sqe, fd, u->buf, (unsigned)n, e->offset);
		break;
	default:
		io_uring_prep_fsync(
		    sqe, fd,
		    e->op == TOP_URING_FDATASYNC ? IORING_FSYNC_DATASYNC : 0);
		sqe->off = e->offset;
		sqe->len = (uint32_t)(e->size > UINT32_MAX ? 0 : e->size);
		break;
	}
	io_uring_sqe_set_data64(sqe, k);
	u->queued++;
	u->fl[u->nr_fl].k = k;
	u->fl[u->nr_fl].e = e;
	u->fl[u->nr_fl].cap_end = cap_end(e);
	u->fl[u->nr_fl].t0 = t0;
	u->nr_fl++;
}

/* A call due less than this ahead goes at once, as in replay_run.c. */
#define RPU_EARLY_NS 200000ull

/*
 * Sleep until CLOCK_MONOTONIC ns, handing over the SQEs queued first,
 * unless it is RPU_EARLY_NS away or less; 0 if it did, else how far
 * ahead ns still is. While requests are in flight it sleeps on the
 * ring, so that each completion is timed when it comes, not when the
 * thread wakes for its next request (a paced replay would otherwise
 * stretch every latency to the gap between requests).
 */
static uint64_t pace(struct rp_thread *th, uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
			      .tv_nsec = (long)(ns % 1000000000ull)};
	struct rp_uring *u = th->ur;
	uint64_t now = clock_now_ns();

	if (ns <= now + RPU_EARLY_NS)
		return ns > now ? ns - now : 0;
	reap(th, 0);
	while (u->nr_fl && (now = clock_now_ns()) < ns) {
		struct __kernel_timespec left = {
		    .tv_sec = (long long)((ns - now) / 1000000000ull),
		    .tv_nsec = (long long)((ns - now) % 1000000000ull)};
		struct io_uring_cqe *cqe;
		int r = io_uring_wait_cqe_timeout(&u->ring, &cqe, &left);

		if (r < 0 && r != -EINTR)
			break; /* -ETIME: ns came; else sleep the rest */
		reap(th, 0);
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
	return 0;
}

void *rp_uring_thread(struct rp_thread *th)
{
	struct rp_state *st = th->st;
	struct rp_uring *u = th->ur;
	uint64_t prev_t0 = 0, prev_end = 0, carry = 0;
	size_t k, j;
	int waited;

	th->done = xcalloc(th->nr ? th->nr : 1, sizeof(*th->done));
	if (ring_setup(u)) {
		/* prepare made one: this can only be a lack of memory */
		for (k = 0; k < th->nr; k++)
			u->done[k] = 1;
		rp_set_done(th, UINT32_MAX);
		return NULL;
	}
	for (k = 0; k < th->nr && !*st->stop; k++) {
		const struct trace_event *e = &st->t.events[th->idx[k]];
		struct trace_event *d = &th->done[k];
		uint64_t t0, want = 0;

		if (st->speed > 0 && st->open_loop) {
			want = st->start_ns +
			       (uint64_t)((double)e->ts_ns / st->speed);
			pace(th, want);
		} else if (st->speed > 0 && k) {
			const struct trace_event *p =
			    &st->t.events[th->idx[k - 1]];
			int async = trace_op_is_uring(p->op);
			uint64_t from = async ? p->ts_ns : p->ts_ns + p->dur_ns;
			uint64_t gap = e->ts_ns > from ? e->ts_ns - from : 0;

			carry =
			    pace(th, (async ? prev_t0 : prev_end) + carry +
					 (uint64_t)((double)gap / st->speed));
		}
		reap(th, 0);
		/* its thread's requests it came after in the capture */
		reap_before(th, e);
		/* other threads: with nothing of its own in flight */
		waited = 0;
		if (th->dep_off[k] < th->dep_off[k + 1])
			reap_before(th, NULL);
		for (j = th->dep_off[k]; j < th->dep_off[k + 1]; j++)
			waited |= rp_wait_done(&st->th[th->deps[j].th],
					       th->deps[j].count, st->stop);
		th->waits += waited;
		if (*st->stop)
			break;
		t0 = clock_now_ns();
		if (want && t0 > want && t0 - want > th->max_lag_ns)
			th->max_lag_ns = t0 - want;
		*d = *e;
		d->ts_ns = t0 - st->start_ns;
		d->dur_ns = 0;
		th->nr_done = k + 1;
		if (trace_op_is_uring(e->op)) {
			submit(th, k, e, t0);
			prev_t0 = t0;
			continue;
		}
		reap(th, 0); /* what it queued goes before the call */
		d->ret = rp_do_op(th, e);
		prev_end = clock_now_ns();
		d->dur_ns = prev_end - t0;
		if ((d->ret < 0) != (e->ret < 0))
			th->mismatches++;
		mark_done(th, k);
	}
	reap_before(th, NULL);
	rp_set_done(th, UINT32_MAX);
	rp_dirs_release(th);
	return NULL;
}
