/*
 * The replay's timed part: one thread per recorded thread, each doing
 * its calls in order on the laid-out files, and the fidelity of what
 * they did against the capture. See replay.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

/*
 * A call due less than this ahead runs at once: a sleep arms a timer
 * and wakes the thread again, which costs tens of microseconds (more in
 * a virtual machine, where the timer is the hypervisor's); sleeping for
 * every call of a busy thread made the replay fall behind by more than
 * the calls themselves took.
 */
#define RP_EARLY_NS 200000ull

/* Sleep until CLOCK_MONOTONIC ns, unless it is RP_EARLY_NS away or
 * less; 0 if it did, else how far ahead ns still is. */
static uint64_t sleep_until(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
			      .tv_nsec = (long)(ns % 1000000000ull)};
	uint64_t now = clock_now_ns();

	if (ns <= now + RP_EARLY_NS)
		return ns > now ? ns - now : 0;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
	return 0;
}

/* One recorded thread's calls, in order. */
static void *thread_main(void *arg)
{
	struct rp_thread *th = arg;
	struct rp_state *st = th->st;
	uint64_t prev_end = 0, carry = 0;
	size_t k, j;
	int waited = 0;

	if (th->ur) /* with io_uring requests */
		return rp_uring_thread(th);
	th->done = xcalloc(th->nr ? th->nr : 1, sizeof(*th->done));
	for (k = 0; k < th->nr && !*st->stop; k++) {
		const struct trace_event *e = &st->t.events[th->idx[k]];
		struct trace_event *d = &th->done[th->nr_done];
		uint64_t t0, t1, want = 0;

		if (st->speed > 0 && st->open_loop) {
			want = st->start_ns +
			       (uint64_t)((double)e->ts_ns / st->speed);
			sleep_until(want);
		} else if (st->speed > 0 && k) {
			const struct trace_event *p =
			    &st->t.events[th->idx[k - 1]];
			uint64_t think = e->ts_ns > p->ts_ns + p->dur_ns
					     ? e->ts_ns - p->ts_ns - p->dur_ns
					     : 0;

			/* a think time too short to sleep for is carried
			 * to the next one */
			carry =
			    sleep_until(prev_end + carry +
					(uint64_t)((double)think / st->speed));
		}
		/* what other threads had done before it in the capture */
		for (j = th->dep_off[k]; j < th->dep_off[k + 1]; j++)
			waited |= rp_wait_done(&st->th[th->deps[j].th],
					       th->deps[j].count, st->stop);
		th->waits += waited;
		waited = 0;
		if (*st->stop)
			break;
		t0 = clock_now_ns();
		if (want && t0 > want && t0 - want > th->max_lag_ns)
			th->max_lag_ns = t0 - want;
		*d = *e;
		d->ret = rp_do_op(th, e);
		t1 = clock_now_ns();
		prev_end = t1;
		d->ts_ns = t0 - st->start_ns;
		d->dur_ns = t1 - t0;
		if ((d->ret < 0) != (e->ret < 0))
			th->mismatches++;
		th->nr_done++;
		rp_set_done(th, (uint32_t)(k + 1));
	}
	rp_set_done(th, UINT32_MAX);
	rp_dirs_release(th);
	return NULL;
}

/* The run's numbers from what the threads did. */
static void fill_result(struct rp_state *st, struct run_result *r,
			struct trace *done)
{
	struct hist *lat = xcalloc(TOP__NR, sizeof(*lat));
	unsigned op, nr_kinds = 0;
	size_t i, j;

	for (op = 0; op < TOP__NR; op++)
		hist_init(&lat[op]);
	r->nr_jobs = (unsigned)st->nr_th;
	r->jobs = xcalloc(st->nr_th ? st->nr_th : 1, sizeof(*r->jobs));
	for (i = 0; i < st->nr_th; i++) {
		struct rp_thread *th = &st->th[i];

		for (j = 0; j < th->nr_done; j++) {
			const struct trace_event *d = &th->done[j];
			unsigned base = trace_op_base(d->op); /* io_uring's */
			int dir = base == TOP_READ ? IO_READ : IO_WRITE;

			if (d->op == TOP_MMAP || d->op == TOP_MSYNC)
				continue;
			hist_record(&lat[d->op], d->dur_ns);
			r->file_ops++;
			if (base == TOP_FSYNC || base == TOP_FDATASYNC)
				r->fsyncs++;
			if (base != TOP_READ && base != TOP_WRITE)
				continue;
			hist_record(&r->lat[dir], d->dur_ns);
			r->ops[dir]++;
			r->jobs[i].ops[dir]++;
			if (d->ret > 0) {
				r->bytes[dir] += (uint64_t)d->ret;
				r->jobs[i].bytes[dir] += (uint64_t)d->ret;
			}
		}
		ALLOC_GROW(done->events, done->nr_events + th->nr_done,
			   done->alloc_events);
		memcpy(done->events + done->nr_events, th->done,
		       th->nr_done * sizeof(*th->done));
		done->nr_events += th->nr_done;
	}
	for (op = 1; op < TOP__NR; op++)
		nr_kinds += lat[op].count > 0;
	r->op_results =
	    xcalloc(nr_kinds ? nr_kinds : 1, sizeof(*r->op_results));
	for (op = 1; op < TOP__NR; op++) {
		if (!lat[op].count)
			continue;
		r->op_results[r->nr_op_results].name = trace_op_name(op);
		r->op_results[r->nr_op_results].lat = lat[op];
		r->nr_op_results++;
	}
	free(lat);
}

/* How long the capture lasted, at the replay's speed (as fast as it
 * goes: as long as it lasted): its end record's, or its last call's end. */
