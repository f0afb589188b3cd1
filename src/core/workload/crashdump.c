/*
 * crashdump: a crash-dump collector. Producer threads write dump files
 * whose sizes follow a distribution (sizedist.h) into a spool of hashed
 * subdirectories (spool/3f/), each under a temporary name, fsync'd, and
 * renamed into place, as collectors do so that no reader ever sees half
 * a dump. Consumer threads pick up the finished dumps (only renamed
 * ones: a producer hands a dump over after its rename, as an
 * inotify-driven collector learns of it), read each from start to end
 * with plain sequential reads (so read-ahead decides how many requests
 * the device sees, and the first read of a new file updates its atime
 * unless the mount says noatime) and delete it, or keep it. By
 * default a producer drops its dump from the page cache once written
 * (evict), as the memory of a busy collector holds other things by the
 * time a dump is processed: the reads then reach the device.
 *
 * The spool is bounded: producers wait while the dumps not yet picked
 * up would take more than a quarter of the space that was free at
 * prepare, and with keep the consumers recycle the oldest kept dump
 * once the kept ones pass another quarter. A full filesystem anyway
 * ends the run with an error, and the spool is removed.
 *
 * The metric is dumps per minute read by the consumers; the producers'
 * rate is another metric, and each dump's write (create to rename),
 * read and delete latency is a row of the per-operation table.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "layout.h"
#include "sizedist.h"
#include "smallfiles-int.h" /* sf_remove_tree() */
#include "workload.h"
#include "../result/hist.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define SPOOL		"spool"
#define READY_SLOTS	4096u	    /* dumps written, not yet picked up */
#define KEPT_SLOTS	65536u	    /* keep: dumps read and left in place */
#define WAIT_STEP_NS	20000000ull /* re-check stop and phase */
#define DEFAULT_SIZES	"lognormal:mean=250k,sd=250k,min=4k,max=8M"
#define MIN_SPOOL_EXTRA (4ull << 20)

/* The rows of the per-operation table. */
enum cd_kind { CD_WRITE, CD_READ, CD_DELETE, CD_KINDS };

static const char *const cd_kind_names[CD_KINDS] = {
    [CD_WRITE] = "write_dump",
    [CD_READ] = "read_dump",
    [CD_DELETE] = "delete_dump",
};

static const struct param_spec cd_params[] = {
    {"producers", PARAM_UINT, "2", 1, 256, NULL,
     "threads writing dumps into the spool"},
    {"consumers", PARAM_UINT, "2", 1, 256, NULL,
     "threads reading finished dumps and deleting them"},
    {"sizes", PARAM_STRING, DEFAULT_SIZES, 0, 0, NULL,
     "dump sizes: SIZE, uniform:MIN-MAX, "
     "lognormal:mean=SIZE[,sd=SIZE][,min=SIZE][,max=SIZE], or "
     "SIZE:WEIGHT,..."},
    {"fsync", PARAM_BOOL, "1", 0, 0, NULL,
     "fsync each dump before it is renamed into place"},
    {"evict", PARAM_BOOL, "1", 0, 0, NULL,
     "drop each dump from the page cache once written, so consumers "
     "read it from the device as on a busy collector"},
    {"keep", PARAM_BOOL, "0", 0, 0, NULL,
     "keep the dumps read (the oldest are recycled to bound the spool)"},
    {"dirs", PARAM_UINT, "256", 1, 65536, NULL,
     "hashed subdirectories of the spool (256: spool/00 to spool/ff)"},
    {"bs", PARAM_SIZE, "128k", 512, 64ull << 20, NULL,
     "size of each read and write call"},
    {"label", PARAM_STRING, "", 0, 0, NULL,
     "free text carried into results (A/A experiments)"},
    {NULL},
};

/* One dump in the spool. */
struct cd_dump {
	uint64_t id;
	uint64_t bytes;
};

/* A ring of dumps, oldest first. */
struct cd_ring {
	struct cd_dump *slots;
	unsigned cap, head, nr;
	uint64_t bytes; /* of the dumps in it */
};

