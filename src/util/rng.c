/*
 * The random numbers behind offsets and run order. xoshiro256** is small
 * (four words of state), fast (a handful of shifts and one multiply) and
 * statistically sound for simulation; seeding through splitmix64 spreads
 * even neighbouring seeds (1, 2, 3) over the whole state, so a seed typed
 * by a person is as good as one from the clock. Everything is a pure
 * function of the seed, so a printed seed repeats an experiment.
 */
#include "rng.h"
#include "banned.h"
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/* Rotate x left by k bits; k is in 1..63. */
static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/*
 * One step of splitmix64: advance *state by the golden-ratio increment
 * and return a well-mixed function of it. Different states give
 * different outputs, so four steps never give the all-zero state that
 * xoshiro must avoid.
 */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Fill the state with four splitmix64 outputs of seed. */
void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

/* One xoshiro256** step: scramble s[1] for output, then mix the state. */
uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* The full 128-bit product a * b as *hi:*lo. */
static inline void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 p = (unsigned __int128)a * b;

	*hi = (uint64_t)(p >> 64);
	*lo = (uint64_t)p;
#else
	/* schoolbook on 32-bit halves, for targets without __int128 */
	uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
	uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
	uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi;
	uint64_t hl = a_hi * b_lo, hh = a_hi * b_hi;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	*lo = (mid << 32) | (ll & 0xffffffffu);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/*
 * Lemire's multiply-and-reject: the high word of x * bound is uniform in
 * [0, bound) once the few x whose low word falls below 2^64 mod bound are
 * rejected. The division that computes that threshold only runs when the
 * low word is small, which for realistic bounds is almost never.
 */
uint64_t rng_below(struct rng *r, uint64_t bound)
{
	uint64_t hi, lo, threshold;

	if (!bound)
		return 0;
	mul_64x64(rng_next(r), bound, &hi, &lo);
	if (lo < bound) {
		threshold = (0 - bound) % bound; /* 2^64 mod bound */
		while (lo < threshold)
			mul_64x64(rng_next(r), bound, &hi, &lo);
	}
	return hi;
}

/* The top 53 bits as a fraction: uniform, and never 1.0. */
double rng_double(struct rng *r)
{
	/* 53 bits fill a double's mantissa exactly; 0x1p-53 scales to [0,1) */
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* Mix wall clock, monotonic clock and pid into one seed. */
uint64_t rng_seed_from_env(void)
{
	struct timespec wall = {0, 0}, mono = {0, 0};
	uint64_t wall_ns, mono_ns, mix;

	/* neither call can fail with these clocks; zeros would still work */
	clock_gettime(CLOCK_REALTIME, &wall);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	wall_ns = (uint64_t)wall.tv_sec * UINT64_C(1000000000) +
		  (uint64_t)wall.tv_nsec;
	mono_ns = (uint64_t)mono.tv_sec * UINT64_C(1000000000) +
		  (uint64_t)mono.tv_nsec;
	/* wall time differs between runs, the pid between concurrent ones */
	mix = wall_ns ^ rotl(mono_ns, 21) ^ ((uint64_t)getpid() << 40);
	/* splitmix64 is a bijection: distinct inputs, distinct seeds */
	return splitmix64(&mix);
}
