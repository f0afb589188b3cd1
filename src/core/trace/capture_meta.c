/*
 * The meta entries of a capture: its starting state, and what reached
 * the devices under its files while it ran. See capture.h.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include "capture.h"
#include "settings.h"
#include "trace.h"
#include "../observe/diskstats.h"
#include "../../util/clock.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One knob of /proc/sys as a meta entry "knob.NAME" (skipped if absent). */
static int meta_knob(struct trace_writer *w, const char *name,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT, key = STRBUF_INIT;
	const char *p;
	int ret = 0;

	strbuf_addstr(&path, "/proc/sys/");
	for (p = name; *p; p++)
		strbuf_addch(&path, *p == '.' ? '/' : *p);
	if (!strbuf_read_file(&val, path.buf, 4096)) {
		strbuf_trim(&val);
		strbuf_addf(&key, "knob.%s", name);
		ret = trace_writer_meta(w, key.buf, val.buf, err);
	}
	strbuf_release(&path);
	strbuf_release(&val);
	strbuf_release(&key);
	return ret;
}

int capture_write_meta(struct trace_writer *w, const char *layer,
		       struct strbuf *err)
{
	static const char *const knobs[] = {
	    "vm.dirty_ratio",
	    "vm.dirty_background_ratio",
	    "vm.dirty_bytes",
	    "vm.dirty_background_bytes",
	    "vm.dirty_expire_centisecs",
	    "vm.dirty_writeback_centisecs",
	    "vm.dirtytime_expire_seconds",
	    "vm.vfs_cache_pressure",
	};
	struct utsname u;
	struct timespec ts;
	struct tm tm;
	char when[64];
	size_t i;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ret = trace_writer_meta(w, "started", when, err);
	if (!ret && !uname(&u)) {
		ret = trace_writer_meta(w, "kernel", u.release, err);
		if (!ret)
			ret = trace_writer_meta(w, "arch", u.machine, err);
		if (!ret)
			ret = trace_writer_meta(w, "host", u.nodename, err);
	}
	if (!ret)
		ret = trace_writer_meta(w, "layer", layer, err);
	for (i = 0; !ret && i < ARRAY_SIZE(knobs); i++)
		ret = meta_knob(w, knobs[i], err);
	return ret;
}

/* One block device's readings. */
struct capture_disk {
	char *name;
	uint64_t devno; /* as makedev() packs it */
	struct diskstats first, last;
	uint64_t last_ns;
	int have_last;
	struct trace_settings set; /* its settings at the first reading */
	int have_set;
};

/* The device of d called name, added (with its number) if new. */
static struct capture_disk *disk_get(struct capture_disks *d, const char *name)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct capture_disk *k;
	unsigned ma, mi;
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (!strcmp(d->v[i].name, name))
			return &d->v[i];
	strbuf_addf(&path, "%s/class/block/%s/dev", d->sysfs, name);
	if (strbuf_read_file(&text, path.buf, 64) ||
	    sscanf(text.buf, "%u:%u", &ma, &mi) != 2) {
		strbuf_release(&path);
		strbuf_release(&text);
		return NULL;
	}
	strbuf_release(&path);
	strbuf_release(&text);
	ALLOC_GROW(d->v, d->nr + 1, d->alloc);
	k = &d->v[d->nr++];
	memset(k, 0, sizeof(*k));
	k->name = xstrdup(name);
	k->devno = makedev(ma, mi);
	return k;
}

void capture_disks_sample(struct capture_disks *d)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *de;
	uint64_t now = clock_now_ns();
	int first = !d->start_ns;
	DIR *dir;

	if (!d->sysfs)
		d->sysfs = "/sys";
	if (first)
		d->start_ns = now;
	strbuf_addf(&path, "%s/class/block", d->sysfs);
	dir = opendir(path.buf);
	while (dir && (de = readdir(dir))) {
		struct capture_disk *k;
		struct diskstats s;

		if (de->d_name[0] == '.')
			continue;
		k = disk_get(d, de->d_name);
		if (!k)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/class/block/%s/stat", d->sysfs,
			    de->d_name);
		if (strbuf_read_file(&text, path.buf, 4096) ||
		    diskstats_parse(text.buf, text.len, &s))
			continue;
		/* one seen only later was made since: it counts from 0 */
		if (first && !k->have_last)
			k->first = s;
		/* the settings in force as the capture starts (the real
		 * machine's only: a test's fake tree has no knobs) */
		if (first && !k->have_last && !strcmp(d->sysfs, "/sys"))
			k->have_set = !settings_read_device(k->name, &k->set);
		k->last = s;
		k->last_ns = now;
		k->have_last = 1;
	}
	if (dir)
		closedir(dir);
	/* another process's drop of the caches (drop_caches, after a
	 * sync) changes what reaches the devices: counted */
	if (!strcmp(d->sysfs, "/sys")) {
		d->drops1 = settings_cache_drops();
		if (first)
			d->drops0 = d->drops1;
	}
	strbuf_release(&path);
	strbuf_release(&text);
}

