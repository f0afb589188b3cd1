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
 *
 * Rules shared by every parser below:
 * - Units are case-insensitive ("4K", "500MS"). Whitespace around the input
 *   is ignored, and so are blanks between number and unit ("4 KiB", as
 *   units_fmt_bytes() writes it). Anything else is an error: no sign,
 *   no hex, no exponent, no thousands separator.
 * - A number is digits with an optional fraction ("1.5M"; not ".5M" or
 *   "1."). The result is computed exactly and must be whole: "1.5M" is
 *   1572864, "1.3k" (1331.2 bytes) and "1.5ns" are errors, never rounded.
 * - Errors return -EINVAL (malformed, negative, not whole, not allowed
 *   here) or -ERANGE (does not fit in 64 bits), and set err (may be NULL)
 *   to one lowercase sentence quoting the input, saying what was wrong
 *   and what would be right, e.g. "invalid size '4kk': unknown unit 'kk';
 *   expected a number with an optional unit (4k, 2MiB, 1G)". On error the
 *   output is left untouched. Nothing is reported through errno.
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
 * decimal unit ("2MB": its byte count and the binary spelling "2M"/"2MiB")
 * or sectors ("4096s": its byte count), appends one explanatory sentence
 * to note (may be NULL; "; " separates it from text already there). On
 * failure returns -EINVAL or -ERANGE with err set to a sentence naming the
 * input and what would be right.
 */
int units_parse_size(const char *in, unsigned flags, uint64_t *out_bytes,
		     struct strbuf *note, struct strbuf *err);

/*
 * Parse a duration into nanoseconds ("500ms", "10s", "2m", "1h", "30",
 * "1.5s", "250us" or "250µs"). 0 is accepted: callers that need a positive
 * duration check for it. The longest is UINT64_MAX ns (about 584 years).
 */
int units_parse_duration(const char *in, uint64_t *out_ns, struct strbuf *err);

/* Parse a plain non-negative integer with an optional k/m/g multiplier
 * (decimal: 200k = 200000, 1.5m = 1500000), for counts such as --ios.
 * 0 is accepted. */
int units_parse_count(const char *in, uint64_t *out, struct strbuf *err);

/*
 * Parse a percentage "2%", "2", "0.5%" into a fraction (0.02, 0.02, 0.005).
 * A bare number is percent too, so "0.02" is 0.0002. No upper bound is
 * enforced: callers check the range that makes sense to them.
 */
int units_parse_percent(const char *in, double *out_frac, struct strbuf *err);

/*
 * Append a human size: "4 KiB", "1.5 MiB", "512 B". Exact multiples are
 * written exactly, and read back by units_parse_size() to the same value;
 * others to three significant digits. The largest unit is PiB.
 */
void units_fmt_bytes(struct strbuf *sb, uint64_t bytes);
/*
 * Append s seconds as one types a duration option, rounded up to a whole
 * unit: "45s" up to 90 s, "4m" up to 90 minutes, "2h" beyond; what a
 * message suggests for --budget or --time reads back with
 * units_parse_duration() to at least s.
 */
void units_fmt_duration_arg(struct strbuf *sb, double s);
/* Append a human duration from ns: "850 ns", "12.3 us", "4.56 ms", "2.1 s".
 * Three significant digits; seconds is the largest unit ("3600 s"). */
void units_fmt_ns(struct strbuf *sb, double ns);

#endif
