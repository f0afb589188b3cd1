/*
 * Sequential and random block I/O: the workloads every storage benchmark
 * starts with, and the ones our users measured by hand ("one sequential
 * reader, then two readers of separate files").
 *
 * Each job is a thread with its own file (or its own region of a block
 * device), its own engine, buffers and histograms, so the hot loop shares
 * nothing but a phase word. The main thread only keeps time: it starts
 * the warm-up, opens the timed region (measure_begin), and for a
 * time-based run tells the jobs to drain. An I/O counts when it was
 * submitted inside the timed region; write jobs then flush their file
 * (settle=sync, the honest default) before the region closes, so the
 * throughput we report is what the device took, not what the page cache
 * swallowed. The clock is read once per submitted batch and once per
 * reaped batch, never per I/O.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "layout.h"
#include "live.h"
#include "../targets/scratch.h"
#include "randmap.h"
#include "rw.h"
#include "rw-int.h"
#include "verify.h"
#include "gate.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

enum rw_phase { PHASE_RAMP, PHASE_RUN, PHASE_DRAIN };

/* Shared by the jobs of one run: the phase word and its start time. */
struct rw_shared {
	struct workload *w;
	struct rw_state *st;
	_Atomic int phase;
	_Atomic uint64_t run_start_ns;
	struct gate gate;	   /* jobs set up, then wait for main */
	_Atomic unsigned finished; /* jobs out of their loop */
};

/* One job: a thread, its file, engine and private tallies. */
struct rw_job {
	struct rw_shared *sh;
	unsigned idx;
	pthread_t thread;
	int fd;
	struct engine eng;
	struct io_req *reqs;  /* iodepth of them, req i uses buffer i */
	struct io_req **free; /* stack of idle requests */
	unsigned nr_free;
	struct io_req **done;
	uint8_t *timed;	  /* per request (buf_idx): submitted inside
			     the timed region, so it counts */
	void **bufs;	  /* iodepth buffers of bs bytes, in buf_area */
	char *buf_area;	  /* xalloc_io() */
	size_t buf_bytes; /* of buf_area */
	unsigned iodepth;
	unsigned batch_submit; /* I/Os per submit call (iodepth: all) */
	unsigned complete_min; /* completions a wait asks for, >= 1 */
	unsigned complete_max; /* at most this many per reap (iodepth) */
	struct rng rng;
	uint64_t base_bytes; /* region start */
	uint64_t next_bytes; /* sequential cursor inside the region */
	struct randmap map;  /* randommap: the walk over the region */
	int use_map;	     /* randommap is on */
	uint64_t pass_left;  /* invalidate: I/Os left in this pass */
	int drop_due;	     /* invalidate: a pass ended, drop the cache */
	uint64_t quota;	     /* count mode: I/Os to do in the region */
	uint64_t counted;    /* I/Os submitted in the timed region */
	uint64_t writes_since_fsync;
	uint64_t fsyncs;       /* counted flushes (fsync=N and settle) */
	uint64_t last_done_ns; /* last counted completion */
	uint64_t live_ns;      /* last publication to w->live */
	uint64_t live_ops, live_bytes; /* what it published */
	struct hist lat[IO_DIRS];
	struct job_result res;
	struct thread_cpu cpu; /* from the region's start */
	int ret;
	struct strbuf err;
	struct verify_job *vfy; /* --verify: what was written where */
};

