/*
 * Will a time-based read wrap its file? A buffered run that reads for
 * --time seconds reads its file again when it gets to the end, and the
 * second pass comes from the page cache: the run then measures memory,
 * and a verdict between one reader (which wraps) and two (which do not)
 * points the wrong way. The truth of a run says so afterwards; this says
 * it before the first run, from the device's speed measured now by a
 * short probe: direct reads of the top device of the target's stack, the
 * way the workload will read (sequential 1 MiB reads for the sequential
 * workloads, random reads of its block size for the random ones), for
 * WRAP_PROBE_NS or WRAP_PROBE_BYTES, whichever comes first. The probe
 * reads nothing the workload will read and writes nothing; a loop
 * device is not probed (its image's holes read at memory speed). A device
 * faster with more I/Os in flight, or one whose speed changes (a disk
 * image in the host's page cache), can still wrap: the runs' truth is
 * the check that counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "experiment.h"
#include "wrap.h"
#include "../observe/truth.h"
#include "../targets/devstack.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define WRAP_PROBE_NS	 (250ull * 1000 * 1000)
#define WRAP_PROBE_BYTES (512ull << 20)
#define WRAP_SEQ_BS	 (1ull << 20)
#define WRAP_NEAR	 0.9 /* a first run that read 90% of its file */

/*
 * Open the block device devno read-only for direct I/O, checking that
 * what opened is that device. A descriptor, or -errno.
 */
static int open_device(dev_t devno, const char *name)
{
	char path[64];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "/dev/block/%u:%u", major(devno),
		 minor(devno));
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && name) {
		snprintf(path, sizeof(path), "/dev/%s", name);
		fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOFOLLOW);
	}
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != devno) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

int wrap_probe(dev_t devno, const char *name, uint64_t dev_bytes, uint64_t bs,
	       int random, double *mbps, struct strbuf *err)
{
	uint64_t start = clock_now_ns(), now = start, done = 0, off = 0;
	uint64_t blocks = bs ? dev_bytes / bs : 0;
	struct rng rng;
	void *buf;
	int fd = open_device(devno, name), ret = 0;

	if (fd < 0)
		return err_set(err, fd, "cannot open '%s' to read it: %s", name,
			       strerror(-fd));
	if (!blocks) {
		close(fd);
		return err_set(err, -EINVAL, "'%s' is smaller than one block",
			       name);
	}
	rng_seed(&rng, start);
	buf = xalloc_aligned(4096, bs);
	while (now - start < WRAP_PROBE_NS && done < WRAP_PROBE_BYTES) {
		ssize_t n;

		if (random)
			off = rng_next(&rng) % blocks * bs;
		else if (off + bs > dev_bytes)
			off = 0;
		n = pread(fd, buf, bs, (off_t)off);
		if (n <= 0) {
			ret = err_set(err, n < 0 ? -errno : -EIO,
				      "cannot read '%s': %s", name,
				      n < 0 ? strerror(errno) : "short read");
			break;
		}
		done += (uint64_t)n;
		off += (uint64_t)n;
		now = clock_now_ns();
	}
	if (!ret)
		*mbps = (double)done / ((double)(now - start) / 1e9) / 1e6;
	free(buf);
	close(fd);
	return ret;
}

/* What one arm will read, when it is a time-based buffered read. */
struct wrap_case {
	uint64_t file_bytes; /* what one reader reads before it wraps */
	unsigned readers;    /* jobs sharing the device's speed per file */
	uint64_t bs;	     /* the probe's request size */
	int random;
};

