/*
 * A reader for fio-style job files. Job files are short and written by
 * hand, often on another machine, so the parser is forgiving about
 * layout (CRLF line endings, a UTF-8 byte order mark, blanks around keys,
 * values and brackets) and strict about what cannot be meant: a NUL
 * byte, a "[" without "]", a key with no name. Each of those stops the
 * parse with "line N: ..." so the user can go straight to the mistake.
 *
 * The parser holds no state between calls and keeps no copy of the file:
 * it walks the buffer line by line and hands each key to the caller with
 * NUL-terminated copies in two scratch strbufs, so the caller never sees
 * a pointer into buf and buf needs no terminator.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "ini.h"
#include "error.h"
#include "banned.h"

/* How many characters of a bad line an error message repeats. */
#define QUOTE_MAX_CHARS 40

/* Whitespace around keys, values and section names; '\r' covers CRLF. */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Narrow [*start, *end) so it neither begins nor ends with a blank. */
static void trim(const char **start, const char **end)
{
	while (*start < *end && is_blank(**start))
		(*start)++;
	while (*end > *start && is_blank((*end)[-1]))
		(*end)--;
}

/*
 * Append [s, end) to sb in single quotes, control bytes, quotes and
 * backslashes escaped, cut with "..." after QUOTE_MAX_CHARS characters
 * of output (never inside a UTF-8 sequence).
 */
static void add_quoted(struct strbuf *sb, const char *s, const char *end)
{
	size_t i, n = (size_t)(end - s), start;

	strbuf_addch(sb, '\'');
	start = sb->len;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		/* room to finish a UTF-8 sequence: 3 continuation bytes */
		size_t room =
		    (c & 0xc0) == 0x80 ? QUOTE_MAX_CHARS + 3 : QUOTE_MAX_CHARS;

		if (sb->len - start >= room) {
			strbuf_addstr(sb, "...");
			break;
		}
		if (c == '\'' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, '\'');
}

/*
 * Read the section header in [p, end), which starts with '[', into
 * section. Text after ']' may only be blanks or a comment. Returns 0 or
 * -EINVAL with err set to "line N: ...".
 */
static int parse_section(const char *p, const char *end, unsigned line,
			 struct strbuf *section, struct strbuf *err)
{
	const char *name = p + 1, *close, *rest;

	close = memchr(name, ']', (size_t)(end - name));
	if (!close) {
		if (err) {
			err_set(err, -EINVAL,
				"line %u: unterminated section header ", line);
			add_quoted(err, p, end);
			strbuf_addstr(err, "; expected '[name]'");
		}
		return -EINVAL;
	}
	rest = close + 1;
	while (rest < end && is_blank(*rest))
		rest++;
	if (rest < end && *rest != '#' && *rest != ';') {
		if (err) {
			err_set(err, -EINVAL, "line %u: unexpected ", line);
			add_quoted(err, rest, end);
			strbuf_addstr(err, " after section header; expected "
					   "'[name]' alone on its line");
		}
		return -EINVAL;
	}
	trim(&name, &close);
	if (name == close)
		return err_set(err, -EINVAL,
			       "line %u: empty section name; expected '[name]'",
			       line);
	strbuf_reset(section);
	strbuf_add(section, name, (size_t)(close - name));
	return 0;
}

/*
 * Hand the "key=value" or bare "key" in [p, end) to cb. Returns 0, the
 * callback's code, or -EINVAL with err set for an empty key.
 */
static int parse_key(const char *p, const char *end, unsigned line,
		     const struct strbuf *section, struct strbuf *key,
		     struct strbuf *value, ini_cb cb, void *ctx,
		     struct strbuf *err)
{
	const char *eq = memchr(p, '=', (size_t)(end - p));
	const char *key_end = eq ? eq : end;
	const char *val = NULL, *val_end = NULL;

	trim(&p, &key_end);
	if (p == key_end)
		return err_set(err, -EINVAL,
			       "line %u: empty key before '='; expected "
			       "'key=value' or 'key'",
			       line);
	strbuf_reset(key);
	strbuf_add(key, p, (size_t)(key_end - p));
	if (!eq)
		return cb(section->buf, key->buf, NULL, line, ctx);
	val = eq + 1;
	val_end = end;
	trim(&val, &val_end);
	strbuf_reset(value);
	strbuf_add(value, val, (size_t)(val_end - val));
	return cb(section->buf, key->buf, value->buf, line, ctx);
}

/* Walk buf line by line; see ini.h for what is accepted. */
int ini_parse(const char *buf, size_t len, ini_cb cb, void *ctx,
	      struct strbuf *err)
{
	struct strbuf section = STRBUF_INIT, key = STRBUF_INIT;
	struct strbuf value = STRBUF_INIT;
	const char *p = buf, *end = buf + len;
	unsigned line = 0;
	int ret = 0;

	if (!len) /* buf may then be NULL: no pointer arithmetic on it */
		return 0;
	/* a UTF-8 byte order mark, as some editors write, is not content */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *s = p, *e = eol;

		line++;
		p = nl ? nl + 1 : end;
		if (memchr(s, '\0', (size_t)(e - s))) {
			ret = err_set(err, -EINVAL,
				      "line %u: NUL byte; a job file is text",
				      line);
			goto out;
		}
		trim(&s, &e);
		if (s == e || *s == '#' || *s == ';')
			continue;
		if (*s == '[')
			ret = parse_section(s, e, line, &section, err);
		else
			ret = parse_key(s, e, line, &section, &key, &value, cb,
					ctx, err);
		if (ret)
			goto out;
	}
out:
	strbuf_release(&section);
	strbuf_release(&key);
	strbuf_release(&value);
	return ret;
}
