/*
 * Will a time-based read wrap its file? A buffered run that reads for
 * --time seconds reads its file again when it gets to the end, and the
 * second pass comes from the page cache: the run then measures memory,
 * and a verdict between one reader (which wraps) and two (which do not)
 * points the wrong way. The truth of a run says so afterwards; this says
 * it before the first timed run, from the device's speed measured by a
 * short probe once the workload has laid out its file: direct reads of
 * that file, the way the workload will read it (sequential 1 MiB reads
 * for the sequential workloads, random reads of its block size for the
 * random ones), for WRAP_PROBE_NS or WRAP_PROBE_BYTES, whichever comes
 * first. O_DIRECT reads leave nothing in the page cache, so the runs
 * start as cold as before, and reading the laid-out file works where
 * the device node cannot be opened and on a loop device (whose image
 * holes would read at memory speed; the file's blocks are written).
 * Only where the file system refuses O_DIRECT does it fall back to the
 * top device of the target's stack (not a loop device), and where that
 * cannot be read either, to the first run of each setting. A device
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
#include "../workload/rw.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define WRAP_PROBE_NS	 (250ull * 1000 * 1000)
#define WRAP_PROBE_BYTES (48ull << 20)
#define WRAP_SEQ_BS	 (1ull << 20)
#define WRAP_ALIGN	 4096u /* O_DIRECT's buffer and offset alignment */
#define WRAP_NEAR	 0.9   /* a first run that read 90% of its file */

uint64_t wrap_size_at_least(double bytes)
{
	uint64_t s = 1ull << 20;

	while ((double)s < bytes && s < (1ull << 50))
		s <<= 1;
	return s;
}

double wrap_rate_mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / ((double)ns / 1e9) / 1e6 : 0;
}

uint64_t wrap_probe_bs(uint64_t bs, uint64_t bytes, unsigned align)
{
	if (!align)
		align = WRAP_ALIGN;
	bs = (bs + align - 1) / align * align;
	if (bs > bytes)
		bs = bytes / align * align;
	return bs;
}

int wrap_predict(double mbps, uint64_t time_ns, unsigned readers,
		 uint64_t file_bytes, struct wrap_prediction *p)
{
	double per_reader =
	    mbps * 1e6 * ((double)time_ns / 1e9) / (readers ? readers : 1);

	p->per_reader_bytes = per_reader;
	p->passes = file_bytes ? per_reader / (double)file_bytes : 0;
	p->suggest_bytes = wrap_size_at_least(per_reader * 1.5);
	return file_bytes && per_reader > (double)file_bytes;
}

/*
 * Read fd (bytes of it from offset 0, at least bs) with direct reads of
 * bs bytes, sequential (wrapping at the end) or random, for
 * WRAP_PROBE_NS or WRAP_PROBE_BYTES, into pr. 0 or -errno (-EIO for a
 * short read).
 */
static int probe_fd(int fd, uint64_t bytes, uint64_t bs, int random,
		    struct wrap_probe_result *pr)
{
	uint64_t start = clock_now_ns(), now = start, done = 0, off = 0;
	uint64_t blocks = bs ? bytes / bs : 0;
	struct rng rng;
	void *buf;
	int ret = 0;

	if (!blocks)
		return -EINVAL;
	rng_seed(&rng, start);
	buf = xalloc_aligned(WRAP_ALIGN, bs);
	while (now - start < WRAP_PROBE_NS && done < WRAP_PROBE_BYTES) {
		ssize_t n;

		if (random)
			off = rng_next(&rng) % blocks * bs;
		else if (off + bs > blocks * bs)
			off = 0;
		n = pread(fd, buf, bs, (off_t)off);
		if (n < 0 || (uint64_t)n != bs) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += bs;
		off += bs;
		now = clock_now_ns();
	}
	free(buf);
	if (ret)
		return ret;
	pr->bytes = done;
	pr->ns = now - start;
	pr->bs = bs;
	pr->random = random;
	pr->mbps = wrap_rate_mbps(done, now - start);
	return 0;
}

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
	       int random, struct wrap_probe_result *pr, struct strbuf *err)
{
	int fd = open_device(devno, name), ret;

	if (fd < 0)
		return err_set(err, fd, "cannot open '%s' to read it: %s", name,
			       strerror(-fd));
	bs = wrap_probe_bs(bs, dev_bytes, 0);
	if (!bs) {
		close(fd);
		return err_set(err, -EINVAL, "'%s' is smaller than one block",
			       name);
	}
	ret = probe_fd(fd, dev_bytes, bs, random, pr);
	close(fd);
	if (ret)
		return err_set(err, ret, "cannot read '%s': %s", name,
			       strerror(-ret));
	pr->source = WRAP_FROM_DEVICE;
	return 0;
}

