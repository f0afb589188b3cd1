/*
 * The fidelity score of a replay against its capture. See fidelity.h
 * for the formula; docs/TRACE-FORMAT.md repeats it for users.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fidelity.h"
#include "../../util/strbuf.h"
#include "../../util/banned.h"

static const char *const names[FID__NR] = {
    "ops", "bytes", "names", "rate", "sizes", "mix", "namemix", "lag", "depth",
};

/* The block requests of s. */
static uint64_t blk_requests(const struct trace_summary *s)
{
	return s->ops[TOP_BLK_READ] + s->ops[TOP_BLK_WRITE] +
	       s->ops[TOP_BLK_DISCARD] + s->ops[TOP_BLK_FLUSH];
}

const char *fidelity_name(enum fidelity_component k)
{
	return (unsigned)k < FID__NR ? names[k] : "?";
}

static double cap1(double x)
{
	if (!(x >= 0)) /* NaN too */
		return 1;
	return x > 1 ? 1 : x;
}

/* |a / b - 1|, 0 when both are 0, 1 when only b is. */
static double rel(double a, double b)
{
	if (b == 0)
		return a == 0 ? 0 : 1;
	return cap1(fabs(a / b - 1));
}

/* The operations a replay performs (not mmap, msync). */
static uint64_t replayed(const struct trace_summary *s)
{
	return trace_summary_total(s) - s->ops[TOP_MMAP] - s->ops[TOP_MSYNC];
}

/* Total variation distance of two histograms of n buckets. */
static double tvd(const uint64_t *a, const uint64_t *b, size_t n)
{
	double sa = 0, sb = 0, d = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sa += (double)a[i];
		sb += (double)b[i];
	}
	if (!sa || !sb)
		return sa == sb ? 0 : 1;
	for (i = 0; i < n; i++)
		d += fabs((double)a[i] / sa - (double)b[i] / sb);
	return cap1(d / 2);
}

/* The per-second error: the capture's seconds s land at s / speed. */
static double rate_error(const struct trace_summary *c,
			 const struct trace_summary *r, double speed)
{
	double diff = 0, total = 0;
	size_t n = c->nr_secs, i, j;

	/* at speed N the replay's second i holds the capture's seconds
	 * [i*N, (i+1)*N): compare those sums */
	for (i = 0; (double)i * speed < (double)n; i++) {
		double want = 0,
		       got = i < r->nr_secs ? (double)r->sec_ops[i] : 0;

		for (j = (size_t)((double)i * speed);
		     j < n && (double)j < (double)(i + 1) * speed; j++)
			want += (double)c->sec_ops[j];
		diff += fabs(got - want);
		total += want;
	}
	for (; i < r->nr_secs; i++)
		diff += (double)r->sec_ops[i];
	return total ? cap1(diff / total) : (diff ? 1 : 0);
}

