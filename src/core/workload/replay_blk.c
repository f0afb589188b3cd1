/*
 * replay --layer block: play a trace's block requests (record --layer
 * block) back on a block device: a scratch loop device (scratch:SIZE)
 * or a device given with --allow-destroy, which the target layer
 * requires before anything writes a device holding data.
 *
 * The block layer has no threads: what shaped the device's load is when
 * each request was issued and how many were in flight. The requests are
 * taken in the order they were issued, by as many workers as the most
 * requests the capture saw in flight (at most RPB_WORKERS_MAX); each
 * worker takes the next one and waits for its recorded issue time,
 * scaled by --speed (none at --speed max), and for fewer requests in
 * flight than the capture saw at its issue, so the depth is the
 * recorded one, and no delay adds up. I/O is O_DIRECT, aligned to the target's
 * logical block size (a request that is not is widened to it, and
 * counted). A read is a pread, a write a pwrite; a write that carried a
 * preflush is a write and then fdatasync, one with FUA a pwritev2 with
 * RWF_DSYNC; a flush alone is fdatasync (which sends the device a
 * flush); a discard is BLKDISCARD, or counted as refused where the
 * device has none. Offsets past the target's end are refused unless
 * --fold, which folds them modulo the target's size.
 *
 * What the replay did is kept as block events of its own and compared
 * with the capture (core/trace/fidelity.h): request sizes, write count,
 * bytes, rate, the queue depth.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "workload.h"
#include "replay-int.h"
#include "../trace/fidelity.h"
#include "../trace/trace_summary.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define RPB_WORKERS_MAX 64

struct rpb_state {
	size_t *order; /* the trace's block requests by issue time */
	size_t nr, alloc_order;
	atomic_int quit;	  /* a worker could not start: the others end */
	struct trace_event *done; /* done[k]: what order[k] became */
	int fd;			  /* the device, O_DIRECT */
	unsigned lbs;		  /* its logical block size */
	uint64_t cap_bytes;	  /* its size */
	int fold;		  /* fold offsets past the end */
	unsigned nr_workers;
	atomic_size_t next;
	atomic_uint in_flight;
	atomic_ullong widened, folded, discards_refused, mismatches;
	atomic_ullong max_lag_ns;
	size_t max_bytes; /* the largest request: each worker's buffer */
};