void capture_disks_on_event(void *ctx, const struct trace_event *e)
{
	struct capture_disks *d = ctx;
	unsigned op = trace_op_base(e->op); /* an io_uring request's too */
	size_t n;

	if ((op != TOP_READ && op != TOP_WRITE) || e->ret <= 0 || !e->file)
		return;
	if (e->file > d->nr_file) {
		n = d->nr_file;
		ALLOC_GROW(d->file_bytes, e->file, d->alloc_file);
		memset(d->file_bytes + n, 0,
		       (e->file - n) * sizeof(*d->file_bytes));
		d->nr_file = e->file;
	}
	if (op == TOP_READ)
		d->file_bytes[e->file - 1].rd += (uint64_t)e->ret;
	else
		d->file_bytes[e->file - 1].wr += (uint64_t)e->ret;
}

static int by_path(const void *a, const void *b)
{
	const struct trace_file *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

/*
 * The device of file f: its own st_dev, else (the tracker did not learn
 * it: made and gone within the trace) that of the nearest directory
 * above it whose st_dev is known; 0 when none is. known: the files with
 * a device, sorted by path.
 */
static uint64_t dev_of(const struct trace_file *f,
		       const struct trace_file **known, size_t nr)
{
	struct trace_file key = {0};
	const struct trace_file *kp = &key, **hit;
	char *p;
	uint64_t dev = 0;

	if (f->dev || !f->path)
		return f->dev;
	p = xstrdup(f->path);
	key.path = p;
	while (!dev) {
		char *slash = strrchr(p, '/');

		if (!slash || slash == p)
			break;
		*slash = 0;
		hit = bsearch(&kp, known, nr, sizeof(*known), by_path);
		if (hit)
			dev = (*hit)->dev;
	}
	free(p);
	return dev;
}

/* The traced bytes moved on each device, into d->by_dev. */
static void tally_devices(struct capture_disks *d)
{
	const struct trace_file **known;
	size_t i, j, nr = 0;

	if (!d->files)
		return;
	known = xcalloc(d->files->nr_files + 1, sizeof(*known));
	for (i = 0; i < d->files->nr_files; i++)
		if (d->files->files[i].dev && d->files->files[i].path)
			known[nr++] = &d->files->files[i];
	qsort(known, nr, sizeof(*known), by_path);
	d->nr_dev = 0;
	for (i = 0; i < d->files->nr_files; i++) {
		struct capture_io b = {0};
		uint64_t dev = dev_of(&d->files->files[i], known, nr);

		if (!dev || d->files->files[i].kind == TFK_OTHER)
			continue;
		if (i < d->nr_file)
			b = d->file_bytes[i];
		for (j = 0; j < d->nr_dev; j++)
			if (d->by_dev[j].dev == dev)
				break;
		if (j == d->nr_dev) {
			ALLOC_GROW(d->by_dev, d->nr_dev + 1, d->alloc_dev);
			memset(&d->by_dev[d->nr_dev], 0, sizeof(*d->by_dev));
			d->by_dev[d->nr_dev++].dev = dev;
		}
		d->by_dev[j].rd += b.rd;
		d->by_dev[j].wr += b.wr;
	}
	free(known);
}

/* The traced bytes on devno, or NULL when no traced file is on it. */
static const struct capture_io *traced_on(const struct capture_disks *d,
					  uint64_t devno)
{
	size_t i;

	for (i = 0; i < d->nr_dev; i++)
		if (d->by_dev[i].dev == devno)
			return &d->by_dev[i];
	return NULL;
}

/* The device the meta is of, or NULL; *io what the traced calls moved
 * on it. */
static const struct capture_disk *pick(const struct capture_disks *d,
				       struct capture_io *io)
{
	const struct capture_disk *best = NULL;
	size_t i;

	memset(io, 0, sizeof(*io));
	for (i = 0; i < d->nr; i++) {
		const struct capture_io *b = traced_on(d, d->v[i].devno);

		if (!d->v[i].have_last || !b)
			continue;
		if (!best || b->rd + b->wr > io->rd + io->wr) {
			best = &d->v[i];
			*io = *b;
		}
	}
	return best;
}

static int meta_u64(struct trace_writer *w, const char *key, uint64_t v,
		    struct strbuf *err)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return trace_writer_meta(w, key, buf, err);
}

