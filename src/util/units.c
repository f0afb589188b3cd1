/*
 * Units: the numbers people type for sizes, durations, counts and
 * percentages, read exactly (their spelling for people is units_fmt.c).
 *
 * Every parser here has the same shape: trim surrounding whitespace, read
 * a decimal number by hand (no strtod, so no locale, hex, "inf" or "nan"
 * surprises), allow blanks before a unit, look the unit up in a small
 * table, then scale with integer arithmetic so "1.5M" is exactly 1572864
 * and "1.3k" is refused rather than rounded. Errors are one sentence that
 * quotes what the user typed, says what was wrong and shows what would be
 * right, because a mistyped size is the most common usage error a
 * benchmark tool sees. The notes exist for the classic trap: "2MB" read as
 * decimal, and "4096s" being sectors, not bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "units.h"
#include "error.h"
#include "banned.h"

/* How many characters of a bad input an error message repeats. */
#define QUOTE_MAX_CHARS 64

/* Largest power of ten that fits in a uint64_t. */
#define MAX_POW10 19

/* A decimal number as typed: "1.50" is mant 15 with frac_digits 1. */
struct decnum {
	uint64_t ipart;	      /* integer part */
	uint64_t mant;	      /* all digits, trailing fraction zeros dropped */
	unsigned frac_digits; /* how many of mant's digits follow the dot */
	bool ipart_overflow;  /* the integer part alone exceeds UINT64_MAX */
	bool mant_overflow;   /* mant or 10^frac_digits does not fit */
	const char *text;     /* the number as typed, for notes */
	size_t text_len;      /* its length in bytes */
};

/* What went wrong while splitting an input into number and unit. */
enum lex_problem {
	LEX_OK,
	LEX_EMPTY,	/* nothing but whitespace */
	LEX_NEGATIVE,	/* starts with '-' and a digit */
	LEX_NO_NUMBER,	/* does not start with a digit: "k", "+4k", "abc" */
	LEX_BAD_NUMBER, /* "1.", "1.2.3M", "1.k" */
	LEX_BAD_UNIT,	/* a suffix that is not in the table: "4kk" */
};

/* What a unit means to the size parser. */
enum unit_kind {
	UNIT_PLAIN,   /* bytes, a binary prefix, a duration, a multiplier */
	UNIT_DECIMAL, /* an SI prefix with "B": deserves a note */
	UNIT_SECTOR,  /* 512-byte sectors: only with UNITS_SECTORS */
};

/* One spelling of a unit; names are matched case-insensitively. */
struct unit {
	const char *name;    /* lowercase spelling, "" for none */
	uint64_t mult;	     /* what one of it is worth in the base unit */
	enum unit_kind kind; /* how the size parser treats it */
	uint64_t bin_mult;   /* UNIT_DECIMAL: the binary prefix it resembles */
	const char *prefix;  /* UNIT_DECIMAL: that prefix, for the hint */
};

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)
#define TIB (UINT64_C(1) << 40)
#define PIB (UINT64_C(1) << 50)

/* Size units. Binary unless spelled with an SI prefix and "B". */
static const struct unit size_units[] = {
    {"", 1, UNIT_PLAIN, 0, NULL},
    {"b", 1, UNIT_PLAIN, 0, NULL},
    {"k", KIB, UNIT_PLAIN, 0, NULL},
    {"ki", KIB, UNIT_PLAIN, 0, NULL},
    {"kib", KIB, UNIT_PLAIN, 0, NULL},
    {"kb", UINT64_C(1000), UNIT_DECIMAL, KIB, "K"},
    {"m", MIB, UNIT_PLAIN, 0, NULL},
    {"mi", MIB, UNIT_PLAIN, 0, NULL},
    {"mib", MIB, UNIT_PLAIN, 0, NULL},
    {"mb", UINT64_C(1000000), UNIT_DECIMAL, MIB, "M"},
    {"g", GIB, UNIT_PLAIN, 0, NULL},
    {"gi", GIB, UNIT_PLAIN, 0, NULL},
    {"gib", GIB, UNIT_PLAIN, 0, NULL},
    {"gb", UINT64_C(1000000000), UNIT_DECIMAL, GIB, "G"},
    {"t", TIB, UNIT_PLAIN, 0, NULL},
    {"ti", TIB, UNIT_PLAIN, 0, NULL},
    {"tib", TIB, UNIT_PLAIN, 0, NULL},
    {"tb", UINT64_C(1000000000000), UNIT_DECIMAL, TIB, "T"},
    {"p", PIB, UNIT_PLAIN, 0, NULL},
    {"pi", PIB, UNIT_PLAIN, 0, NULL},
    {"pib", PIB, UNIT_PLAIN, 0, NULL},
    {"pb", UINT64_C(1000000000000000), UNIT_DECIMAL, PIB, "P"},
    {"s", 512, UNIT_SECTOR, 0, NULL},
};

