/*
 * libFuzzer target for a replay's fidelity (core/trace/fidelity.c),
 * which no other target reaches. The bytes describe the two sides
 * directly: a capture and a replay as trace summaries (any counts, the
 * extremes of a uint64 among them, up to 64 seconds of rate), the
 * replay's speed (max, or a factor from 0.001 to 1000 as --speed takes
 * it) and mode, each side's device numbers, and a trace's device.*
 * meta values as text. Whatever they hold:
 *
 * - every component is a number from 0 to 1 (never NaN), the score
 *   one from 0 to 100; the rate counts only at a speed, the lag only in
 *   an open loop at a speed, the queue depth only for block requests
 *   (and then names do not); a poor replay says why, and one that is
 *   not says nothing;
 * - a replay that did just what its capture recorded scores 100 and is
 *   not poor;
 * - the device terms are numbers from 0 to 1 and apply only when both
 *   sides were measured, never when a setting moved them (those are
 *   moved, and only those), the depth only over 100 ms of busy time; when none
 * applies the combined score is the file score, else it stays within 0 and 100;
 * a poor term says why, and terms not judged say why not;
 * - the meta values give device numbers only when each is a whole
 *   number that fits, and the bytes are 512 times the sectors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/trace/fidelity.h"
#include "core/trace/trace.h"
#include "core/trace/trace_summary.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_SECS 64

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The fuzz bytes, read from the front; zeros once they run out. */
struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t next(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

/*
 * A number of bytes or nanoseconds: small most of the time, sometimes
 * one of the extremes a corrupted or hand-made trace could give.
 */
static uint64_t count(struct input *in)
{
	uint8_t b = next(in);
	uint64_t v = 0;
	unsigned i;

	switch (b >> 6) {
	case 0:
		return b & 0x3f;
	case 1:
		return (uint64_t)(b & 0x3f) << 10 | next(in);
	case 2:
		for (i = 0; i < 8; i++)
			v = v << 8 | next(in);
		return v;
	}
	return UINT64_MAX - (b & 0x3f);
}

/* A number of events: at most a trace's (TRACE_EVENTS_MAX). */
static uint64_t events(struct input *in)
{
	return count(in) % (TRACE_EVENTS_MAX + 1ull);
}

/* A summary from in; its sec_ops owned (release it). */
static void gen_summary(struct input *in, struct trace_summary *s)
{
	unsigned i, n = next(in) % 8;

	memset(s, 0, sizeof(*s));
	s->duration_ns = count(in);
	/* a few operations, each a count */
	for (i = 0; i < n; i++)
		s->ops[next(in) % TOP__NR] = events(in);
	s->bytes_read = count(in);
	s->bytes_written = count(in);
	n = next(in) % 4;
	for (i = 0; i < n; i++) {
		s->read_sizes[next(in) % TRACE_SIZE_BUCKETS] = events(in);
		s->write_sizes[next(in) % TRACE_SIZE_BUCKETS] = events(in);
	}
	s->nr_secs = next(in) % (MAX_SECS + 1);
	s->sec_ops = xcalloc(s->nr_secs + 1, sizeof(*s->sec_ops));
	for (i = 0; i < s->nr_secs; i++)
		s->sec_ops[i] = events(in);
	/* each request's depth is a u32 */
	s->blk_depth_sum = events(in) * (count(in) & UINT32_MAX);
}

/* A copy of s (its sec_ops owned too). */
static void copy_summary(const struct trace_summary *s,
			 struct trace_summary *out)
{
	*out = *s;
	out->sec_ops = xcalloc(s->nr_secs + 1, sizeof(*out->sec_ops));
	memcpy(out->sec_ops, s->sec_ops, s->nr_secs * sizeof(*out->sec_ops));
}

/* A speed: max (0), or a factor within --speed's range. */
static double gen_speed(struct input *in)
{
	static const double speeds[] = {0, 0.001, 0.01, 0.5, 1, 1.5, 3, 1000};
	uint8_t b = next(in);

	if (b < 0x80)
		return speeds[b % (sizeof(speeds) / sizeof(speeds[0]))];
	return 0.001 + (double)(b & 0x7f) * 7.8;
}

/* One side's device numbers. */
static void gen_dev(struct input *in, struct fidelity_dev *d)
{
	uint8_t b = next(in);

	memset(d, 0, sizeof(*d));
	d->have = b & 1;
	d->have_traced = (b >> 1) & 1;
	d->read_bytes = count(in);
	d->write_bytes = count(in);
	d->requests = count(in);
	d->busy_depth = (double)count(in) / 16;
	d->busy_ms = (double)count(in);
	d->cache_drops = b & 4 ? count(in) : 0;
	d->traced_read = count(in);
	d->traced_write = count(in);
}

/* Is x a number from lo to hi? */
static int within(double x, double lo, double hi)
{
	return x >= lo && x <= hi; /* false for NaN */
}

/* The file components: see the head of the file. */
static void check_file(const struct trace_summary *c,
		       const struct trace_summary *r, double speed,
		       int open_loop, struct fidelity *f)
{
	struct strbuf why = STRBUF_INIT;
	int blk = c->ops[TOP_BLK_READ] || c->ops[TOP_BLK_WRITE] ||
		  c->ops[TOP_BLK_DISCARD] || c->ops[TOP_BLK_FLUSH];
	unsigned i;

	fidelity_compute(c, r, speed, open_loop, f, &why);
	for (i = 0; i < FID__NR; i++) {
		check(within(f->err[i], 0, 1));
		check(strcmp(fidelity_name(i), "?"));
	}
	check(within(f->score, 0, 100));
	check(f->applies[FID_RATE] == (speed > 0));
	check(f->applies[FID_LAG] == (open_loop && speed > 0));
	check(f->applies[FID_OPS] && f->applies[FID_BYTES] &&
	      f->applies[FID_SIZES] && f->applies[FID_MIX]);
	/* block requests: the queue depth counts and names do not */
	check(f->applies[FID_DEPTH] == blk);
	check(f->applies[FID_NAMES] == !blk && f->applies[FID_NAMEMIX] == !blk);
	check(f->poor == (why.len > 0));
	check(strlen(why.buf) == why.len);
	strbuf_release(&why);
}

/* The device terms: see the head of the file. */
static void check_device(const struct fidelity_dev *c,
			 const struct fidelity_dev *r, uint64_t lr, uint64_t lw,
			 unsigned moves, double file_score)
{
	struct strbuf why = STRBUF_INIT, unjudged = STRBUF_INIT;
	struct fidelity_devterms f;
	double score;
	unsigned i;

	fidelity_device(c, r, lr, lw, moves, &f, &why, &unjudged);
	for (i = 0; i < FDEV__NR; i++) {
		check(within(f.err[i], 0, 1));
		check(!f.applies[i] || (c->have && r->have && !c->cache_drops &&
					!r->cache_drops));
		check(strcmp(fidelity_dev_name(i), "?"));
	}
	check(within(f.share, 0, 1));
	check(f.judged == (f.applies[FDEV_READ] || f.applies[FDEV_WRITE] ||
			   f.applies[FDEV_SIZE] || f.applies[FDEV_DEPTH]));
	/* a term a setting moved is never judged, and only such is moved */
	check(!(f.moved & ~moves));
	for (i = 0; i < FDEV__NR; i++)
		check(!(f.applies[i] && (f.moved & 1u << i)) &&
		      !(f.applies[i] && (moves & 1u << i)));
	/* size and depth only beside both byte terms (judged, or moved by
	 * a setting) */
	check(!f.applies[FDEV_SIZE] ||
	      ((f.applies[FDEV_READ] || (f.moved & FMOVE_DEV_READ)) &&
	       (f.applies[FDEV_WRITE] || (f.moved & FMOVE_DEV_WRITE))));
	check(!f.applies[FDEV_DEPTH] ||
	      ((f.applies[FDEV_SIZE] || (f.moved & FMOVE_DEV_SIZE)) &&
	       c->busy_ms >= FDEV_DEPTH_BUSY_MS &&
	       r->busy_ms >= FDEV_DEPTH_BUSY_MS));
	check(!f.poor || (f.judged && why.len));
	check(f.poor || !why.len);
	check(f.judged || unjudged.len);
	score = fidelity_combine(file_score, &f);
	check(within(score, 0, 100));
	if (!f.judged)
		check(score == file_score);
	strbuf_release(&why);
	strbuf_release(&unjudged);
}

/* The device numbers of a trace's meta: see the head of the file. */
static void check_meta(struct input *in)
{
	static const char *const keys[] = {
	    "device.read_sectors",
	    "device.write_sectors",
	    "device.reads",
	    "device.writes",
	    "device.busy_ms",
	    "device.queue_ms",
	    "device.traced_read_bytes",
	    "device.traced_write_bytes",
	};
	static const char *const values[] = {
	    "0",
	    "1",
	    "512",
	    "-1",
	    "",
	    "18446744073709551615",
	    "36028797018963968",
	    "12x",
	    " 7",
	    "99999999999999999999999",
	    " -1",
	    "+8",
	};
	struct strbuf v = STRBUF_INIT;
	struct fidelity_dev d;
	struct trace t = {0};
	const char *rs;
	unsigned i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		uint8_t b = next(in);

		if (b & 0x80)
			continue; /* absent */
		if (b & 0x40)
			strbuf_setf(&v, "%llu", (unsigned long long)count(in));
		else
			strbuf_setf(
			    &v, "%s",
			    values[b % (sizeof(values) / sizeof(values[0]))]);
		trace_add_meta(&t, keys[i], v.buf);
	}
	fidelity_dev_from_meta(&t, &d);
	rs = trace_meta_get(&t, "device.read_sectors");
	if (d.have) {
		char *end;
		unsigned long long sectors = strtoull(rs, &end, 10);

		check(rs[0] >= '0' && rs[0] <= '9' && !*end);
		check(d.read_bytes == (uint64_t)sectors * 512);
		check(d.read_bytes / 512 == sectors);
		check(within(d.busy_depth, 0, HUGE_VAL));
	} else {
		check(!d.read_bytes && !d.write_bytes);
	}
	trace_release(&t);
	strbuf_release(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = {data, size};
	struct trace_summary c, r, same;
	struct fidelity_dev dc, dr;
	struct strbuf why = STRBUF_INIT;
	struct fidelity f, g;
	double speed = gen_speed(&in);
	int open_loop = next(&in) & 1;
	uint64_t lr, lw;

	gen_summary(&in, &c);
	gen_summary(&in, &r);
	check_file(&c, &r, speed, open_loop, &f);
	/* a replay that did what was recorded, as fast as it was (or as
	 * fast as it went) */
	copy_summary(&c, &same);
	if (speed == 0 || speed == 1) {
		fidelity_compute(&c, &same, speed, open_loop, &g, &why);
		check(g.score == 100 && !g.poor && !why.len);
	}
	gen_dev(&in, &dc);
	gen_dev(&in, &dr);
	lr = count(&in);
	lw = count(&in);
	check_device(&dc, &dr, lr, lw, next(&in) & FMOVE_ALL, f.score);
	check_meta(&in);
	trace_summary_release(&c);
	trace_summary_release(&r);
	trace_summary_release(&same);
	strbuf_release(&why);
	return 0;
}