void fidelity_compute(const struct trace_summary *c,
		      const struct trace_summary *r, double speed,
		      int open_loop, struct fidelity *f, struct strbuf *why)
{
	uint64_t cs[TRACE_SIZE_BUCKETS], rs[TRACE_SIZE_BUCKETS];
	uint64_t cn[TOP__NR] = {0}, rn[TOP__NR] = {0};
	double crd, crw, rrd, rrw, sum = 0;
	unsigned i, nr = 0;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < FID__NR; i++)
		f->applies[i] = 1;
	f->applies[FID_RATE] = speed > 0;
	f->applies[FID_LAG] = open_loop && speed > 0;
	f->applies[FID_DEPTH] = blk_requests(c) > 0;
	if (blk_requests(c)) {
		double dc = (double)c->blk_depth_sum / (double)blk_requests(c);
		double dr = blk_requests(r) ? (double)r->blk_depth_sum /
						  (double)blk_requests(r)
					    : 0;

		f->applies[FID_NAMES] = f->applies[FID_NAMEMIX] = 0;
		f->err[FID_DEPTH] = rel(dr, dc);
	}
	f->err[FID_OPS] = rel((double)replayed(r), (double)replayed(c));
	f->err[FID_BYTES] = rel((double)(r->bytes_read + r->bytes_written),
				(double)(c->bytes_read + c->bytes_written));
	f->err[FID_NAMES] = rel((double)trace_summary_name_ops(r),
				(double)trace_summary_name_ops(c));
	if (f->applies[FID_RATE])
		f->err[FID_RATE] = rate_error(c, r, speed);
	for (i = 0; i < TRACE_SIZE_BUCKETS; i++) {
		cs[i] = c->read_sizes[i] + c->write_sizes[i];
		rs[i] = r->read_sizes[i] + r->write_sizes[i];
	}
	f->err[FID_SIZES] = tvd(cs, rs, TRACE_SIZE_BUCKETS);
	crd = (double)(c->ops[TOP_READ] + c->ops[TOP_BLK_READ] +
		       c->ops[TOP_URING_READ]);
	crw = (double)(c->ops[TOP_WRITE] + c->ops[TOP_BLK_WRITE] +
		       c->ops[TOP_URING_WRITE]);
	rrd = (double)(r->ops[TOP_READ] + r->ops[TOP_BLK_READ] +
		       r->ops[TOP_URING_READ]);
	rrw = (double)(r->ops[TOP_WRITE] + r->ops[TOP_BLK_WRITE] +
		       r->ops[TOP_URING_WRITE]);
	if (crd + crw > 0 && rrd + rrw > 0)
		f->err[FID_MIX] =
		    cap1(fabs(crd / (crd + crw) - rrd / (rrd + rrw)));
	else
		f->err[FID_MIX] = crd + crw == rrd + rrw ? 0 : 1;
	for (i = 1; i < TOP__NR; i++)
		if (trace_op_is_name(i)) {
			cn[i] = c->ops[i];
			rn[i] = r->ops[i];
		}
	f->err[FID_NAMEMIX] = tvd(cn, rn, TOP__NR);
	if (f->applies[FID_LAG] && c->duration_ns) {
		double want = (double)c->duration_ns / speed;

		f->err[FID_LAG] = cap1((double)r->duration_ns / want - 1 > 0
					   ? (double)r->duration_ns / want - 1
					   : 0);
	}
	for (i = 0; i < FID__NR; i++)
		if (f->applies[i]) {
			sum += f->err[i];
			nr++;
		}
	f->score = 100 * (1 - sum / nr);
	strbuf_reset(why);
	for (i = FID_OPS; i <= FID_NAMES; i++)
		if (f->applies[i] && f->err[i] > 0.02) {
			strbuf_addf(why, "%s%s differ by %.1f%%",
				    why->len ? ", " : "", names[i],
				    100 * f->err[i]);
			f->poor = 1;
		}
	if (f->applies[FID_RATE] && f->err[FID_RATE] > 0.10) {
		strbuf_addf(why, "%sthe per-second rate differs by %.1f%%",
			    why->len ? ", " : "", 100 * f->err[FID_RATE]);
		f->poor = 1;
	}
	if (f->applies[FID_DEPTH] && f->err[FID_DEPTH] > 0.25) {
		strbuf_addf(why, "%sthe queue depth differs by %.1f%%",
			    why->len ? ", " : "", 100 * f->err[FID_DEPTH]);
		f->poor = 1;
	}
	if (f->applies[FID_LAG] && f->err[FID_LAG] > 0.05) {
		strbuf_addf(why, "%sit fell behind the timestamps by %.1f%%",
			    why->len ? ", " : "", 100 * f->err[FID_LAG]);
		f->poor = 1;
	}
}

static const char *const dev_names[FDEV__NR] = {
    "dev-read",
    "dev-write",
    "dev-size",
    "dev-depth",
};

#define FDEV_FLOOR (1024.0 * 1024) /* bytes: below it, no difference */
/* bytes each side moved for a mean request size or depth: below it the
 * file system's own small I/O (its journal, bitmaps, inodes) weighs as
 * much as the calls' */
#define FDEV_MEAN_FLOOR (32.0 * 1024 * 1024)