/* Duration units, in nanoseconds. A bare number is seconds. */
static const struct unit duration_units[] = {
    {"", UINT64_C(1000000000), UNIT_PLAIN, 0, NULL},
    {"ns", 1, UNIT_PLAIN, 0, NULL},
    {"us", UINT64_C(1000), UNIT_PLAIN, 0, NULL},
    {"\xc2\xb5s", UINT64_C(1000), UNIT_PLAIN, 0, NULL}, /* "µs" */
    {"ms", UINT64_C(1000000), UNIT_PLAIN, 0, NULL},
    {"s", UINT64_C(1000000000), UNIT_PLAIN, 0, NULL},
    {"m", UINT64_C(60000000000), UNIT_PLAIN, 0, NULL},
    {"h", UINT64_C(3600000000000), UNIT_PLAIN, 0, NULL},
};

/* Count multipliers: decimal, since these count things, not bytes. */
static const struct unit count_units[] = {
    {"", 1, UNIT_PLAIN, 0, NULL},
    {"k", UINT64_C(1000), UNIT_PLAIN, 0, NULL},
    {"m", UINT64_C(1000000), UNIT_PLAIN, 0, NULL},
    {"g", UINT64_C(1000000000), UNIT_PLAIN, 0, NULL},
};

/* Percentages: the sign is optional, the value is percent either way. */
static const struct unit percent_units[] = {
    {"", 1, UNIT_PLAIN, 0, NULL},
    {"%", 1, UNIT_PLAIN, 0, NULL},
};

#define SIZE_EXPECT "expected a number with an optional unit (4k, 2MiB, 1G)"
#define DURATION_EXPECT                                                        \
	"expected a number with an optional unit (500ms, 10s, 2m; "            \
	"ns us ms s m h)"
#define COUNT_EXPECT                                                           \
	"expected a whole number with an optional k, m or g multiplier "       \
	"(1000, 200k, 1.5m)"
#define PERCENT_EXPECT "expected a percentage such as 2%, 0.5% or 2"

/* The whitespace we trim: ASCII only, whatever the locale says. */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

/* An ASCII digit, independent of locale. */
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ASCII lowercase of c; other bytes (UTF-8 included) are left alone. */
static char to_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/*
 * Append s to sb the way error messages quote user input: inside single
 * quotes, control bytes, quotes and backslashes escaped so a message can
 * never move the cursor or break its own quoting, and cut after
 * QUOTE_MAX_CHARS characters of output (escapes count in full, a UTF-8
 * sequence is never split) with "..." so a pasted novel stays short.
 */