/* Sort key: issue time, then file order. */
static const struct trace_event *sort_events;
static int by_issue(const void *a, const void *b)
{
	const struct trace_event *x = &sort_events[*(const size_t *)a];
	const struct trace_event *y = &sort_events[*(const size_t *)b];

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

int rpb_prepare(struct rp_state *st, struct workload *w, struct target *t,
		struct strbuf *err)
{
	struct rpb_state *b = xcalloc(1, sizeof(*b));
	uint64_t reach = 0, depth = 1;
	size_t i;

	st->blk = b;
	b->fd = -1;
	b->fold = ((const struct replay_params *)w->params)->fold;
	if (t->kind != TARGET_BLOCKDEV)
		return err_set(err, -EINVAL,
			       "a block-layer replay writes a device: give "
			       "scratch:SIZE (a loop device) or a device with "
			       "--allow-destroy, not '%s'",
			       t->spec);
	for (i = 0; i < st->t.nr_events; i++) {
		const struct trace_event *e = &st->t.events[i];

		if (!trace_op_is_block(e->op))
			continue;
		if (e->size > RP_IO_MAX)
			return err_set(err, -EFBIG,
				       "request %zu of the trace is larger "
				       "than 64 MiB",
				       i + 1);
		ALLOC_GROW(b->order, b->nr + 1, b->alloc_order);
		b->order[b->nr++] = i;
		if (e->op != TOP_BLK_FLUSH && e->offset + e->size > reach)
			reach = e->offset + e->size;
		if (e->arg > depth)
			depth = e->arg;
		if (e->size > b->max_bytes)
			b->max_bytes = e->size;
	}
	if (!b->nr)
		return err_set(err, -EINVAL,
			       "the trace holds no block requests: record "
			       "with --layer block (or both), or replay it at "
			       "the file layer");
	b->lbs = t->logical_block_bytes ? t->logical_block_bytes : 512;
	b->cap_bytes = t->capacity_bytes / b->lbs * b->lbs;
	if (reach > b->cap_bytes && !b->fold)
		return err_set(err, -ENOSPC,
			       "the trace reaches byte %llu of its device, "
			       "'%s' holds %llu: give a larger target, or "
			       "--fold=1 to fold offsets modulo its size",
			       (unsigned long long)reach, t->path,
			       (unsigned long long)b->cap_bytes);
	if (b->max_bytes > b->cap_bytes)
		return err_set(err, -ENOSPC,
			       "a request of %llu bytes does not fit '%s'",
			       (unsigned long long)b->max_bytes, t->path);
	sort_events = st->t.events;
	qsort(b->order, b->nr, sizeof(*b->order), by_issue);
	sort_events = NULL;
	b->nr_workers =
	    depth > RPB_WORKERS_MAX ? RPB_WORKERS_MAX : (unsigned)depth;
	b->max_bytes = (b->max_bytes + b->lbs - 1) / b->lbs * b->lbs;
	if (!b->max_bytes)
		b->max_bytes = b->lbs;
	b->fd = open(t->path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (b->fd < 0)
		return err_set(err, -errno,
			       "cannot open '%s' for direct I/O: %s", t->path,
			       strerror(errno));
	b->done = xcalloc(b->nr, sizeof(*b->done));
	return 0;
}

/* Sleep until CLOCK_MONOTONIC ns. */
static void sleep_until_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
			      .tv_nsec = (long)(ns % 1000000000ull)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* Where e goes on the target, aligned, and how long: *off, *len. */
static void place(struct rpb_state *b, const struct trace_event *e,
		  uint64_t *off, uint64_t *len)
{
	uint64_t o = e->offset / b->lbs * b->lbs;
	uint64_t end = (e->offset + e->size + b->lbs - 1) / b->lbs * b->lbs;

	if (o != e->offset || end - o != e->size)
		atomic_fetch_add(&b->widened, 1);
	*len = end - o;
	if (o + *len > b->cap_bytes) {
		atomic_fetch_add(&b->folded, 1);
		o = o % b->cap_bytes / b->lbs * b->lbs;
		if (o + *len > b->cap_bytes)
			o = (b->cap_bytes - *len) / b->lbs * b->lbs;
	}
	*off = o;
}

/* Do one request: 0 or -errno. */
static int64_t do_request(struct rpb_state *b, const struct trace_event *e,
			  void *buf)
{
	uint64_t off, len, range[2];
	struct iovec iov;
	ssize_t n;

	if (e->op == TOP_BLK_FLUSH)
		return fdatasync(b->fd) ? -errno : 0;
	place(b, e, &off, &len);
	switch (e->op) {
	case TOP_BLK_READ:
		n = pread(b->fd, buf, len, (off_t)off);
		break;
	case TOP_BLK_WRITE:
		iov.iov_base = buf;
		iov.iov_len = len;
		n = pwritev2(b->fd, &iov, 1, (off_t)off,
			     e->flags & TEV_FUA ? RWF_DSYNC : 0);
		if (n >= 0 && (e->flags & TEV_PREFLUSH) && fdatasync(b->fd))
			return -errno;
		break;
	case TOP_BLK_DISCARD:
		range[0] = off;
		range[1] = len;
		if (!ioctl(b->fd, BLKDISCARD, range))
			return 0;
		if (errno == EOPNOTSUPP || errno == ENOTTY) {
			atomic_fetch_add(&b->discards_refused, 1);
			return -EOPNOTSUPP;
		}
		return -errno;
	default:
		return -ENOSYS;
	}
	if (n < 0)
		return -errno;
	return (uint64_t)n == len ? 0 : -EIO;
}

struct rpb_worker {
	struct rp_state *st;
	pthread_t th;
	int started;
};

/* Take the next request, wait for its time, do it; until none is left. */
static void *worker_main(void *arg)
{
	struct rpb_worker *wk = arg;
	struct rp_state *st = wk->st;
	struct rpb_state *b = st->blk;
	void *buf = xalloc_io(b->max_bytes); /* requests whole, as traced */
	size_t k, i;

	for (i = 0; i < b->max_bytes; i++)
		((unsigned char *)buf)[i] = (unsigned char)(i * 131 + 7);
	while (!*st->stop && !atomic_load(&b->quit) &&
	       (k = atomic_fetch_add(&b->next, 1)) < b->nr) {
		const struct trace_event *e = &st->t.events[b->order[k]];
		struct trace_event *d = &b->done[k];
		uint64_t t0, t1;

		if (st->speed > 0) {
			uint64_t want =
			    st->start_ns +
			    (uint64_t)((double)e->ts_ns / st->speed);
			unsigned long long lag, old;

			sleep_until_ns(want);
			t0 = clock_now_ns();
			lag = t0 > want ? t0 - want : 0;
			old = atomic_load(&b->max_lag_ns);
			while (lag > old && !atomic_compare_exchange_weak(
						&b->max_lag_ns, &old, lag))
				;
		}
		/* no deeper than the device was at this request's issue:
		 * the ones in flight before it end first */
		while (e->arg && atomic_load(&b->in_flight) >= e->arg &&
		       !*st->stop && !atomic_load(&b->quit))
			sched_yield();
		*d = *e;
		d->arg = atomic_fetch_add(&b->in_flight, 1) + 1;
		t0 = clock_now_ns();
		d->ret = do_request(b, e, buf);
		t1 = clock_now_ns();
		atomic_fetch_sub(&b->in_flight, 1);
		d->ts_ns = t0 - st->start_ns;
		d->dur_ns = t1 - t0;
		d->flags = (uint16_t)(e->flags & ~TEV_UNDONE);
		d->file2 = 0;
		if ((d->ret < 0) != (e->ret < 0))
			atomic_fetch_add(&b->mismatches, 1);
		d->tid = 1; /* "done" */
	}
	xfree_io(buf, b->max_bytes);
	return NULL;
}

/* The run's numbers and the fidelity from what was done. */
static void rpb_result(struct rp_state *st, struct run_result *r)
{
	struct rpb_state *b = st->blk;
	struct trace done = {0};
	struct trace_summary c, d;
	struct strbuf why = STRBUF_INIT, parts = STRBUF_INIT;
	struct fidelity f;
	size_t k;
	unsigned i;

	r->nr_jobs = 1;
	r->jobs = xcalloc(1, sizeof(*r->jobs));
	done.events = xcalloc(b->nr, sizeof(*done.events));
	for (k = 0; k < b->nr; k++) {
		const struct trace_event *e = &b->done[k];
		int dir = e->op == TOP_BLK_READ ? IO_READ : IO_WRITE;

		if (!e->tid)
			continue; /* not reached (stopped) */
		done.events[done.nr_events++] = *e;
		if (e->op == TOP_BLK_FLUSH)
			r->fsyncs++;
		if (e->op != TOP_BLK_READ && e->op != TOP_BLK_WRITE)
			continue;
		hist_record(&r->lat[dir], e->dur_ns);
		r->ops[dir]++;
		r->jobs[0].ops[dir]++;
		if (!e->ret) {
			r->bytes[dir] += e->size;
			r->jobs[0].bytes[dir] += e->size;
		}
	}
	done.end.duration_ns = (uint64_t)(r->seconds * 1e9);
	trace_summarize_layer(&st->t, 1, &c);
	trace_summarize(&done, &d);
	fidelity_compute(&c, &d, st->speed, st->speed > 0, &f, &why);
	for (i = 0; i < FID__NR; i++)
		if (f.applies[i])
			strbuf_addf(&parts, "%s%s %.1f%%",
				    parts.len ? ", " : "",
				    fidelity_name((enum fidelity_component)i),
				    100 * f.err[i]);
	r->fidelity = f.score;
	r->have_fidelity = 1;
	run_result_note(r,
			"block replay fidelity %.1f of 100 (off by: %s); %llu "
			"requests, %llu writes (%llu recorded), %u workers, "
			"queue depth mean %.2f (%.2f recorded)",
			f.score, parts.buf, (unsigned long long)done.nr_events,
			(unsigned long long)d.ops[TOP_BLK_WRITE],
			(unsigned long long)c.ops[TOP_BLK_WRITE], b->nr_workers,
			done.nr_events
			    ? (double)d.blk_depth_sum / (double)done.nr_events
			    : 0,
			(double)c.blk_depth_sum / (double)b->nr);
	if (b->widened)
		run_result_note(r,
				"%llu requests were widened to the target's "
				"logical block size (%u bytes)",
				(unsigned long long)b->widened, b->lbs);
	if (b->folded)
		run_result_note(r,
				"%llu requests past the target's end were "
				"folded into it (--fold)",
				(unsigned long long)b->folded);
	if (b->discards_refused)
		run_result_note(r,
				"%llu discards were refused by the target "
				"(no BLKDISCARD there)",
				(unsigned long long)b->discards_refused);
	if (b->mismatches)
		run_result_note(r,
				"%llu requests ended otherwise than recorded",
				(unsigned long long)b->mismatches);
	rp_warn_fidelity(r, f.poor, why.buf, st->t.end.lost, "events");
	trace_summary_release(&c);
	trace_summary_release(&d);
	trace_release(&done);
	strbuf_release(&why);
	strbuf_release(&parts);
}

int rpb_run(struct rp_state *st, struct workload *w, struct run_result *r,
	    struct strbuf *err)
{
	struct rpb_state *b = st->blk;
	struct rpb_worker *wk = xcalloc(b->nr_workers, sizeof(*wk));
	struct measure m;
	unsigned i;
	int ret = 0, e;

	measure_init(&m, w->hook);
	measure_begin(&m);
	st->start_ns = clock_now_ns();
	for (i = 0; i < b->nr_workers; i++) {
		wk[i].st = st;
		e = pthread_create(&wk[i].th, NULL, worker_main, &wk[i]);
		if (e) {
			ret =
			    err_set(err, -e, "cannot start a replay worker: %s",
				    strerror(e));
			atomic_store(&b->quit, 1);
			break;
		}
		wk[i].started = 1;
	}
	for (i = 0; i < b->nr_workers; i++)
		if (wk[i].started)
			pthread_join(wk[i].th, NULL);
	r->interrupted = *w->stop != 0;
	measure_end(&m, r);
	free(wk);
	if (!ret)
		rpb_result(st, r);
	return ret;
}

void rpb_free(struct rpb_state *b)
{
	if (!b)
		return;
	if (b->fd >= 0)
		close(b->fd);
	free(b->order);
	free(b->done);
	free(b);
}
