/*
 * mmapdirty: map a file shared, dirty every byte of it (or one byte
 * every stride) pass after pass, then push it to the disk with
 * msync(MS_SYNC), fsync, or not at all. It is the program of a kernel
 * writeback regression report, built in: each byte is read and written
 * back (an increment), so a page is faulted in from the disk before it
 * is dirtied, and the time of the whole thing is what was compared
 * (lower is better), with user and sys time beside it.
 *
 * Latency is per page: the time to dirty its bytes, the fault that reads
 * it in included. A page counts as one write of its size: that is what
 * writeback has to send.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "workload.h"
#include "layout.h"
#include "../observe/truth.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define FILE_NAME "mmapdirty.data"

static const char *const sync_choices[] = {"msync", "fsync", "none", NULL};

/* mmapdirty's parameters (w->params), as the rows fill them. */
struct mmapdirty_params {
	struct workload_common common; /* size */
	uint64_t stride_bytes, passes;
	const char *sync;
};

#define MD(member) PARAM_AT(struct mmapdirty_params, member)

static const struct param_spec mmapdirty_rows[] = {
    {"size", PARAM_SIZE, "256M", 4096, 0, NULL,
     "bytes of the file that is mapped and dirtied", MD(common.size_bytes)},
    {"stride", PARAM_SIZE, "1", 1, 0, NULL,
     "dirty one byte every this many (1: every byte)", MD(stride_bytes)},
    {"passes", PARAM_UINT, "1", 1, 1000, NULL,
     "times the whole mapping is dirtied before the sync", MD(passes)},
    {"sync", PARAM_CHOICE, "msync", 0, 0, sync_choices,
     "how the dirty pages are pushed out at the end: msync(MS_SYNC), "
     "fsync, or none (left to writeback)",
     MD(sync)},
    {"label", PARAM_STRING, "", 0, 0, NULL,
     "free text carried into results (A/A experiments)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct mmapdirty_state {
	int made; /* this run laid the file out */
};

static int mmapdirty_validate(struct workload *w, struct strbuf *err)
{
	const struct mmapdirty_params *p = w->params;

	if (p->stride_bytes > p->common.size_bytes)
		return err_set(err, -EINVAL,
			       "stride %s is larger than size %s: nothing "
			       "after the first byte would be dirtied; give "
			       "a stride up to the size",
			       workload_given(w, &p->stride_bytes)->s,
			       workload_given(w, &p->common.size_bytes)->s);
	if (w->ro.ios)
		return err_set(err, -EINVAL,
			       "mmapdirty does not count I/Os: it dirties "
			       "--size bytes --passes times; leave out --ios");
	return 0;
}

static int mmapdirty_prepare(struct workload *w, struct target *t,
			     struct strbuf *err)
{
	const struct mmapdirty_params *p = w->params;
	uint64_t size = p->common.size_bytes;
	struct mmapdirty_state *st;
	int ret;

	ret = workload_need_files(w, t, "maps a file", err);
	if (ret)
		return ret;
	w->target = t;
	st = xcalloc(1, sizeof(*st));
	w->priv = st;
	if (w->ro.keep_files && layout_reusable(t, FILE_NAME, size))
		return 0;
	ret = target_check_space(t, size,
				 "lower --size, or pick another target", err);
	if (!ret)
		ret = layout_write(t, FILE_NAME, size, w->ro.seed, err);
	if (!ret)
		st->made = 1;
	return ret;
}

/*
 * Dirty the page at p (page bytes at offset off of the file) as the
 * stride says; 1 when a byte of it was dirtied.
 */
static int dirty_page(volatile unsigned char *p, uint64_t off, size_t page,
		      uint64_t stride)
{
	uint64_t i, first;

	if (stride == 1) {
		for (i = 0; i < page; i++)
			p[i]++;
		return 1;
	}
	first = (off + stride - 1) / stride * stride;
	if (first >= off + page)
		return 0;
	for (i = first - off; i < page; i += stride)
		p[i]++;
	return 1;
}

static int mmapdirty_run(struct workload *w, struct run_result *r,
			 struct strbuf *err)
{
	const struct mmapdirty_params *p = w->params;
	uint64_t size = p->common.size_bytes, stride = p->stride_bytes;
	uint64_t passes = p->passes, pass, off, pages = 0;
	const char *sync = p->sync;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *map;
	struct measure m;
	uint64_t t0, t1, burst_end;
	int fd, ret = 0;

	fd = target_open_file(w->target, FILE_NAME, O_RDWR, 0);
	if (fd < 0)
		return err_set(err, fd, "cannot open '%s': %s", FILE_NAME,
			       strerror(-fd));
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		ret = err_set(err, -errno, "cannot map %s of '%s': %s",
			      workload_given(w, &p->common.size_bytes)->s,
			      FILE_NAME, strerror(errno));
		close(fd);
		return ret;
	}
	measure_init(&m, w->hook);
	measure_begin(&m);
	for (pass = 0; pass < passes && !*w->stop; pass++)
		for (off = 0; off < size && !*w->stop; off += page) {
			size_t n = size - off < page ? size - off : page;

			t0 = clock_now_ns();
			if (!dirty_page(map + off, off, n, stride))
				continue;
			t1 = clock_now_ns();
			hist_record(&r->lat[IO_WRITE], t1 - t0);
			pages++;
			r->bytes[IO_WRITE] += n;
		}
	burst_end = clock_now_ns();
	if (!*w->stop && !strcmp(sync, "msync")) {
		if (msync(map, size, MS_SYNC) < 0)
			ret = err_set(err, -errno, "msync of '%s' failed: %s",
				      FILE_NAME, strerror(errno));
		r->fsyncs++;
	} else if (!*w->stop && !strcmp(sync, "fsync")) {
		if (fsync(fd) < 0)
			ret = err_set(err, -errno, "fsync of '%s' failed: %s",
				      FILE_NAME, strerror(errno));
		r->fsyncs++;
	}
	r->ops[IO_WRITE] = pages;
	r->interrupted = *w->stop != 0;
	measure_end(&m, r);
	if (strcmp(sync, "none"))
		r->burst_seconds = (double)(burst_end - m.start_ns) / 1e9;
	munmap(map, size);
	close(fd);
	return ret;
}

