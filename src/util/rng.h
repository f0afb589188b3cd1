/*
 * A seeded, fast, reproducible PRNG (xoshiro256** seeded by splitmix64).
 * Offsets for random I/O and the order of experiment runs come from it, so
 * a printed seed repeats an experiment exactly. Not for cryptography.
 * A struct rng has no locking: give each thread its own (seeding one per
 * thread with seed + thread index is fine; splitmix64 decorrelates them).
 */
#ifndef IOTRIAL_RNG_H
#define IOTRIAL_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4]; /* xoshiro256** state; never all zero once seeded */
};

/* Start r from seed; every seed, 0 included, gives a good stream. */
void rng_seed(struct rng *r, uint64_t seed);
/* The next 64 uniformly distributed bits. */
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound) without modulo bias; bound 0 returns 0. */
uint64_t rng_below(struct rng *r, uint64_t bound);
/* Uniform double in [0, 1): a multiple of 2^-53, never 1.0. */
double rng_double(struct rng *r);
/*
 * A seed from the clock and pid, for when the user gives none, different
 * on (almost) every call; print it so the run can be repeated with it.
 */
uint64_t rng_seed_from_env(void);

#endif