/* The workload's settings and what prepare made, until cleanup. */
struct cd_state {
	unsigned nr_producers, nr_consumers;
	struct sizedist sizes;
	int fsync_on, evict, keep;
	unsigned dirs, hex_digits;
	size_t bs_bytes;
	uint64_t budget_bytes; /* half for dumps waiting, half for kept */
	int spool_fd;
};

enum cd_phase { CD_PHASE_RAMP, CD_PHASE_RUN, CD_PHASE_DRAIN };

/* Shared by the threads of one run. */
struct cd_shared {
	struct workload *w;
	struct cd_state *st;
	_Atomic int phase;
	_Atomic int failed;
	_Atomic uint64_t next_id;
	_Atomic uint64_t read_timed; /* dumps read in the timed region */
	pthread_mutex_t mu;	     /* the rings and producing_* */
	pthread_cond_t room_cv;	     /* a dump was picked up */
	pthread_cond_t ready_cv;     /* a dump was handed over */
	struct cd_ring ready;	     /* renamed, not yet picked up */
	struct cd_ring kept;	     /* keep: read, left in the spool */
	unsigned producing;	     /* producers writing a dump */
	uint64_t producing_bytes;
	uint64_t recycled; /* kept dumps deleted to bound the spool */
	pthread_mutex_t gate_mu;
	pthread_cond_t gate_cv;
	unsigned arrived;
	int go;
};

/* One producer or consumer thread with private tallies. */
struct cd_thread {
	struct cd_shared *sh;
	unsigned idx; /* among its kind */
	int consumer;
	pthread_t thread;
	struct rng rng;
	struct hist lat[CD_KINDS];
	uint64_t ios[2], bytes[2], fsyncs;
	uint64_t last_done_ns;
	struct rusage ru0;
	int ru0_taken;
	double user_s, sys_s;
	uint8_t *buf;
	int ret;
	struct strbuf err;
};

/* Read the parameters into st (validate and prepare share it). */
static int read_settings(struct workload *w, struct cd_state *st,
			 struct strbuf *err)
{
	unsigned n;

	st->nr_producers = (unsigned)workload_u64(w, "producers");
	st->nr_consumers = (unsigned)workload_u64(w, "consumers");
	st->fsync_on = workload_u64(w, "fsync") != 0;
	st->evict = workload_u64(w, "evict") != 0;
	st->keep = workload_u64(w, "keep") != 0;
	st->dirs = (unsigned)workload_u64(w, "dirs");
	st->bs_bytes = (size_t)workload_u64(w, "bs");
	st->hex_digits = 2;
	for (n = 256; n < st->dirs; n *= 16)
		st->hex_digits++;
	st->spool_fd = -1;
	return sizedist_parse(workload_str(w, "sizes"), &st->sizes, err);
}

static int cd_validate(struct workload *w, struct strbuf *err)
{
	struct cd_state st;

	memset(&st, 0, sizeof(st));
	return read_settings(w, &st, err);
}

/* Which subdirectory dump id lives in: a hash, so that the ids of one
 * producer spread over all of them. */
static unsigned dump_dir(const struct cd_state *st, uint64_t id)
{
	uint64_t z = id + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (unsigned)(z % st->dirs);
}

static void dir_name(const struct cd_state *st, unsigned d, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%0*x", (int)st->hex_digits, d);
}

/*
 * Make the spool and its subdirectories, and find the spool's bound:
 * half the free space, which must hold what the producers write at
 * once at the largest size, twice over.
 */
static int make_spool(struct workload *w, struct cd_state *st,
		      struct strbuf *err)
{
	const struct target *t = w->target;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint64_t need, avail;
	struct statvfs sv;
	char name[16];
	unsigned d;
	int ret = 0;

