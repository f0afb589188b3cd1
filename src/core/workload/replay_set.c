/*
 * Before a file-layer replay's timed part: where it stands against the
 * capture. Two things decide what the replay can be held to:
 *
 * - The settings. The capture recorded the knobs in force where its
 *   files were (trace/settings.h, format 1.3); the same are read where
 *   the replay runs. One that differs (a compare's arm, another
 *   device's defaults) moves some terms of the fidelity by itself
 *   (fidelity_moved_by()): those are its effect, reported, not judged.
 *   A trace that recorded no device settings (before 1.3, or its device
 *   gone by the end of the capture) cannot tell: every device term and
 *   the latencies are then reported, not judged.
 *
 * - The page cache. The layout has just written the files that existed
 *   before the capture, so they are all in memory, where the capture may
 *   have found them or not. Each laid-out file is brought to what the
 *   capture found: the bytes it had cached at its first open (format
 *   1.3) are read into the cache, the rest dropped from it; a trace
 *   without that says it for all its files at once (its device counters:
 *   reads that reached the device mean a cold start) or, without those
 *   either, starts them out of the cache, as compare does between runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "workload.h"
#include "replay-int.h"
#include "../knob/knob.h"
#include "../trace/fidelity.h"
#include "../trace/settings.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define MIB (1024.0 * 1024)

/* The meta key's name as people set it: "read_ahead_kb", "bdi.max_ratio". */
static const char *shown_name(const char *key)
{
	return strncmp(key, "knob.", 5) ? key : key + 5;
}

static void add_diff(struct rp_state *st, const char *key, const char *cap,
		     const char *here, unsigned moves)
{
	struct rp_setdiff *d;

	st->setdiffs = xrealloc(st->setdiffs,
				(st->nr_setdiffs + 1) * sizeof(*st->setdiffs));
	d = &st->setdiffs[st->nr_setdiffs++];
	d->key = xstrdup(key);
	d->capture = cap ? xstrdup(cap) : NULL;
	d->replay = here ? xstrdup(here) : NULL;
	d->moves = moves;
	st->moves |= moves;
}

void rp_settings_compare(struct rp_state *st, const struct target *t)
{
	struct strbuf val = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_ctx ctx;
	size_t i;

	knob_ctx_init(&ctx);
	if (knob_ctx_from_target(&ctx, t, &err))
		goto out;
	for (i = 0; i < st->t.nr_meta; i++) {
		const struct trace_meta *m = &st->t.meta[i];

		if (!settings_is_key(m->key))
			continue;
		if (settings_read_key(&ctx, m->key, &val)) {
			/* iosched.* of another scheduler: the scheduler
			 * says it */
			if (strncmp(m->key, "knob.iosched.", 13))
				add_diff(st, m->key, m->value, NULL,
					 fidelity_moved_by(m->key));
			continue;
		}
		if (strcmp(val.buf, m->value))
			add_diff(st, m->key, m->value, val.buf,
				 fidelity_moved_by(m->key));
	}
	/* what a trace of a device does not say could differ */
	if (!trace_meta_get(&st->t, "settings.disk") && ctx.disk)
		add_diff(st, "settings of the device", NULL, NULL, FMOVE_ALL);
out:
	knob_ctx_release(&ctx);
	strbuf_release(&val);
	strbuf_release(&err);
}

void rp_settings_note(const struct rp_state *st, struct run_result *r)
{
	struct strbuf sb = STRBUF_INIT, moves = STRBUF_INIT;
	size_t i;

	if (!st->nr_setdiffs)
		return;
	for (i = 0; i < st->nr_setdiffs; i++) {
		const struct rp_setdiff *d = &st->setdiffs[i];

		if (sb.len)
			strbuf_addstr(&sb, ", ");
		if (!d->capture)
			strbuf_addstr(&sb, "the device's knobs (the trace did "
					   "not record them)");
		else if (!d->replay)
			strbuf_addf(&sb, "%s (%s in the capture, not here)",
				    shown_name(d->key), d->capture);
		else
			strbuf_addf(&sb, "%s (%s here, %s in the capture)",
				    shown_name(d->key), d->replay, d->capture);
	}
	fidelity_moves_text(st->moves, &moves);
	run_result_note(r,
			"replay settings that differ from the capture's: %s; "
			"what they move (%s) is their effect, reported beside "
			"the fidelity, not judged in it",
			sb.buf, moves.buf);
	strbuf_release(&sb);
	strbuf_release(&moves);
}

