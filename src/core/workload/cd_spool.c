/*
 * The producers and consumers of the crashdump workload on its spool
 * (crashdump.c starts them). A producer reserves room in the spool
 * first, writes its dump under a temporary name, fsyncs it, drops it
 * from the page cache when asked and renames it into place; only then
 * does it hand the dump over on the ready ring. A consumer takes the
 * oldest dump from the ring, reads it to its end and deletes it, or
 * keeps it and recycles the oldest kept ones past their bound. Every
 * thread keeps its own latency histograms and byte counts; one that
 * fails sets the shared flag and wakes the others, which then stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "crashdump-int.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

unsigned cd_dump_dir(const struct cd_state *st, uint64_t id)
{
	uint64_t z = id + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (unsigned)(z % st->dirs);
}

void cd_dir_name(const struct cd_state *st, unsigned d, char *buf, size_t len)
{
	snprintf(buf, len, "%0*x", (int)st->hex_digits, d);
}

void cd_ring_init(struct cd_ring *r, unsigned cap)
{
	memset(r, 0, sizeof(*r));
	r->cap = cap;
	r->slots = xcalloc(cap, sizeof(*r->slots));
}

static void ring_push(struct cd_ring *r, struct cd_dump d)
{
	if (r->nr == r->cap)
		return; /* callers make room first */
	r->slots[(r->head + r->nr) % r->cap] = d;
	r->nr++;
	r->bytes += d.bytes;
}

static struct cd_dump ring_pop(struct cd_ring *r)
{
	struct cd_dump d = r->slots[r->head];

	r->head = (r->head + 1) % r->cap;
	r->nr--;
	r->bytes -= d.bytes;
	return d;
}

/* Set t's error from errno e while doing what to path; returns -e. */
static int thread_fail(struct cd_thread *t, int e, const char *what,
		       const char *path)
{
	const struct target *tg = t->sh->w->target;
	const char *who = t->consumer ? "consumer" : "producer";

	if (e == ENOSPC || e == EDQUOT)
		err_set(&t->err, -e,
			"the filesystem of '%s' is full: %s %u cannot %s "
			"'%s/%s' (%s); the run is stopped and its files "
			"removed",
			tg->path, who, t->idx, what, SPOOL, path, strerror(e));
	else
		err_set(&t->err, -e, "%s %u cannot %s '%s/%s/%s': %s", who,
			t->idx, what, tg->workdir, SPOOL, path, strerror(e));
	t->ret = -e;
	atomic_store(&t->sh->failed, 1);
	/* wake the others: they stop at once */
	pthread_mutex_lock(&t->sh->mu);
	pthread_cond_broadcast(&t->sh->room_cv);
	pthread_cond_broadcast(&t->sh->ready_cv);
	pthread_mutex_unlock(&t->sh->mu);
	return -e;
}

/* Is the thread to go on, and is the timed region open (*timed)? */
static int thread_next(struct cd_thread *t, int *timed)
{
	struct cd_shared *sh = t->sh;
	int phase = atomic_load_explicit(&sh->phase, memory_order_acquire);

	if (phase == CD_PHASE_DRAIN || *sh->w->stop ||
	    atomic_load_explicit(&sh->failed, memory_order_relaxed))
		return 0;
	if (phase == CD_PHASE_RUN)
		thread_cpu_start(&t->cpu);
	*timed = phase == CD_PHASE_RUN;
	return 1;
}

/* Record one finished operation of kind k that began at t0_ns. */
static void thread_done(struct cd_thread *t, enum cd_kind k, uint64_t t0_ns,
			int timed)
{
	uint64_t now;

	if (!timed)
		return;
	now = clock_now_ns();
	hist_record(&t->lat[k], now - t0_ns);
	t->last_done_ns = now;
}

/* Wait on cv under sh->mu for one step; 0 when the thread must stop. */
static int wait_step(struct cd_thread *t, pthread_cond_t *cv)
{
	struct timespec ts;
	int timed;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (long)WAIT_STEP_NS;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(cv, &t->sh->mu, &ts);
	return thread_next(t, &timed);
}

