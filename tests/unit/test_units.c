/*
 * Tests for util/units: every spelling users type for sizes, durations,
 * counts and percentages, as tables of inputs and expected results, so a
 * new case is one line. Errors are checked for their code and for the
 * shape of the message (quoted input, lowercase), notes for their text.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "util/units.h"
#include "util/banned.h"

/* A value no parser produces from the inputs below: "untouched". */
#define SENTINEL UINT64_C(0x5eed5eed5eed5eed)

/* One size input and what units_parse_size() must make of it. */
struct size_case {
	const char *in;
	unsigned flags;
	int ret;	  /* 0, -EINVAL or -ERANGE */
	uint64_t bytes;	  /* when ret is 0 */
	const char *note; /* substring the note must hold; NULL: no note */
};

static const struct size_case size_cases[] = {
    /* binary by default */
    {"4k", 0, 0, 4096, NULL},
    {"4K", 0, 0, 4096, NULL},
    {"4KiB", 0, 0, 4096, NULL},
    {"4kib", 0, 0, 4096, NULL},
    {"4Ki", 0, 0, 4096, NULL},
    {"2M", 0, 0, 2097152, NULL},
    {"2m", 0, 0, 2097152, NULL},
    {"2MiB", 0, 0, 2097152, NULL},
    {"1G", 0, 0, UINT64_C(1) << 30, NULL},
    {"1g", 0, 0, UINT64_C(1) << 30, NULL},
    {"1GiB", 0, 0, UINT64_C(1) << 30, NULL},
    {"1T", 0, 0, UINT64_C(1) << 40, NULL},
    {"1TiB", 0, 0, UINT64_C(1) << 40, NULL},
    {"1P", 0, 0, UINT64_C(1) << 50, NULL},
    {"16383P", 0, 0, UINT64_C(16383) << 50, NULL},
    /* bare numbers and "B" are bytes */
    {"512", 0, 0, 512, NULL},
    {"1", 0, 0, 1, NULL},
    {"512B", 0, 0, 512, NULL},
    {"512b", 0, 0, 512, NULL},
    {"007k", 0, 0, 7168, NULL},
    {"18446744073709551615", 0, 0, UINT64_MAX, NULL},
    /* decimals, when the result is whole */
    {"1.5M", 0, 0, 1572864, NULL},
    {"1.50M", 0, 0, 1572864, NULL},
    {"0.5k", 0, 0, 512, NULL},
    {"1.25G", 0, 0, UINT64_C(1342177280), NULL},
    {"1.000000000000000000000000000k", 0, 0, 1024, NULL},
    {"0.0009765625k", 0, 0, 1, NULL},
    /* whitespace around the input and before the unit */
    {" 4k ", 0, 0, 4096, NULL},
    {"\t16k\n", 0, 0, 16384, NULL},
    {"4 KiB", 0, 0, 4096, NULL},
    /* decimal only with an SI prefix and "B", with a note */
    {"2MB", 0, 0, 2000000, "decimal"},
    {"2mb", 0, 0, 2000000, "decimal"},
    {"2kB", 0, 0, 2000, "decimal"},
    {"1GB", 0, 0, UINT64_C(1000000000), "decimal"},
    {"1TB", 0, 0, UINT64_C(1000000000000), "decimal"},
    {"1PB", 0, 0, UINT64_C(1000000000000000), "decimal"},
    {"1.5MB", 0, 0, 1500000, "(1572864 bytes)"},
    /* sectors only where allowed */
    {"4096s", UNITS_SECTORS, 0, 2097152, "sectors of 512 bytes"},
    {"4096S", UNITS_SECTORS, 0, 2097152, "sectors of 512 bytes"},
    {"8s", UNITS_SECTORS, 0, 4096, "= 4096 bytes"},
    {"0.5s", UNITS_SECTORS, 0, 256, "sectors"},
    /* zero only where allowed */
    {"0", UNITS_ZERO_OK, 0, 0, NULL},
    {"0k", UNITS_ZERO_OK, 0, 0, NULL},
    {"0s", UNITS_ZERO_OK | UNITS_SECTORS, 0, 0, "sectors"},

    /* malformed */
    {"4kk", 0, -EINVAL, 0, NULL},
    {"-1M", 0, -EINVAL, 0, NULL},
    {"-0", 0, -EINVAL, 0, NULL},
    {"", 0, -EINVAL, 0, NULL},
    {"   ", 0, -EINVAL, 0, NULL},
    {"k", 0, -EINVAL, 0, NULL},
    {"M4", 0, -EINVAL, 0, NULL},
    {"1.2.3M", 0, -EINVAL, 0, NULL},
    {"1.", 0, -EINVAL, 0, NULL},
    {"1.k", 0, -EINVAL, 0, NULL},
    {".5M", 0, -EINVAL, 0, NULL},
    {"1,5M", 0, -EINVAL, 0, NULL},
    {"+4k", 0, -EINVAL, 0, NULL},
    {"0x1000", 0, -EINVAL, 0, NULL},
    {"4e3", 0, -EINVAL, 0, NULL},
    {"1E", 0, -EINVAL, 0, NULL},
    {"4k4", 0, -EINVAL, 0, NULL},
    {"4 k b", 0, -EINVAL, 0, NULL},
    {"4KiBs", 0, -EINVAL, 0, NULL},
    {"inf", 0, -EINVAL, 0, NULL},
    {"nan", 0, -EINVAL, 0, NULL},
    {"4\x01k", 0, -EINVAL, 0, NULL},
    /* not a whole number of bytes */
    {"1.3k", 0, -EINVAL, 0, NULL},
    {"1.5", 0, -EINVAL, 0, NULL},
    {"1.5b", 0, -EINVAL, 0, NULL},
    {"0.00000000000000000000001k", 0, -EINVAL, 0, NULL},
    /* zero and sectors where not allowed */
    {"0", 0, -EINVAL, 0, NULL},
    {"0k", 0, -EINVAL, 0, NULL},
    {"0.0M", 0, -EINVAL, 0, NULL},
    {"4096s", 0, -EINVAL, 0, NULL},
    {"0s", UNITS_SECTORS, -EINVAL, 0, NULL},
    /* too large for 64 bits */
    {"18446744073709551616", 0, -ERANGE, 0, NULL},
    {"99999999999999999999999k", 0, -ERANGE, 0, NULL},
    {"16384P", 0, -ERANGE, 0, NULL},
    {"18446744073709551615k", 0, -ERANGE, 0, NULL},
    {"20000PB", 0, -ERANGE, 0, NULL},
    {"36028797018963968s", UNITS_SECTORS, -ERANGE, 0, NULL},
};

