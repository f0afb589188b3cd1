/*
 * Tests for core/trace/fidelity: a replay that did exactly what its
 * capture did scores 100; one that did fewer operations, moved other
 * sizes, or fell behind in open loop scores less and is poor past the
 * documented thresholds (2% ops, bytes, names; 10% rate; 5% lag); the
 * rate and the lag do not count at --speed max. The device terms: a
 * replay whose reads came from the page cache where the capture's
 * reached the device is poor and says so; a difference under the 1 MiB
 * floor is not; a capture whose device carried mostly other I/O, or a
 * trace without device meta, is not judged; the meta is read strictly.
 * A term a setting that differs moves is kept, not judged; a depth over
 * a few ms of busy time is not judged. The distributions (per class:
 * gaps, sizes, offsets, latencies) are 0 apart for the same calls and
 * poor past their thresholds.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/trace/fidelity.h"
#include "core/trace/fidelity_dist.h"
#include "util/strbuf.h"
#include "util/banned.h"

/* A summary of secs seconds, ops reads of 4 KiB each second. */
static void make(struct trace_summary *s, uint64_t *sec_ops, size_t secs,
		 uint64_t ops)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->nr_secs = secs;
	s->sec_ops = sec_ops;
	for (i = 0; i < secs; i++) {
		sec_ops[i] = ops;
		s->ops[TOP_READ] += ops;
		s->read_sizes[12] += ops;
		s->bytes_read += ops * 4096;
	}
	s->ops[TOP_OPEN] = 10;
	s->duration_ns = secs * 1000000000ull;
}

static void test_identical(void **state)
{
	uint64_t a[10], b[10];
	struct trace_summary c, r;
	struct fidelity f;
	struct strbuf why = STRBUF_INIT;

	(void)state;
	make(&c, a, 10, 100);
	make(&r, b, 10, 100);
	fidelity_compute(&c, &r, 1, 1, &f, &why);
	assert_true(f.score == 100);
	assert_false(f.poor);
	assert_int_equal(why.len, 0);
	strbuf_release(&why);
}

static void test_poor(void **state)
{
	uint64_t a[10], b[12];
	struct trace_summary c, r;
	struct fidelity f;
	struct strbuf why = STRBUF_INIT;

	(void)state;
	make(&c, a, 10, 100);
	/* 1% fewer reads: not poor, but under 100 */
	make(&r, b, 10, 99);
	r.ops[TOP_OPEN] = 10;
	fidelity_compute(&c, &r, 1, 1, &f, &why);
	assert_true(f.score < 100 && f.score > 98);
	assert_false(f.poor);
	/* 12 seconds where the capture took 10: behind by 20% */
	make(&r, b, 12, 100);
	r.bytes_read = c.bytes_read;
	fidelity_compute(&c, &r, 1, 1, &f, &why);
	assert_true(f.poor);
	assert_non_null(strstr(why.buf, "fell behind the timestamps by 20.0%"));
	/* the same at --speed max: neither rate nor lag counts */
	fidelity_compute(&c, &r, 0, 1, &f, &why);
	assert_false(f.applies[FID_RATE] || f.applies[FID_LAG]);
	/* other sizes: the histogram distance is 1 */
	make(&r, b, 10, 100);
	memset(r.read_sizes, 0, sizeof(r.read_sizes));
	r.read_sizes[16] = 1000;
	fidelity_compute(&c, &r, 1, 1, &f, &why);
	assert_true(f.err[FID_SIZES] == 1);
	/* at speed 2 the capture's 10 s land in 5 */
	make(&r, b, 5, 200);
	r.duration_ns = 5000000000ull;
	fidelity_compute(&c, &r, 2, 1, &f, &why);
	assert_true(f.err[FID_RATE] == 0);
	assert_true(f.err[FID_LAG] == 0);
	strbuf_release(&why);
}

#define MIB (1024ull * 1024)