static int meta_f(struct trace_writer *w, const char *key, double v,
		  struct strbuf *err)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.3f", v);
	return trace_writer_meta(w, key, buf, err);
}

/*
 * The settings of k's device (trace/settings.h): as they were at the
 * capture's start, or, for a device made since, as they are now; none
 * for a device gone or unmounted by then.
 */
static int write_settings(const struct capture_disks *d,
			  const struct capture_disk *k, struct trace_writer *w,
			  struct strbuf *err)
{
	struct trace_settings now = {0};
	const struct trace_settings *s = &k->set;
	size_t i;
	int ret = 0;

	if (!k->have_set) {
		if (strcmp(d->sysfs, "/sys") ||
		    settings_read_device(k->name, &now))
			return 0;
		s = &now;
	}
	if (s->disk)
		ret = trace_writer_meta(w, "settings.disk", s->disk, err);
	for (i = 0; !ret && i < s->nr; i++)
		ret = trace_writer_meta(w, s->v[i].key, s->v[i].value, err);
	settings_release(&now);
	return ret;
}

int capture_disks_write_meta(struct capture_disks *d, struct trace_writer *w,
			     struct strbuf *err)
{
	static const struct {
		const char *key;
		enum diskstats_field f;
	} sums[] = {
	    {"device.reads", DS_RD_IOS},
	    {"device.writes", DS_WR_IOS},
	    {"device.read_merges", DS_RD_MERGES},
	    {"device.write_merges", DS_WR_MERGES},
	    {"device.read_sectors", DS_RD_SECTORS},
	    {"device.write_sectors", DS_WR_SECTORS},
	    {"device.queue_ms", DS_QUEUE_TICKS},
	    {"device.busy_ms", DS_IO_TICKS},
	};
	uint64_t v[ARRAY_SIZE(sums)], traced;
	const struct capture_disk *k;
	struct capture_io io;
	double secs, ios, dev_bytes;
	size_t j;
	int ret;

	tally_devices(d);
	k = pick(d, &io);
	if (!k)
		return 0;
	traced = io.rd + io.wr;
	for (j = 0; j < ARRAY_SIZE(sums); j++)
		v[j] = diskstats_counter_delta(k->first.v[sums[j].f],
					       k->last.v[sums[j].f]);
	secs = k->last_ns > d->start_ns
		   ? (double)(k->last_ns - d->start_ns) / 1e9
		   : 0;
	ios = (double)(v[0] + v[1]);
	dev_bytes = (double)(v[4] + v[5]) * 512;
	ret = trace_writer_meta(w, "device.name", k->name, err);
	if (!ret)
		ret = trace_writer_meta(
		    w, "device.scope",
		    "every process's I/O on the device, not only the traced "
		    "calls'",
		    err);
	if (!ret)
		ret = meta_f(w, "device.seconds", secs, err);
	for (j = 0; !ret && j < ARRAY_SIZE(sums); j++)
		ret = meta_u64(w, sums[j].key, v[j], err);
	if (!ret)
		ret = meta_u64(w, "device.traced_read_bytes", io.rd, err);
	if (!ret)
		ret = meta_u64(w, "device.traced_write_bytes", io.wr, err);
	if (!ret)
		ret = meta_f(w, "device.explained",
			     dev_bytes > (double)traced && dev_bytes > 0
				 ? (double)traced / dev_bytes
				 : 1,
			     err);
	if (!ret)
		ret = meta_f(w, "device.request_kib",
			     ios ? dev_bytes / 1024 / ios : 0, err);
	if (!ret)
		ret = meta_f(w, "device.in_flight",
			     secs ? (double)v[6] / 1000 / secs : 0, err);
	if (!ret)
		ret = meta_f(w, "device.busy_depth",
			     v[7] ? (double)v[6] / (double)v[7] : 0, err);
	if (!ret && !strcmp(d->sysfs, "/sys"))
		ret = meta_u64(w, "device.cache_drops", d->drops1 - d->drops0,
			       err);
	if (!ret)
		ret = write_settings(d, k, w, err);
	return ret;
}

void capture_disks_release(struct capture_disks *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		free(d->v[i].name);
		settings_release(&d->v[i].set);
	}
	free(d->v);
	free(d->by_dev);
	free(d->file_bytes);
	memset(d, 0, sizeof(*d));
}