const char *fidelity_dev_name(enum fidelity_dev_component k)
{
	return (unsigned)k < FDEV__NR ? dev_names[k] : "?";
}

/* |r - c| beyond the floor, over max(c, the floor): a difference of
 * less than the floor (a journal commit, metadata, a neighbour's few
 * blocks) counts nothing, one of many times the capture counts in full. */
static double rel_floor(double r, double c)
{
	double d = fabs(r - c) - FDEV_FLOOR;

	return d > 0 ? cap1(d / (c > FDEV_FLOOR ? c : FDEV_FLOOR)) : 0;
}

/* The sentence of a poor byte term: which side went to the device. */
static void say_bytes(struct strbuf *why, const char *what, double c, double r)
{
	const char *sep = why->len ? "; " : "";
	const double mib = 1024.0 * 1024;
	const char *cause = !strcmp(what, "reads") ? "came from the page cache"
						   : "stayed in the page cache";

	if (c > r)
		strbuf_addf(why,
			    "%sthe capture's %s reached the device (%.1f MiB); "
			    "the replay's %s (%.1f MiB)",
			    sep, what, c / mib, cause, r / mib);
	else
		strbuf_addf(why,
			    "%sthe replay's %s reached the device (%.1f MiB); "
			    "the capture's %s (%.1f MiB)",
			    sep, what, r / mib, cause, c / mib);
}

/* Of dev bytes at the device, the share traced ones could explain (1
 * under the floor). */
static double explained(double traced, double dev)
{
	return dev > FDEV_FLOOR && traced < dev ? traced / dev : 1;
}

void fidelity_device(const struct fidelity_dev *c, const struct fidelity_dev *r,
		     uint64_t logical_read, uint64_t logical_write,
		     unsigned moves, struct fidelity_devterms *f,
		     struct strbuf *why, struct strbuf *unjudged)
{
	const double mib = 1024.0 * 1024;
	double cb, rb, cs = 0, rs = 0, lr, lw;
	unsigned i;