/* A device side: rd and wr bytes in requests of 128 KiB, depth 2. */
static void dev(struct fidelity_dev *d, uint64_t rd, uint64_t wr)
{
	memset(d, 0, sizeof(*d));
	d->have = 1;
	d->read_bytes = rd;
	d->write_bytes = wr;
	d->requests = (rd + wr) / (128 * 1024);
	d->busy_depth = 2;
	d->busy_ms = 1000;
}

static void test_device_same(void **state)
{
	struct fidelity_dev c, r;
	struct fidelity_devterms f;
	struct strbuf why = STRBUF_INIT, un = STRBUF_INIT;
	unsigned i;

	(void)state;
	dev(&c, 300 * MIB, 100 * MIB);
	dev(&r, 300 * MIB, 100 * MIB);
	fidelity_device(&c, &r, 300 * MIB, 100 * MIB, 0, &f, &why, &un);
	assert_true(f.judged);
	for (i = 0; i < FDEV__NR; i++) {
		assert_true(f.applies[i]);
		assert_true(f.err[i] == 0);
	}
	assert_false(f.poor);
	assert_int_equal(why.len, 0);
	assert_int_equal(un.len, 0);
	/* a perfect file score stays 100 */
	assert_true(fidelity_combine(100, &f) == 100);
	/* a file score of 80 with device terms all 0: 100 - 3/4 * 20 */
	assert_true(fabs(fidelity_combine(80, &f) - 85) < 1e-9);
	strbuf_release(&why);
	strbuf_release(&un);
}

static void test_device_cached(void **state)
{
	struct fidelity_dev c, r;
	struct fidelity_devterms f;
	struct strbuf why = STRBUF_INIT, un = STRBUF_INIT;
	double s;

	(void)state;
	/* the capture read 347 MiB at the device, the replay 240 KiB */
	dev(&c, 347 * MIB, 0);
	dev(&r, 240 * 1024, 0);
	fidelity_device(&c, &r, 347 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.judged);
	assert_true(f.poor);
	assert_true(f.err[FDEV_READ] > 0.99);
	assert_true(f.err[FDEV_WRITE] == 0);
	assert_non_null(strstr(why.buf, "the capture's reads reached the "
					"device (347.0 MiB); the replay's "
					"came from the page cache (0.2 MiB)"));
	/* a perfect file score drops by a quarter of the device mean */
	s = fidelity_combine(100, &f);
	assert_true(s < 100 && s > 75);
	/* the other way round: the replay read what the capture had cached */
	fidelity_device(&r, &c, 347 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.poor);
	assert_non_null(strstr(why.buf, "the replay's reads reached the "
					"device (347.0 MiB); the capture's "
					"came from the page cache"));
	/* writes that stayed in the cache */
	dev(&c, 0, 64 * MIB);
	dev(&r, 0, 8 * MIB);
	fidelity_device(&c, &r, 0, 64 * MIB, 0, &f, &why, &un);
	assert_true(f.poor);
	assert_non_null(strstr(why.buf, "the replay's stayed in the page "
					"cache (8.0 MiB)"));
	strbuf_release(&why);
	strbuf_release(&un);
}

