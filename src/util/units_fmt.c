/*
 * Units for people: bytes in binary units, durations in ns to s, each to
 * three significant digits, and a duration as an option's argument. The
 * parsers that read what people type are units.c.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include "units.h"
#include "banned.h"

/*
 * Append v rounded to three significant digits, without trailing zeros
 * ("1.5", "12.3", "850", "2"), then a space and unit.
 */
static void add_sig3(struct strbuf *sb, double v, const char *unit)
{
	char num[64];
	int decimals = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
	int n = snprintf(num, sizeof(num), "%.*f", decimals, v);

	if (n < 0 || (size_t)n >= sizeof(num)) {
		strbuf_addf(sb, "%g %s", v, unit);
		return;
	}
	if (decimals) {
		while (n > 0 && num[n - 1] == '0')
			n--;
		if (n > 0 && num[n - 1] == '.')
			n--;
	}
	strbuf_add(sb, num, (size_t)n);
	strbuf_addf(sb, " %s", unit);
}

/* Binary units for humans, exact when the value is a whole multiple. */
void units_fmt_bytes(struct strbuf *sb, uint64_t bytes)
{
	/* no EiB: units_parse_size() does not read it ("1e" looks like 1e9) */
	static const char *const names[] = {"B",   "KiB", "MiB",
					    "GiB", "TiB", "PiB"};
	unsigned i = 0;
	double v;

	while (i < 5 && (bytes >> (10 * (i + 1))))
		i++;
	if (!(bytes & ((UINT64_C(1) << (10 * i)) - 1))) {
		strbuf_addf(sb, "%" PRIu64 " %s", bytes >> (10 * i), names[i]);
		return;
	}
	v = (double)bytes / (double)(UINT64_C(1) << (10 * i));
	if (v >= 1023.5 && i < 5) {
		i++;
		v /= 1024.0;
	}
	add_sig3(sb, v, names[i]);
}

/* A duration as an option's argument, rounded up: "30s", "5m", "2h". */
void units_fmt_duration_arg(struct strbuf *sb, double s)
{
	if (s <= 90)
		strbuf_addf(sb, "%.0fs", ceil(s));
	else if (s <= 90 * 60)
		strbuf_addf(sb, "%.0fm", ceil(s / 60));
	else
		strbuf_addf(sb, "%.0fh", ceil(s / 3600));
}

/* ns, us, ms or s for humans; signs, NaN and infinities too. */
void units_fmt_ns(struct strbuf *sb, double ns)
{
	static const char *const names[] = {"ns", "us", "ms", "s"};
	static const double scales[] = {1.0, 1e3, 1e6, 1e9};
	unsigned i = 0;
	double v;

	if (isnan(ns)) {
		strbuf_addstr(sb, "nan");
		return;
	}
	if (ns < 0) {
		strbuf_addch(sb, '-');
		ns = -ns;
	}
	if (isinf(ns)) {
		strbuf_addstr(sb, "inf s");
		return;
	}
	while (i < 3 && ns >= scales[i + 1])
		i++;
	v = ns / scales[i];
	if (v >= 999.5 && i < 3) {
		i++;
		v = ns / scales[i];
	}
	add_sig3(sb, v, names[i]);
}