/* Every error message starts like this and quotes the input. */
static void check_error_shape(const char *what, const char *in,
			      const struct strbuf *err)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "invalid %s '", what);
	if (strncmp(err->buf, prefix, strlen(prefix)))
		fail_msg("'%s': message does not start with \"%s\": %s", in,
			 prefix, err->buf);
	if (strlen(in) < 20 && !strchr(in, '\x01') && !strchr(in, '\t') &&
	    !strchr(in, '\n') && !strstr(err->buf, in))
		fail_msg("'%s': message does not quote the input: %s", in,
			 err->buf);
	if (err->len && err->buf[err->len - 1] == '.')
		fail_msg("'%s': message ends with a period: %s", in, err->buf);
}

/* Run the size table. */
static void test_size_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		const struct size_case *c = &size_cases[i];
		struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
		uint64_t bytes = SENTINEL;
		int ret;

		ret = units_parse_size(c->in, c->flags, &bytes, &note, &err);
		if (ret != c->ret)
			fail_msg(
			    "size '%s' flags %u: returned %d, want %d (%s)",
			    c->in, c->flags, ret, c->ret, err.buf);
		if (!ret && bytes != c->bytes)
			fail_msg("size '%s': %" PRIu64 " bytes, want %" PRIu64,
				 c->in, bytes, c->bytes);
		if (ret && bytes != SENTINEL)
			fail_msg("size '%s': output changed on error", c->in);
		if (!ret && err.len)
			fail_msg("size '%s': err set on success", c->in);
		if (ret)
			check_error_shape("size", c->in, &err);
		if (!ret && c->note && !strstr(note.buf, c->note))
			fail_msg("size '%s': note \"%s\" lacks \"%s\"", c->in,
				 note.buf, c->note);
		if (!c->note && note.len)
			fail_msg("size '%s': unexpected note \"%s\"", c->in,
				 note.buf);
		strbuf_release(&note);
		strbuf_release(&err);
	}
}