	memset(f, 0, sizeof(*f));
	strbuf_reset(why);
	strbuf_reset(unjudged);
	f->share = 1;
	if (!c->have) {
		strbuf_addstr(unjudged, "not recorded: the trace has no "
					"device counters (before format 1.2, "
					"or no device under its files)");
		return;
	}
	if (!r->have) {
		strbuf_addstr(unjudged, "not measured: the replay's target "
					"has no device counters");
		return;
	}
	if (c->cache_drops || r->cache_drops) {
		strbuf_addf(unjudged,
			    "not judged: another process dropped the page "
			    "cache during the %s (drop_caches, which syncs "
			    "first): what reached the device was not the "
			    "calls' doing alone",
			    c->cache_drops && r->cache_drops ? "capture and "
							       "the replay"
			    : c->cache_drops		     ? "capture"
							     : "replay");
		return;
	}
	lr = (double)(c->have_traced ? c->traced_read : logical_read);
	lw = (double)(c->have_traced ? c->traced_write : logical_write);
	cb = (double)c->read_bytes + (double)c->write_bytes;
	f->share = explained(lr + lw, cb);
	if (f->share < 0.5) {
		strbuf_addf(unjudged,
			    "not judged: the capture's device moved %.1f MiB, "
			    "the traced calls %.1f MiB; other I/O on it was "
			    "at least half",
			    cb / mib, (lr + lw) / mib);
		return;
	}
	f->applies[FDEV_READ] = explained(lr, (double)c->read_bytes) >= 0.5;
	f->applies[FDEV_WRITE] = explained(lw, (double)c->write_bytes) >= 0.5;
	/* the replay's device may carry other I/O too */
	for (i = FDEV_READ; r->have_traced && i <= FDEV_WRITE; i++) {
		double rd =
		    (double)(i == FDEV_READ ? r->read_bytes : r->write_bytes);
		double rt =
		    (double)(i == FDEV_READ ? r->traced_read : r->traced_write);

		if (f->applies[i] && explained(rt, rd) < 0.5) {
			f->applies[i] = 0;
			strbuf_addf(unjudged,
				    "%s%s not judged: the replay's device %s "
				    "%.1f MiB, its calls %.1f MiB",
				    unjudged->len ? "; " : "", dev_names[i],
				    i == FDEV_READ ? "read" : "wrote", rd / mib,
				    rt / mib);
		}
	}
	for (i = FDEV_READ; i <= FDEV_WRITE; i++)
		if (!f->applies[i] && !strstr(unjudged->buf, dev_names[i]))
			strbuf_addf(unjudged,
				    "%s%s not judged: the capture's device %s "
				    "%.1f MiB, the traced calls %.1f MiB",
				    unjudged->len ? "; " : "", dev_names[i],
				    i == FDEV_READ ? "read" : "wrote",
				    (double)(i == FDEV_READ ? c->read_bytes
							    : c->write_bytes) /
					mib,
				    (i == FDEV_READ ? lr : lw) / mib);
	f->err[FDEV_READ] =
	    rel_floor((double)r->read_bytes, (double)c->read_bytes);
	f->err[FDEV_WRITE] =
	    rel_floor((double)r->write_bytes, (double)c->write_bytes);
	rb = (double)r->read_bytes + (double)r->write_bytes;
	/* sizes and depths of a handful of requests say nothing, nor of
	 * requests partly other processes' */
	f->applies[FDEV_SIZE] = f->applies[FDEV_READ] &&
				f->applies[FDEV_WRITE] &&
				cb >= FDEV_MEAN_FLOOR && rb >= FDEV_MEAN_FLOOR;
	/* a depth over a few ms of busy time is the ms counters' rounding */
	f->applies[FDEV_DEPTH] = f->applies[FDEV_SIZE] &&
				 c->busy_ms >= FDEV_DEPTH_BUSY_MS &&
				 r->busy_ms >= FDEV_DEPTH_BUSY_MS;
	if (f->applies[FDEV_SIZE]) {
		cs = c->requests ? cb / (double)c->requests : 0;
		rs = r->requests ? rb / (double)r->requests : 0;
		f->err[FDEV_SIZE] = rel(rs, cs);
	}
	if (f->applies[FDEV_DEPTH])
		f->err[FDEV_DEPTH] = rel(r->busy_depth, c->busy_depth);
	/* what a setting moved is its effect: kept, not judged */
	for (i = 0; i < FDEV__NR; i++)
		if (f->applies[i] && (moves & 1u << i)) {
			f->applies[i] = 0;
			f->moved |= 1u << i;
		}
	for (i = 0; i < FDEV__NR; i++)
		f->judged |= f->applies[i];
	if (!f->judged && f->moved) {
		strbuf_addf(unjudged,
			    "%snot judged: settings that differ "
			    "from the capture's moved ",
			    unjudged->len ? "; " : "");
		fidelity_moves_text(f->moved, unjudged);
	}
	for (i = FDEV_READ; i <= FDEV_WRITE; i++) {
		double cv =
		    (double)(i == FDEV_READ ? c->read_bytes : c->write_bytes);
		double rv =
		    (double)(i == FDEV_READ ? r->read_bytes : r->write_bytes);

		if (f->applies[i] && f->err[i] > 0.25 &&
		    fabs(rv - cv) > FDEV_FLOOR) {
			say_bytes(why, i == FDEV_READ ? "reads" : "writes", cv,
				  rv);
			f->poor = 1;
		}
	}
	if (f->applies[FDEV_SIZE] && f->err[FDEV_SIZE] > 0.5) {
		strbuf_addf(why,
			    "%sthe device requests were %.0f KiB on average, "
			    "%.0f KiB in the capture",
			    why->len ? "; " : "", rs / 1024, cs / 1024);
		f->poor = 1;
	}
	if (f->applies[FDEV_DEPTH] && f->err[FDEV_DEPTH] > 0.5) {
		strbuf_addf(why,
			    "%sthe device queue held %.1f requests while busy, "
			    "%.1f in the capture",
			    why->len ? "; " : "", r->busy_depth, c->busy_depth);
		f->poor = 1;
	}
}

