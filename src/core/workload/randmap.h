/*
 * A random walk over blocks 0..blocks-1 that visits each block exactly
 * once per pass, in an order that looks random: what fio does by
 * default for random I/O (its "random map"), without a bitmap. A
 * full-period LCG modulo 2^bits (odd increment, multiplier 1 mod 4)
 * steps through every value once per period; a bijection of bits-bit
 * values (xorshift, odd multiply, xorshift) hides its regular low bits;
 * values past the last block are skipped, fewer than half of them since
 * 2^bits < 2 x blocks. One walk per job; nothing is shared.
 */
#ifndef IOTRIAL_RANDMAP_H
#define IOTRIAL_RANDMAP_H

#include <stdint.h>

struct randmap {
	uint64_t blocks; /* the walk covers 0..blocks-1 */
	uint64_t state;	 /* the LCG's position */
	uint64_t inc;	 /* its increment, odd */
	uint64_t mask;	 /* 2^bits - 1 */
	unsigned bits;
};

/* Start a walk over blocks (> 0) from two random words. */
static inline void randmap_init(struct randmap *m, uint64_t blocks, uint64_t r1,
				uint64_t r2)
{
	m->blocks = blocks;
	m->bits = 0;
	while (m->bits < 64 && (1ull << m->bits) < blocks)
		m->bits++;
	m->mask = m->bits == 64 ? UINT64_MAX : (1ull << m->bits) - 1;
	m->inc = (r1 | 1) & m->mask;
	m->state = r2 & m->mask;
}

/* The next block of the walk. */
static inline uint64_t randmap_next(struct randmap *m)
{
	unsigned h = m->bits > 1 ? m->bits / 2 : 1;
	uint64_t x;

	do {
		m->state =
		    (m->state * 6364136223846793005ull + m->inc) & m->mask;
		x = m->state;
		x ^= x >> h;
		x = (x * 0x9e3779b97f4a7c15ull) & m->mask;
		x ^= x >> h;
	} while (x >= m->blocks);
	return x;
}

#endif