static void test_device_floor(void **state)
{
	struct fidelity_dev c, r;
	struct fidelity_devterms f;
	struct strbuf why = STRBUF_INIT, un = STRBUF_INIT;

	(void)state;
	/* 512 KiB against 100 KiB: far off in share, not in bytes */
	dev(&c, 512 * 1024, 0);
	dev(&r, 100 * 1024, 0);
	fidelity_device(&c, &r, 10 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.judged);
	assert_false(f.poor);
	assert_true(f.err[FDEV_READ] < 0.5);
	/* a difference under the floor counts nothing */
	assert_true(f.err[FDEV_READ] == 0);
	/* 2 MiB over a 512 KiB capture: what is past the floor counts */
	dev(&r, 512 * 1024 + 2 * MIB, 0);
	fidelity_device(&c, &r, 10 * MIB, 0, 0, &f, &why, &un);
	assert_true(fabs(f.err[FDEV_READ] - 1.0) < 1e-9);
	dev(&r, 100 * 1024, 0);
	fidelity_device(&c, &r, 10 * MIB, 0, 0, &f, &why, &un);
	/* a few requests: size and depth say nothing */
	assert_false(f.applies[FDEV_SIZE] || f.applies[FDEV_DEPTH]);
	/* 30% more bytes and over 1 MiB more: poor */
	dev(&c, 100 * MIB, 0);
	dev(&r, 130 * MIB, 0);
	fidelity_device(&c, &r, 100 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.poor);
	/* 20% more: within */
	dev(&r, 120 * MIB, 0);
	fidelity_device(&c, &r, 100 * MIB, 0, 0, &f, &why, &un);
	assert_false(f.poor);
	/* requests 4 times as large, a queue 3 times as deep: poor */
	r.requests /= 4;
	r.busy_depth = 6;
	fidelity_device(&c, &r, 100 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.poor);
	assert_true(f.err[FDEV_SIZE] == 1);
	assert_true(f.err[FDEV_DEPTH] == 1);
	assert_non_null(strstr(why.buf, "held 6.0 requests while busy, "
					"2.0 in the capture"));
	strbuf_release(&why);
	strbuf_release(&un);
}

static void test_device_unjudged(void **state)
{
	struct fidelity_dev c, r;
	struct fidelity_devterms f;
	struct strbuf why = STRBUF_INIT, un = STRBUF_INIT;

	(void)state;
	/* the traced calls moved 10 MiB of the device's 1 GiB */
	dev(&c, 1024 * MIB, 0);
	dev(&r, 0, 0);
	fidelity_device(&c, &r, 10 * MIB, 0, 0, &f, &why, &un);
	assert_false(f.judged || f.poor);
	assert_true(f.share < 0.01);
	assert_non_null(strstr(un.buf, "other I/O on it was at least half"));
	assert_true(fidelity_combine(97.5, &f) == 97.5);
	/* what the capture counted on that device wins */
	c.have_traced = 1;
	c.traced_read = 1000 * MIB;
	fidelity_device(&c, &r, 10 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.judged && f.poor);
	/* the device wrote 4.5 MiB nobody traced wrote (a kernel thread):
	 * dev-write is not judged, nor the sizes and depths; dev-read is */
	dev(&c, 0, 4608 * 1024);
	dev(&r, 0, 0);
	fidelity_device(&c, &r, 32 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.judged);
	assert_false(f.poor);
	assert_true(f.applies[FDEV_READ] && f.err[FDEV_READ] == 0);
	assert_false(f.applies[FDEV_WRITE] || f.applies[FDEV_SIZE] ||
		     f.applies[FDEV_DEPTH]);
	assert_non_null(strstr(un.buf, "dev-write not judged: the capture's "
				       "device wrote 4.5 MiB, the traced "
				       "calls 0.0 MiB"));
	assert_true(fidelity_combine(100, &f) == 100);
	/* the replay's device wrote 64 MiB its calls did not: not judged */
	dev(&c, 0, 0);
	dev(&r, 0, 64 * MIB);
	r.have_traced = 1;
	fidelity_device(&c, &r, 32 * MIB, 0, 0, &f, &why, &un);
	assert_false(f.poor || f.applies[FDEV_WRITE]);
	assert_non_null(strstr(un.buf, "dev-write not judged: the replay's "
				       "device wrote 64.0 MiB, its calls "
				       "0.0 MiB"));
	r.traced_write = 64 * MIB;
	fidelity_device(&c, &r, 32 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.poor && f.applies[FDEV_WRITE]);
	/* no device meta: not recorded */
	memset(&c, 0, sizeof(c));
	fidelity_device(&c, &r, 10 * MIB, 0, 0, &f, &why, &un);
	assert_false(f.judged);
	assert_non_null(strstr(un.buf, "not recorded"));
	/* the replay's target has no device */
	dev(&c, 10 * MIB, 0);
	memset(&r, 0, sizeof(r));
	fidelity_device(&c, &r, 10 * MIB, 0, 0, &f, &why, &un);
	assert_false(f.judged);
	assert_non_null(strstr(un.buf, "not measured"));
	strbuf_release(&why);
	strbuf_release(&un);
}