/* Open the job's file, make buffers and requests, start its engine. */
static int job_setup(struct rw_job *j)
{
	struct workload *w = j->sh->w;
	struct rw_state *st = j->sh->st;
	const struct rw_params *p = w->params;
	uint64_t bs = p->bs_bytes;
	int direct = p->common.direct;
	int writes = st->kind.read_pct < 100;
	struct engine_opts eo = {0};
	size_t stride;
	unsigned i;
	int flags = (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC;

	if (direct)
		flags |= O_DIRECT;
	if (!st->blockdev)
		j->fd =
		    target_open_file(w->target, st->names[j->idx], flags, 0);
	else if ((j->fd = open(st->paths[j->idx], flags)) < 0)
		j->fd = -errno;
	if (j->fd < 0) {
		int e = -j->fd;

		if (direct && e == EINVAL)
			return err_set(
			    &j->err, -e,
			    "the filesystem of '%s' does not support "
			    "O_DIRECT (tmpfs?); use --direct=0 or "
			    "another target",
			    st->paths[j->idx]);
		return err_set(&j->err, -e, "cannot open '%s': %s",
			       st->paths[j->idx], strerror(e));
	}
	if (p->fadvise)
		posix_fadvise(j->fd, 0, 0,
			      st->kind.random ? POSIX_FADV_RANDOM
					      : POSIX_FADV_SEQUENTIAL);
	j->iodepth = rw_effective_iodepth(w);
	rw_batch_of(w, j->iodepth, &j->batch_submit, &j->complete_min,
		    &j->complete_max);
	j->reqs = xcalloc(j->iodepth, sizeof(*j->reqs));
	j->free = xcalloc(j->iodepth, sizeof(*j->free));
	j->done = xcalloc(j->iodepth, sizeof(*j->done));
	j->timed = xcalloc(j->iodepth, sizeof(*j->timed));
	j->bufs = xcalloc(j->iodepth, sizeof(*j->bufs));
	stride = ((size_t)bs + 4095) & ~(size_t)4095; /* page-aligned each */
	j->buf_bytes = (size_t)j->iodepth * stride;
	j->buf_area = xalloc_io(j->buf_bytes);
	rng_seed(&j->rng, w->ro.seed * 1000003u + j->idx);
	for (i = 0; i < j->iodepth; i++) {
		j->bufs[i] = j->buf_area + (size_t)i * stride;
		if (writes)
			layout_fill_random(j->bufs[i], bs, &j->rng);
		j->reqs[i].buf = j->bufs[i];
		j->reqs[i].buf_idx = (uint16_t)i;
		j->free[j->nr_free++] = &j->reqs[i];
	}
	if (p->common.invalidate)
		j->pass_left = st->region_bytes / bs;
	if (p->randommap) {
		uint64_t r1 = rng_next(&j->rng);

		j->use_map = 1;
		randmap_init(&j->map, st->region_bytes / bs, r1,
			     rng_next(&j->rng));
	}
	j->base_bytes =
	    st->blockdev && !st->shared ? st->region_bytes * j->idx : 0;
	if (strcmp(p->verify, "off")) {
		j->vfy = xmalloc(sizeof(*j->vfy));
		verify_job_init(j->vfy, j->idx, w->ro.seed, j->base_bytes,
				st->region_bytes, (uint32_t)bs, j->iodepth);
	}
	eo.iodepth = j->iodepth;
	eo.direct = direct;
	eo.fds = &j->fd;
	eo.nr_files = 1;
	eo.bufs = j->bufs;
	eo.nr_bufs = j->iodepth;
	eo.buf_bytes = bs;
	eo.file_bytes = j->base_bytes + st->region_bytes;
	eo.writable = writes;
	eo.sqpoll = p->sqpoll;
	return engine_init(&j->eng, engine_find(p->engine), &eo, &j->err);
}

static void job_teardown(struct rw_job *j)
{
	if (j->eng.ops)
		engine_release(&j->eng);
	if (j->fd >= 0)
		close(j->fd);
	xfree_io(j->buf_area, j->buf_bytes);
	free(j->bufs);
	free(j->reqs);
	free(j->free);
	free(j->done);
	free(j->timed);
	verify_job_release(j->vfy);
	free(j->vfy);
	strbuf_release(&j->err);
}

/* Pick the next offset and direction for req. */
static void next_io(struct rw_job *j, struct io_req *req)
{
	const struct rw_kind *k = &j->sh->st->kind;
	uint64_t bs = req->len_bytes, region = j->sh->st->region_bytes;

	if (k->random && j->use_map) {
		req->offset_bytes = j->base_bytes + randmap_next(&j->map) * bs;
	} else if (k->random) {
		req->offset_bytes =
		    j->base_bytes + rng_below(&j->rng, region / bs) * bs;
	} else {
		if (j->next_bytes + bs > region)
			j->next_bytes = 0;
		req->offset_bytes = j->base_bytes + j->next_bytes;
		j->next_bytes += bs;
	}
	if (k->read_pct == 100)
		req->dir = IO_READ;
	else if (k->read_pct == 0)
		req->dir = IO_WRITE;
	else
		req->dir = rng_below(&j->rng, 100) < (uint64_t)k->read_pct
			       ? IO_READ
			       : IO_WRITE;
	if (j->vfy)
		verify_pick(j->vfy, req);
}

/* Issue one flush through the engine and wait for it; queue must be idle. */
static int job_flush(struct rw_job *j)
{
	struct io_req *req = j->free[--j->nr_free];
	struct io_req *done;
	int ret;

	req->dir = IO_FSYNC;
	req->offset_bytes = 0;
	ret = j->eng.ops->submit(&j->eng, &req, 1);
	if (ret == 1)
		ret = j->eng.ops->reap(&j->eng, &done, 1, 1);
	if (ret == 1 && done->result < 0)
		ret = done->result;
	j->free[j->nr_free++] = req;
	if (ret < 0)
		return err_set(&j->err, ret, "fsync of '%s' failed: %s",
			       j->sh->st->paths[j->idx], strerror(-ret));
	return 0;
}

/* Publish the counted completions since the last time to w->live (for
 * progress): called with a clock read anyway, acts every 100 ms. */
static void job_publish(struct rw_job *j, uint64_t now, int force)
{
	uint64_t ops = j->res.ops[IO_READ] + j->res.ops[IO_WRITE];
	uint64_t bytes = j->res.bytes[IO_READ] + j->res.bytes[IO_WRITE];

	if (!j->sh->w->live ||
	    (!force && now - j->live_ns < WORKLOAD_LIVE_EVERY_NS))
		return;
	workload_live_add(j->sh->w->live, ops - j->live_ops,
			  bytes - j->live_bytes);
	j->live_ops = ops;
	j->live_bytes = bytes;
	j->live_ns = now;
}

/* Account reaped requests; returns -errno on an I/O error. */
static int job_complete(struct rw_job *j, unsigned n)
{
	uint64_t now = clock_now_ns();
	unsigned i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		struct io_req *req = j->done[i];

		j->free[j->nr_free++] = req;
		if (j->vfy)
			verify_complete(j->vfy, req,
					req->result == (int32_t)req->len_bytes,
					j->sh->st->paths[j->idx]);
		if (req->result >= 0 &&
		    (uint32_t)req->result != req->len_bytes) {
			/* inside our region a transfer is never short: count
			 * nothing that did not move its bytes */
			if (!ret)
				ret = err_set(
				    &j->err, -EIO,
				    "short %s at offset %llu of '%s': "
				    "%d of %u bytes (past the end of "
				    "the file or device?)",
				    req->dir == IO_READ ? "read" : "write",
				    (unsigned long long)req->offset_bytes,
				    j->sh->st->paths[j->idx], req->result,
				    req->len_bytes);
			continue;
		}
		if (req->result < 0) {
			if (!ret)
				ret = err_set(
				    &j->err, req->result,
				    "%s of %u bytes at offset %llu "
				    "of '%s' failed: %s",
				    req->dir == IO_READ ? "read" : "write",
				    req->len_bytes,
				    (unsigned long long)req->offset_bytes,
				    j->sh->st->paths[j->idx],
				    strerror(-req->result));
			continue;
		}
		if (!j->timed[req->buf_idx])
			continue; /* warm-up */
		j->res.ops[req->dir]++;
		j->res.bytes[req->dir] += (uint64_t)req->result;
		hist_record(&j->lat[req->dir], now - req->start_ns);
		j->last_done_ns = now;
	}
	job_publish(j, now, 0);
	return ret;
}