int wrap_probe_laid_out(const struct workload *w, uint64_t bs, int random,
			struct wrap_probe_result *pr, struct strbuf *err)
{
	uint64_t bytes = 0;
	unsigned align = w->target ? w->target->logical_block_bytes : 0;
	int fd, ret;

	if (!w->ops->open_laid_out)
		return err_set(err, -EOPNOTSUPP, "%s lays out no file to read",
			       w->ops->name);
	fd = w->ops->open_laid_out(w, &bytes);
	if (fd == -EINVAL)
		return err_set(err, fd,
			       "the file system of '%s' refuses O_DIRECT, so "
			       "its laid-out file cannot be read past the "
			       "page cache",
			       w->target ? w->target->path : "the target");
	if (fd < 0)
		return err_set(err, fd, "cannot open the laid-out file: %s",
			       strerror(-fd));
	if (align < WRAP_ALIGN && WRAP_ALIGN % (align ? align : 1) == 0)
		align = WRAP_ALIGN;
	bs = wrap_probe_bs(bs, bytes, align);
	if (!bs) {
		close(fd);
		return err_set(err, -EINVAL,
			       "the laid-out file is smaller than one aligned "
			       "read");
	}
	ret = probe_fd(fd, bytes, bs, random, pr);
	close(fd);
	if (ret)
		return err_set(err, ret,
			       "cannot read the laid-out file directly: %s",
			       strerror(-ret));
	pr->source = WRAP_FROM_FILE;
	return 0;
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
	const struct rw_params *p = w->params;
	const struct workload_common *c = &p->common;

	if (strcmp(n, "seqread") && strcmp(n, "randread") &&
	    strcmp(n, "randrw"))
		return 0;
	if (!w->ro.time_ns || w->ro.ios || c->direct || c->invalidate ||
	    !c->size_bytes)
		return 0;
	if (!strcmp(n, "randrw") && !p->rwmixread)
		return 0;
	wc->random = strncmp(n, "rand", 4) == 0;
	wc->bs = wc->random ? p->bs_bytes : WRAP_SEQ_BS;
	wc->file_bytes = c->size_bytes;
	/* one file shared by all the jobs: they read it together */
	wc->readers = c->shared ? 1 : (unsigned)(c->jobs ?: 1);
	return 1;
}

/* The size --size should say: "4G", "512M". */
static void size_words(struct strbuf *out, uint64_t s)
{
	if (s >= (1ull << 30))
		strbuf_addf(out, "%lluG", (unsigned long long)(s >> 30));
	else
		strbuf_addf(out, "%lluM", (unsigned long long)(s >> 20));
}

/* The smallest power-of-two size of at least bytes, as --size says it. */
static void suggest_size(struct strbuf *out, uint64_t bytes)
{
	size_words(out, wrap_size_at_least((double)bytes));
}

/* "1.1 GB/s", "14 MB/s" */
static void rate_words(struct strbuf *out, double mbps)
{
	if (mbps >= 1e3)
		strbuf_addf(out, "%.1f GB/s", mbps / 1e3);
	else
		strbuf_addf(out, "%.0f MB/s", mbps);
}