/* A setting that differs moves some device terms: they are kept as its
 * effect, neither judged nor poor, while the others still are. */
static void test_device_moved(void **state)
{
	struct fidelity_dev c, r;
	struct fidelity_devterms f;
	struct strbuf why = STRBUF_INIT, un = STRBUF_INIT, words = STRBUF_INIT;

	(void)state;
	/* read-ahead 128 KiB in the capture, 4 MiB here: requests 32 times
	 * as large, the bytes the same */
	dev(&c, 300 * MIB, 0);
	dev(&r, 300 * MIB, 0);
	r.requests = c.requests / 32;
	fidelity_device(&c, &r, 300 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.poor && f.applies[FDEV_SIZE]);
	assert_non_null(strstr(why.buf, "the device requests were"));
	fidelity_device(&c, &r, 300 * MIB, 0,
			fidelity_moved_by("knob.read_ahead_kb"), &f, &why, &un);
	assert_false(f.poor);
	assert_int_equal(why.len, 0);
	assert_false(f.applies[FDEV_SIZE] || f.applies[FDEV_READ]);
	assert_true(f.moved & FMOVE_DEV_SIZE);
	assert_true(f.err[FDEV_SIZE] > 0.9); /* kept: the effect */
	/* what read-ahead cannot move is still judged */
	assert_true(f.applies[FDEV_WRITE] && f.judged);
	assert_true(fidelity_combine(100, &f) == 100);
	/* the table: a dirty threshold moves writes, not reads; a knob
	 * iotrial does not know moves every device term */
	assert_true(fidelity_moved_by("knob.vm.dirty_ratio") & FMOVE_DEV_WRITE);
	assert_false(fidelity_moved_by("knob.vm.dirty_ratio") & FMOVE_DEV_READ);
	assert_false(fidelity_moved_by("knob.rq_affinity") & FMOVE_DEV_SIZE);
	assert_true(fidelity_moved_by("knob.sysfs:/x") == FMOVE_ALL);
	fidelity_moves_text(fidelity_moved_by("knob.scheduler"), &words);
	assert_string_equal(words.buf, "dev-size, dev-depth and latency");
	/* a mean request size over a few MiB is the file system's own I/O
	 * as much as the calls': not judged */
	dev(&c, 20 * MIB, 0);
	dev(&r, 20 * MIB, 0);
	r.requests /= 4;
	fidelity_device(&c, &r, 20 * MIB, 0, 0, &f, &why, &un);
	assert_false(f.applies[FDEV_SIZE] || f.poor);
	/* a depth over a few ms of busy time is not judged */
	dev(&c, 300 * MIB, 0);
	dev(&r, 300 * MIB, 0);
	r.busy_ms = 20;
	r.busy_depth = 6;
	fidelity_device(&c, &r, 300 * MIB, 0, 0, &f, &why, &un);
	assert_true(f.applies[FDEV_SIZE]);
	assert_false(f.applies[FDEV_DEPTH] || f.poor);
	strbuf_release(&why);
	strbuf_release(&un);
	strbuf_release(&words);
}

/* n reads of 16 KiB by one thread, sequential, each lat_ns long, one
 * every gap_ns; into e[0..n). */
static void reads(struct trace_event *e, size_t n, uint64_t gap_ns,
		  uint64_t lat_ns)
{
	size_t i;

	memset(e, 0, n * sizeof(*e));
	for (i = 0; i < n; i++) {
		e[i].ts_ns = i * gap_ns;
		e[i].dur_ns = lat_ns;
		e[i].tid = 1;
		e[i].op = TOP_READ;
		e[i].file = 1;
		e[i].offset = i * 16384;
		e[i].size = 16384;
		e[i].ret = 16384;
	}
}