/* The messages a malformed size gets, word for word. */
static void test_size_messages(void **state)
{
	struct strbuf err = STRBUF_INIT;
	uint64_t bytes;

	(void)state;
	assert_int_equal(units_parse_size("4kk", 0, &bytes, NULL, &err),
			 -EINVAL);
	assert_string_equal(err.buf,
			    "invalid size '4kk': unknown unit 'kk'; expected "
			    "a number with an optional unit (4k, 2MiB, 1G)");
	assert_int_equal(units_parse_size("", 0, &bytes, NULL, &err), -EINVAL);
	assert_string_equal(err.buf, "invalid size '': expected a number with "
				     "an optional unit (4k, 2MiB, 1G)");
	assert_int_equal(units_parse_size("-1M", 0, &bytes, NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "cannot be negative"));
	assert_int_equal(units_parse_size("1.2.3M", 0, &bytes, NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "malformed number"));
	assert_int_equal(units_parse_size("0", 0, &bytes, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "greater than zero"));
	assert_int_equal(units_parse_size("1.3k", 0, &bytes, NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "not a whole number of bytes"));
	assert_int_equal(units_parse_size("16384P", 0, &bytes, NULL, &err),
			 -ERANGE);
	assert_non_null(strstr(err.buf, "too large"));
	assert_non_null(strstr(err.buf, "18446744073709551615"));
	/* sectors where bytes are wanted: say so and spell the bytes */
	assert_int_equal(units_parse_size("4096s", 0, &bytes, NULL, &err),
			 -EINVAL);
	assert_string_equal(err.buf,
			    "invalid size '4096s': a count of 512-byte "
			    "sectors is not accepted here; write the size "
			    "with a byte unit instead, e.g. '2M'");
	assert_int_equal(units_parse_size("3s", 0, &bytes, NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "e.g. '1536'"));
	/* control bytes are escaped, long input cut short */
	assert_int_equal(units_parse_size("4\x1b[31m", 0, &bytes, NULL, &err),
			 -EINVAL);
	assert_null(strchr(err.buf, '\x1b'));
	assert_non_null(strstr(err.buf, "'4\\x1b[31m'"));
	assert_int_equal(units_parse_size("1111111111111111111111111111111111"
					  "1111111111111111111111111111111111"
					  "1111111111111111111111111111111111",
					  0, &bytes, NULL, &err),
			 -ERANGE);
	assert_non_null(strstr(err.buf, "...'"));
	assert_true(err.len < 200);
	strbuf_release(&err);
}

/* The notes for decimal units and sectors, word for word. */
static void test_size_notes(void **state)
{
	struct strbuf note = STRBUF_INIT;
	uint64_t bytes = 0;

	(void)state;
	assert_int_equal(units_parse_size("2MB", 0, &bytes, &note, NULL), 0);
	assert_int_equal(bytes, 2000000);
	assert_string_equal(note.buf,
			    "'2MB' is decimal: 2000000 bytes; for binary "
			    "units write '2M' or '2MiB' (2097152 bytes)");
	strbuf_reset(&note);
	assert_int_equal(units_parse_size("2kB", 0, &bytes, &note, NULL), 0);
	assert_string_equal(note.buf,
			    "'2kB' is decimal: 2000 bytes; for binary units "
			    "write '2K' or '2KiB' (2048 bytes)");
	strbuf_reset(&note);
	/* 1.1 MiB is not whole: no byte count for the binary spelling */
	assert_int_equal(units_parse_size("1.1MB", 0, &bytes, &note, NULL), 0);
	assert_string_equal(note.buf,
			    "'1.1MB' is decimal: 1100000 bytes; for binary "
			    "units write '1.1M' or '1.1MiB'");
	strbuf_reset(&note);
	assert_int_equal(
	    units_parse_size("4096s", UNITS_SECTORS, &bytes, &note, NULL), 0);
	assert_int_equal(bytes, 2097152);
	assert_string_equal(note.buf, "'4096s' is 4096 sectors of 512 bytes "
				      "= 2097152 bytes (2 MiB)");
	/* a second note is appended after "; " */
	assert_int_equal(units_parse_size("1GB", 0, &bytes, &note, NULL), 0);
	assert_non_null(strstr(note.buf, "(2 MiB); '1GB' is decimal"));
	/* binary input: no note, and note may be NULL */
	strbuf_reset(&note);
	assert_int_equal(units_parse_size("2M", 0, &bytes, &note, NULL), 0);
	assert_int_equal(note.len, 0);
	assert_int_equal(units_parse_size("2MB", 0, &bytes, NULL, NULL), 0);
	assert_int_equal(bytes, 2000000);
	strbuf_release(&note);
}

