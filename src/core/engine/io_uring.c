/*
 * io_uring: the fastest way to get I/O to a Linux kernel, and the engine
 * whose overhead decides whether iotrial can claim fio's numbers. So the
 * hot path is kept to what io_uring itself needs:
 *
 *  - one ring per engine, sized to iodepth, so an SQE is always free for
 *    a request the workload is allowed to submit;
 *  - files and buffers registered once at init (READ_FIXED/WRITE_FIXED
 *    with buf_idx, IOSQE_FIXED_FILE with file_idx), which saves the kernel
 *    a file lookup and a page pin per I/O; when registration fails (a low
 *    RLIMIT_MEMLOCK, file-backed buffers) we fall back to plain reads and
 *    writes and say so in e->note;
 *  - submit() only fills SQEs; the reap() that follows enters the ring
 *    once to submit them and wait for completions together (one
 *    io_uring_enter per submit/reap round, where a submit that entered
 *    by itself would make two), completions read straight off the CQ
 *    ring in a batch and released with one io_uring_cq_advance;
 *    user_data is the io_req;
 *  - DEFER_TASKRUN + SINGLE_ISSUER where the kernel has them (6.1+), so
 *    completion work runs in batches when we ask for events instead of
 *    interrupting us; older kernels get COOP_TASKRUN, then plain rings.
 *    The ring is created disabled and enabled by the first submit, which
 *    makes the submitting thread its single issuer even when init ran on
 *    another thread; the ring fd is registered there too (per thread);
 *  - on request (opts.sqpoll), IORING_SETUP_SQPOLL: a kernel thread
 *    takes SQEs off the ring as they appear, so submitting needs no
 *    system call at all (reaping still waits in io_uring_enter), at
 *    the price of a CPU kept busy polling.
 *
 * A short read or write (rare, but legal) is sent back for the rest from
 * inside reap, using result as the bytes done so far; a read that hits
 * end of file comes back short.
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "engine-int.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The engine's state. */
struct uring_engine {
	struct io_uring ring;
	unsigned inflight;	/* in the ring, not yet reaped */
	unsigned depth;		/* opts.iodepth */
	int fixed_files;	/* fds registered: sqe fd is file_idx */
	int fixed_bufs;		/* buffers registered: READ/WRITE_FIXED */
	int enabled;		/* the disabled ring was enabled */
	int ring_fd_registered; /* enter uses the registered ring fd */
	pid_t issuer_tid;	/* the thread that enabled the ring */
	int resubmit;		/* SQEs queued, not yet entered */
	const int *fds;		/* opts.fds */
	struct done_fifo done;	/* malformed requests, finished at submit */
};

/*
 * Setup flags to try, best first. Each later entry is for an older
 * kernel: EINVAL from io_uring_setup means "unknown flag", so we step
 * down. R_DISABLED delays the single-issuer binding to the first submit.
 */
static const unsigned setup_flag_sets[] = {
    IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER |
	IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
	IORING_SETUP_R_DISABLED,
    IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN |
	IORING_SETUP_TASKRUN_FLAG,
    IORING_SETUP_SUBMIT_ALL,
    0,
};

/* The same with a kernel thread polling the submission ring: it submits
 * without io_uring_enter, so task work cannot be deferred to our enters
 * and the ring needs no binding to a thread of ours. */
static const unsigned sqpoll_flag_sets[] = {
    IORING_SETUP_SQPOLL | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER,
    IORING_SETUP_SQPOLL | IORING_SETUP_SUBMIT_ALL,
    IORING_SETUP_SQPOLL,
};

/* Explain why io_uring_setup said EPERM: the sysctl, or something else
 * (seccomp in a container, typically). */
static void explain_eperm(struct strbuf *why)
{
	struct strbuf val = STRBUF_INIT;

	if (!strbuf_read_file(&val, "/proc/sys/kernel/io_uring_disabled", 64)) {
		strbuf_trim(&val);
		if (!strcmp(val.buf, "2"))
			strbuf_addstr(why, "disabled by sysctl "
					   "kernel.io_uring_disabled=2");
		else if (!strcmp(val.buf, "1"))
			strbuf_addstr(why, "kernel.io_uring_disabled=1 allows "
					   "it only for kernel.io_uring_group");
	}
	if (!why->len)
		strbuf_addstr(why, "io_uring_setup: operation not permitted, "
				   "probably by a seccomp filter");
	strbuf_release(&val);
}

