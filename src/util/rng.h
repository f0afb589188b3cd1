/*
 * A seeded, fast, reproducible PRNG (xoshiro256** seeded by splitmix64).
 * Offsets for random I/O and the order of experiment runs come from it, so
 * a printed seed repeats an experiment exactly. Not for cryptography.
 */
#ifndef IOTRIAL_RNG_H
#define IOTRIAL_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound) without modulo bias; bound 0 returns 0. */
uint64_t rng_below(struct rng *r, uint64_t bound);
/* Uniform double in [0, 1). */
double rng_double(struct rng *r);
/* A seed from the clock and pid, for when the user gives none. */
uint64_t rng_seed_from_env(void);

#endif
