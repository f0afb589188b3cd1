/*
 * The block-I/O workloads' set-up: the parameter table they share, the
 * checks across parameters, the layout of their files or device regions
 * before the first run, and the removal after the last. The run itself,
 * jobs and their hot loop, is rw.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "layout.h"
#include "rw.h"
#include "rw-int.h"
#include "verify.h"
#include "../engine/engine.h"
#include "../targets/scratch.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static const char *const settle_choices[] = {"sync", "none", NULL};
static const char *const verify_choices[] = {"off", "crc32c", NULL};

#define RW(member) PARAM_AT(struct rw_params, member)

static const struct param_spec rw_rows[] = {
    {"bs", PARAM_SIZE, "4k", 1, 64ull << 20, NULL, "bytes per I/O",
     RW(bs_bytes)},
    {"size", PARAM_SIZE, "256M", 4096, 1ull << 50, NULL,
     "bytes per job: the file size, or the device region",
     RW(common.size_bytes)},
    {"iodepth", PARAM_UINT, "1", 1, 4096, NULL,
     "I/Os in flight per job (async engines)", RW(iodepth)},
    {"jobs", PARAM_UINT, "1", 1, 256, NULL, "threads, each on its own file",
     RW(common.jobs)},
    {"engine", PARAM_CHOICE, "psync", 0, 0, engine_name_list,
     "how I/O is submitted", RW(engine)},
    {"sqpoll", PARAM_BOOL, "0", 0, 1, NULL,
     "io_uring: a kernel thread submits (IORING_SETUP_SQPOLL), one CPU "
     "kept busy polling",
     RW(sqpoll)},
    {"batch_submit", PARAM_UINT, "0", 0, 4096, NULL,
     "async engines: I/Os handed to the kernel per call (fio's "
     "iodepth_batch_submit); 0: every free slot at once",
     RW(batch_submit)},
    {"batch_complete_min", PARAM_UINT, "1", 0, 4096, NULL,
     "async engines: completions to wait for before refilling (fio's "
     "iodepth_batch_complete_min; 0 waits for one as fio does)",
     RW(batch_complete_min)},
    {"batch_complete_max", PARAM_UINT, "0", 0, 4096, NULL,
     "async engines: completions taken per wait (fio's "
     "iodepth_batch_complete_max); 0: all that are done",
     RW(batch_complete_max)},
    {"direct", PARAM_BOOL, "0", 0, 1, NULL, "O_DIRECT: bypass the page cache",
     RW(common.direct)},
    {"fsync", PARAM_UINT, "0", 0, 0, NULL,
     "fsync after every N writes (0: never)", RW(fsync_every)},
    {"end_fsync", PARAM_BOOL, "0", 0, 1, NULL,
     "fsync each file when its job ends", RW(common.end_fsync)},
    {"rwmixread", PARAM_PERCENT, "50", 0, 100, NULL,
     "randrw: percentage of reads", RW(rwmixread)},
    {"settle", PARAM_CHOICE, "sync", 0, 0, settle_choices,
     "writes: flush inside the timed region or not", RW(common.settle)},
    {"randommap", PARAM_BOOL, "0", 0, 1, NULL,
     "random offsets: each block once per pass, in random order (fio's "
     "default), not uniform with repeats",
     RW(randommap)},
    {"fadvise", PARAM_BOOL, "0", 0, 1, NULL,
     "tell the kernel the access pattern (posix_fadvise RANDOM or "
     "SEQUENTIAL), as fio's fadvise_hint=1 does",
     RW(fadvise)},
    {"invalidate", PARAM_BOOL, "0", 0, 1, NULL,
     "drop the job's file from the page cache at every pass over it "
     "(fio's invalidate=1)",
     RW(common.invalidate)},
    {"shared", PARAM_BOOL, "0", 0, 1, NULL,
     "every job works on one file, not one each (fio's filename= with "
     "numjobs)",
     RW(common.shared)},
    {"label", PARAM_STRING, "", 0, 0, NULL,
     "free text carried into results (A/A experiments)"},
    {"verify", PARAM_CHOICE, "off", 0, 0, verify_choices,
     "writes: a header and crc32c in every block, checked on reads and "
     "read back after the run",
     RW(verify)},
    {NULL},
};

struct rw_kind rw_kind_of(const struct workload *w)
{
	struct rw_kind k = {0, 100};
	const char *n = w->ops->name;

	k.random = !strncmp(n, "rand", 4);
	if (strstr(n, "write"))
		k.read_pct = 0;
	else if (!strcmp(n, "randrw"))
		k.read_pct =
		    (int)((const struct rw_params *)w->params)->rwmixread;
	return k;
}

unsigned rw_effective_iodepth(const struct workload *w)
{
	const struct rw_params *p = w->params;
	const struct engine_ops *e = engine_find(p->engine);

	/* synchronous engines have one I/O in flight, whatever was asked */
	if (e && (e->caps & ENGINE_SYNC))
		return 1;
	return (unsigned)p->iodepth;
}