/* The warning of one arm whose read wraps. */
static void wrap_message(struct strbuf *out, const struct workload *w,
			 const struct wrap_case *wc, const char *arm,
			 const struct wrap_prediction *p,
			 const struct wrap_probe_result *pr, const char *what)
{
	double seconds = (double)w->ro.time_ns / 1e9;
	struct strbuf sz = STRBUF_INIT;

	units_fmt_bytes(&sz, wc->file_bytes);
	if (arm)
		strbuf_addf(out, "arm '%s': ", arm);
	strbuf_addf(out, "%s of a %s file for %g s at ~", w->ops->name, sz.buf,
		    seconds);
	rate_words(out, pr->mbps);
	if (wc->readers > 1)
		strbuf_addf(out, " by each of %u readers sharing the device",
			    wc->readers);
	strbuf_addstr(out, " reads ~");
	units_fmt_bytes(out, (uint64_t)p->per_reader_bytes);
	strbuf_addf(out,
		    "%s, more than the file holds, and reads the rest again "
		    "from the page cache; give --size ",
		    wc->readers > 1 ? " each" : "");
	size_words(out, p->suggest_bytes);
	strbuf_addstr(out, ", --direct=1, --invalidate=1, or --ios");
	strbuf_addf(out,
		    " (estimated before the first run: direct reads of %s, ",
		    what);
	strbuf_reset(&sz);
	units_fmt_bytes(&sz, pr->bs);
	strbuf_addf(out, "%s %s, read ", sz.buf,
		    pr->random ? "random" : "sequential");
	units_fmt_bytes(out, pr->bytes);
	strbuf_addf(out, " in %.2f s; the runs' truth checks it)",
		    (double)pr->ns / 1e9);
	strbuf_release(&sz);
}

/* A probe already made: the request size and kind asked for, and what
 * it found. */
struct probe_memo {
	uint64_t bs;
	int random;
	struct wrap_probe_result pr;
};

/* Where the device speed comes from, once chosen. */
struct probe_src {
	int chosen;
	int ret;		  /* the device cannot be probed: -errno */
	const struct workload *w; /* the laid-out file's, or NULL */
	struct devstack ds;	  /* the device's, without w */
	struct strbuf fallback;	  /* why not the file */
};

/*
 * Choose how c's target is probed: the laid-out file of laid where it
 * can be read directly, else the top device of the stack. A target on
 * no block device (tmpfs) has nothing to wrap to; -errno, err set, when
 * nothing can be probed.
 */
static int probe_choose(struct probe_src *ps, const struct experiment_config *c,
			const struct workload *laid, struct strbuf *err)
{
	struct wrap_probe_result pr;
	int ret;

	ps->chosen = 1;
	ret = devstack_resolve_path(&ps->ds, c->target->path, err);
	if (!ret && !ps->ds.nr_devs)
		ret = err_set(err, -ENODEV, "no block device under it");
	if (ret)
		return ps->ret = ret;
	/* can the file be read directly at all? a one-block probe says */
	if (laid && laid->ops->open_laid_out) {
		uint64_t bytes = 0;
		int fd = laid->ops->open_laid_out(laid, &bytes);

		if (fd >= 0) {
			close(fd);
			ps->w = laid;
			return 0;
		}
		wrap_probe_laid_out(laid, WRAP_SEQ_BS, 0, &pr, &ps->fallback);
	} else {
		strbuf_addstr(&ps->fallback, "nothing laid out yet");
	}
	/* a loop image's holes read as zeros at memory speed, and a
	 * scratch image is not filled yet */
	if (ps->ds.devs[0].kind == DEVSTACK_LOOP)
		return ps->ret = err_set(err, -EOPNOTSUPP,
					 "%s; '%s' is a loop device, whose "
					 "speed depends on its image",
					 ps->fallback.buf, ps->ds.devs[0].name);
	return 0;
}

/* Probe ps for reads like wc's into pr; 0 or -errno with err set. */
static int probe_src_read(struct probe_src *ps, const struct wrap_case *wc,
			  struct wrap_probe_result *pr, struct strbuf *err)
{
	int ret;