/* A failed reap, as the job's error. */
static int reap_error(struct rw_job *j, int got)
{
	return err_set(&j->err, got, "waiting for I/O on '%s' failed: %s",
		       j->sh->st->paths[j->idx], strerror(-got));
}

/* The hot loop: keep iodepth I/Os in flight until told to drain. */
static int job_loop(struct rw_job *j)
{
	struct workload *w = j->sh->w;
	const struct rw_params *p = w->params;
	uint32_t bs = (uint32_t)p->bs_bytes;
	uint64_t fsync_every = p->fsync_every;
	unsigned inflight = 0;
	uint64_t run_start = 0;
	int ret = 0, draining = 0;

	for (;;) {
		int phase =
		    atomic_load_explicit(&j->sh->phase, memory_order_acquire);
		unsigned n = 0;

		if (!run_start && phase != PHASE_RAMP) {
			run_start = atomic_load(&j->sh->run_start_ns);
			thread_cpu_start(&j->cpu);
		}
		if (phase == PHASE_DRAIN || *w->stop ||
		    (j->quota && j->counted >= j->quota))
			draining = 1;
		if (draining && !inflight)
			break;
		if (!draining && fsync_every &&
		    j->writes_since_fsync >= fsync_every) {
			if (inflight)
				goto reap; /* drain, then flush */
			ret = job_flush(j);
			if (ret)
				break;
			j->writes_since_fsync = 0;
			if (run_start)
				j->fsyncs++;
		}
		if (j->drop_due) {
			/* a new pass starts cold, as fio's invalidate=1 does;
			 * what is still in flight is not dropped */
			posix_fadvise(j->fd, (off_t)j->base_bytes,
				      (off_t)j->sh->st->region_bytes,
				      POSIX_FADV_DONTNEED);
			j->drop_due = 0;
		}
		while (!draining && j->nr_free &&
		       (!j->quota || !run_start || j->counted + n < j->quota)) {
			struct io_req *req = j->free[j->nr_free - 1 - n];

			req->len_bytes = bs;
			req->file_idx = 0;
			next_io(j, req);
			if (req->dir == IO_WRITE)
				j->writes_since_fsync++;
			n++;
			if (j->pass_left && !--j->pass_left) {
				j->pass_left = j->sh->st->region_bytes / bs;
				j->drop_due = 1;
				break;
			}
			if (n == j->nr_free || n == j->batch_submit)
				break;
			if (fsync_every && j->writes_since_fsync >= fsync_every)
				break;
		}
		if (n) {
			uint64_t now = clock_now_ns();
			struct io_req **batch = &j->free[j->nr_free - n];
			unsigned i;
			int got;

			/* picked from the top of the stack down: put the
			 * batch back in the order its offsets were chosen,
			 * or sequential I/O would go out backwards */
			for (i = 0; i < n / 2; i++) {
				struct io_req *t = batch[i];

				batch[i] = batch[n - 1 - i];
				batch[n - 1 - i] = t;
			}
			for (i = 0; i < n; i++) {
				batch[i]->start_ns = now;
				j->timed[batch[i]->buf_idx] = run_start != 0;
			}
			got = j->eng.ops->submit(&j->eng, batch, n);
			if (got < 0) {
				ret = err_set(&j->err, got,
					      "submitting I/O to '%s' failed: "
					      "%s",
					      j->sh->st->paths[j->idx],
					      strerror(-got));
				break;
			}
			for (i = (unsigned)got; j->vfy && i < n; i++)
				verify_unpick(j->vfy, batch[i]);
			/* the first got of the batch left; keep the rest */
			memmove(batch, batch + got,
				(n - (unsigned)got) * sizeof(*batch));
			j->nr_free -= (unsigned)got;
			inflight += (unsigned)got;
			if (run_start)
				j->counted += (unsigned)got;
			/* a batch of batch_submit went out while slots are
			 * free: hand it to the kernel on its own (a reap of
			 * nothing submits what io_uring queued) and fill
			 * the next, as fio commits each batch */
			if (n == j->batch_submit && j->nr_free &&
			    (unsigned)got == n && !j->drop_due &&
			    !(fsync_every &&
			      j->writes_since_fsync >= fsync_every)) {
				got = j->eng.ops->reap(&j->eng, j->done, 0, 0);
				if (got < 0) {
					ret = reap_error(j, got);
					break;
				}
				continue;
			}
		}
	reap:
		if (inflight) {
			unsigned want = j->complete_min < inflight
					    ? j->complete_min
					    : inflight;
			unsigned most =
			    j->complete_max > want ? j->complete_max : want;
			int got =
			    j->eng.ops->reap(&j->eng, j->done, want,
					     most < inflight ? most : inflight);

			if (got < 0) {
				ret = reap_error(j, got);
				break;
			}
			inflight -= (unsigned)got;
			ret = job_complete(j, (unsigned)got);
			if (ret)
				break;
		}
	}
	return ret;
}