/* v as a count from 1 to depth, with 0 meaning zero_means. */
static unsigned batch_clamp(uint64_t v, unsigned zero_means, unsigned depth)
{
	if (!v)
		v = zero_means;
	return v > depth ? depth : (unsigned)v;
}

void rw_batch_of(const struct workload *w, unsigned iodepth,
		 unsigned *batch_submit, unsigned *complete_min,
		 unsigned *complete_max)
{
	const struct rw_params *p = w->params;

	*batch_submit = batch_clamp(p->batch_submit, iodepth, iodepth);
	/* fio waits for one completion when asked for none */
	*complete_min = batch_clamp(p->batch_complete_min, 1, iodepth);
	*complete_max = batch_clamp(p->batch_complete_max, iodepth, iodepth);
	if (*complete_max < *complete_min)
		*complete_max = *complete_min;
}

int rw_validate(struct workload *w, struct strbuf *err)
{
	const struct rw_params *p = w->params;
	struct rw_kind k = rw_kind_of(w);
	const char *e = p->engine;
	const struct engine_ops *eops = engine_find(e);
	int ret;

	if (workload_given(w, &p->rwmixread)->is_set &&
	    strcmp(w->ops->name, "randrw"))
		return err_set(err, -EINVAL,
			       "'rwmixread' only applies to 'randrw', not "
			       "'%s'",
			       w->ops->name);
	if (p->randommap && !k.random)
		return err_set(err, -EINVAL,
			       "'randommap' only applies to random workloads, "
			       "not '%s'",
			       w->ops->name);
	if (p->sqpoll && eops && !(eops->caps & ENGINE_SQPOLL)) {
		struct strbuf which = STRBUF_INIT;

		engine_names_with(ENGINE_SQPOLL,
				  ", --engine=", " or --engine=", &which);
		ret = err_set(err, -EINVAL,
			      "'sqpoll' needs --engine=%s, not '%s'", which.buf,
			      e);
		strbuf_release(&which);
		return ret;
	}
	if (eops && (eops->caps & ENGINE_NO_DIRECT) && p->common.direct)
		return err_set(err, -EINVAL,
			       "the %s engine cannot do O_DIRECT; use "
			       "--direct=0 or another engine",
			       e);
	if (k.read_pct == 100 && (p->fsync_every || p->common.end_fsync))
		return err_set(err, -EINVAL,
			       "'fsync' and 'end_fsync' need writes; '%s' "
			       "only reads",
			       w->ops->name);
	if (w->ro.ios && w->ro.ios < p->common.jobs)
		return err_set(err, -EINVAL,
			       "--ios %llu is fewer than the %llu jobs; give "
			       "at least one I/O per job",
			       (unsigned long long)w->ro.ios,
			       (unsigned long long)p->common.jobs);
	if (strcmp(p->verify, "off") &&
	    (ret = verify_validate(w->ops->name, k.read_pct < 100, p->bs_bytes,
				   err)))
		return ret;
	if (p->bs_bytes > p->common.size_bytes)
		return err_set(err, -EINVAL,
			       "bs (%s) is larger than size (%s); raise "
			       "--size or lower --bs",
			       workload_given(w, &p->bs_bytes)->s,
			       workload_given(w, &p->common.size_bytes)->s);
	return 0;
}

/* Job 0's file as w's share of a file other workloads use too. */
static int rw_share_file(struct workload *w, struct rw_state *st,
			 struct layout_share *share, struct strbuf *err)
{
	struct strbuf note = STRBUF_INIT;
	int ret;

	ret = layout_share_use(share, w->ro.share_who ? w->ro.share_who : "?",
			       w->target, st->names[0], st->region_bytes,
			       st->kind.read_pct != 0, w->ro.seed, &note, err);
	if (!ret && note.len)
		st->note = strbuf_detach(&note, NULL);
	strbuf_release(&note);
	return ret;
}