/* One input for the duration, count or percent parsers. */
struct u64_case {
	const char *in;
	int ret;
	uint64_t want;
};

static const struct u64_case duration_cases[] = {
    {"500ms", 0, UINT64_C(500000000)},
    {"10s", 0, UINT64_C(10000000000)},
    {"2m", 0, UINT64_C(120000000000)},
    {"1h", 0, UINT64_C(3600000000000)},
    {"1.5h", 0, UINT64_C(5400000000000)},
    {"30", 0, UINT64_C(30000000000)},
    {"0.5", 0, UINT64_C(500000000)},
    {"1.5s", 0, UINT64_C(1500000000)},
    {"1.5ms", 0, UINT64_C(1500000)},
    {"250us", 0, UINT64_C(250000)},
    {"250\xc2\xb5s", 0, UINT64_C(250000)},
    {"100ns", 0, 100},
    {"0.000000001", 0, 1},
    {"0", 0, 0},
    {"10S", 0, UINT64_C(10000000000)},
    {"500MS", 0, UINT64_C(500000000)},
    {" 10 s ", 0, UINT64_C(10000000000)},
    {"5124095h", 0, UINT64_C(18446742000000000000)},
    {"18446744073709551615ns", 0, UINT64_MAX},
    {"", -EINVAL, 0},
    {"-1s", -EINVAL, 0},
    {"s", -EINVAL, 0},
    {"10x", -EINVAL, 0},
    {"10 sec", -EINVAL, 0},
    {"1d", -EINVAL, 0},
    {"1e3", -EINVAL, 0},
    {"inf", -EINVAL, 0},
    {"1.2.3s", -EINVAL, 0},
    {"1.5ns", -EINVAL, 0},
    {"0.0000000001", -EINVAL, 0},
    {"10ss", -EINVAL, 0},
    {"5124096h", -ERANGE, 0},
    {"18446744073709551616ns", -ERANGE, 0},
    {"99999999999999999999", -ERANGE, 0},
};

static const struct u64_case count_cases[] = {
    {"200k", 0, 200000},
    {"200K", 0, 200000},
    {"1000", 0, 1000},
    {"1.5m", 0, 1500000},
    {"2g", 0, UINT64_C(2000000000)},
    {"2G", 0, UINT64_C(2000000000)},
    {"0", 0, 0},
    {" 42 ", 0, 42},
    {"18446744073709551615", 0, UINT64_MAX},
    {"18446744073.709551615g", 0, UINT64_MAX},
    {"", -EINVAL, 0},
    {"-5", -EINVAL, 0},
    {"1.5", -EINVAL, 0},
    {"1.2345k", -EINVAL, 0},
    {"200kk", -EINVAL, 0},
    {"200KiB", -EINVAL, 0},
    {"1e6", -EINVAL, 0},
    {"1,000", -EINVAL, 0},
    {"k", -EINVAL, 0},
    {"18446744073709551616", -ERANGE, 0},
    {"20000000000g", -ERANGE, 0},
};

/* Run one of the uint64 tables against parse. */
static void
run_u64_table(const char *what, const struct u64_case *cases, size_t nr,
	      int (*parse)(const char *, uint64_t *, struct strbuf *))
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct u64_case *c = &cases[i];
		struct strbuf err = STRBUF_INIT;
		uint64_t v = SENTINEL;
		int ret = parse(c->in, &v, &err);

		if (ret != c->ret)
			fail_msg("%s '%s': returned %d, want %d (%s)", what,
				 c->in, ret, c->ret, err.buf);
		if (!ret && v != c->want)
			fail_msg("%s '%s': got %" PRIu64 ", want %" PRIu64,
				 what, c->in, v, c->want);
		if (ret && v != SENTINEL)
			fail_msg("%s '%s': output changed on error", what,
				 c->in);
		if (ret)
			check_error_shape(what, c->in, &err);
		strbuf_release(&err);
	}
}

