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
 *
 * This file holds the parameters, the spool, the threads' start and the
 * result; the producers and consumers themselves are in cd_spool.c.
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
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "crashdump-int.h"
#include "layout.h"
#include "../../util/atfile.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define DEFAULT_SIZES	"lognormal:mean=250k,sd=250k,min=4k,max=8M"
#define MIN_SPOOL_EXTRA (4ull << 20)

/* The rows of the per-operation table. */
static const char *const cd_kind_names[CD_KINDS] = {
    [CD_WRITE] = "write_dump",
    [CD_READ] = "read_dump",
    [CD_DELETE] = "delete_dump",
};

#define CD(member) PARAM_AT(struct cd_params, member)

static const struct param_spec cd_rows[] = {
    {"producers", PARAM_UINT, "2", 1, 256, NULL,
     "threads writing dumps into the spool", CD(producers)},
    {"consumers", PARAM_UINT, "2", 1, 256, NULL,
     "threads reading finished dumps and deleting them", CD(consumers)},
    {"sizes", PARAM_STRING, DEFAULT_SIZES, 0, 0, NULL,
     "dump sizes: SIZE, uniform:MIN-MAX, "
     "lognormal:mean=SIZE[,sd=SIZE][,min=SIZE][,max=SIZE], or "
     "SIZE:WEIGHT,...",
     CD(sizes), .arg = "DIST"},
    {"fsync", PARAM_BOOL, "1", 0, 0, NULL,
     "fsync each dump before it is renamed into place", CD(fsync)},
    {"evict", PARAM_BOOL, "1", 0, 0, NULL,
     "drop each dump from the page cache once written, so consumers "
     "read it from the device as on a busy collector",
     CD(evict)},
    {"keep", PARAM_BOOL, "0", 0, 0, NULL,
     "keep the dumps read (the oldest are recycled to bound the spool)",
     CD(keep)},
    {"dirs", PARAM_UINT, "256", 1, 65536, NULL,
     "hashed subdirectories of the spool (256: spool/00 to spool/ff)",
     CD(dirs)},
    {"bs", PARAM_SIZE, "128k", 512, 64ull << 20, NULL,
     "size of each read and write call", CD(bs_bytes)},
    {"label", PARAM_STRING, "", 0, 0, NULL,
     "free text carried into results (A/A experiments)"},
    {NULL},
};

/* Read the parameters into st (validate and prepare share it). */
static int read_settings(struct workload *w, struct cd_state *st,
			 struct strbuf *err)
{
	const struct cd_params *p = w->params;
	unsigned n;

	st->nr_producers = (unsigned)p->producers;
	st->nr_consumers = (unsigned)p->consumers;
	st->fsync_on = p->fsync;
	st->evict = p->evict;
	st->keep = p->keep;
	st->dirs = (unsigned)p->dirs;
	st->bs_bytes = (size_t)p->bs_bytes;
	st->hex_digits = 2;
	for (n = 256; n < st->dirs; n *= 16)
		st->hex_digits++;
	st->spool_fd = -1;
	return sizedist_parse(p->sizes, &st->sizes, err);
}

static int cd_validate(struct workload *w, struct strbuf *err)
{
	struct cd_state st;

	memset(&st, 0, sizeof(st));
	return read_settings(w, &st, err);
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
		cd_dir_name(st, d, name, sizeof(name));
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
	ret = workload_need_files(w, t, "works on files", err);
	if (ret)
		return ret;
	return make_spool(w, st, err);
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
	gate_init(&sh.gate);
	cd_ring_init(&sh.ready, READY_SLOTS);
	cd_ring_init(&sh.kept, st->keep ? KEPT_SLOTS : 1);
	ts = xcalloc(nr, sizeof(*ts));
	for (i = 0; i < nr; i++)
		thread_init(&ts[i], &sh, i);
	for (i = 0; i < nr; i++) {
		ret =
		    pthread_create(&ts[i].thread, NULL, cd_thread_main, &ts[i]);
		if (ret) {
			ret = err_set(err, -ret, "cannot start thread %u: %s",
				      i, strerror(ret));
			atomic_store(&sh.phase, CD_PHASE_DRAIN);
			break;
		}
		started++;
	}
	gate_wait(&sh.gate, started);
	gate_open(&sh.gate);
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
	gate_destroy(&sh.gate);
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
		atfile_remove_tree(w->target->work_fd, SPOOL);
	}
	free(st);
	w->priv = NULL;
}

static void cd_describe(const struct workload *w, const struct target *t,
			struct strbuf *out)
{
	const struct cd_params *cp = w->params;
	unsigned p = (unsigned)cp->producers, c = (unsigned)cp->consumers;

	strbuf_addf(
	    out,
	    "crashdump: %u producer%s, %u consumer%s, sizes %s, "
	    "fsync %s, %s, %s spool dirs, on %s\n",
	    p, p == 1 ? "" : "s", c, c == 1 ? "" : "s", cp->sizes,
	    cp->fsync ? "on" : "off", cp->keep ? "dumps kept" : "dumps deleted",
	    workload_given(w, &cp->dirs)->s, t->workdir ? t->workdir : t->path);
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

/* workload_ops.default_metric: dumps collected per minute */
static const char *crashdump_metric(const struct workload *w)
{
	(void)w;
	return "dumps_per_min";
}

const struct workload_ops workload_crashdump = {
    .name = "crashdump",
    .summary = "a crash-dump collector: producers write and rename dumps "
	       "into a spool, consumers read and delete them",
    .params = cd_rows,
    .params_size = sizeof(struct cd_params),
    .cpu_bound_advice = "try more --producers and --consumers, or a "
			"larger --bs",
    .validate = cd_validate,
    .prepare = cd_prepare,
    .run = cd_run,
    .cleanup = cd_cleanup,
    .default_metric = crashdump_metric,
    .metrics = cd_metrics,
    .describe = cd_describe,
    .seed_per_block = 1,
    .needs_files = workload_files_always,
};
