/*
 * Tests for util/ini: what a job file's keys look like to the callback
 * (section, key, value or NULL, line number), the layouts we tolerate
 * (CRLF, BOM, blanks, comments), the lines we refuse with "line N: ...",
 * and that a callback's error stops the parse and comes back unchanged.
 * Inputs are copied into exactly-sized heap buffers without a NUL, so
 * AddressSanitizer catches any read past len.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/ini.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_KEYS 32

/* One callback invocation, copied. */
struct seen_key {
	char section[64];
	char key[64];
	char value[64];
	int has_value; /* 0 for a bare key */
	unsigned line;
};

/* What the recording callback saw, and when it should fail. */
struct recorder {
	struct seen_key keys[MAX_KEYS];
	unsigned nr;
	unsigned fail_at; /* 1-based call that returns fail_code; 0: never */
	int fail_code;
};

/* Callback: copy every key into the recorder, fail on request. */
static int record(const char *section, const char *key, const char *value,
		  unsigned line, void *ctx)
{
	struct recorder *r = ctx;
	struct seen_key *k;

	assert_non_null(section);
	assert_non_null(key);
	assert_true(r->nr < MAX_KEYS);
	k = &r->keys[r->nr++];
	snprintf(k->section, sizeof(k->section), "%s", section);
	snprintf(k->key, sizeof(k->key), "%s", key);
	snprintf(k->value, sizeof(k->value), "%s", value ? value : "");
	k->has_value = value != NULL;
	k->line = line;
	if (r->fail_at && r->nr == r->fail_at)
		return r->fail_code;
	return 0;
}

/* Parse text (len bytes, no terminator kept) into r; return the code. */
static int parse_len(const char *text, size_t len, struct recorder *r,
		     struct strbuf *err)
{
	char *copy = xmalloc(len);
	int ret;

	memcpy(copy, text, len);
	ret = ini_parse(copy, len, record, r, err);
	free(copy);
	return ret;
}

/* parse_len() for a C string. */
static int parse(const char *text, struct recorder *r, struct strbuf *err)
{
	return parse_len(text, strlen(text), r, err);
}

/* Assert that key i was (section, key, value or NULL, line). */
static void expect_key(const struct recorder *r, unsigned i,
		       const char *section, const char *key, const char *value,
		       unsigned line)
{
	const struct seen_key *k;

	assert_true(i < r->nr);
	k = &r->keys[i];
	assert_string_equal(k->section, section);
	assert_string_equal(k->key, key);
	if (value) {
		assert_true(k->has_value);
		assert_string_equal(k->value, value);
	} else {
		assert_false(k->has_value);
	}
	assert_int_equal(k->line, line);
}

/* A typical fio job file: sections, values, a bare flag. */
static void test_sections_and_keys(void **state)
{
	struct recorder r = {0};

	(void)state;
	assert_int_equal(parse("[global]\n"
			       "bs=4k\n"
			       "rw=randread\n"
			       "\n"
			       "[job1]\n"
			       "size=1G\n"
			       "direct\n",
			       &r, NULL),
			 0);
	assert_int_equal(r.nr, 4);
	expect_key(&r, 0, "global", "bs", "4k", 2);
	expect_key(&r, 1, "global", "rw", "randread", 3);
	expect_key(&r, 2, "job1", "size", "1G", 6);
	expect_key(&r, 3, "job1", "direct", NULL, 7);
}

/* Keys before any header belong to section "". */
static void test_keys_before_section(void **state)
{
	struct recorder r = {0};

	(void)state;
	assert_int_equal(parse("ioengine=psync\n[a]\nk=v\n", &r, NULL), 0);
	assert_int_equal(r.nr, 2);
	expect_key(&r, 0, "", "ioengine", "psync", 1);
	expect_key(&r, 1, "a", "k", "v", 3);
}

/* Whole-line comments are skipped; '#' inside a value is kept. */
static void test_comments(void **state)
{
	struct recorder r = {0};

	(void)state;
	assert_int_equal(parse("# a comment\n"
			       "; another\n"
			       "   # indented comment\n"
			       "\t; tabbed comment\n"
			       "[job] ; trailing comment after a header\n"
			       "filename=/tmp/a#1\n"
			       "name=x ; y\n",
			       &r, NULL),
			 0);
	assert_int_equal(r.nr, 2);
	expect_key(&r, 0, "job", "filename", "/tmp/a#1", 6);
	expect_key(&r, 1, "job", "name", "x ; y", 7);
}

/* Blanks around keys, values and inside brackets are trimmed. */
static void test_whitespace(void **state)
{
	struct recorder r = {0};

	(void)state;
	assert_int_equal(parse("  [ job 1 ]  \n"
			       "  key  =  some value \t \n"
			       "\tflag \t\n"
			       "empty=\n"
			       "   \t  \n"
			       "a = b = c\n",
			       &r, NULL),
			 0);
	assert_int_equal(r.nr, 4);
	expect_key(&r, 0, "job 1", "key", "some value", 2);
	expect_key(&r, 1, "job 1", "flag", NULL, 3);
	expect_key(&r, 2, "job 1", "empty", "", 4);
	expect_key(&r, 3, "job 1", "a", "b = c", 6);
}

/* CRLF files parse like LF ones; a last line without newline counts. */
static void test_crlf_and_last_line(void **state)
{
	struct recorder r = {0};

	(void)state;
	assert_int_equal(
	    parse("[a]\r\nk=v\r\nflag\r\n\r\n[b]\r\nx=1", &r, NULL), 0);
	assert_int_equal(r.nr, 3);
	expect_key(&r, 0, "a", "k", "v", 2);
	expect_key(&r, 1, "a", "flag", NULL, 3);
	expect_key(&r, 2, "b", "x", "1", 6);
}