/* Run the duration table. */
static void test_duration_table(void **state)
{
	(void)state;
	run_u64_table("duration", duration_cases,
		      sizeof(duration_cases) / sizeof(duration_cases[0]),
		      units_parse_duration);
}

/* Run the count table. */
static void test_count_table(void **state)
{
	(void)state;
	run_u64_table("count", count_cases,
		      sizeof(count_cases) / sizeof(count_cases[0]),
		      units_parse_count);
}

/* One percentage input: the fraction it means. */
struct pct_case {
	const char *in;
	int ret;
	double frac;
};

static const struct pct_case pct_cases[] = {
    {"2%", 0, 0.02},
    {"2", 0, 0.02},
    {"0.5%", 0, 0.005},
    {"0.5", 0, 0.005},
    {"0", 0, 0.0},
    {"0%", 0, 0.0},
    {"100%", 0, 1.0},
    {"150%", 0, 1.5},
    {"12.5 %", 0, 0.125},
    {" 5% ", 0, 0.05},
    {"0.001%", 0, 0.00001},
    {"", -EINVAL, 0},
    {"%", -EINVAL, 0},
    {"-2%", -EINVAL, 0},
    {"abc", -EINVAL, 0},
    {"2%%", -EINVAL, 0},
    {"2.%", -EINVAL, 0},
    {"1e2%", -EINVAL, 0},
    {"2 percent", -EINVAL, 0},
    {"nan", -EINVAL, 0},
    {"99999999999999999999%", -ERANGE, 0},
};

/* Run the percentage table; fractions are the doubles nearest the literal. */
static void test_percent_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pct_cases) / sizeof(pct_cases[0]); i++) {
		const struct pct_case *c = &pct_cases[i];
		struct strbuf err = STRBUF_INIT;
		double v = -1.0;
		int ret = units_parse_percent(c->in, &v, &err);

		if (ret != c->ret)
			fail_msg("percent '%s': returned %d, want %d (%s)",
				 c->in, ret, c->ret, err.buf);
		if (!ret && fabs(v - c->frac) > 1e-15)
			fail_msg("percent '%s': got %.17g, want %.17g", c->in,
				 v, c->frac);
		if (ret && v != -1.0)
			fail_msg("percent '%s': output changed on error",
				 c->in);
		if (ret)
			check_error_shape("percentage", c->in, &err);
		strbuf_release(&err);
	}
}

/* A NULL err is allowed everywhere and changes nothing but the message. */
static void test_null_err(void **state)
{
	uint64_t v;
	double d;

	(void)state;
	assert_int_equal(units_parse_size("4kk", 0, &v, NULL, NULL), -EINVAL);
	assert_int_equal(units_parse_size("4096s", 0, &v, NULL, NULL), -EINVAL);
	assert_int_equal(units_parse_size("99999P", 0, &v, NULL, NULL),
			 -ERANGE);
	assert_int_equal(units_parse_duration("x", &v, NULL), -EINVAL);
	assert_int_equal(units_parse_count("1.5", &v, NULL), -EINVAL);
	assert_int_equal(units_parse_percent("-1", &d, NULL), -EINVAL);
}

/* One formatting expectation. */
struct fmt_bytes_case {
	uint64_t bytes;
	const char *want;
};