/*
 * The share of the capture's reads that came from the device, from its
 * device counters (device.*), or -1 when it has none: reads of the
 * device over the traced reads.
 */
static double cold_share(const struct trace *t)
{
	const char *sect = trace_meta_get(t, "device.read_sectors"),
		   *traced = trace_meta_get(t, "device.traced_read_bytes");
	char *e1, *e2;
	double s, tr;

	if (!sect || !traced || *sect < '0' || *sect > '9' || *traced < '0' ||
	    *traced > '9')
		return -1;
	s = strtod(sect, &e1) * 512;
	tr = strtod(traced, &e2);
	if (*e1 || *e2)
		return -1;
	if (tr < MIB) /* too little read to tell: as compare does */
		return 1;
	return s >= tr ? 1 : s / tr;
}

/* Was file i laid out with its bytes (a file that existed, replayed,
 * whose bytes the replay uses)? */
static int laid(const struct rp_state *st, size_t i)
{
	const struct trace_file *f = &st->t.files[i];

	return f->existed && f->kind == TFK_REG && st->rel[i] && st->data &&
	       st->data[i];
}

void rp_cache_plan(struct rp_state *st)
{
	double share = cold_share(&st->t);
	size_t i;

	st->warm = xcalloc(st->t.nr_files + 1, sizeof(*st->warm));
	st->cache_from = share < 0 ? RP_CACHE_NONE : RP_CACHE_DEVICE;
	if (st->t.nr_cached) /* per file: what its first open found */
		st->cache_from = RP_CACHE_FILES;
	for (i = 0; i < st->t.nr_files; i++) {
		const struct trace_file *f = &st->t.files[i];

		if (!laid(st, i))
			continue;
		if (f->have_cached) /* what its first open found */
			st->warm[i] = f->cached_bytes < f->size_bytes
					  ? f->cached_bytes
					  : f->size_bytes;
		else if (share >= 0 && share < 0.5) /* never opened in the
						      trace: as the rest */
			st->warm[i] = f->size_bytes;
	}
}

/* Bring the file laid out for file i to its planned state; its bytes
 * dropped and read into *dropped, *warmed. */