	if (ps->w)
		return wrap_probe_laid_out(ps->w, wc->bs, wc->random, pr, err);
	ret =
	    wrap_probe(ps->ds.devs[0].devno, ps->ds.devs[0].name,
		       ps->ds.devs[0].size_bytes, wc->bs, wc->random, pr, err);
	if (ret && ps->fallback.len) {
		struct strbuf e = STRBUF_INIT;

		strbuf_addf(&e, "%s; %s", ps->fallback.buf, err->buf);
		strbuf_reset(err);
		strbuf_addstr(err, e.buf);
		strbuf_release(&e);
	}
	return ret;
}

/* "the laid-out file 'job0.data'", "the device 'vda' (the file ...)" */
static void probe_src_words(const struct probe_src *ps, struct strbuf *out)
{
	if (ps->w)
		strbuf_addstr(out, "the laid-out file");
	else
		strbuf_addf(out, "the device '%s' (%s)", ps->ds.devs[0].name,
			    ps->fallback.buf);
}

int experiment_wrap_check(const struct experiment *e,
			  const struct experiment_config *c,
			  const struct workload *laid, struct strbuf *out,
			  struct strbuf *note)
{
	struct probe_src ps = {.fallback = STRBUF_INIT};
	struct probe_memo memo[8];
	unsigned nr_memo = 0, i, k;
	struct strbuf err = STRBUF_INIT, what = STRBUF_INIT;
	int ret = 0;

	for (i = 0; i < e->nr_arms; i++) {
		struct workload w;
		struct wrap_case wc;
		struct wrap_prediction p;
		struct wrap_probe_result pr;

		if (experiment_arm_workload(&w, e, i, c, &err) ||
		    !wrap_case_of(&w, &wc)) {
			workload_release(&w);
			strbuf_reset(&err);
			continue;
		}
		if (!ps.chosen)
			ret = probe_choose(&ps, c, laid, &err);
		if (ret) {
			workload_release(&w);
			break;
		}
		for (k = 0; k < nr_memo; k++)
			if (memo[k].bs == wc.bs && memo[k].random == wc.random)
				break;
		if (k == nr_memo) {
			ret = probe_src_read(&ps, &wc, &pr, &err);
			if (ret) {
				workload_release(&w);
				break;
			}
			if (nr_memo < 8)
				memo[nr_memo++] =
				    (struct probe_memo){wc.bs, wc.random, pr};
		} else {
			pr = memo[k].pr;
		}
		if (!what.len)
			probe_src_words(&ps, &what);
		if (wrap_predict(pr.mbps, w.ro.time_ns, wc.readers,
				 wc.file_bytes, &p)) {
			if (out->len)
				strbuf_addch(out, '\n');
			wrap_message(out, &w, &wc,
				     c->nr_factors ? e->arms[i].label : NULL,
				     &p, &pr, what.buf);
		}
		workload_release(&w);
	}
	/* no block device under the target (tmpfs): every read is memory's,
	 * and a wrap changes nothing; that is what to say */
	if (ret == -ENODEV && note)
		strbuf_addstr(note, "no block device under the target: every "
				    "read comes from memory, so a time-based "
				    "read that wraps its file changes nothing, "
				    "and the runs say nothing of a disk");
	else if (ret && note)
		strbuf_addf(note,
			    "cannot measure the device's speed to tell "
			    "whether a time-based read will wrap its file "
			    "(%s); the first run of each setting will tell",
			    err.len ? err.buf : strerror(-ret));
	devstack_release(&ps.ds);
	strbuf_release(&ps.fallback);
	strbuf_release(&err);
	strbuf_release(&what);
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
	/* on no block device (tmpfs) every pass reads memory, the first as
	 * well: a wrap changes nothing, and the note on the device truth
	 * has said there is none */
	if (!t->nr_devs)
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
			    "cache; give a --size ",
			    share);
		if (t->have_device && t->device) {
			strbuf_addf(out,
				    "larger than '%s' reads in %g s (more "
				    "than ",
				    t->device, seconds);
			strbuf_reset(&sz);
			units_fmt_bytes(&sz, t->device_read_bytes / wc.readers);
			strbuf_addf(out, "%s per reader)", sz.buf);
		} else {
			/* the device's counters were not read: what it
			 * delivered is unknown, what was read is not */
			suggest_size(out,
				     (uint64_t)(share * (double)wc.file_bytes));
		}
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