/* units_fmt_bytes(): exact where exact, three digits otherwise. */
static void test_fmt_bytes(void **state)
{
	static const struct fmt_bytes_case cases[] = {
	    {0, "0 B"},
	    {1, "1 B"},
	    {512, "512 B"},
	    {1000, "1000 B"},
	    {1023, "1023 B"},
	    {1024, "1 KiB"},
	    {1536, "1.5 KiB"},
	    {4096, "4 KiB"},
	    {5000, "4.88 KiB"},
	    {1000000, "977 KiB"},
	    {1048575, "1 MiB"},
	    {1572864, "1.5 MiB"},
	    {UINT64_C(123456789), "118 MiB"},
	    {UINT64_C(1) << 30, "1 GiB"},
	    {UINT64_C(10) << 40, "10 TiB"},
	    {UINT64_C(3) << 50, "3 PiB"},
	    {UINT64_MAX, "16384 PiB"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		units_fmt_bytes(&sb, cases[i].bytes);
		if (strcmp(sb.buf, cases[i].want))
			fail_msg("fmt_bytes(%" PRIu64 ") = \"%s\", want \"%s\"",
				 cases[i].bytes, sb.buf, cases[i].want);
		strbuf_release(&sb);
	}
}

/* Exact multiples read back to the same number of bytes. */
static void test_fmt_bytes_round_trip(void **state)
{
	unsigned shift, m;

	(void)state;
	for (shift = 0; shift < 62; shift++) {
		for (m = 1; m <= 7; m += 2) {
			uint64_t bytes = (uint64_t)m << shift, back = 0;
			struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;

			if (bytes >> shift != m)
				continue;
			units_fmt_bytes(&sb, bytes);
			if (units_parse_size(sb.buf, 0, &back, NULL, &err) ||
			    back != bytes)
				fail_msg("'%s' reads back as %" PRIu64
					 ", not %" PRIu64 " (%s)",
					 sb.buf, back, bytes, err.buf);
			strbuf_release(&sb);
			strbuf_release(&err);
		}
	}
}

/* One duration formatting expectation. */
struct fmt_ns_case {
	double ns;
	const char *want;
};

/* units_fmt_ns(): the unit that keeps three digits readable. */
/* A duration to type: rounded up to a whole unit, read back to at
 * least what it stands for. */
static void test_fmt_duration_arg(void **state)
{
	static const struct {
		double s;
		const char *want;
	} cases[] = {
	    {0.2, "1s"},  {44.2, "45s"}, {90, "90s"},  {90.5, "2m"},
	    {600, "10m"}, {5400, "90m"}, {5401, "2h"}, {86400, "24h"},
	};
	struct strbuf sb = STRBUF_INIT;
	uint64_t ns;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		units_fmt_duration_arg(&sb, cases[i].s);
		assert_string_equal(sb.buf, cases[i].want);
		assert_int_equal(units_parse_duration(sb.buf, &ns, NULL), 0);
		assert_true((double)ns / 1e9 >= cases[i].s);
	}
	strbuf_release(&sb);
}

static void test_fmt_ns(void **state)
{
	static const struct fmt_ns_case cases[] = {
	    {0, "0 ns"},	{1.5, "1.5 ns"},      {850, "850 ns"},
	    {999, "999 ns"},	{999.7, "1 us"},      {1000, "1 us"},
	    {12300, "12.3 us"}, {4560000, "4.56 ms"}, {2.1e9, "2.1 s"},
	    {59.99e9, "60 s"},	{3.6e12, "3600 s"},   {-1500, "-1.5 us"},
	    {NAN, "nan"},	{INFINITY, "inf s"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		units_fmt_ns(&sb, cases[i].ns);
		if (strcmp(sb.buf, cases[i].want))
			fail_msg("fmt_ns(%g) = \"%s\", want \"%s\"",
				 cases[i].ns, sb.buf, cases[i].want);
		strbuf_release(&sb);
	}
}

/* Formatting appends; it does not replace. */
static void test_fmt_appends(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_addstr(&sb, "bs=");
	units_fmt_bytes(&sb, 4096);
	strbuf_addstr(&sb, ", lat=");
	units_fmt_ns(&sb, 250000);
	assert_string_equal(sb.buf, "bs=4 KiB, lat=250 us");
	strbuf_release(&sb);
}

/* Run the units tests; cmocka prints one line per test. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_table),
	    cmocka_unit_test(test_size_messages),
	    cmocka_unit_test(test_size_notes),
	    cmocka_unit_test(test_duration_table),
	    cmocka_unit_test(test_count_table),
	    cmocka_unit_test(test_percent_table),
	    cmocka_unit_test(test_null_err),
	    cmocka_unit_test(test_fmt_bytes),
	    cmocka_unit_test(test_fmt_bytes_round_trip),
	    cmocka_unit_test(test_fmt_duration_arg),
	    cmocka_unit_test(test_fmt_ns),
	    cmocka_unit_test(test_fmt_appends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