/* A setting's key prefix and what it moves (fidelity.h). */
static const struct {
	const char *prefix;
	unsigned moves;
} moved_by[] = {
    {"knob.read_ahead_kb",
     FMOVE_DEV_READ | FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.scheduler", FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.iosched.", FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.nr_requests", FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.max_sectors_kb", FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.nomerges", FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.wbt_lat_usec", FMOVE_DEV_WRITE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.rq_affinity", FMOVE_LATENCY},
    {"knob.atime",
     FMOVE_DEV_WRITE | FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.vm.dirty",
     FMOVE_DEV_WRITE | FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"bdi.",
     FMOVE_DEV_WRITE | FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
    {"knob.vm.vfs_cache_pressure",
     FMOVE_DEV_READ | FMOVE_DEV_SIZE | FMOVE_DEV_DEPTH | FMOVE_LATENCY},
};

unsigned fidelity_moved_by(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(moved_by) / sizeof(moved_by[0]); i++)
		if (!strncmp(key, moved_by[i].prefix,
			     strlen(moved_by[i].prefix)))
			return moved_by[i].moves;
	return FMOVE_ALL;
}

void fidelity_moves_text(unsigned moves, struct strbuf *out)
{
	const char *w[FDEV__NR + 1];
	unsigned i, n = 0;

	for (i = 0; i < FDEV__NR; i++)
		if (moves & 1u << i)
			w[n++] = dev_names[i];
	if (moves & FMOVE_LATENCY)
		w[n++] = "latency";
	for (i = 0; i < n; i++)
		strbuf_addf(out, "%s%s",
			    i == 0	 ? ""
			    : i + 1 == n ? " and "
					 : ", ",
			    w[i]);
}

double fidelity_combine(double file_score, const struct fidelity_devterms *f)
{
	double sum = 0, file_mean = 1 - file_score / 100;
	unsigned i, nr = 0;

	for (i = 0; i < FDEV__NR; i++)
		if (f->applies[i]) {
			sum += f->err[i];
			nr++;
		}
	if (!nr)
		return file_score;
	return 100 * (1 - (3 * file_mean + sum / nr) / 4);
}

/*
 * A meta value that is a whole number, digits only, else 0 (*ok
 * cleared): strtoull() alone would take " 7" and "+7", and read " -1"
 * as the largest number.
 */
static uint64_t meta_u64(const struct trace *t, const char *key, int *ok)
{
	const char *v = trace_meta_get(t, key);
	char *end;
	unsigned long long n;

	if (!v || *v < '0' || *v > '9') {
		*ok = 0;
		return 0;
	}
	errno = 0;
	n = strtoull(v, &end, 10);
	if (*end || errno) {
		*ok = 0;
		return 0;
	}
	return n;
}

void fidelity_dev_from_meta(const struct trace *t, struct fidelity_dev *d)
{
	uint64_t rs, ws, busy, queue;
	int ok = 1;

	memset(d, 0, sizeof(*d));
	rs = meta_u64(t, "device.read_sectors", &ok);
	ws = meta_u64(t, "device.write_sectors", &ok);
	d->requests = meta_u64(t, "device.reads", &ok);
	d->requests += meta_u64(t, "device.writes", &ok);
	busy = meta_u64(t, "device.busy_ms", &ok);
	queue = meta_u64(t, "device.queue_ms", &ok);
	if (!ok || rs > UINT64_MAX / 512 || ws > UINT64_MAX / 512)
		return;
	d->read_bytes = rs * 512;
	d->write_bytes = ws * 512;
	d->busy_depth = busy ? (double)queue / (double)busy : 0;
	d->busy_ms = (double)busy;
	d->have = 1;
	ok = 1;
	d->cache_drops = meta_u64(t, "device.cache_drops", &ok);
	if (!ok) /* before it was recorded: none known */
		d->cache_drops = 0;
	ok = 1;
	d->traced_read = meta_u64(t, "device.traced_read_bytes", &ok);
	d->traced_write = meta_u64(t, "device.traced_write_bytes", &ok);
	d->have_traced = ok;
}