int rw_prepare(struct workload *w, struct target *t, struct strbuf *err)
{
	const struct rw_params *p = w->params;
	struct rw_state *st = xcalloc(1, sizeof(*st));
	uint64_t bs = p->bs_bytes;
	struct strbuf path = STRBUF_INIT;
	struct layout_share *share = w->ro.share;
	uint64_t need_bytes = 0;
	unsigned i;
	int ret = 0;

	w->priv = st;
	w->target = t;
	st->kind = rw_kind_of(w);
	st->nr_jobs = (unsigned)p->common.jobs;
	st->blockdev = t->kind == TARGET_BLOCKDEV;
	st->region_bytes = p->common.size_bytes / bs * bs;
	if (p->common.direct && bs % t->logical_block_bytes) {
		uint64_t up =
		    (bs / t->logical_block_bytes + 1) * t->logical_block_bytes;

		return err_set(err, -EINVAL,
			       "bs %s is not a multiple of the logical block "
			       "size (%u bytes) of '%s'; direct I/O needs "
			       "aligned sizes: use --bs=%llu",
			       workload_given(w, &p->bs_bytes)->s,
			       t->logical_block_bytes, t->path,
			       (unsigned long long)up);
	}
	if (st->blockdev && !workload_given(w, &p->common.size_bytes)->is_set) {
		char text[32];

		/* the device split between the jobs; report what we use */
		st->region_bytes = t->capacity_bytes / st->nr_jobs / bs * bs;
		snprintf(text, sizeof(text), "%llu",
			 (unsigned long long)st->region_bytes);
		if (st->region_bytes)
			workload_set_param(w, "size", text, NULL, NULL);
	}
	if (!st->region_bytes)
		return err_set(
		    err, -EINVAL, "'%s' is too small for %u jobs of bs %s",
		    t->path, st->nr_jobs, workload_given(w, &p->bs_bytes)->s);
	st->shared = p->common.shared;
	if (st->shared && st->nr_jobs > 1 && strcmp(p->verify, "off"))
		/* each job knows its own last writes, not the others' */
		return err_set(err, -EINVAL,
			       "--verify needs each job on its own file or "
			       "region; with shared=1 give --jobs=1");
	if (strcmp(p->verify, "off") &&
	    (ret = verify_region_check(st->region_bytes / bs,
				       rw_effective_iodepth(w), err)))
		return ret;
	/* a shared file is every job's, or the one job's */
	if (st->blockdev || (st->nr_jobs > 1 && !st->shared))
		share = NULL;
	st->paths = xcalloc(st->nr_jobs, sizeof(*st->paths));
	st->names = xcalloc(st->nr_jobs, sizeof(*st->names));
	for (i = 0; i < st->nr_jobs; i++) {
		char name[32];

		if (st->blockdev) {
			/* each job owns a region, all of which must fit the
			 * device; with shared=1 they all use the first */
			st->paths[i] = xstrdup(t->path);
			if (!(st->shared && i) &&
			    __builtin_add_overflow(need_bytes, st->region_bytes,
						   &need_bytes))
				need_bytes = UINT64_MAX;
			continue;
		}
		/* a preallocated file reads as zeros without touching the
		 * device: never let a read workload reuse a write's file */
		snprintf(name, sizeof(name), "job%u.%s", st->shared ? 0 : i,
			 st->kind.read_pct ? "data" : "prealloc");
		target_file_path(t, name, &path);
		st->paths[i] = xstrdup(path.buf);
		st->names[i] = xstrdup(name);
		if (st->shared && i)
			continue; /* job 0's file, laid out once */
		if (!i && share) {
			need_bytes +=
			    layout_share_need(share, st->region_bytes);
			continue;
		}
		if ((!w->ro.keep_files ||
		     !layout_reusable(t, name, st->region_bytes)) &&
		    __builtin_add_overflow(need_bytes, st->region_bytes,
					   &need_bytes))
			need_bytes = UINT64_MAX; /* more than any target has */
	}
	ret = target_check_space(
	    t, need_bytes, "lower --size or --jobs, or pick another target",
	    err);
	/* a raw scratch device is a sparse image: reads of a hole never
	 * reach the disk, so the regions read are written first (once) */
	if (!ret && st->blockdev && st->kind.read_pct)
		ret = scratch_fill(t, need_bytes, w->stop, err);
	for (i = 0; !ret && !st->blockdev && i < st->nr_jobs; i++) {
		st->made_files = !w->ro.keep_files;
		if (st->shared && i)
			break;
		if (!i && share) {
			ret = rw_share_file(w, st, share, err);
			continue;
		}
		if (w->ro.keep_files &&
		    layout_reusable(t, st->names[i], st->region_bytes))
			continue;
		if (st->kind.read_pct)
			ret = layout_write(t, st->names[i], st->region_bytes,
					   w->ro.seed + i, err);
		else
			ret = layout_preallocate(t, st->names[i],
						 st->region_bytes, err);
	}
	strbuf_release(&path);
	return ret;
}