/* Thread body: set up, meet the others, loop, settle, tally CPU. */
static void *job_main(void *arg)
{
	struct rw_job *j = arg;
	struct workload *w = j->sh->w;
	struct rw_state *st = j->sh->st;
	int settle = st->kind.read_pct < 100 && workload_syncs(w->params);

	j->ret = job_setup(j);
	gate_arrive(&j->sh->gate);
	if (j->ret)
		return NULL;
	j->ret = job_loop(j);
	job_publish(j, 0, 1);
	atomic_fetch_add(&j->sh->finished, 1);
	/* CPU over the I/O phase, the span jobs[].seconds covers */
	thread_cpu_stop(&j->cpu, &j->res.user_s, &j->res.sys_s);
	if (!j->ret && settle && !*w->stop && j->counted) {
		j->ret = job_flush(j);
		j->fsyncs++;
	}
	return NULL;
}

/* Sleep until deadline_ns or a stop request, in short steps. */
static void sleep_until(uint64_t deadline_ns, volatile int *stop)
{
	for (;;) {
		uint64_t now = clock_now_ns();
		uint64_t step = 50000000ull; /* 50 ms */
		struct timespec ts;

		if (now >= deadline_ns || *stop)
			return;
		if (deadline_ns - now < step)
			step = deadline_ns - now;
		ts.tv_sec = (time_t)(step / 1000000000ull);
		ts.tv_nsec = (long)(step % 1000000000ull);
		nanosleep(&ts, NULL);
	}
}