/* Turn a failed io_uring_setup into a sentence in err; returns ret. */
static int setup_error(int ret, unsigned entries, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;

	switch (ret) {
	case -ENOSYS:
		strbuf_addstr(&why, "io_uring_setup: function not "
				    "implemented");
		break;
	case -EPERM:
		explain_eperm(&why);
		break;
	case -ENOMEM:
		err_set(err, ret,
			"cannot create an io_uring of %u entries: out of "
			"locked memory; raise the memlock limit (ulimit -l) "
			"or lower --iodepth",
			entries);
		goto out;
	case -EINVAL:
		err_set(err, ret,
			"cannot create an io_uring of %u entries: invalid "
			"argument; the kernel allows at most 32768 entries",
			entries);
		goto out;
	default:
		err_set(err, ret, "cannot create an io_uring of %u entries: %s",
			entries, strerror(-ret));
		goto out;
	}
	err_set(err, ret,
		"io_uring is not available on this kernel (%s); use "
		"--engine=libaio or psync",
		why.buf);
out:
	strbuf_release(&why);
	return ret;
}

/* Register the files and buffers; a failure only loses the speed-up and
 * is reported in e->note. */
static void uring_register(struct engine *e, struct uring_engine *u,
			   const struct engine_opts *o)
{
	struct strbuf note = STRBUF_INIT;
	int ret;

	ret = io_uring_register_files(&u->ring, o->fds, o->nr_files);
	if (!ret) {
		u->fixed_files = 1;
		e->features |= ENGINE_FEAT_FIXED_FILES;
	} else
		strbuf_addf(&note,
			    "io_uring could not register the files "
			    "(%s)",
			    strerror(-ret));

	if (o->nr_bufs && o->buf_bytes) {
		struct iovec *iov = xcalloc(o->nr_bufs, sizeof(*iov));

		for (unsigned i = 0; i < o->nr_bufs; i++) {
			iov[i].iov_base = o->bufs[i];
			iov[i].iov_len = o->buf_bytes;
		}
		ret = io_uring_register_buffers(&u->ring, iov, o->nr_bufs);
		free(iov);
		if (!ret) {
			u->fixed_bufs = 1;
			e->features |= ENGINE_FEAT_FIXED_BUFFERS;
		} else {
			strbuf_addstr(&note, note.len ? "; it" : "io_uring");
			strbuf_addf(&note,
				    " could not register %u buffers of "
				    "%zu bytes (%s%s)",
				    o->nr_bufs, o->buf_bytes, strerror(-ret),
				    ret == -ENOMEM ? ", raise ulimit -l" : "");
		}
	}
	if (note.len) {
		strbuf_addstr(&note, "; using plain reads and writes, which "
				     "cost a little more CPU per I/O");
		e->note = strbuf_detach(&note, NULL);
	}
	strbuf_release(&note);
}

/* The setup flags the kernel accepted, as engine features. */
static unsigned setup_features(unsigned flags)
{
	static const struct {
		unsigned flag, feature;
	} map[] = {
	    {IORING_SETUP_SINGLE_ISSUER, ENGINE_FEAT_SINGLE_ISSUER},
	    {IORING_SETUP_DEFER_TASKRUN, ENGINE_FEAT_DEFER_TASKRUN},
	    {IORING_SETUP_COOP_TASKRUN, ENGINE_FEAT_COOP_TASKRUN},
	    {IORING_SETUP_TASKRUN_FLAG, ENGINE_FEAT_TASKRUN_FLAG},
	    {IORING_SETUP_SUBMIT_ALL, ENGINE_FEAT_SUBMIT_ALL},
	    {IORING_SETUP_SQPOLL, ENGINE_FEAT_SQPOLL},
	};
	unsigned f = 0;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (flags & map[i].flag)
			f |= map[i].feature;
	return f;
}

/* Create the ring with the best flags this kernel takes and register the
 * files and buffers. */
static int uring_init(struct engine *e, const struct engine_opts *o,
		      struct strbuf *err)
{
	struct uring_engine *u = xcalloc(1, sizeof(*u));
	int ret = -EINVAL;

	const unsigned *sets = o->sqpoll ? sqpoll_flag_sets : setup_flag_sets;
	size_t nr_sets = o->sqpoll ? ARRAY_SIZE(sqpoll_flag_sets)
				   : ARRAY_SIZE(setup_flag_sets);