	if (fstatvfs(t->work_fd, &sv) == 0) {
		avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		need = 2 * (uint64_t)st->nr_producers * st->sizes.max_bytes +
		       MIN_SPOOL_EXTRA;
		if (avail / 2 < need) {
			units_fmt_bytes(&a, 2 * need);
			units_fmt_bytes(&b, avail);
			ret = err_set(err, -ENOSPC,
				      "the spool of %u producers (dumps up to "
				      "%llu bytes) needs %s but '%s' has %s "
				      "free; lower --producers or the largest "
				      "of --sizes, or pick another target",
				      st->nr_producers,
				      (unsigned long long)st->sizes.max_bytes,
				      a.buf, t->path, b.buf);
			goto out;
		}
		st->budget_bytes = avail / 2;
	} else {
		st->budget_bytes = 1ull << 30; /* not knowable: 1 GiB */
	}
	if (mkdirat(t->work_fd, SPOOL, 0755) < 0 && errno != EEXIST) {
		ret = err_set(err, -errno, "cannot make '%s/%s': %s",
			      t->workdir, SPOOL, strerror(errno));
		goto out;
	}
	st->spool_fd = openat(t->work_fd, SPOOL,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (st->spool_fd < 0) {
		ret = err_set(err, -errno, "cannot open '%s/%s': %s",
			      t->workdir, SPOOL, strerror(errno));
		goto out;
	}
	for (d = 0; d < st->dirs; d++) {
		dir_name(st, d, name, sizeof(name));
		if (mkdirat(st->spool_fd, name, 0755) < 0 && errno != EEXIST) {
			ret = err_set(err, -errno, "cannot make '%s/%s/%s': %s",
				      t->workdir, SPOOL, name, strerror(errno));
			goto out;
		}
	}
out:
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

static int cd_prepare(struct workload *w, struct target *t, struct strbuf *err)
{
	struct cd_state *st = xcalloc(1, sizeof(*st));
	int ret;

	w->priv = st;
	w->target = t;
	ret = read_settings(w, st, err);
	if (ret)
		return ret;
	if (t->kind == TARGET_BLOCKDEV || t->work_fd < 0 || !t->workdir)
		return err_set(err, -EINVAL,
			       "crashdump works on files: give a directory "
			       "or scratch:SIZE as the target, not '%s'",
			       t->path);
	return make_spool(w, st, err);
}

static void ring_init(struct cd_ring *r, unsigned cap)
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
	if (phase == CD_PHASE_RUN && !t->ru0_taken) {
		getrusage(RUSAGE_THREAD, &t->ru0);
		t->ru0_taken = 1;
	}
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

	dir_name(st, dump_dir(st, id), name, len);
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
		dir_name(st, dump_dir(st, d.id), dir, sizeof(dir));
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

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* Thread body: meet the others at the gate, run, take the CPU used. */
static void *thread_main(void *arg)
{
	struct cd_thread *t = arg;
	struct cd_shared *sh = t->sh;
	struct rusage ru1;

	pthread_mutex_lock(&sh->gate_mu);
	sh->arrived++;
	pthread_cond_broadcast(&sh->gate_cv);
	while (!sh->go)
		pthread_cond_wait(&sh->gate_cv, &sh->gate_mu);
	pthread_mutex_unlock(&sh->gate_mu);
	if (t->consumer)
		consumer_loop(t);
	else
		producer_loop(t);
	if (t->ru0_taken) {
		getrusage(RUSAGE_THREAD, &ru1);
		t->user_s = tv_s(ru1.ru_utime) - tv_s(t->ru0.ru_utime);
		t->sys_s = tv_s(ru1.ru_stime) - tv_s(t->ru0.ru_stime);
	}
	return NULL;
}

/* Sleep until deadline_ns, a stop request, a failure or the drain. */
static void wait_until(struct cd_shared *sh, uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = clock_now_ns(), step = WAIT_STEP_NS;
		struct timespec ts;

		if (now >= deadline_ns || *sh->w->stop ||
		    atomic_load(&sh->failed) ||
		    atomic_load(&sh->phase) == CD_PHASE_DRAIN)
			return;
		if (deadline_ns - now < step)
			step = deadline_ns - now;
		ts.tv_sec = (time_t)(step / 1000000000ull);
		ts.tv_nsec = (long)(step % 1000000000ull);
		nanosleep(&ts, NULL);
	}
}

/* Fold the threads' tallies into r; the first error wins. */
static int collect(struct cd_shared *sh, struct cd_thread *ts, unsigned nr,
		   uint64_t start, struct run_result *r, struct strbuf *err)
{
	unsigned i, k;
	int ret = 0;

	r->nr_jobs = nr;
	r->jobs = xcalloc(nr, sizeof(*r->jobs));
	r->nr_op_results = CD_KINDS;
	r->op_results = xcalloc(CD_KINDS, sizeof(*r->op_results));
	for (k = 0; k < CD_KINDS; k++) {
		r->op_results[k].name = cd_kind_names[k];
		hist_init(&r->op_results[k].lat);
	}
	for (i = 0; i < nr; i++) {
		struct cd_thread *t = &ts[i];
		struct job_result *j = &r->jobs[i];

		if (t->ret && !ret)
			ret = err_set(err, t->ret, "%s", t->err.buf);
		for (k = 0; k < CD_KINDS; k++) {
			hist_merge(&r->op_results[k].lat, &t->lat[k]);
			r->file_ops += t->lat[k].count;
		}
		for (k = 0; k < 2; k++) {
			r->ops[k] += t->ios[k];
			r->bytes[k] += t->bytes[k];
			j->ops[k] = t->ios[k];
			j->bytes[k] = t->bytes[k];
		}
		r->fsyncs += t->fsyncs;
		j->user_s = t->user_s;
		j->sys_s = t->sys_s;
		if (t->last_done_ns > start)
			j->seconds = (double)(t->last_done_ns - start) / 1e9;
	}
	if (sh->recycled)
		run_result_note(r,
				"keep: %llu kept dumps recycled to bound the "
				"spool at %llu bytes",
				(unsigned long long)sh->recycled,
				(unsigned long long)sh->st->budget_bytes / 2);
	if (sh->ready.nr)
		run_result_note(r,
				"%u dumps were written and not read when "
				"the run ended",
				sh->ready.nr);
	return ret;
}

/* Set up thread i (producers first, then consumers). */
static void thread_init(struct cd_thread *t, struct cd_shared *sh, unsigned i)
{
	struct cd_state *st = sh->st;
	unsigned k;

	t->sh = sh;
	t->consumer = i >= st->nr_producers;
	t->idx = t->consumer ? i - st->nr_producers : i;
	strbuf_init(&t->err, 0);
	rng_seed(&t->rng, sh->w->ro.seed * 1000003u + i);
	for (k = 0; k < CD_KINDS; k++)
		hist_init(&t->lat[k]);
	t->buf = xalloc_aligned(4096, st->bs_bytes);
	if (!t->consumer)
		layout_fill_random(t->buf, st->bs_bytes, &t->rng);
}

static int cd_run(struct workload *w, struct run_result *r, struct strbuf *err)
{
	static volatile int never_stop;
	struct cd_state *st = w->priv;
	unsigned i, nr = st->nr_producers + st->nr_consumers, started = 0;
	struct cd_thread *ts;
	struct cd_shared sh;
	struct measure m;
	uint64_t start, run_start = 0;
	int ret = 0;

	if (!w->stop)
		w->stop = &never_stop;
	memset(&sh, 0, sizeof(sh));
	sh.w = w;
	sh.st = st;
	atomic_init(&sh.phase, CD_PHASE_RAMP);
	atomic_init(&sh.failed, 0);
	atomic_init(&sh.next_id, 0);
	atomic_init(&sh.read_timed, 0);
	pthread_mutex_init(&sh.mu, NULL);
	pthread_cond_init(&sh.room_cv, NULL);
	pthread_cond_init(&sh.ready_cv, NULL);
	pthread_mutex_init(&sh.gate_mu, NULL);
	pthread_cond_init(&sh.gate_cv, NULL);
	ring_init(&sh.ready, READY_SLOTS);
	ring_init(&sh.kept, st->keep ? KEPT_SLOTS : 1);
	ts = xcalloc(nr, sizeof(*ts));
	for (i = 0; i < nr; i++)
		thread_init(&ts[i], &sh, i);
	for (i = 0; i < nr; i++) {
		ret = pthread_create(&ts[i].thread, NULL, thread_main, &ts[i]);
		if (ret) {
			ret = err_set(err, -ret, "cannot start thread %u: %s",
				      i, strerror(ret));
			atomic_store(&sh.phase, CD_PHASE_DRAIN);
			break;
		}
		started++;
	}
	pthread_mutex_lock(&sh.gate_mu);
	while (sh.arrived < started)
		pthread_cond_wait(&sh.gate_cv, &sh.gate_mu);
	sh.go = 1;
	pthread_cond_broadcast(&sh.gate_cv);
	pthread_mutex_unlock(&sh.gate_mu);
	measure_init(&m, w->hook);
	start = clock_now_ns();
	if (!ret && w->ro.ramp_ns)
		wait_until(&sh, start + w->ro.ramp_ns);
	if (!ret) {
		measure_begin(&m);
		run_start = m.start_ns;
		atomic_store_explicit(&sh.phase, CD_PHASE_RUN,
				      memory_order_release);
		wait_until(&sh,
			   w->ro.ios ? UINT64_MAX : run_start + w->ro.time_ns);
		atomic_store_explicit(&sh.phase, CD_PHASE_DRAIN,
				      memory_order_release);
	}
	for (i = 0; i < started; i++)
		pthread_join(ts[i].thread, NULL);
	if (!ret) {
		/* tallies first: the hook's end reads them (device truth) */
		ret = collect(&sh, ts, nr, run_start, r, err);
		r->interrupted = *w->stop != 0;
		measure_end(&m, r);
	}
	for (i = 0; i < nr; i++) {
		free(ts[i].buf);
		strbuf_release(&ts[i].err);
	}
	free(ts);
	free(sh.ready.slots);
	free(sh.kept.slots);
	pthread_cond_destroy(&sh.gate_cv);
	pthread_mutex_destroy(&sh.gate_mu);
	pthread_cond_destroy(&sh.ready_cv);
	pthread_cond_destroy(&sh.room_cv);
	pthread_mutex_destroy(&sh.mu);
	return ret;
}

static void cd_cleanup(struct workload *w)
{
	struct cd_state *st = w->priv;

	if (!st)
		return;
	if (st->spool_fd >= 0) {
		close(st->spool_fd);
		sf_remove_tree(w->target->work_fd, SPOOL);
	}
	free(st);
	w->priv = NULL;
}

static void cd_describe(const struct workload *w, const struct target *t,
			struct strbuf *out)
{
	unsigned p = (unsigned)workload_u64(w, "producers");
	unsigned c = (unsigned)workload_u64(w, "consumers");