static void mmapdirty_cleanup(struct workload *w)
{
	struct mmapdirty_state *st = w->priv;

	if (!st)
		return;
	if (st->made && !w->ro.keep_files)
		target_unlink_file(w->target, FILE_NAME);
	free(st);
	w->priv = NULL;
}

/* workload_ops.truth_opts: a sync at the end (msync or fsync) flushes
 * inside the timed region, as settle=sync does for the rw workloads. */
static void mmapdirty_truth_opts(const struct workload *w, struct truth_opts *o)
{
	const struct mmapdirty_params *p = w->params;

	if (strcmp(p->sync, "none"))
		o->settle = TRUTH_SETTLE_SYNC;
}

/* workload_ops.default_metric: the time the whole pass took. */
static const char *mmapdirty_metric(const struct workload *w)
{
	(void)w;
	return "wall";
}

const struct workload_ops workload_mmapdirty = {
    .name = "mmapdirty",
    .summary = "map a file, dirty every byte (or every stride), msync it",
    .params = mmapdirty_rows,
    .params_size = sizeof(struct mmapdirty_params),
    .validate = mmapdirty_validate,
    .cpu_bound_advice =
	"dirtying every byte is CPU work by design; a --stride of 4096 "
	"dirties one byte per page and leaves the faults and the "
	"writeback",
    .short_run_advice = "give it a larger --size or more --passes",
    .rewrite_advice = "each --passes after the first dirties pages "
		      "already dirty; --passes 1 writes each page once",
    .untimed = 1,
    .prepare = mmapdirty_prepare,
    .run = mmapdirty_run,
    .cleanup = mmapdirty_cleanup,
    .default_metric = mmapdirty_metric,
    .truth_opts = mmapdirty_truth_opts,
    .needs_files = workload_files_always,
};