/*
 * A run of --ios with a time as well (a fio job that is not time based
 * but has a runtime): whichever comes first ends it. Wait until every
 * started job is done or the deadline passes.
 */
static void cap_count_run(struct rw_shared *sh, unsigned started,
			  uint64_t deadline_ns)
{
	const struct timespec step = {0, 10000000}; /* 10 ms */

	while (atomic_load(&sh->finished) < started &&
	       clock_now_ns() < deadline_ns && !*sh->w->stop)
		nanosleep(&step, NULL);
}

/* Fold every job's tallies into r and pick the first error. */
static int collect(struct rw_job *jobs, unsigned nr, uint64_t run_start,
		   struct run_result *r, struct strbuf *err)
{
	uint64_t last_ns = 0;
	unsigned i, d;
	int ret = 0;

	r->nr_jobs = nr;
	r->jobs = xcalloc(nr, sizeof(*r->jobs));
	for (i = 0; i < nr; i++) {
		struct rw_job *j = &jobs[i];

		if (j->ret && !ret)
			ret = err_set(err, j->ret, "job %u: %s", i, j->err.buf);
		j->res.have_lat = 1;
		for (d = 0; d < IO_DIRS; d++) {
			r->ops[d] += j->res.ops[d];
			r->bytes[d] += j->res.bytes[d];
			job_lat_from_hist(&j->res.lat[d], &j->lat[d]);
			hist_merge(&r->lat[d], &j->lat[d]);
		}
		r->fsyncs += j->fsyncs;
		if (!i) {
			r->have_engine = 1;
			r->engine_features = j->eng.features;
		}
		/* one engine fallback note is enough: the jobs share it */
		if (j->eng.note && !r->nr_notes)
			run_result_note(r, "%s", j->eng.note);
		if (j->last_done_ns > run_start)
			j->res.seconds =
			    (double)(j->last_done_ns - run_start) / 1e9;
		if (j->last_done_ns > last_ns)
			last_ns = j->last_done_ns;
		r->jobs[i] = j->res;
	}
	if (last_ns > run_start)
		r->burst_seconds = (double)(last_ns - run_start) / 1e9;
	return ret;
}

