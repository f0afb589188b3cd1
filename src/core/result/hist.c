/*
 * Log-linear latency histogram.
 *
 * Why: a run completes millions of I/Os and we want p50..p99.9 and max
 * without keeping every latency. Storing counts in buckets whose width
 * grows with the value bounds the relative error of any quantile, costs a
 * fixed 38 KiB per histogram, and makes merging per-thread histograms a
 * plain array addition.
 *
 * How: a value below 128 is its own bucket. A larger value v whose top set
 * bit is b (7 <= b <= 43) lies in the octave [2^b, 2^(b+1)); that octave is
 * cut into 128 equal buckets of width 2^(b-7), and the 7 bits below the top
 * bit pick one. So bucket = (b - 6) * 128 + (those 7 bits). Because the top
 * bit is always set, (v >> (b - 7)) is already 128 + sub, which gives the
 * branch-light form (b - 7) * 128 + (v >> (b - 7)) used below. Values of
 * 2^44 and more go into the last bucket; min_ns and max_ns stay exact.
 */
#include <math.h>
#include <string.h>
#include "hist.h"
#include "../../util/banned.h"

/* Index of the last bucket, where values past the range are clamped. */
#define HIST_LAST (HIST_BUCKETS - 1)

/* Set every bucket to zero and min/max to their "nothing yet" values. */
void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

/*
 * Bucket of ns; see the top of the file. No loop: one count-leading-zeros
 * and two shifts.
 */
unsigned hist_bucket_of(uint64_t ns)
{
	unsigned msb;

	if (ns < HIST_SUB_COUNT)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	if (msb >= HIST_MAX_BITS)
		return HIST_LAST;
	return ((msb - HIST_SUB_BITS) << HIST_SUB_BITS) +
	       (unsigned)(ns >> (msb - HIST_SUB_BITS));
}

/*
 * The nominal [low, high] range of bucket idx (both inclusive). The last
 * bucket's nominal high is 2^HIST_MAX_BITS - 1 even though larger values
 * are clamped into it. An idx past the end is treated as the last bucket.
 */
void hist_bucket_range(unsigned idx, uint64_t *out_low, uint64_t *out_high)
{
	unsigned group, shift;
	uint64_t sub;

	if (idx > HIST_LAST)
		idx = HIST_LAST;
	if (idx < HIST_SUB_COUNT) {
		*out_low = *out_high = idx;
		return;
	}
	group = idx >> HIST_SUB_BITS; /* 1.. : octave 2^(group + 6) */
	sub = idx & (HIST_SUB_COUNT - 1);
	shift = group - 1; /* log2 of the bucket width */
	*out_low = (HIST_SUB_COUNT + sub) << shift;
	*out_high = *out_low + ((uint64_t)1 << shift) - 1;
}

/* Count one value: a bucket increment plus the exact min, max and sum. */
void hist_record(struct hist *h, uint64_t ns)
{
	h->buckets[hist_bucket_of(ns)]++;
	h->count++;
	h->sum_ns += ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

/* Add src into dst bucket by bucket; src may be empty. */
void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (!src->count)
		return;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/*
 * 1-based rank of the value at quantile q among count values: the nearest
 * rank ceil(q * count), at least 1. The product is taken in long double
 * and nudged down by a relative 1e-12 so that q = 0.999, which is a hair
 * below 0.999 in binary, still maps 1000 values to rank 999 rather than
 * to a rank pushed up by a rounding error elsewhere.
 */
static uint64_t hist_rank(uint64_t count, double q)
{
	long double x;
	uint64_t rank;

	if (!(q > 0.0)) /* also catches NaN */
		return 1;
	if (q >= 1.0)
		return count;
	x = (long double)q * (long double)count;
	x -= x * 1e-12L;
	rank = (uint64_t)ceill(x);
	if (rank < 1)
		rank = 1;
	if (rank > count)
		rank = count;
	return rank;
}

/*
 * Walk the buckets until ceil(q * count) values are covered and report
 * that bucket's midpoint clamped to the exact [min_ns, max_ns]: so q = 0
 * and q = 1 give the exact min and max. 0 for an empty histogram.
 */
uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, low, high, mid;
	unsigned i;

	if (!h->count)
		return 0;
	if (!(q > 0.0))
		return h->min_ns;
	if (q >= 1.0)
		return h->max_ns;
	rank = hist_rank(h->count, q);
	for (i = 0; i < HIST_LAST; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	hist_bucket_range(i, &low, &high);
	mid = low + (high - low) / 2;
	if (mid < h->min_ns)
		mid = h->min_ns;
	if (mid > h->max_ns)
		mid = h->max_ns;
	return mid;
}

/*
 * Arithmetic mean of the recorded values; 0 when empty. The integer
 * quotient is exact; the remainder adds the fraction.
 */
double hist_mean(const struct hist *h)
{
	unsigned __int128 q, r;

	if (!h->count)
		return 0.0;
	q = h->sum_ns / h->count;
	r = h->sum_ns % h->count;
	return (double)((long double)q +
			(long double)(uint64_t)r / (long double)h->count);
}