/* Fill wc from w; 0 when w is no time-based buffered read. */
static int wrap_case_of(const struct workload *w, struct wrap_case *wc)
{
	const char *n = w->ops->name;
	uint64_t jobs = workload_u64(w, "jobs") ?: 1;

	if (strcmp(n, "seqread") && strcmp(n, "randread") &&
	    strcmp(n, "randrw"))
		return 0;
	if (!w->ro.time_ns || w->ro.ios || workload_u64(w, "direct") ||
	    workload_u64(w, "invalidate") || !workload_u64(w, "size"))
		return 0;
	if (!strcmp(n, "randrw") && !workload_u64(w, "rwmixread"))
		return 0;
	wc->random = strncmp(n, "rand", 4) == 0;
	wc->bs = wc->random ? workload_u64(w, "bs") : WRAP_SEQ_BS;
	wc->file_bytes = workload_u64(w, "size");
	/* one file shared by all the jobs: they read it together */
	wc->readers = workload_u64(w, "shared") ? 1 : (unsigned)jobs;
	return 1;
}

/* The smallest power-of-two size of at least bytes, as --size says it. */
static void suggest_size(struct strbuf *out, uint64_t bytes)
{
	uint64_t s = 1ull << 20;

	while (s < bytes && s < (1ull << 50))
		s <<= 1;
	if (s >= (1ull << 30))
		strbuf_addf(out, "%lluG", (unsigned long long)(s >> 30));
	else
		strbuf_addf(out, "%lluM", (unsigned long long)(s >> 20));
}

/* The warning of one arm whose read wraps. */
static void wrap_message(struct strbuf *out, const struct workload *w,
			 const struct wrap_case *wc, const char *arm,
			 const char *dev, double mbps)
{
	double seconds = (double)w->ro.time_ns / 1e9;
	double per_reader = mbps * 1e6 * seconds / wc->readers;
	struct strbuf sz = STRBUF_INIT;

	units_fmt_bytes(&sz, wc->file_bytes);
	if (arm)
		strbuf_addf(out, "arm '%s': ", arm);
	strbuf_addf(out, "%s of a %s file for %g s at ~%.1f GB/s", w->ops->name,
		    sz.buf, seconds, mbps / 1e3);
	if (wc->readers > 1)
		strbuf_addf(out, " shared by %u readers", wc->readers);
	strbuf_addf(out,
		    " reads ~%.2f GB%s, more than the file holds, and reads "
		    "the rest again from the page cache; give --size ",
		    per_reader / 1e9, wc->readers > 1 ? " each" : "");
	suggest_size(out, (uint64_t)(per_reader * 1.5));
	strbuf_addstr(out, ", --direct=1, --invalidate=1, or --ios");
	strbuf_addf(out,
		    " (~%.1f GB/s is what a %.2f s probe of '%s' read just "
		    "now with ",
		    mbps / 1e3, (double)WRAP_PROBE_NS / 1e9, dev);
	strbuf_reset(&sz);
	units_fmt_bytes(&sz, wc->bs);
	strbuf_addf(out, "%s %s direct reads; the runs' truth checks it)",
		    sz.buf, wc->random ? "random" : "sequential");
	strbuf_release(&sz);
}

/* A probe already made: its request size, kind and speed. */
struct probe_memo {
	uint64_t bs;
	int random;
	double mbps;
};

int experiment_wrap_check(const struct experiment *e,
			  const struct experiment_config *c, struct strbuf *out,
			  struct strbuf *note)
{
	struct devstack ds = {0};
	struct probe_memo memo[8];
	unsigned nr_memo = 0, i, k;
	struct strbuf err = STRBUF_INIT;
	int ret = 0, resolved = 0;