static uint64_t capture_ns(const struct rp_state *st)
{
	uint64_t ns = st->t.end.duration_ns;
	size_t i;

	for (i = 0; !ns && i < st->t.nr_events; i++)
		if (st->t.events[i].ts_ns + st->t.events[i].dur_ns > ns)
			ns = st->t.events[i].ts_ns + st->t.events[i].dur_ns;
	return st->speed > 0 ? (uint64_t)((double)ns / st->speed) : ns;
}

/*
 * --end capture: after the last call, until the capture's window ends
 * (at the replay's speed), so that what the kernel writes back on its
 * own in that time is in the run as it was in the capture. How long
 * it waited (0: not at all, a stop ends it early).
 */
static uint64_t wait_capture_end(const struct rp_state *st, volatile int *stop)
{
	const uint64_t tick = 50000000ull; /* a stop is seen within it */
	uint64_t end = st->start_ns + capture_ns(st), now = clock_now_ns(),
		 from = now;

	if (!st->end_capture || now >= end)
		return 0;
	while (!*stop && (now = clock_now_ns()) < end) {
		uint64_t ns = end - now < tick ? end - now : tick;
		struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
				      .tv_nsec = (long)(ns % 1000000000ull)};

		nanosleep(&ts, NULL);
	}
	return clock_now_ns() - from;
}

int rp_run(struct workload *w, struct run_result *r, struct strbuf *err)
{
	struct rp_state *st = w->priv;
	struct trace done = {0};
	struct measure m;
	uint64_t calls_end, tail_ns = 0;
	size_t i;
	int ret = 0, e;

	if (st->blk)
		return rpb_run(st, w, r, err);
	/* where it stands against the capture: the settings in force here
	 * (set by now), the page cache as the capture found it */
	rp_settings_compare(st, w->target);
	rp_cache_settle(st, r);
	measure_init(&m, w->hook);
	measure_begin(&m);
	st->start_ns = clock_now_ns();
	for (i = 0; i < st->nr_th; i++) {
		st->th[i].st = st;
		e = pthread_create(&st->th[i].th, NULL, thread_main,
				   &st->th[i]);
		if (e) {
			ret = err_set(err, -e,
				      "cannot start a replay thread: "
				      "%s",
				      strerror(e));
			break;
		}
		st->th[i].started = 1;
	}
	for (i = 0; i < st->nr_th; i++)
		if (st->th[i].started)
			pthread_join(st->th[i].th, NULL);
	calls_end = clock_now_ns();
	if (!ret)
		tail_ns = wait_capture_end(st, w->stop);
	r->interrupted = *w->stop != 0;
	measure_end(&m, r);
	st->run_drops = rp_cache_check(st, r);
	/* the run's time is its calls': the wait after them is the
	 * device's, watched, not the workload's */
	if (tail_ns) {
		r->seconds = (double)(calls_end - st->start_ns) / 1e9;
		run_result_note(
		    r,
		    "after its last call the replay watched the device %.2f s "
		    "more, to the end of the capture's %.2f s%s, so writeback "
		    "had the time it had in the capture (--end calls stops "
		    "at the last call); the run's time is its calls' %.3f s",
		    (double)tail_ns / 1e9, (double)capture_ns(st) / 1e9,
		    st->speed > 0 && st->speed != 1 ? " at this speed" : "",
		    r->seconds);
	}
	if (!ret) {
		fill_result(st, r, &done);
		rp_judge(st, r, &done);
	}
	trace_release(&done);
	return ret;
}

/* Remove the tree at name in dirfd, following no link. */
static void rm_tree(int dirfd, const char *name, unsigned depth)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if (!unlinkat(dirfd, name, 0) || errno == ENOENT || depth > 256)
		return;
	fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			rm_tree(fd, de->d_name, depth + 1);
	closedir(d);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

void rp_cleanup(struct workload *w)
{
	struct rp_state *st = w->priv;
	size_t i, nr_gone = 0, alloc_gone = 0;
	char **gone = NULL;

	if (!st)
		return;
	rpb_free(st->blk);
	rp_settings_release(st);
	for (i = 0; i < st->nr_fds; i++)
		if (st->fds[i].refs)
			close(st->fds[i].fd);
	/* what the layout and the replay made: the first component of
	 * every mapped name, each removed once */
	for (i = 0; st->rel && i < st->t.nr_files; i++) {
		char *first;
		size_t j;

		if (!st->rel[i] || !strcmp(st->rel[i], "."))
			continue;
		first = xstrndup(st->rel[i], strcspn(st->rel[i], "/"));
		/* a few remembered (many: removing a name gone is
		 * cheap) */
		for (j = 0; j < nr_gone && strcmp(gone[j], first); j++)
			;
		if (j < nr_gone) {
			free(first);
			continue;
		}
		rm_tree(st->work_fd, first, 0);
		if (nr_gone == 64) {
			free(first);
			continue;
		}
		ALLOC_GROW(gone, nr_gone + 1, alloc_gone);
		gone[nr_gone++] = first;
	}
	while (nr_gone)
		free(gone[--nr_gone]);
	free(gone);
	for (i = 0; st->rel && i < st->t.nr_files; i++)
		free(st->rel[i]);
	free(st->rel);
	free(st->parent);
	for (i = 0; i < st->nr_th; i++) {
		rp_dirs_release(&st->th[i]);
		rp_uring_free(&st->th[i]);
		free(st->th[i].idx);
		free(st->th[i].dep_off);
		free(st->th[i].deps);
		free(st->th[i].done);
		free(st->th[i].buf);
	}
	free(st->th);
	free(st->fds);
	trace_release(&st->t);
	pthread_mutex_destroy(&st->lock);
	free(st);
	w->priv = NULL;
}
