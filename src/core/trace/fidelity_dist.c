/*
 * Fidelity as distributions: each side's calls binned per class, the
 * bins compared by their largest difference of cumulative shares. See
 * fidelity_dist.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fidelity.h"
#include "fidelity_dist.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define NR_BUCKETS 256 /* a quarter of a power of 2 each, from 1 */
#define OFF_FIRST  0   /* the offset axis: a stream's first call, */
#define OFF_SEQ	   65  /* then back by 2^63 .. 2^0, at the end, */
#define OFF_NR	   130 /* forward by 2^0 .. 2^63 */

#define NR_QUANTILES 200 /* where two quantile functions are compared */

/* One side's calls of one class. */
struct side {
	uint64_t n;
	uint64_t *ts, *dur; /* the calls' starts and durations (n), sorted
			       at the end; ts then holds the gaps (n - 1) */
	uint64_t size[NR_BUCKETS];
	uint64_t off[OFF_NR];
	uint64_t seq, rw; /* sequential calls, of reads and writes */
};

/* A stream: one thread's calls of one class on one file, and where
 * the last one ended (end) and asked to end (asked). */
struct stream {
	uint64_t key; /* 0: a free slot */
	uint64_t end, asked;
};

struct streams {
	struct stream *v;
	size_t mask;
};

static const char *const class_names[FDC__NR][2] = {
    {"reads", "read"},
    {"writes", "write"},
    {"flushes", "sync"},
    {"names", "names"},
};

static const char *const term_names[FDT__NR] = {"gap", "size", "offset",
						"latency"};
static const char *const term_plural[FDT__NR] = {"gaps", "sizes", "offsets",
						 "latencies"};

static const double term_max[FDT__NR] = {FDIST_GAP_MAX, FDIST_SIZE_MAX,
					 FDIST_OFFSET_MAX, FDIST_LATENCY_MAX};

const char *fdist_class_name(enum fdist_class k, int json)
{
	return (unsigned)k < FDC__NR ? class_names[k][json ? 1 : 0] : "?";
}

const char *fdist_term_name(enum fdist_term t)
{
	return (unsigned)t < FDT__NR ? term_names[t] : "?";
}

/* The class of op (an io_uring request's as its call's), or -1 for one
 * in none. */
static int class_of(unsigned op)
{
	switch (trace_op_base(op)) {
	case TOP_READ:
		return FDC_READ;
	case TOP_WRITE:
		return FDC_WRITE;
	case TOP_FSYNC:
	case TOP_FDATASYNC:
	case TOP_SYNC_RANGE:
	case TOP_SYNC:
	case TOP_SYNCFS:
		return FDC_SYNC;
	}
	return trace_op_is_name(op) ? FDC_NAMES : -1;
}

/* The bin of v: 0 for 0, then four per power of 2. */
static unsigned bucket(uint64_t v)
{
	double b;

	if (!v)
		return 0;
	b = 1 + floor(4 * log2((double)v));
	return b >= NR_BUCKETS - 1 ? NR_BUCKETS - 1 : (unsigned)b;
}

/* Where off went against end, on the offset axis. */
static unsigned off_bin(uint64_t off, uint64_t end)
{
	uint64_t d = off > end ? off - end : end - off;
	unsigned p = 0;

	if (!d)
		return OFF_SEQ;
	while (d > 1 && p < 63) {
		d >>= 1;
		p++;
	}
	return off < end ? OFF_SEQ - 1 - p : OFF_SEQ + 1 + p;
}

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

/* The stream of key, made with end UINT64_MAX (none yet) when new. */
static struct stream *stream_of(struct streams *s, uint64_t key)
{
	size_t i = (size_t)mix(key) & s->mask;

	while (s->v[i].key && s->v[i].key != key)
		i = (i + 1) & s->mask;
	if (!s->v[i].key) {
		s->v[i].key = key;
		s->v[i].end = UINT64_MAX;
	}
	return &s->v[i];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Bin the events e[0..n) into sides[FDC__NR] (gaps scaled by 1/scale). */
static void bin(const struct trace_event *e, size_t n, double scale,
		struct side *sides)
{
	struct streams st;
	size_t slots = 16, i, k;