/* The distributions: a replay of the same calls is 0 apart; one whose
 * offsets jump is poor on offsets; latencies four times as long are 2
 * powers of 2 apart (poor past FDIST_LATENCY_MAX only), and not judged
 * when a setting moves them; a class of too few calls is not judged. */
static void test_dist(void **state)
{
	enum { N = 400 };
	static struct trace_event c[N], r[N];
	struct strbuf why = STRBUF_INIT;
	struct fidelity_dist d;
	size_t i;

	(void)state;
	reads(c, N, 1000000, 20000);
	reads(r, N, 1000000, 20000);
	fidelity_dist_compute(c, N, r, N, 1, 0, &d, &why);
	assert_false(d.poor);
	assert_true(d.c[FDC_READ].applies[FDT_GAP]);
	for (i = 0; i < FDT__NR; i++)
		assert_true(d.c[FDC_READ].d[i] == 0);
	assert_true(d.c[FDC_READ].seq[0] == 1 && d.c[FDC_READ].seq[1] == 1);
	/* at --speed max no gap term */
	fidelity_dist_compute(c, N, r, N, 0, 0, &d, &why);
	assert_false(d.c[FDC_READ].applies[FDT_GAP]);
	/* every other read jumps back a MiB */
	for (i = 1; i < N; i += 2)
		r[i].offset = c[i].offset - (1 << 20);
	fidelity_dist_compute(c, N, r, N, 1, 0, &d, &why);
	assert_true(d.poor);
	assert_true(d.c[FDC_READ].d[FDT_OFFSET] > FDIST_OFFSET_MAX);
	assert_non_null(strstr(why.buf, "reads: their offsets differ"));
	/* four times as long: 2 powers of 2 */
	reads(r, N, 1000000, 80000);
	fidelity_dist_compute(c, N, r, N, 1, 0, &d, &why);
	assert_true(fabs(d.c[FDC_READ].d[FDT_LATENCY] - 2) < 1e-9);
	assert_true(d.c[FDC_READ].lat_ns[1][0] == 80000);
	reads(r, N, 1000000, 200000);
	fidelity_dist_compute(c, N, r, N, 1, 0, &d, &why);
	assert_true(d.poor && d.c[FDC_READ].judged[FDT_LATENCY]);
	fidelity_dist_compute(c, N, r, N, 1, FMOVE_LATENCY, &d, &why);
	assert_false(d.poor || d.c[FDC_READ].judged[FDT_LATENCY]);
	/* as fast as it goes, the latencies are the replay's own pace's */
	fidelity_dist_compute(c, N, r, N, 0, 0, &d, &why);
	assert_false(d.poor || d.c[FDC_READ].judged[FDT_LATENCY]);
	assert_true(d.c[FDC_READ].applies[FDT_LATENCY]);
	/* gaps twice as long throughout: 1 power of 2 */
	reads(r, N, 2000000, 20000);
	fidelity_dist_compute(c, N, r, N, 1, 0, &d, &why);
	assert_true(fabs(d.c[FDC_READ].d[FDT_GAP] - 1) < 0.01);
	/* gaps under the replay's resolution count as one */
	reads(c, N, 1000, 20000);
	reads(r, N, 50000, 20000);
	fidelity_dist_compute(c, N, r, N, 1, 0, &d, &why);
	assert_true(d.c[FDC_READ].d[FDT_GAP] == 0);
	/* io_uring reads are reads: replayed through a ring, they are
	 * held to the capture's reads (and its requests to its calls) */
	reads(c, N, 1000000, 20000);
	reads(r, N, 1000000, 20000);
	for (i = 0; i < N; i++)
		r[i].op = TOP_URING_READ;
	fidelity_dist_compute(c, N, r, N, 1, 0, &d, &why);
	assert_true(d.c[FDC_READ].calls[1] == N);
	assert_false(d.poor);
	for (i = 0; i < N; i++)
		r[i].op = TOP_URING_FDATASYNC;
	fidelity_dist_compute(c, N, r, N, 1, 0, &d, &why);
	assert_true(d.c[FDC_SYNC].calls[1] == N);
	assert_true(d.c[FDC_READ].calls[1] == 0);
	reads(r, N, 1000000, 20000);
	/* too few calls to tell */
	fidelity_dist_compute(c, FDIST_MIN_CALLS - 1, r, N, 1, 0, &d, &why);
	assert_false(d.c[FDC_READ].applies[FDT_SIZE] || d.poor);
	assert_true(d.c[FDC_READ].calls[0] == FDIST_MIN_CALLS - 1);
	strbuf_release(&why);
}

