/*
 * Printable text (text.h). UTF-8 is checked by hand, as RFC 3629
 * defines it: no overlong forms, no surrogates, nothing past U+10FFFF.
 * A byte that cannot start or continue a character counts as one bad
 * character on its own, so one stray byte never swallows good text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text.h"
#include "xalloc.h"
#include "banned.h"

/* Is c a UTF-8 continuation byte (10xxxxxx)? */
static int is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * The length of the well-formed UTF-8 character at s (2..4), or 0 when
 * s does not start one. *cp gets the code point.
 */
static size_t utf8_len(const unsigned char *s, unsigned *cp)
{
	static const unsigned min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
	size_t n, i;
	unsigned v;

	if (s[0] >= 0xc0 && s[0] < 0xe0) {
		n = 2;
		v = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] < 0xf0) {
		n = 3;
		v = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] < 0xf5) {
		n = 4;
		v = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if (!is_cont(s[i])) /* also stops at the NUL */
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min_cp[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

size_t text_utf8_char(const char *s, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;

	if (!*u)
		return 0;
	if (*u < 0x80) {
		*cp = *u;
		return 1;
	}
	return utf8_len(u, cp);
}

/* text_make_printable(), keeping newlines and tabs when lines is set. */
static size_t make_printable(char *s, int lines)
{
	unsigned char *in = (unsigned char *)s, *out = in;
	size_t bad = 0, n;
	unsigned cp;

	while (*in) {
		if (*in < 0x80) {
			if ((*in < 0x20 || *in == 0x7f) &&
			    !(lines && (*in == '\n' || *in == '\t'))) {
				*out++ = '?';
				bad++;
			} else {
				*out++ = *in;
			}
			in++;
			continue;
		}
		n = utf8_len(in, &cp);
		if (!n || cp <= 0x9f) {
			*out++ = '?';
			bad++;
			in += n ? n : 1;
			continue;
		}
		while (n--)
			*out++ = *in++;
	}
	*out = '\0';
	return bad;
}

size_t text_make_printable(char *s)
{
	return make_printable(s, 0);
}

size_t text_make_printable_lines(char *s)
{
	return make_printable(s, 1);
}

size_t text_json_safe(struct strbuf *sb, size_t from)
{
	unsigned char *in, *end;
	char *copy;
	size_t bad = 0, n;
	unsigned cp;

	for (n = from; n < sb->len && (unsigned char)sb->buf[n] < 0x7f; n++)
		;
	if (n >= sb->len)
		return 0; /* ASCII without DEL, as most JSON is */
	from = n;
	copy = xmalloc(sb->len - from + 1);
	memcpy(copy, sb->buf + from, sb->len - from + 1);
	in = (unsigned char *)copy;
	end = in + (sb->len - from);
	strbuf_setlen(sb, from);
	while (in < end) {
		if (*in < 0x80) {
			if (*in == 0x7f) {
				strbuf_addstr(sb, "\\u007f");
				bad++;
			} else {
				strbuf_addch(sb, *in);
			}
			in++;
			continue;
		}
		n = utf8_len(in, &cp);
		if (!n) {
			strbuf_addstr(sb, "\xef\xbf\xbd"); /* U+FFFD */
			bad++;
			in++;
		} else if (cp <= 0x9f) {
			strbuf_addf(sb, "\\u%04x", cp);
			bad++;
			in += n;
		} else {
			strbuf_add(sb, in, n);
			in += n;
		}
	}
	free(copy);
	return bad;
}