	while (slots < 2 * n)
		slots *= 2;
	st.v = xcalloc(slots, sizeof(*st.v));
	st.mask = slots - 1;
	for (i = 0; i < n; i++) {
		int c = class_of(e[i].op);

		if (c >= 0)
			sides[c].n++;
	}
	for (k = 0; k < FDC__NR; k++) {
		sides[k].ts = xcalloc(sides[k].n + 1, sizeof(uint64_t));
		sides[k].dur = xcalloc(sides[k].n + 1, sizeof(uint64_t));
		sides[k].n = 0;
	}
	for (i = 0; i < n; i++) {
		int c = class_of(e[i].op);
		struct side *s;

		if (c < 0)
			continue;
		s = &sides[c];
		s->ts[s->n] = e[i].ts_ns;
		s->dur[s->n] = e[i].dur_ns;
		s->n++;
		if (c == FDC_READ || c == FDC_WRITE) {
			/* thread, file, class: never 0 */
			uint64_t key =
			    ((uint64_t)e[i].tid << 32 ^
			     (uint64_t)e[i].file << 1 ^ (uint64_t)c) |
			    1ull << 63;
			struct stream *sm = stream_of(&st, key);
			uint64_t moved = e[i].ret > 0 ? (uint64_t)e[i].ret : 0;

			s->size[bucket(e[i].size)]++;
			if (sm->end == UINT64_MAX) {
				s->off[OFF_FIRST]++;
			} else {
				/* anywhere from where the last call ended to
				 * where it asked to end is the next position:
				 * a read cut short (at the end of a file, or
				 * before another thread wrote) then goes on
				 * where it stopped, in a capture or a replay
				 * alike; the cut itself is a call that ended
				 * otherwise, not a seek */
				unsigned b =
				    e[i].offset >= sm->end &&
					    e[i].offset <= sm->asked
					? OFF_SEQ
					: off_bin(e[i].offset, sm->end);

				s->off[b]++;
				s->seq += b == OFF_SEQ;
				s->rw++;
			}
			sm->end = e[i].offset + moved;
			sm->asked = e[i].offset +
				    (e[i].size > moved ? e[i].size : moved);
		}
	}
	for (k = 0; k < FDC__NR; k++) {
		struct side *s = &sides[k];

		qsort(s->ts, s->n, sizeof(*s->ts), cmp_u64);
		for (i = 1; i < s->n; i++)
			s->ts[i - 1] =
			    (uint64_t)((double)(s->ts[i] - s->ts[i - 1]) /
				       scale);
		if (s->n > 1)
			qsort(s->ts, s->n - 1, sizeof(*s->ts), cmp_u64);
		qsort(s->dur, s->n, sizeof(*s->dur), cmp_u64);
	}
	free(st.v);
}

/* The largest difference of the cumulative shares of a and b. */
static double ks(const uint64_t *a, const uint64_t *b, size_t n)
{
	double sa = 0, sb = 0, ca = 0, cb = 0, d = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sa += (double)a[i];
		sb += (double)b[i];
	}
	if (!sa || !sb)
		return sa == sb ? 0 : 1;
	for (i = 0; i < n; i++) {
		ca += (double)a[i] / sa;
		cb += (double)b[i] / sb;
		if (fabs(ca - cb) > d)
			d = fabs(ca - cb);
	}
	return d > 1 ? 1 : d;
}

/*
 * How far apart two sorted samples a[0..na) and b[0..nb) are in powers
 * of 2: the mean of |log2 a_q - log2 b_q| over the quantiles q, each
 * value taken as at least floor (what is under it is not told apart).
 * 1: one side took twice (or half) as long throughout.
 */