static void add_quoted(struct strbuf *sb, const char *s)
{
	size_t i, start;

	strbuf_addch(sb, '\'');
	start = sb->len;
	for (i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		/* room to finish a UTF-8 sequence: 3 continuation bytes */
		size_t room =
		    (c & 0xc0) == 0x80 ? QUOTE_MAX_CHARS + 3 : QUOTE_MAX_CHARS;

		if (sb->len - start >= room) {
			strbuf_addstr(sb, "...");
			break;
		}
		if (c == '\n')
			strbuf_addstr(sb, "\\n");
		else if (c == '\t')
			strbuf_addstr(sb, "\\t");
		else if (c == '\'' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, '\'');
}

/*
 * Set err to "invalid WHAT 'IN': " followed by the formatted reason and
 * return code. err may be NULL.
 */
static int fail(struct strbuf *err, int code, const char *what, const char *in,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail(struct strbuf *err, int code, const char *what, const char *in,
		const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	strbuf_reset(err);
	strbuf_addf(err, "invalid %s ", what);
	add_quoted(err, in);
	strbuf_addstr(err, ": ");
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return code;
}

/*
 * Read "digits[.digits]" at *pp into d and advance *pp past it. Returns
 * LEX_OK, or LEX_BAD_NUMBER for a dot without digits after it. The caller
 * has checked that **pp is a digit. Trailing zeros after the dot are not
 * counted, so "1.50" and "1.5" scale identically.
 */
static enum lex_problem read_number(const char **pp, const char *end,
				    struct decnum *d)
{
	const char *p = *pp, *frac, *frac_end;
	unsigned digit;

	memset(d, 0, sizeof(*d));
	d->text = p;
	for (; p < end && is_digit(*p); p++) {
		digit = (unsigned)(*p - '0');
		if (d->ipart > (UINT64_MAX - digit) / 10)
			d->ipart_overflow = true;
		else
			d->ipart = d->ipart * 10 + digit;
	}
	d->mant = d->ipart;
	d->mant_overflow = d->ipart_overflow;
	if (p < end && *p == '.') {
		p++;
		if (p == end || !is_digit(*p))
			return LEX_BAD_NUMBER;
		frac = p;
		while (p < end && is_digit(*p))
			p++;
		frac_end = p;
		while (frac_end > frac && frac_end[-1] == '0')
			frac_end--;
		for (; frac < frac_end && !d->mant_overflow; frac++) {
			digit = (unsigned)(*frac - '0');
			if (d->mant > (UINT64_MAX - digit) / 10 ||
			    d->frac_digits == MAX_POW10)
				d->mant_overflow = true;
			else
				d->mant = d->mant * 10 + digit;
			d->frac_digits++;
		}
	}
	d->text_len = (size_t)(p - d->text);
	*pp = p;
	return LEX_OK;
}

/*
 * Split in into a number and a unit from table[]. Surrounding whitespace
 * is ignored, and so are blanks between the number and the unit ("4 KiB",
 * which is how units_fmt_bytes() writes it). On LEX_OK, *out_unit is the
 * matched entry. On LEX_BAD_UNIT, *out_bad and *out_bad_len give the
 * suffix that matched nothing.
 */
static enum lex_problem lex(const char *in, const struct unit *table,
			    size_t nr_units, struct decnum *d,
			    const struct unit **out_unit, const char **out_bad,
			    size_t *out_bad_len)
{
	const char *p = in, *end = in + strlen(in);
	enum lex_problem prob;
	size_t i, ulen;

	while (p < end && is_blank(*p))
		p++;
	while (end > p && is_blank(end[-1]))
		end--;
	if (p == end)
		return LEX_EMPTY;
	if (*p == '-' && end - p > 1 && (is_digit(p[1]) || p[1] == '.'))
		return LEX_NEGATIVE;
	if (!is_digit(*p))
		return LEX_NO_NUMBER;
	prob = read_number(&p, end, d);
	if (prob != LEX_OK)
		return prob;
	if (p < end && (*p == '.' || *p == ','))
		return LEX_BAD_NUMBER;
	while (p < end && is_blank(*p))
		p++;
	ulen = (size_t)(end - p);
	for (i = 0; i < nr_units; i++) {
		const char *name = table[i].name;
		size_t j;

		if (strlen(name) != ulen)
			continue;
		for (j = 0; j < ulen; j++)
			if (to_lower(p[j]) != name[j])
				break;
		if (j == ulen) {
			*out_unit = &table[i];
			return LEX_OK;
		}
	}
	*out_bad = p;
	*out_bad_len = ulen;
	return LEX_BAD_UNIT;
}

/* Greatest common divisor, for reducing mult / 10^k before dividing. */
static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * d times mult, exactly, into *out. Returns 0; -ERANGE when the result
 * does not fit in 64 bits; -EINVAL when it is not a whole number; -E2BIG
 * when the number has more significant digits than we can scale exactly
 * (the callers word that as "too many decimal places").
 */
static int scale(const struct decnum *d, uint64_t mult, uint64_t *out)
{
	uint64_t den = 1, g, q;
	unsigned i;

	if (d->ipart_overflow)
		return -ERANGE;
	if (d->mant_overflow) {
		if (d->ipart && __builtin_mul_overflow(d->ipart, mult, &q))
			return -ERANGE;
		return -E2BIG;
	}
	for (i = 0; i < d->frac_digits; i++)
		den *= 10;
	/* mult / den in lowest terms: then den must divide mant exactly */
	g = gcd64(mult, den);
	mult /= g;
	den /= g;
	if (d->mant % den)
		return -EINVAL;
	if (__builtin_mul_overflow(d->mant / den, mult, &q))
		return -ERANGE;
	*out = q;
	return 0;
}

/* Append the number as typed, e.g. "1.5" of "1.5MB", to sb. */
static void add_number_text(struct strbuf *sb, const struct decnum *d)
{
	strbuf_add(sb, d->text, d->text_len);
}

/* Start a note: separate it from whatever note already holds. */
static void note_begin(struct strbuf *note)
{
	if (note->len)
		strbuf_addstr(note, "; ");
}

/*
 * The note for a decimal size: what it was read as, and how to write the
 * binary size the user most likely meant.
 */
static void note_decimal(struct strbuf *note, const char *in,
			 const struct decnum *d, const struct unit *u,
			 uint64_t bytes)
{
	uint64_t bin;

	note_begin(note);
	add_quoted(note, in);
	strbuf_addf(note,
		    " is decimal: %" PRIu64 " bytes; for binary units"
		    " write '",
		    bytes);
	add_number_text(note, d);
	strbuf_addf(note, "%s' or '", u->prefix);
	add_number_text(note, d);
	strbuf_addf(note, "%siB'", u->prefix);
	if (!scale(d, u->bin_mult, &bin))
		strbuf_addf(note, " (%" PRIu64 " bytes)", bin);
}

/* The note for a sector count: how many bytes it came to. */
static void note_sectors(struct strbuf *note, const char *in,
			 const struct decnum *d, uint64_t bytes)
{
	note_begin(note);
	add_quoted(note, in);
	strbuf_addstr(note, " is ");
	add_number_text(note, d);
	strbuf_addf(note, " sectors of 512 bytes = %" PRIu64 " bytes (", bytes);
	units_fmt_bytes(note, bytes);
	strbuf_addch(note, ')');
}

/*
 * Append bytes the shortest way units_parse_size() reads back exactly:
 * "2M" for 2097152, "1536" when no binary suffix divides it.
 */
static void add_size_spelling(struct strbuf *sb, uint64_t bytes)
{
	static const char suffix[] = "KMGTP";
	int i;

	for (i = 4; i >= 0; i--)
		if (!(bytes & ((KIB << (10 * i)) - 1)))
			break;
	if (i < 0)
		strbuf_addf(sb, "%" PRIu64, bytes);
	else
		strbuf_addf(sb, "%" PRIu64 "%c", bytes >> (10 * (i + 1)),
			    suffix[i]);
}

/*
 * Turn a lexing problem into the shared part of an error: the reason,
 * followed by what the parser expects. Returns -EINVAL.
 */
static int lex_fail(struct strbuf *err, enum lex_problem prob, const char *what,
		    const char *in, const char *bad, size_t bad_len,
		    const char *expect)
{
	switch (prob) {
	case LEX_NEGATIVE:
		return fail(err, -EINVAL, what, in, "cannot be negative; %s",
			    expect);
	case LEX_NO_NUMBER:
		return fail(err, -EINVAL, what, in,
			    "does not start with a number; %s", expect);
	case LEX_BAD_NUMBER:
		return fail(err, -EINVAL, what, in, "malformed number; %s",
			    expect);
	case LEX_BAD_UNIT: {
		struct strbuf unit = STRBUF_INIT;
		int ret;

		if (!err)
			return -EINVAL;
		/* quote through a scratch buffer: bad is not NUL-terminated */
		strbuf_add(&unit, bad, bad_len);
		ret = fail(err, -EINVAL, what, in, "unknown unit ");
		add_quoted(err, unit.buf);
		strbuf_addf(err, "; %s", expect);
		strbuf_release(&unit);
		return ret;
	}
	case LEX_EMPTY:
	case LEX_OK:
	default:
		return fail(err, -EINVAL, what, in, "%s", expect);
	}
}

/* Sizes in bytes; the spellings and rules are in units.h. */
int units_parse_size(const char *in, unsigned flags, uint64_t *out_bytes,
		     struct strbuf *note, struct strbuf *err)
{
	const struct unit *u = NULL;
	const char *bad = NULL;
	size_t bad_len = 0;
	struct decnum d;
	enum lex_problem prob;
	uint64_t bytes = 0;
	int ret;

	prob = lex(in, size_units, sizeof(size_units) / sizeof(size_units[0]),
		   &d, &u, &bad, &bad_len);
	if (prob != LEX_OK)
		return lex_fail(err, prob, "size", in, bad, bad_len,
				SIZE_EXPECT);
	ret = scale(&d, u->mult, &bytes);
	if (u->kind == UNIT_SECTOR && !(flags & UNITS_SECTORS)) {
		if (err) {
			fail(err, -EINVAL, "size", in,
			     "a count of 512-byte sectors is not accepted "
			     "here; write the size with a byte unit instead");
			if (!ret && bytes) {
				strbuf_addstr(err, ", e.g. '");
				add_size_spelling(err, bytes);
				strbuf_addch(err, '\'');
			} else {
				strbuf_addstr(err, " (4k, 2MiB, 1G)");
			}
		}
		return -EINVAL;
	}
	switch (ret) {
	case 0:
		break;
	case -ERANGE:
		return fail(err, -ERANGE, "size", in,
			    "too large; the largest size is %" PRIu64
			    " bytes (16384 PiB minus one byte)",
			    UINT64_MAX);
	case -E2BIG:
		return fail(err, -EINVAL, "size", in,
			    "too many decimal places; %s", SIZE_EXPECT);
	default:
		return fail(err, -EINVAL, "size", in,
			    "not a whole number of bytes; use a whole byte "
			    "count or fewer decimal places (1.5M, 1536k)");
	}
	if (!bytes && !(flags & UNITS_ZERO_OK))
		return fail(err, -EINVAL, "size", in,
			    "must be greater than zero (4k, 2MiB, 1G)");
	if (note && u->kind == UNIT_DECIMAL)
		note_decimal(note, in, &d, u, bytes);
	if (note && u->kind == UNIT_SECTOR)
		note_sectors(note, in, &d, bytes);
	*out_bytes = bytes;
	return 0;
}

/* Durations in ns: a bare number is seconds. */
int units_parse_duration(const char *in, uint64_t *out_ns, struct strbuf *err)
{
	const struct unit *u = NULL;
	const char *bad = NULL;
	size_t bad_len = 0;
	struct decnum d;
	enum lex_problem prob;
	uint64_t ns = 0;

	prob = lex(in, duration_units,
		   sizeof(duration_units) / sizeof(duration_units[0]), &d, &u,
		   &bad, &bad_len);
	if (prob != LEX_OK)
		return lex_fail(err, prob, "duration", in, bad, bad_len,
				DURATION_EXPECT);
	switch (scale(&d, u->mult, &ns)) {
	case 0:
		break;
	case -ERANGE:
		return fail(err, -ERANGE, "duration", in,
			    "too long; the longest duration is %" PRIu64
			    " ns (about 584 years)",
			    UINT64_MAX);
	case -E2BIG:
		return fail(err, -EINVAL, "duration", in,
			    "too many decimal places; %s", DURATION_EXPECT);
	default:
		return fail(err, -EINVAL, "duration", in,
			    "finer than a nanosecond; use fewer decimal "
			    "places (1.5s, 250us, 10ns)");
	}
	*out_ns = ns;
	return 0;
}

/* Counts: an integer times an optional decimal k, m or g. */
int units_parse_count(const char *in, uint64_t *out, struct strbuf *err)
{
	const struct unit *u = NULL;
	const char *bad = NULL;
	size_t bad_len = 0;
	struct decnum d;
	enum lex_problem prob;
	uint64_t n = 0;

	prob =
	    lex(in, count_units, sizeof(count_units) / sizeof(count_units[0]),
		&d, &u, &bad, &bad_len);
	if (prob != LEX_OK)
		return lex_fail(err, prob, "count", in, bad, bad_len,
				COUNT_EXPECT);
	switch (scale(&d, u->mult, &n)) {
	case 0:
		break;
	case -ERANGE:
		return fail(err, -ERANGE, "count", in,
			    "too large; the largest count is %" PRIu64,
			    UINT64_MAX);
	case -E2BIG:
		return fail(err, -EINVAL, "count", in,
			    "too many decimal places; %s", COUNT_EXPECT);
	default:
		return fail(err, -EINVAL, "count", in, "not a whole number; %s",
			    COUNT_EXPECT);
	}
	*out = n;
	return 0;
}

/* Percentages: "2%" and "2" are both 0.02. */
int units_parse_percent(const char *in, double *out_frac, struct strbuf *err)
{
	const struct unit *u = NULL;
	const char *bad = NULL;
	size_t bad_len = 0;
	struct decnum d;
	enum lex_problem prob;
	double den = 100.0;
	unsigned i;

	prob = lex(in, percent_units,
		   sizeof(percent_units) / sizeof(percent_units[0]), &d, &u,
		   &bad, &bad_len);
	if (prob != LEX_OK)
		return lex_fail(err, prob, "percentage", in, bad, bad_len,
				PERCENT_EXPECT);
	if (d.ipart_overflow)
		return fail(err, -ERANGE, "percentage", in, "too large; %s",
			    PERCENT_EXPECT);
	if (d.mant_overflow)
		return fail(err, -EINVAL, "percentage", in,
			    "too many digits; %s", PERCENT_EXPECT);
	/*
	 * 10^(frac_digits + 2) <= 10^21 is an exact double, and so is mant
	 * below 2^53: one correctly rounded division then makes "2%" the
	 * double nearest 0.02, the same as the literal.
	 */
	for (i = 0; i < d.frac_digits; i++)
		den *= 10.0;
	*out_frac = (double)d.mant / den;
	return 0;
}
