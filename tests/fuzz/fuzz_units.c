/*
 * libFuzzer target for util/units: every parser sees every input, as a
 * NUL-terminated copy. Besides crashes and sanitizer reports it checks
 * the contracts the rest of iotrial relies on: only 0, -EINVAL or -ERANGE
 * come back; an error leaves the output alone and says "invalid ..."
 * without control bytes; flags only ever widen what a size accepts; and
 * a formatted exact size reads back to the same number of bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/units.h"
#include "util/banned.h"

#define SENTINEL UINT64_C(0x5eed5eed5eed5eed)

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* A message or note is one printable line of sensible length. */
static void check_text(const struct strbuf *sb)
{
	size_t i;

	check(strlen(sb->buf) == sb->len);
	check(sb->len < 512);
	for (i = 0; i < sb->len; i++) {
		unsigned char c = (unsigned char)sb->buf[i];

		check(c >= 0x20 && c != 0x7f);
	}
}

/* The shared result contract of the four parsers. */
static void check_result(int ret, int changed, const struct strbuf *err,
			 const char *what)
{
	check(ret == 0 || ret == -EINVAL || ret == -ERANGE);
	if (!ret) {
		check(err->len == 0);
		return;
	}
	check(!changed);
	check(!strncmp(err->buf, "invalid ", 8));
	check(!strncmp(err->buf + 8, what, strlen(what)));
	check_text(err);
}

/* Parse in as a size under flags; return the code, *out the bytes. */
static int size_case(const char *in, unsigned flags, uint64_t *out)
{
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	uint64_t bytes = SENTINEL;
	int ret = units_parse_size(in, flags, &bytes, &note, &err);

	check_result(ret, bytes != SENTINEL, &err, "size");
	check_text(&note);
	if (ret)
		check(note.len == 0);
	if (!ret && !(flags & UNITS_ZERO_OK))
		check(bytes != 0);
	*out = bytes;
	strbuf_release(&note);
	strbuf_release(&err);
	return ret;
}

/* Format bytes; when the value is an exact multiple, it must read back. */
static void fmt_round_trip(uint64_t bytes)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t unit = 1, back = 0;
	unsigned i;

	units_fmt_bytes(&sb, bytes);
	check_text(&sb);
	for (i = 1; i <= 5 && (bytes >> (10 * i)); i++)
		unit <<= 10;
	if (bytes % unit == 0) {
		check(!units_parse_size(sb.buf, UNITS_ZERO_OK, &back, NULL,
					NULL));
		check(back == bytes);
	}
	strbuf_release(&sb);
}

/* A string of 1 to 19 ASCII digits: its value by the textbook method. */
static int plain_integer(const char *s, uint64_t *out)
{
	size_t i, n = strlen(s);
	uint64_t v = 0;

	if (!n || n > 19)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 1;
}

/* libFuzzer's entry point, declared here as no header declares it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One fuzz input: run every parser on it and check the contracts. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1);
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	uint64_t a, b, v = SENTINEL, plain;
	double frac = -1.0, ns;
	int ra, rb, ret;

	if (!in)
		return 0;
	memcpy(in, data, size);
	in[size] = '\0';

	/* sizes: the flags only widen what is accepted, never change it */
	ra = size_case(in, 0, &a);
	rb = size_case(in, UNITS_SECTORS | UNITS_ZERO_OK, &b);
	if (!ra)
		check(!rb && a == b);
	if (!rb)
		fmt_round_trip(b);

	ret = units_parse_duration(in, &v, &err);
	check_result(ret, v != SENTINEL, &err, "duration");

	v = SENTINEL;
	strbuf_reset(&err); /* success leaves err alone: start clean */
	ret = units_parse_count(in, &v, &err);
	check_result(ret, v != SENTINEL, &err, "count");
	if (plain_integer(in, &plain))
		check(!ret && v == plain);

	strbuf_reset(&err);
	ret = units_parse_percent(in, &frac, &err);
	check_result(ret, frac != -1.0, &err, "percentage");
	if (!ret)
		check(isfinite(frac) && frac >= 0.0);

	/* the formatters take any value, NaN and infinities included */
	if (size >= sizeof(uint64_t)) {
		memcpy(&v, data, sizeof(v));
		fmt_round_trip(v);
		memcpy(&ns, data, sizeof(ns));
		units_fmt_ns(&sb, ns);
		check_text(&sb);
	}
	strbuf_release(&sb);
	strbuf_release(&err);
	free(in);
	return 0;
}