void rw_cleanup(struct workload *w)
{
	struct rw_state *st = w->priv;
	unsigned i;

	if (!st)
		return;
	for (i = 0; i < st->nr_jobs && st->paths; i++) {
		if (st->made_files && st->names[i] && (!st->shared || !i))
			target_unlink_file(w->target, st->names[i]);
		free(st->paths[i]);
		free(st->names[i]);
	}
	free(st->paths);
	free(st->names);
	free(st->note);
	free(st);
	w->priv = NULL;
}

/* workload_ops.open_laid_out: job 0's file or device region. */
static int rw_open_laid_out(const struct workload *w, uint64_t *bytes)
{
	const struct rw_state *st = w->priv;
	int fd;

	if (!st || !st->nr_jobs || !st->paths || !st->paths[0])
		return -ENOENT;
	if (st->blockdev)
		fd = open(st->paths[0], O_RDONLY | O_DIRECT | O_CLOEXEC);
	else if (!st->names[0])
		return -ENOENT;
	else
		fd = target_open_file(w->target, st->names[0],
				      O_RDONLY | O_DIRECT, 0);
	if (fd < 0)
		return st->blockdev ? -errno : fd;
	*bytes = st->region_bytes;
	return fd;
}

/* workload_ops.default_metric: a stream is judged by its MB/s */
static const char *rw_metric_mbps(const struct workload *w)
{
	(void)w;
	return "mbps";
}

/* workload_ops.default_metric: random I/O by its IOPS */
static const char *rw_metric_iops(const struct workload *w)
{
	(void)w;
	return "iops";
}

/*
 * workload_ops.reads_only: on a device a pure read opens it O_RDONLY,
 * lays nothing out (only a scratch device's image is filled) and has no
 * verify pass (--verify needs writes).
 */
static int rw_reads_only(const struct workload *w)
{
	const struct rw_params *p = w->params;

	return rw_kind_of(w).read_pct == 100 && !strcmp(p->verify, "off");
}

/* workload_ops.describe: block size, engine, depth, jobs, buffering and
 * size, as given. */
static void rw_describe(const struct workload *w, const struct target *t,
			struct strbuf *out)
{
	const struct rw_params *p = w->params;
	unsigned jobs = (unsigned)p->common.jobs;

	strbuf_addf(out,
		    "%s: bs %s, %s, iodepth %s, %u job%s, %s, size %s per "
		    "job, on %s",
		    w->ops->name, workload_given(w, &p->bs_bytes)->s, p->engine,
		    workload_given(w, &p->iodepth)->s, jobs,
		    jobs == 1 ? "" : "s",
		    p->common.direct ? "O_DIRECT" : "buffered",
		    workload_given(w, &p->common.size_bytes)->s,
		    t->workdir ? t->workdir : t->path);
}

#define RW_WORKLOAD(id, summary_text, metric)                                  \
	const struct workload_ops workload_##id = {                            \
	    .name = #id,                                                       \
	    .summary = summary_text,                                           \
	    .params = rw_rows,                                                 \
	    .params_size = sizeof(struct rw_params),                           \
	    .validate = rw_validate,                                           \
	    .prepare = rw_prepare,                                             \
	    .run = rw_run,                                                     \
	    .cleanup = rw_cleanup,                                             \
	    .open_laid_out = rw_open_laid_out,                                 \
	    .default_metric = rw_metric_##metric,                              \
	    .reads_only = rw_reads_only,                                       \
	    .describe = rw_describe,                                           \
	}

RW_WORKLOAD(seqread, "sequential reads, one stream per job", mbps);
RW_WORKLOAD(seqwrite, "sequential writes, one stream per job", mbps);
RW_WORKLOAD(randread, "uniformly random reads", iops);
RW_WORKLOAD(randwrite, "uniformly random writes", iops);
RW_WORKLOAD(randrw, "random reads and writes mixed by rwmixread", iops);