/* A UTF-8 byte order mark does not become part of the first line. */
static void test_bom(void **state)
{
	struct recorder r = {0};

	(void)state;
	assert_int_equal(parse("\xef\xbb\xbf[global]\nbs=4k\n", &r, NULL), 0);
	assert_int_equal(r.nr, 1);
	expect_key(&r, 0, "global", "bs", "4k", 2);
}

/* Empty input and comment-only input call nothing and succeed. */
static void test_empty(void **state)
{
	struct recorder r = {0};
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(ini_parse(NULL, 0, record, &r, &err), 0);
	assert_int_equal(parse("", &r, &err), 0);
	assert_int_equal(parse("\n\n# only a comment\n", &r, &err), 0);
	assert_int_equal(r.nr, 0);
	assert_int_equal(err.len, 0);
	strbuf_release(&err);
}

/* One malformed input and the error it must give. */
struct bad_case {
	const char *text;
	size_t len; /* 0: strlen(text) */
	const char *msg;
	unsigned keys_before; /* keys delivered before the error */
};

/* Malformed lines: -EINVAL and "line N: ..." naming the problem. */
static void test_errors(void **state)
{
	static const struct bad_case cases[] = {
	    {"[job\n", 0,
	     "line 1: unterminated section header '[job'; expected "
	     "'[name]'",
	     0},
	    {"a=1\nb=2\n=3\n", 0,
	     "line 3: empty key before '='; expected 'key=value' or "
	     "'key'",
	     2},
	    {"  =  \n", 0, "line 1: empty key before '='", 0},
	    {"[]\n", 0, "line 1: empty section name", 0},
	    {"[  ]\n", 0, "line 1: empty section name", 0},
	    {"[a] b\n", 0,
	     "line 1: unexpected 'b' after section header; expected "
	     "'[name]' alone on its line",
	     0},
	    {"k=v\r\n\r\n[oops\r\n", 0, "line 3: unterminated section", 1},
	    {"a=1\nb=2\nc=\0003\n", 13, "line 3: NUL byte", 2},
	    {"a=1\n# comment \0 too\n", 20, "line 2: NUL byte", 1},
	    {"[\x1b[31m\n", 0,
	     "line 1: unterminated section header '[\\x1b[31m'", 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *c = &cases[i];
		size_t len = c->len ? c->len : strlen(c->text);
		struct recorder r = {0};
		struct strbuf err = STRBUF_INIT;
		int ret = parse_len(c->text, len, &r, &err);

		if (ret != -EINVAL)
			fail_msg("case %zu: returned %d, want -EINVAL", i, ret);
		if (strncmp(err.buf, c->msg, strlen(c->msg)))
			fail_msg("case %zu: message \"%s\", want \"%s...\"", i,
				 err.buf, c->msg);
		if (r.nr != c->keys_before)
			fail_msg("case %zu: %u keys before the error, want %u",
				 i, r.nr, c->keys_before);
		strbuf_release(&err);
	}
}

/* A NULL err still gives the code. */
static void test_error_null_err(void **state)
{
	struct recorder r = {0};

	(void)state;
	assert_int_equal(parse("[job\n", &r, NULL), -EINVAL);
	assert_int_equal(parse("=x\n", &r, NULL), -EINVAL);
	assert_int_equal(parse("[]\n", &r, NULL), -EINVAL);
	assert_int_equal(parse("[a]x\n", &r, NULL), -EINVAL);
}

/* A callback's error stops the parse and is returned as is. */
static void test_callback_abort(void **state)
{
	struct recorder r = {0};
	struct strbuf err = STRBUF_INIT;

	(void)state;
	r.fail_at = 2;
	r.fail_code = -ECANCELED;
	assert_int_equal(parse("a=1\nb=2\nc=3\n[bad\n", &r, &err), -ECANCELED);
	assert_int_equal(r.nr, 2);
	expect_key(&r, 1, "", "b", "2", 2);
	/* the callback reports its own error: err is left alone */
	assert_int_equal(err.len, 0);

	memset(&r, 0, sizeof(r));
	r.fail_at = 1;
	r.fail_code = -ENOENT;
	strbuf_addstr(&err, "untouched");
	assert_int_equal(parse("flag\nb=2\n", &r, &err), -ENOENT);
	assert_int_equal(r.nr, 1);
	assert_string_equal(err.buf, "untouched");
	strbuf_release(&err);
}

/* Long lines and many lines: no fixed-size buffers inside. */
static void test_long_input(void **state)
{
	struct strbuf text = STRBUF_INIT;
	struct recorder r = {0};
	size_t i;

	(void)state;
	strbuf_addstr(&text, "[big]\nfilename=");
	for (i = 0; i < 10000; i++)
		strbuf_addch(&text, 'x');
	strbuf_addch(&text, '\n');
	for (i = 0; i < 5000; i++)
		strbuf_addstr(&text, "# filler\n");
	strbuf_addstr(&text, "last=1\n");
	assert_int_equal(parse_len(text.buf, text.len, &r, NULL), 0);
	assert_int_equal(r.nr, 2);
	assert_string_equal(r.keys[0].key, "filename");
	expect_key(&r, 1, "big", "last", "1", 5003);
	strbuf_release(&text);
}

/* Run the ini tests; cmocka prints one line per test. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sections_and_keys),
	    cmocka_unit_test(test_keys_before_section),
	    cmocka_unit_test(test_comments),
	    cmocka_unit_test(test_whitespace),
	    cmocka_unit_test(test_crlf_and_last_line),
	    cmocka_unit_test(test_bom),
	    cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_error_null_err),
	    cmocka_unit_test(test_callback_abort),
	    cmocka_unit_test(test_long_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
