/*
 * Tests for util/text: making text from files printable. Controls of
 * every kind become one '?', and so does each malformed piece of
 * UTF-8; good UTF-8 around them is kept whole. JSON text made UTF-8,
 * with DEL and C1 escaped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/text.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* One input, what it must become, and how many characters were bad. */
struct text_case {
	const char *in, *want;
	size_t bad;
};

static const struct text_case cases[] = {
    {"", "", 0},
    {"randread on /srv", "randread on /srv", 0},
    {"a\x1b[31mb", "a?[31mb", 1},
    {"\x1b]0;title\x07", "?]0;title?", 2},
    {"tab\tnl\ncr\r", "tab?nl?cr?", 3},
    {"del\x7f", "del?", 1},
    {"\xc2\x9b"
     "2J",
     "?2J", 1},				 /* C1 CSI, U+009B */
    {"\xc2\x85", "?", 1},		 /* C1 NEL */
    {"\xc2\xa0nbsp", "\xc2\xa0nbsp", 0}, /* U+00A0 is text */
    {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0},
    {"\x9b"
     "2J",
     "?2J", 1}, /* a lone 8-bit CSI */
    {"\xff\xfe", "??", 2},
    {"\xc0\xaf", "??", 2},	     /* overlong '/' */
    {"\xed\xa0\x80", "???", 3},	     /* a surrogate */
    {"\xf4\x90\x80\x80", "????", 4}, /* past U+10FFFF */
    {"\xe2\x82"
     "A",
     "??A", 2}, /* cut short: A survives */
    {"end\xe2\x82", "end??", 2},
};

/* Each case, in a copy that may shrink. */
static void test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = xstrdup(cases[i].in);

		assert_int_equal(text_make_printable(s), cases[i].bad);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

/* Cleaning what is clean changes nothing. */
static void test_idempotent(void **state)
{
	char s[] = "a\x1b\xc2\x9b\xff\xe2\x82\xac";

	(void)state;
	assert_int_equal(text_make_printable(s), 3);
	assert_string_equal(s, "a???\xe2\x82\xac");
	assert_int_equal(text_make_printable(s), 0);
	assert_string_equal(s, "a???\xe2\x82\xac");
}

/* A message of several lines keeps its lines, not its escapes. */
static void test_lines(void **state)
{
	char s[] = "one\n\ttwo \x1b[2J\b8\r";

	(void)state;
	assert_int_equal(text_make_printable_lines(s), 3);
	assert_string_equal(s, "one\n\ttwo ?[2J?8?");
}

/* JSON text: what is not UTF-8 becomes U+FFFD, DEL and C1 their \u
 * escapes, from the offset given; ASCII and good UTF-8 are kept. */
static void test_json_safe(void **state)
{
	static const struct text_case json[] = {
	    {"{\"a\": \"b\"}", "{\"a\": \"b\"}", 0},
	    {"\"caf\xc3\xa9\"", "\"caf\xc3\xa9\"", 0},
	    {"\"a\xe9\"", "\"a\xef\xbf\xbd\"", 1},
	    {"\"\x7f\xc2\x9b[2J\"", "\"\\u007f\\u009b[2J\"", 2},
	    {"\"\xc0\xaf\xed\xa0\x80\"", /* overlong, a surrogate */
	     "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"",
	     5},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(json) / sizeof(*json); i++) {
		strbuf_setf(&sb, "kept\xe9%s", json[i].in);
		assert_int_equal(text_json_safe(&sb, 5), json[i].bad);
		assert_memory_equal(sb.buf, "kept\xe9", 5);
		assert_string_equal(sb.buf + 5, json[i].want);
	}
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cases),
	    cmocka_unit_test(test_idempotent),
	    cmocka_unit_test(test_lines),
	    cmocka_unit_test(test_json_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
