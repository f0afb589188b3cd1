/*
 * Units: sizes, sector counts and durations as people type them.
 *
 * Binary suffixes are the default because that is what storage people mean
 * by "4k": 4k 4K 4KiB 4kib -> 4096; k/m/g/t/p with or without "iB".
 * Decimal is only chosen by an explicit "B" after an SI prefix: 2MB is
 * 2,000,000 bytes, and a note says so, since that is the unit mix-up our
 * users trip over. A bare number is bytes. "4096s" counts 512-byte
 * sectors (what blockdev --setra takes) and is only accepted where the
 * caller passes UNITS_SECTORS. Durations: ns us ms s m h, a bare number
 * is seconds.
 */
#ifndef IOTRIAL_UNITS_H
#define IOTRIAL_UNITS_H

#include <stdint.h>
#include "strbuf.h"

enum units_flags {
	UNITS_SECTORS = 1 << 0, /* accept "Ns" as N 512-byte sectors */
	UNITS_ZERO_OK = 1 << 1, /* accept 0 (sizes are > 0 otherwise) */
};

/*
 * Parse a size into bytes. On success returns 0 and, when the input used a
 * decimal unit or sectors, appends an explanatory sentence to note (may be
 * NULL). On failure returns -EINVAL or -ERANGE with err set to a sentence
 * naming the input and what would be right.
 */
int units_parse_size(const char *in, unsigned flags, uint64_t *out_bytes,
		     struct strbuf *note, struct strbuf *err);

/* Parse a duration into nanoseconds ("500ms", "10s", "2m", "1h", "30"). */
int units_parse_duration(const char *in, uint64_t *out_ns,
			 struct strbuf *err);

/* Parse a plain non-negative integer with an optional k/m/g multiplier
 * (decimal: 200k = 200000), for counts such as --ios. */
int units_parse_count(const char *in, uint64_t *out, struct strbuf *err);

/* Parse a percentage "2%", "2", "0.5%" into a fraction (0.02). */
int units_parse_percent(const char *in, double *out_frac, struct strbuf *err);

/* Append a human size: "4 KiB", "1.5 MiB", "512 B". */
void units_fmt_bytes(struct strbuf *sb, uint64_t bytes);
/* Append a human duration from ns: "850 ns", "12.3 us", "4.56 ms", "2.1 s". */
void units_fmt_ns(struct strbuf *sb, double ns);

#endif
