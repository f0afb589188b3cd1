/*
 * The one clock every measurement uses: CLOCK_MONOTONIC in nanoseconds.
 * vDSO-backed, so about 20 ns a call; still, hot loops take one reading
 * per batch of completions, not one per I/O.
 */
#ifndef IOTRIAL_CLOCK_H
#define IOTRIAL_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