/* --verify: after the measured part, check what each job's file holds. */
static int read_back(struct rw_job *jobs, unsigned nr, volatile int *stop,
		     struct run_result *r, struct strbuf *err)
{
	unsigned i;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		struct rw_job *j = &jobs[i];

		/* unmapped and idle first: nothing of ours may pin the
		 * cache the pass drops */
		engine_release(&j->eng);
		if (!ret && !*stop)
			ret = verify_readback(j->vfy, j->fd,
					      j->sh->st->paths[i], err);
		verify_merge(j->vfy, &r->verify);
	}
	return ret;
}

int rw_run(struct workload *w, struct run_result *r, struct strbuf *err)
{
	static volatile int never_stop;
	struct rw_state *st = w->priv;
	struct rw_shared sh;
	struct rw_job *jobs;
	struct measure m;
	uint64_t start, run_start = 0;
	unsigned i, started = 0;
	int ret = 0;

	if (!w->stop)
		w->stop = &never_stop;
	memset(&sh, 0, sizeof(sh));
	sh.w = w;
	sh.st = st;
	atomic_init(&sh.phase, PHASE_RAMP);
	atomic_init(&sh.run_start_ns, 0);
	atomic_init(&sh.finished, 0);
	gate_init(&sh.gate);
	jobs = xcalloc(st->nr_jobs, sizeof(*jobs));
	for (i = 0; i < st->nr_jobs; i++) {
		struct rw_job *j = &jobs[i];

		j->sh = &sh;
		j->idx = i;
		j->fd = -1;
		strbuf_init(&j->err, 0);
		hist_init(&j->lat[IO_READ]);
		hist_init(&j->lat[IO_WRITE]);
		if (w->ro.ios) {
			j->quota = w->ro.ios / st->nr_jobs +
				   (i < w->ro.ios % st->nr_jobs);
			if (!j->quota)
				j->quota = 1;
		}
	}
	for (i = 0; i < st->nr_jobs; i++) {
		ret = pthread_create(&jobs[i].thread, NULL, job_main, &jobs[i]);
		if (ret) {
			err_set(err, -ret, "cannot start job %u: %s", i,
				strerror(ret));
			ret = -ret;
			/* the started jobs must not run: drain them */
			atomic_store(&sh.phase, PHASE_DRAIN);
			break;
		}
		started++;
	}
	gate_wait(&sh.gate, started);
	measure_init(&m, w->hook);
	/*
	 * With a ramp the jobs warm up, uncounted, before the region opens;
	 * without one the region opens first, so that no I/O runs before
	 * it (an --ios run then covers the same I/Os every time).
	 */
	if (ret || w->ro.ramp_ns)
		gate_open(&sh.gate);
	start = clock_now_ns();
	if (!ret && w->ro.ramp_ns)
		sleep_until(start + w->ro.ramp_ns, w->stop);
	if (!ret) {
		measure_begin(&m);
		run_start = m.start_ns;
		atomic_store(&sh.run_start_ns, run_start);
		atomic_store_explicit(&sh.phase, PHASE_RUN,
				      memory_order_release);
		if (!w->ro.ramp_ns)
			gate_open(&sh.gate);
		if (!w->ro.ios)
			sleep_until(run_start + w->ro.time_ns, w->stop);
		else if (w->ro.time_ns)
			cap_count_run(&sh, started, run_start + w->ro.time_ns);
		if (!w->ro.ios || *w->stop || w->ro.time_ns)
			atomic_store_explicit(&sh.phase, PHASE_DRAIN,
					      memory_order_release);
	}
	for (i = 0; i < started; i++)
		pthread_join(jobs[i].thread, NULL);
	if (!ret) {
		/* tallies first: the hook's end reads them (device truth) */
		ret = collect(jobs, st->nr_jobs, run_start, r, err);
		r->interrupted = *w->stop != 0;
		measure_end(&m, r);
	}
	if (!ret && jobs[0].vfy)
		ret = read_back(jobs, st->nr_jobs, w->stop, r, err);
	if (!ret && st->note)
		run_result_note(r, "%s", st->note);
	for (i = 0; i < st->nr_jobs; i++)
		job_teardown(&jobs[i]);
	free(jobs);
	gate_destroy(&sh.gate);
	return ret;
}