	strbuf_addf(out,
		    "crashdump: %u producer%s, %u consumer%s, sizes %s, "
		    "fsync %s, %s, %s spool dirs, on %s\n",
		    p, p == 1 ? "" : "s", c, c == 1 ? "" : "s",
		    workload_str(w, "sizes"),
		    workload_u64(w, "fsync") ? "on" : "off",
		    workload_u64(w, "keep") ? "dumps kept" : "dumps deleted",
		    workload_str(w, "dirs"), t->workdir ? t->workdir : t->path);
}

/* Operations of the row named name per minute of r. */
static double per_min(const struct run_result *r, const char *name)
{
	unsigned i;

	if (!(r->seconds > 0))
		return NAN;
	for (i = 0; i < r->nr_op_results; i++)
		if (!strcmp(r->op_results[i].name, name))
			return (double)r->op_results[i].lat.count / r->seconds *
			       60.0;
	return NAN;
}

static double dumps_per_min(const struct workload *w,
			    const struct run_result *r)
{
	(void)w;
	return per_min(r, cd_kind_names[CD_READ]);
}

static double produced_per_min(const struct workload *w,
			       const struct run_result *r)
{
	(void)w;
	return per_min(r, cd_kind_names[CD_WRITE]);
}

static const struct metric_def cd_metrics[] = {
    {"dumps_per_min", "dumps/min", true,
     "dumps read completely by the consumers per minute", dumps_per_min},
    {"produced_per_min", "dumps/min", true,
     "dumps written and renamed into place by the producers per minute",
     produced_per_min},
    {NULL, NULL, false, NULL, NULL},
};

const struct workload_ops workload_crashdump = {
    .name = "crashdump",
    .summary = "a crash-dump collector: producers write and rename dumps "
	       "into a spool, consumers read and delete them",
    .params = cd_params,
    .validate = cd_validate,
    .prepare = cd_prepare,
    .run = cd_run,
    .cleanup = cd_cleanup,
    .default_metric = "dumps_per_min",
    .metrics = cd_metrics,
    .describe = cd_describe,
};