static void settle_file(struct rp_state *st, size_t i, void *buf,
			size_t buf_bytes, uint64_t *dropped, uint64_t *warmed)
{
	const struct trace_file *f = &st->t.files[i];
	uint64_t off = 0, want = st->warm[i];
	ssize_t got;
	int fd;

	fd = rp_open_beneath(st->work_fd, st->rel[i], O_RDONLY, 0);
	if (fd < 0)
		return;
	/* clean since the layout's fsync: all of it goes */
	if (!posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		*dropped += f->size_bytes - want;
	while (off < want) {
		size_t n =
		    want - off < buf_bytes ? (size_t)(want - off) : buf_bytes;

		got = pread(fd, buf, n, (off_t)off);
		if (got <= 0)
			break;
		off += (uint64_t)got;
	}
	*warmed += off;
	close(fd);
}

/*
 * Sync and invalidate the clean buffers of the block device holding
 * the directory open at dirfd (BLKFLSBUF, as blockdev --flushbufs):
 * its file system's metadata is read from the device again. Its node
 * is /dev/NAME, NAME from /sys/dev/block/M:m/uevent, checked to be that
 * device. 1 if done.
 */
static int flush_bdev(int dirfd)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct stat sb, nb;
	const char *name;
	int fd, ok = 0;

	if (fstat(dirfd, &sb) || !major(sb.st_dev))
		return 0;
	strbuf_addf(&path, "/sys/dev/block/%u:%u/uevent", major(sb.st_dev),
		    minor(sb.st_dev));
	if (strbuf_read_file(&text, path.buf, 4096) ||
	    !(name = strstr(text.buf, "DEVNAME=")))
		goto out;
	name += 8;
	strbuf_reset(&path);
	strbuf_addstr(&path, "/dev/");
	while (*name && *name != '\n' && *name != '.')
		strbuf_addch(&path, *name++);
	fd = open(path.buf, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		goto out;
	if (!fstat(fd, &nb) && S_ISBLK(nb.st_mode) && nb.st_rdev == sb.st_dev)
		ok = !ioctl(fd, BLKFLSBUF, 0);
	close(fd);
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ok;
}

void rp_cache_settle(struct rp_state *st, struct run_result *r)
{
	const size_t buf_bytes = 1u << 20;
	uint64_t dropped = 0, warmed = 0, cold_bytes = 0, warm_bytes = 0;
	size_t i, nr_cold = 0, nr_warm = 0;
	void *buf;
	int all = 0, fd;

	if (!st->warm)
		return;
	/* what the layout wrote is clean, so it can go */
	syncfs(st->work_fd);
	for (i = 0; i < st->t.nr_files; i++) {
		const struct trace_file *f = &st->t.files[i];

		if (laid(st, i)) {
			cold_bytes += f->size_bytes - st->warm[i];
			warm_bytes += st->warm[i];
		}
	}
	/* a cold start (most bytes cold) has its names cold too: as
	 * root, the kernel's
	 * dentries and inodes go (drop_caches 2, as compare's drop does
	 * between runs) and the file system's own blocks (the clean
	 * buffers of the target's device, BLKFLSBUF); not the whole page
	 * cache, which would start colder than the capture (a loop
	 * device's image, cached below it, would be read from its disk) */
	if (cold_bytes > warm_bytes && !geteuid()) {
		fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
		all = fd >= 0 && write(fd, "2\n", 2) == 2;
		if (fd >= 0)
			close(fd);
		all = all && flush_bdev(st->work_fd);
	}
	/* from here, a drop is another process's: one while the files
	 * are read in undoes it as much as one in the run */
	st->drops = settings_cache_drops();
	st->have_drops = 1;
	buf = xmalloc(buf_bytes);
	for (i = 0; i < st->t.nr_files; i++) {
		if (!laid(st, i))
			continue;
		settle_file(st, i, buf, buf_bytes, &dropped, &warmed);
		nr_warm += st->warm[i] > 0;
	}
	free(buf);
	nr_cold = 0;
	for (i = 0; i < st->t.nr_files; i++)
		nr_cold +=
		    laid(st, i) && st->warm[i] < st->t.files[i].size_bytes;
	if (!nr_cold && !nr_warm)
		return;
	run_result_note(
	    r,
	    "the page cache as the capture found it (%s): %zu laid-out "
	    "file%s started out of it (%.1f MiB)%s, %zu in it (%.1f MiB read "
	    "into it)",
	    st->cache_from == RP_CACHE_FILES
		? "each file's cached bytes at its first open"
	    : st->cache_from == RP_CACHE_DEVICE
		? "its reads reached the device or not"
		: "not recorded: a cold start, as compare's",
	    nr_cold, nr_cold == 1 ? "" : "s", (double)dropped / MIB,
	    all ? " (as root: dentries, inodes and the device's own "
		  "blocks dropped too)"
		: "",
	    nr_warm, (double)warmed / MIB);
}

uint64_t rp_cache_check(const struct rp_state *st, struct run_result *r)
{
	uint64_t n;

	if (!st->have_drops)
		return 0;
	n = settings_cache_drops() - st->drops;
	if (n)
		run_result_warn_kind(
		    r, RUN_WARN_OTHER_IO,
		    "another process dropped the page cache during the run "
		    "(drop_caches, %llu time%s): the files did not stay as the "
		    "capture found them, and the device terms of the fidelity "
		    "are not judged",
		    (unsigned long long)n, n == 1 ? "" : "s");
	return n;
}

void rp_settings_release(struct rp_state *st)
{
	size_t i;

	for (i = 0; i < st->nr_setdiffs; i++) {
		free(st->setdiffs[i].key);
		free(st->setdiffs[i].capture);
		free(st->setdiffs[i].replay);
	}
	free(st->setdiffs);
	st->setdiffs = NULL;
	st->nr_setdiffs = 0;
	free(st->warm);
	st->warm = NULL;
	free(st->data);
	st->data = NULL;
}