static void test_device_meta(void **state)
{
	static const char *const signed_[] = {" -1", "+8", " 7", "\t9"};
	struct trace t = {0};
	struct fidelity_dev d;
	size_t i;

	(void)state;
	fidelity_dev_from_meta(&t, &d);
	assert_false(d.have);
	trace_add_meta(&t, "device.reads", "10");
	trace_add_meta(&t, "device.writes", "6");
	trace_add_meta(&t, "device.read_sectors", "2048");
	trace_add_meta(&t, "device.write_sectors", "4096");
	trace_add_meta(&t, "device.queue_ms", "300");
	trace_add_meta(&t, "device.busy_ms", "100");
	fidelity_dev_from_meta(&t, &d);
	assert_true(d.have);
	assert_true(d.read_bytes == 1 * MIB);
	assert_true(d.write_bytes == 2 * MIB);
	assert_true(d.requests == 16);
	assert_true(d.busy_depth == 3);
	assert_false(d.have_traced);
	trace_add_meta(&t, "device.traced_read_bytes", "12");
	trace_add_meta(&t, "device.traced_write_bytes", "12x");
	fidelity_dev_from_meta(&t, &d);
	assert_true(d.have);
	assert_false(d.have_traced);
	trace_release(&t);
	/* a sector count whose bytes overflow, a negative: not taken */
	memset(&t, 0, sizeof(t));
	trace_add_meta(&t, "device.reads", "-1");
	trace_add_meta(&t, "device.writes", "0");
	trace_add_meta(&t, "device.read_sectors", "0");
	trace_add_meta(&t, "device.write_sectors", "0");
	trace_add_meta(&t, "device.queue_ms", "0");
	trace_add_meta(&t, "device.busy_ms", "0");
	fidelity_dev_from_meta(&t, &d);
	assert_false(d.have);
	trace_release(&t);
	memset(&t, 0, sizeof(t));
	trace_add_meta(&t, "device.reads", "0");
	trace_add_meta(&t, "device.writes", "0");
	trace_add_meta(&t, "device.read_sectors", "36028797018963968");
	trace_add_meta(&t, "device.write_sectors", "0");
	trace_add_meta(&t, "device.queue_ms", "0");
	trace_add_meta(&t, "device.busy_ms", "0");
	fidelity_dev_from_meta(&t, &d);
	assert_false(d.have);
	trace_release(&t);
	/* digits only: a blank or a sign before them is no count (strtoull
	 * would read " -1" as the largest one; fuzz_fidelity found it) */
	for (i = 0; i < sizeof(signed_) / sizeof(signed_[0]); i++) {
		memset(&t, 0, sizeof(t));
		trace_add_meta(&t, "device.reads", signed_[i]);
		trace_add_meta(&t, "device.writes", "0");
		trace_add_meta(&t, "device.read_sectors", "0");
		trace_add_meta(&t, "device.write_sectors", "0");
		trace_add_meta(&t, "device.queue_ms", "0");
		trace_add_meta(&t, "device.busy_ms", "0");
		fidelity_dev_from_meta(&t, &d);
		assert_false(d.have);
		trace_release(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_identical),
	    cmocka_unit_test(test_poor),
	    cmocka_unit_test(test_device_same),
	    cmocka_unit_test(test_device_cached),
	    cmocka_unit_test(test_device_floor),
	    cmocka_unit_test(test_device_unjudged),
	    cmocka_unit_test(test_device_meta),
	    cmocka_unit_test(test_device_moved),
	    cmocka_unit_test(test_dist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