	for (size_t i = 0; i < nr_sets; i++) {
		struct io_uring_params p;

		memset(&p, 0, sizeof(p));
		p.flags = sets[i];
		ret = io_uring_queue_init_params(o->iodepth, &u->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (ret < 0) {
		free(u);
		if (o->sqpoll && ret == -EINVAL)
			return err_set(
			    err, ret,
			    "this kernel refuses an io_uring with "
			    "a polling thread (IORING_SETUP_SQPOLL); "
			    "run without --sqpoll");
		return setup_error(ret, o->iodepth, err);
	}
	u->depth = o->iodepth;
	u->fds = o->fds;
	u->enabled = !(u->ring.flags & IORING_SETUP_R_DISABLED);
	done_fifo_init(&u->done, o->iodepth);
	e->features = setup_features(u->ring.flags) | ENGINE_FEAT_BATCH_REAP;
	uring_register(e, u, o);
	e->priv = u;
	return 0;
}

/* First submit: bind the ring to this thread and register its fd here.
 * Returns 0 or -errno. */
static int uring_enable(struct uring_engine *u)
{
	if (!u->enabled) {
		/* liburing 2.3 declares io_uring_enable_rings() but does not
		 * export it: make the register call ourselves. */
		if (syscall(__NR_io_uring_register, u->ring.ring_fd,
			    IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0)
			return -errno;
		u->enabled = 1;
	}
	/* Saves a file lookup per io_uring_enter; optional. */
	if (io_uring_register_ring_fd(&u->ring) == 1)
		u->ring_fd_registered = 1;
	u->issuer_tid = gettid();
	return 0;
}

/* Fill sqe for what remains of r (r->result bytes are done already). */
static inline void uring_prep(const struct uring_engine *u,
			      struct io_uring_sqe *sqe, struct io_req *r)
{
	int fd = u->fixed_files ? r->file_idx : u->fds[r->file_idx];
	uint32_t done = (uint32_t)r->result;
	char *buf = (char *)r->buf + done;
	uint64_t at = r->offset_bytes + done;
	unsigned len = r->len_bytes - done;

	switch (r->dir) {
	case IO_READ:
		if (u->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, buf, len, at,
						 r->buf_idx);
		else
			io_uring_prep_read(sqe, fd, buf, len, at);
		break;
	case IO_WRITE:
		if (u->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, buf, len, at,
						  r->buf_idx);
		else
			io_uring_prep_write(sqe, fd, buf, len, at);
		break;
	case IO_FDATASYNC:
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	default:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	}
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, r);
}

/* Whether an io_uring_enter error only means "try again later". */
static inline int transient(int ret)
{
	return ret == -EINTR || ret == -EAGAIN || ret == -EBUSY ||
	       ret == -ETIME;
}

/* Put up to the free slots' worth of requests in SQEs and enter once. */
static int uring_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	struct uring_engine *u = e->priv;
	unsigned room = u->depth - u->inflight - u->done.nr;
	unsigned queued = 0, i;
	int ret;

	if (__builtin_expect(!u->issuer_tid, 0)) {
		ret = uring_enable(u);
		if (ret < 0)
			return ret;
		if (u->ring_fd_registered)
			e->features |= ENGINE_FEAT_RING_FD;
	}
	if (n > room)
		n = room;
	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		int32_t bad = engine_check_req(&e->opts, r);
		struct io_uring_sqe *sqe;

		if (__builtin_expect(bad != 0, 0)) {
			r->result = bad;
			done_fifo_push(&u->done, r);
			continue;
		}
		sqe = io_uring_get_sqe(&u->ring);
		if (__builtin_expect(!sqe, 0)) {
			/* Only when an earlier enter left SQEs behind. */
			io_uring_submit(&u->ring);
			sqe = io_uring_get_sqe(&u->ring);
			if (!sqe)
				break;
		}
		r->result = 0;
		uring_prep(u, sqe, r);
		queued++;
	}
	u->inflight += queued;
	/* The enter waits for the reap that follows: one io_uring_enter
	 * then both submits and waits. */
	if (queued)
		u->resubmit = 1;
	return (int)i;
}

/*
 * Handle one CQE: finish its request (returned) or, for a short read or
 * write that made progress, queue the rest and return NULL.
 */