	for (i = 0; i < e->nr_arms; i++) {
		struct workload w;
		struct wrap_case wc;
		double mbps = 0;

		if (experiment_arm_workload(&w, e, i, c, &err) ||
		    !wrap_case_of(&w, &wc)) {
			workload_release(&w);
			strbuf_reset(&err);
			continue;
		}
		if (!resolved) {
			resolved = 1;
			ret = devstack_resolve_path(&ds, c->target->path, &err);
			if (!ret && !ds.nr_devs)
				ret = err_set(&err, -ENODEV,
					      "no block device under it");
			/* a loop image's holes read as zeros at memory
			 * speed, and a scratch image is not filled yet */
			if (!ret && ds.devs[0].kind == DEVSTACK_LOOP)
				ret = err_set(&err, -EOPNOTSUPP,
					      "'%s' is a loop device, whose "
					      "speed depends on its image",
					      ds.devs[0].name);
		}
		if (ret) {
			workload_release(&w);
			break;
		}
		for (k = 0; k < nr_memo; k++)
			if (memo[k].bs == wc.bs && memo[k].random == wc.random)
				break;
		if (k == nr_memo) {
			ret = wrap_probe(ds.devs[0].devno, ds.devs[0].name,
					 ds.devs[0].size_bytes, wc.bs,
					 wc.random, &mbps, &err);
			if (ret) {
				workload_release(&w);
				break;
			}
			if (nr_memo < 8)
				memo[nr_memo++] =
				    (struct probe_memo){wc.bs, wc.random, mbps};
		} else {
			mbps = memo[k].mbps;
		}
		if (mbps * 1e6 * ((double)w.ro.time_ns / 1e9) / wc.readers >
		    (double)wc.file_bytes) {
			if (out->len)
				strbuf_addch(out, '\n');
			wrap_message(out, &w, &wc,
				     c->nr_factors ? e->arms[i].label : NULL,
				     ds.devs[0].name, mbps);
		}
		workload_release(&w);
	}
	if (ret && note)
		strbuf_addf(note,
			    "cannot probe the device to tell whether a "
			    "time-based read will wrap its file (%s); the "
			    "first run of each setting will tell",
			    err.len ? err.buf : strerror(-ret));
	devstack_release(&ds);
	strbuf_release(&err);
	return ret;
}

int wrap_after_run(const struct workload *w, const struct run_result *r,
		   struct strbuf *out, uint64_t *key)
{
	const struct truth *t = r->truth;
	struct wrap_case wc;
	struct strbuf sz = STRBUF_INIT;
	double share, seconds = (double)w->ro.time_ns / 1e9;

	/* what the workload itself read, per reader, against its file: the
	 * device's bytes would count read-ahead and other I/O as well */
	if (!t || !wrap_case_of(w, &wc) || !wc.file_bytes)
		return 0;
	share =
	    (double)t->logical_read_bytes / wc.readers / (double)wc.file_bytes;
	if (share < WRAP_NEAR)
		return 0;
	*key = wc.file_bytes * 1000003u + wc.readers * 7919u + wc.bs +
	       w->ro.time_ns + (uint64_t)wc.random;
	units_fmt_bytes(&sz, wc.file_bytes);
	strbuf_addf(out, "%s of a %s file for %g s", w->ops->name, sz.buf,
		    seconds);
	if (wc.readers > 1)
		strbuf_addf(out, " (each of %u readers its own)", wc.readers);
	if (share > 1.0) {
		/* the rate it read at was memory's: only the device's bytes
		 * say anything of the device, and they are a lower bound */
		strbuf_addf(out,
			    " read it %.2f times over in a run of this "
			    "setting, the passes after the first from the page "
			    "cache; give a --size larger than '%s' reads in "
			    "%g s (more than ",
			    share, t->device ? t->device : "the device",
			    seconds);
		strbuf_reset(&sz);
		units_fmt_bytes(&sz, t->device_read_bytes / wc.readers);
		strbuf_addf(out, "%s per reader)", sz.buf);
	} else {
		strbuf_addf(out,
			    " read %.0f%% of it in a run of this setting: a "
			    "run a little faster reads the rest again from "
			    "the page cache; give --size ",
			    100.0 * share);
		suggest_size(out,
			     (uint64_t)(share * (double)wc.file_bytes * 1.5));
	}
	strbuf_addstr(out, ", --direct=1, --invalidate=1, or --ios (runs that "
			   "wrap are flagged page_cache)");
	strbuf_release(&sz);
	return 1;
}
