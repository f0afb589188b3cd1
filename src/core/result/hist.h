/*
 * Log-linear latency histogram, mergeable across threads and runs.
 *
 * Values (nanoseconds) below 2^HIST_SUB_BITS land in exact unit buckets;
 * above, each power-of-two range is split into 2^HIST_SUB_BITS linear
 * buckets, so a bucket is never wider than 1/128 of its lower bound and
 * the midpoint we report is within 0.4% of any value in it
 * (tests/unit/test_hist.c checks it). Recording is a couple of shifts
 * and an increment; merging is adding arrays, so per-thread histograms
 * need no locks.
 */
#ifndef IOTRIAL_HIST_H
#define IOTRIAL_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS  7 /* 128 linear buckets per octave */
#define HIST_SUB_COUNT (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS  44 /* values up to ~4.9 hours in ns */
#define HIST_BUCKETS   ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB_COUNT)

struct hist {
	uint64_t count;		  /* values recorded */
	uint64_t min_ns;	  /* exact smallest value; UINT64_MAX if none */
	uint64_t max_ns;	  /* exact largest value */
	unsigned __int128 sum_ns; /* for the mean; exact (a long double
				     sum cost 5 ns per record: its x87
				     add is a store-forwarding chain) */
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct hist *h);
/* Record one value; values past the top bucket are clamped into it but
 * max_ns stays exact. */
void hist_record(struct hist *h, uint64_t ns);
/* dst += src. */
void hist_merge(struct hist *dst, const struct hist *src);
/*
 * The value at quantile q in [0, 1] (0.5 for p50, 0.999 for p99.9): the
 * midpoint of the bucket holding the ceil(q * count)-th smallest value,
 * clamped to [min_ns, max_ns]. 0 when empty.
 */
uint64_t hist_quantile(const struct hist *h, double q);
double hist_mean(const struct hist *h);

/* Bucket index of a value and the [low, high] range of a bucket; exposed
 * for tests. */
unsigned hist_bucket_of(uint64_t ns);
void hist_bucket_range(unsigned idx, uint64_t *out_low, uint64_t *out_high);

#endif