static double octaves(const uint64_t *a, size_t na, const uint64_t *b,
		      size_t nb, uint64_t floor_ns)
{
	double sum = 0;
	unsigned i;

	if (!na || !nb)
		return na == nb ? 0 : FDIST_OCTAVES_CAP;
	for (i = 0; i < NR_QUANTILES; i++) {
		double q = (i + 0.5) / NR_QUANTILES;
		uint64_t x = a[(size_t)(q * (double)na)],
			 y = b[(size_t)(q * (double)nb)];

		sum += fabs(log2((double)(x > floor_ns ? x : floor_ns)) -
			    log2((double)(y > floor_ns ? y : floor_ns)));
	}
	sum /= NR_QUANTILES;
	return sum > FDIST_OCTAVES_CAP ? FDIST_OCTAVES_CAP : sum;
}

/* The q quantile of the sorted v[0..n), 0 for none. */
static uint64_t quantile(const uint64_t *v, size_t n, double q)
{
	size_t i = (size_t)(q * (double)n);

	if (!n)
		return 0;
	return v[i < n ? i : n - 1];
}

void fidelity_dist_compute(const struct trace_event *c, size_t nr_c,
			   const struct trace_event *r, size_t nr_r,
			   double speed, unsigned moves,
			   struct fidelity_dist *out, struct strbuf *why)
{
	static const double qs[3] = {0.5, 0.9, 0.99};
	struct side *sides = xcalloc(2 * FDC__NR, sizeof(*sides));
	unsigned k, t, q;

	memset(out, 0, sizeof(*out));
	strbuf_reset(why);
	bin(c, nr_c, speed > 0 ? speed : 1, sides);
	bin(r, nr_r, 1, sides + FDC__NR);
	for (k = 0; k < FDC__NR; k++) {
		struct fdist_class_result *x = &out->c[k];
		struct side *a = &sides[k], *b = &sides[FDC__NR + k];
		int rw = k == FDC_READ || k == FDC_WRITE;

		x->calls[0] = a->n;
		x->calls[1] = b->n;
		for (q = 0; q < 3; q++) {
			x->lat_ns[0][q] = quantile(a->dur, a->n, qs[q]);
			x->lat_ns[1][q] = quantile(b->dur, b->n, qs[q]);
		}
		x->seq[0] = a->rw ? (double)a->seq / (double)a->rw : 0;
		x->seq[1] = b->rw ? (double)b->seq / (double)b->rw : 0;
		if (a->n < FDIST_MIN_CALLS)
			continue;
		x->applies[FDT_GAP] = speed > 0;
		x->applies[FDT_SIZE] = x->applies[FDT_OFFSET] = rw;
		x->applies[FDT_LATENCY] = 1;
		x->d[FDT_GAP] =
		    octaves(a->ts, a->n - 1, b->ts, b->n ? b->n - 1 : 0,
			    FDIST_GAP_FLOOR_NS);
		x->d[FDT_SIZE] = ks(a->size, b->size, NR_BUCKETS);
		x->d[FDT_OFFSET] = ks(a->off, b->off, OFF_NR);
		x->d[FDT_LATENCY] =
		    octaves(a->dur, a->n, b->dur, b->n, FDIST_LATENCY_FLOOR_NS);
		for (t = 0; t < FDT__NR; t++) {
			if (!x->applies[t])
				x->d[t] = 0;
			x->judged[t] = x->applies[t];
		}
		/* a setting's effect; or, as fast as it goes, the replay's
		 * own: calls that came at their pace wait on the device
		 * when they come back to back */
		if ((moves & FMOVE_LATENCY) || !(speed > 0))
			x->judged[FDT_LATENCY] = 0;
		for (t = 0; t < FDT__NR; t++)
			if (x->judged[t] && x->d[t] > term_max[t]) {
				strbuf_addf(
				    why, "%s%s: their %s differ by %.2f%s",
				    why->len ? ", " : "", class_names[k][0],
				    term_plural[t], x->d[t],
				    t == FDT_GAP || t == FDT_LATENCY
					? " powers of 2"
					: "");
				out->poor = 1;
			}
	}
	for (k = 0; k < 2 * FDC__NR; k++) {
		free(sides[k].ts);
		free(sides[k].dur);
	}
	free(sides);
}