/* Open the subdirectory of dump id (no link followed); fd or -errno. */
static int open_dir(const struct cd_state *st, uint64_t id, char *name,
		    size_t len)
{
	int fd;

	cd_dir_name(st, cd_dump_dir(st, id), name, len);
	fd = openat(st->spool_fd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Write one dump of bytes under a temporary name, fsync it when asked,
 * and rename it into place. 0 or -errno with t's error set. */
static int write_dump(struct cd_thread *t, uint64_t id, uint64_t bytes,
		      int timed)
{
	const struct cd_state *st = t->sh->st;
	char dir[16], tmp[40], final[40], path[64];
	uint64_t done = 0;
	int dfd, fd, ret = 0;

	snprintf(tmp, sizeof(tmp), "dump%llu.tmp", (unsigned long long)id);
	snprintf(final, sizeof(final), "dump%llu.dmp", (unsigned long long)id);
	dfd = open_dir(st, id, dir, sizeof(dir));
	if (dfd < 0)
		return thread_fail(t, -dfd, "open", dir);
	snprintf(path, sizeof(path), "%s/%s", dir, tmp);
	fd = openat(dfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = thread_fail(t, errno, "create", path);
		goto out;
	}
	while (done < bytes) {
		size_t n = bytes - done < st->bs_bytes ? (size_t)(bytes - done)
						       : st->bs_bytes;
		ssize_t got = write(fd, t->buf, n);

		if (got <= 0) {
			ret = thread_fail(t, got < 0 ? errno : ENOSPC, "write",
					  path);
			break;
		}
		done += (uint64_t)got;
		if (timed) {
			t->ios[1]++;
			t->bytes[1] += (uint64_t)got;
		}
	}
	if (!ret && st->fsync_on) {
		if (fsync(fd) < 0)
			ret = thread_fail(t, errno, "fsync", path);
		else if (timed)
			t->fsyncs++;
	}
	/* written back (fsync) pages go; dirty ones start writeback */
	if (!ret && st->evict)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (!ret && renameat(dfd, tmp, dfd, final) < 0)
		ret = thread_fail(t, errno, "rename into place", path);
	if (ret)
		unlinkat(dfd, tmp, 0);
out:
	close(dfd);
	return ret;
}

/* A producer: write dumps while there is room in the spool. */
static int producer_loop(struct cd_thread *t)
{
	struct cd_shared *sh = t->sh;
	struct cd_state *st = sh->st;
	int timed, ret;

	while (thread_next(t, &timed)) {
		uint64_t bytes = sizedist_sample(&st->sizes, &t->rng);
		uint64_t id = atomic_fetch_add(&sh->next_id, 1), t0;
		int go = 1;

		pthread_mutex_lock(&sh->mu);
		while (go && (sh->ready.nr + sh->producing >= sh->ready.cap ||
			      (sh->ready.bytes + sh->producing_bytes + bytes >
				   st->budget_bytes / 2 &&
			       sh->ready.nr + sh->producing > 0)))
			go = wait_step(t, &sh->room_cv);
		if (go) {
			sh->producing++;
			sh->producing_bytes += bytes;
		}
		pthread_mutex_unlock(&sh->mu);
		if (!go)
			break;
		/* the wait is not the dump's: the clock starts here */
		timed = atomic_load(&sh->phase) == CD_PHASE_RUN;
		t0 = clock_now_ns();
		ret = write_dump(t, id, bytes, timed);
		pthread_mutex_lock(&sh->mu);
		sh->producing--;
		sh->producing_bytes -= bytes;
		if (!ret) {
			ring_push(&sh->ready, (struct cd_dump){id, bytes});
			pthread_cond_signal(&sh->ready_cv);
		}
		pthread_mutex_unlock(&sh->mu);
		if (ret)
			return ret;
		thread_done(t, CD_WRITE, t0, timed);
	}
	return 0;
}

/* Read dump d from start to end; 0 or -errno with t's error set. */
static int read_dump(struct cd_thread *t, int dfd, const char *dir,
		     struct cd_dump d, int timed)
{
	const struct cd_state *st = t->sh->st;
	char name[40], path[64];
	int fd, ret = 0;

	snprintf(name, sizeof(name), "dump%llu.dmp", (unsigned long long)d.id);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return thread_fail(t, errno, "open", path);
	for (;;) {
		ssize_t got = read(fd, t->buf, st->bs_bytes);

		if (got < 0) {
			ret = thread_fail(t, errno, "read", path);
			break;
		}
		if (got == 0)
			break;
		if (timed) {
			t->ios[0]++;
			t->bytes[0] += (uint64_t)got;
		}
	}
	close(fd);
	return ret;
}

/* Delete dump d (in its subdirectory, open or not); 0 or -errno. */
static int delete_dump(struct cd_thread *t, int dfd, struct cd_dump d,
		       int timed)
{
	const struct cd_state *st = t->sh->st;
	char dir[16], name[40], path[64];
	int own = -1, ret = 0;
	uint64_t t0 = clock_now_ns();

	snprintf(name, sizeof(name), "dump%llu.dmp", (unsigned long long)d.id);
	if (dfd < 0) {
		own = open_dir(st, d.id, dir, sizeof(dir));
		if (own < 0)
			return thread_fail(t, -own, "open", dir);
		dfd = own;
	} else {
		cd_dir_name(st, cd_dump_dir(st, d.id), dir, sizeof(dir));
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (unlinkat(dfd, name, 0) < 0)
		ret = thread_fail(t, errno, "delete", path);
	if (own >= 0)
		close(own);
	if (!ret)
		thread_done(t, CD_DELETE, t0, timed);
	return ret;
}

/* keep: leave d in the spool, recycling the oldest kept dumps while
 * the kept ones pass their half of the bound. */
static int keep_dump(struct cd_thread *t, struct cd_dump d, int timed)
{
	struct cd_shared *sh = t->sh;
	int ret = 0;

	for (;;) {
		struct cd_dump old;

		pthread_mutex_lock(&sh->mu);
		if (sh->kept.nr < sh->kept.cap &&
		    (sh->kept.bytes + d.bytes <= sh->st->budget_bytes / 2 ||
		     !sh->kept.nr)) {
			ring_push(&sh->kept, d);
			pthread_mutex_unlock(&sh->mu);
			return 0;
		}
		old = ring_pop(&sh->kept);
		sh->recycled++;
		pthread_mutex_unlock(&sh->mu);
		ret = delete_dump(t, -1, old, timed);
		if (ret)
			return ret;
	}
}

/* A consumer: pick up finished dumps, read each, delete or keep it. */
static int consumer_loop(struct cd_thread *t)
{
	struct cd_shared *sh = t->sh;
	struct cd_state *st = sh->st;
	uint64_t quota = sh->w->ro.ios;
	int timed, ret;

	while (thread_next(t, &timed)) {
		struct cd_dump d;
		char dir[16];
		uint64_t t0;
		int dfd, go = 1;

		pthread_mutex_lock(&sh->mu);
		while (go && !sh->ready.nr)
			go = wait_step(t, &sh->ready_cv);
		if (go) {
			d = ring_pop(&sh->ready);
			pthread_cond_signal(&sh->room_cv);
		}
		pthread_mutex_unlock(&sh->mu);
		if (!go)
			break;
		timed = atomic_load(&sh->phase) == CD_PHASE_RUN;
		t0 = clock_now_ns();
		dfd = open_dir(st, d.id, dir, sizeof(dir));
		if (dfd < 0)
			return thread_fail(t, -dfd, "open", dir);
		ret = read_dump(t, dfd, dir, d, timed);
		if (!ret)
			thread_done(t, CD_READ, t0, timed);
		if (!ret && !st->keep)
			ret = delete_dump(t, dfd, d, timed);
		close(dfd);
		if (!ret && st->keep)
			ret = keep_dump(t, d, timed);
		if (ret)
			return ret;
		if (timed && quota &&
		    atomic_fetch_add(&sh->read_timed, 1) + 1 >= quota)
			atomic_store_explicit(&sh->phase, CD_PHASE_DRAIN,
					      memory_order_release);
	}
	return 0;
}

/* Thread body: meet the others at the gate, run, take the CPU used. */
void *cd_thread_main(void *arg)
{
	struct cd_thread *t = arg;
	struct cd_shared *sh = t->sh;

	gate_arrive(&sh->gate);
	if (t->consumer)
		consumer_loop(t);
	else
		producer_loop(t);
	thread_cpu_stop(&t->cpu, &t->user_s, &t->sys_s);
	return NULL;
}