static inline struct io_req *uring_complete(struct uring_engine *u,
					    const struct io_uring_cqe *cqe)
{
	struct io_req *r = io_uring_cqe_get_data(cqe);
	int res = cqe->res;

	if (__builtin_expect(res == (int)r->len_bytes && !r->result, 1)) {
		r->result = res;
	} else if (!io_dir_is_rw(r->dir)) {
		r->result = res < 0 ? res : 0;
	} else if (res < 0) {
		if (!r->result)
			r->result = res;
	} else {
		r->result += res;
		if (res > 0 && (uint32_t)r->result < r->len_bytes) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

			/* The SQ ring is empty after every enter, so an
			 * SQE is free; if not, report the short count. */
			if (sqe) {
				uring_prep(u, sqe, r);
				u->resubmit = 1;
				return NULL;
			}
		}
	}
	u->inflight--;
	return r;
}

/* Move up to max completions off the CQ ring into done[]; returns how
 * many requests finished. */
static inline unsigned uring_drain(struct uring_engine *u, struct io_req **done,
				   unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0, got = 0;

	io_uring_for_each_cqe(&u->ring, head, cqe)
	{
		struct io_req *r;

		if (got == max)
			break;
		seen++;
		r = uring_complete(u, cqe);
		if (r)
			done[got++] = r;
	}
	if (seen)
		io_uring_cq_advance(&u->ring, seen);
	return got;
}

/* Whether the kernel holds completion work that only entering the ring
 * with GETEVENTS will post (deferred or cooperative task work). */
static inline int uring_work_pending(const struct uring_engine *u)
{
	return IO_URING_READ_ONCE(*u->ring.sq.kflags) & IORING_SQ_TASKRUN;
}

/* Collect finished requests: parked ones, then the CQ ring, entering the
 * kernel only to wait for the rest of min. */
static int uring_reap(struct engine *e, struct io_req **done, unsigned min,
		      unsigned max)
{
	struct uring_engine *u = e->priv;
	unsigned got = 0;
	int ret;

	if (min > max)
		min = max;
	if (__builtin_expect(u->done.nr != 0, 0))
		got = done_fifo_pop(&u->done, done, max);
	if (got == max || !u->inflight)
		goto out;
	got += uring_drain(u, done + got, max - got);
	if (got < min && min - got > u->inflight)
		min = got + u->inflight;
	while (got < min) {
		/* also submits what submit() and short transfers queued */
		ret = io_uring_submit_and_wait(&u->ring, min - got);
		u->resubmit = 0;
		if (ret < 0 && !transient(ret))
			return got ? (int)got : ret;
		got += uring_drain(u, done + got, max - got);
		if (got < min && min - got > u->inflight)
			min = got + u->inflight;
	}
	if (!got && u->inflight && uring_work_pending(u)) {
		/* A poll (min 0) must still see what the kernel finished. */
		io_uring_get_events(&u->ring);
		got += uring_drain(u, done + got, max - got);
	}
out:
	if (u->resubmit) {
		u->resubmit = 0;
		ret = io_uring_submit(&u->ring);
		/* Left in the SQ ring, a refused batch goes with the next
		 * enter; anything else means the ring is unusable. */
		if (ret < 0 && !transient(ret) && !got)
			return ret;
	}
	return (int)got;
}

/*
 * Wait for requests still in flight, so the kernel is not writing into
 * buffers the caller is about to free, then tear the ring down. Only the
 * issuing thread may wait on a single-issuer ring; from another thread
 * closing the ring cancels what it can and the kernel finishes the rest.
 */
static void uring_cleanup(struct engine *e)
{
	struct uring_engine *u = e->priv;

	if (!u)
		return;
	if (u->inflight && u->issuer_tid == gettid()) {
		struct io_req *sink[64];
		int ret = 0;

		while (u->inflight && (ret >= 0 || transient(ret))) {
			ret = io_uring_submit_and_wait(&u->ring, 1);
			uring_drain(u, sink, ARRAY_SIZE(sink));
		}
	}
	if (u->ring_fd_registered && u->issuer_tid != gettid()) {
		/* The registration lives in the issuing thread's table;
		 * liburing must not try to undo it from here. */
		u->ring.int_flags = 0;
		u->ring.enter_ring_fd = u->ring.ring_fd;
	}
	io_uring_queue_exit(&u->ring);
	done_fifo_release(&u->done);
	free(u);
	e->priv = NULL;
}

const struct engine_ops engine_io_uring = {
    .name = "io_uring",
    .caps = ENGINE_SQPOLL,
    .init = uring_init,
    .submit = uring_submit,
    .reap = uring_reap,
    .cleanup = uring_cleanup,
};
