/*
 * Tests for util/strbuf and the "did you mean" half of util/error: the
 * string building every message and report goes through, and the typo
 * hints the command line gives for workloads, knobs and options.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* An untouched strbuf prints as "" and releases without allocating. */
static void test_init_release(void **state)
{
	struct strbuf sb = STRBUF_INIT, hinted;

	(void)state;
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	strbuf_release(&sb);
	strbuf_release(NULL);
	strbuf_init(&hinted, 100);
	assert_true(hinted.alloc > 100);
	assert_string_equal(hinted.buf, "");
	strbuf_release(&hinted);
	assert_int_equal(hinted.alloc, 0);
}

/* add, addstr, addch and setlen keep len and the NUL in step. */
static void test_add(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_add(&sb, "abc", 3);
	strbuf_add(&sb, "ignored", 0);
	strbuf_addstr(&sb, "def");
	strbuf_addch(&sb, 'g');
	assert_string_equal(sb.buf, "abcdefg");
	assert_int_equal(sb.len, 7);
	strbuf_setlen(&sb, 2);
	assert_string_equal(sb.buf, "ab");
	strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
}

/* addf grows past the first allocation, however long the output. */
static void test_addf_growth(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *big = xmalloc(5001);
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%zu,", i % 10);
	assert_int_equal(sb.len, 2000);
	assert_int_equal(strlen(sb.buf), 2000);
	assert_memory_equal(sb.buf, "0,1,2,3,4,5,6,7,8,9,0,", 22);

	memset(big, 'x', 5000);
	big[5000] = '\0';
	strbuf_reset(&sb);
	strbuf_addf(&sb, "[%s]", big);
	assert_int_equal(sb.len, 5002);
	assert_true(sb.buf[0] == '[' && sb.buf[5001] == ']');
	assert_true(sb.buf[5002] == '\0');

	strbuf_setf(&sb, "%d-%s", 42, "x");
	assert_string_equal(sb.buf, "42-x");
	free(big);
	strbuf_release(&sb);
}

/* detach hands over the string and leaves an empty, reusable strbuf. */
static void test_detach(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = 99;
	char *s;

	(void)state;
	strbuf_addstr(&sb, "hello");
	s = strbuf_detach(&sb, &len);
	assert_string_equal(s, "hello");
	assert_int_equal(len, 5);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	free(s);

	/* detaching an untouched strbuf still gives a free()able "" */
	s = strbuf_detach(&sb, NULL);
	assert_string_equal(s, "");
	free(s);

	strbuf_addstr(&sb, "again");
	assert_string_equal(sb.buf, "again");
	strbuf_release(&sb);
}

/* trim and rtrim strip whitespace at the ends only. */
static void test_trim(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_addstr(&sb, " \t a b \n\t");
	strbuf_rtrim(&sb);
	assert_string_equal(sb.buf, " \t a b");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "a b");
	assert_int_equal(sb.len, 3);
	strbuf_setf(&sb, " \n\t ");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
	strbuf_trim(&sb); /* on the slopbuf */
	assert_string_equal(sb.buf, "");
}

/* Write len bytes of data to a new temporary file; return its path. */
static char *make_temp_file(const char *data, size_t len)
{
	char *path = xstrdup("/tmp/iotrial-test-strbuf.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

/* read_file reads small and multi-block files, and reports errors. */
static void test_read_file(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *big = xmalloc(10000);
	char *path;
	size_t i;

	(void)state;
	path = make_temp_file("mq-deadline\n", 12);
	strbuf_addstr(&sb, "old contents are replaced");
	assert_int_equal(strbuf_read_file(&sb, path, 0), 0);
	assert_string_equal(sb.buf, "mq-deadline\n");
	strbuf_rtrim(&sb);
	assert_string_equal(sb.buf, "mq-deadline");
	unlink(path);
	free(path);

	for (i = 0; i < 10000; i++)
		big[i] = (char)('a' + i % 26);
	path = make_temp_file(big, 10000);
	assert_int_equal(strbuf_read_file(&sb, path, 0), 0);
	assert_int_equal(sb.len, 10000);
	assert_memory_equal(sb.buf, big, 10000);
	assert_true(sb.buf[10000] == '\0');
	/* a file larger than max_bytes is refused */
	assert_int_equal(strbuf_read_file(&sb, path, 100), -EFBIG);
	unlink(path);
	free(path);

	assert_int_equal(strbuf_read_file(&sb, "/nonexistent/iotrial", 0),
			 -ENOENT);
	free(big);
	strbuf_release(&sb);
}

/* err_set replaces the message and returns the code; NULL is fine. */
static void test_err_set(void **state)
{
	struct strbuf err = STRBUF_INIT;

	(void)state;
	strbuf_addstr(&err, "stale");
	assert_int_equal(err_set(&err, -EINVAL, "bad '%s'", "x"), -EINVAL);
	assert_string_equal(err.buf, "bad 'x'");
	assert_int_equal(err_set(NULL, -EIO, "ignored %d", 1), -EIO);
	strbuf_release(&err);
}

/* Levenshtein distance on a few known pairs, in both directions. */
static void test_edit_distance(void **state)
{
	(void)state;
	assert_int_equal(edit_distance("", ""), 0);
	assert_int_equal(edit_distance("abc", ""), 3);
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_int_equal(edit_distance("same", "same"), 0);
	assert_int_equal(edit_distance("kitten", "sitting"), 3);
	assert_int_equal(edit_distance("sitting", "kitten"), 3);
	assert_int_equal(edit_distance("randrad", "randread"), 1);
	assert_int_equal(edit_distance("seqread", "seqwrite"), 4);
	/* a swap of neighbours is one edit */
	assert_int_equal(edit_distance("raed", "read"), 1);
	assert_int_equal(edit_distance("ab", "ba"), 1);
	assert_int_equal(edit_distance("schedluer", "scheduler"), 1);
	assert_int_equal(edit_distance("ca", "abc"), 3);
}

/* Typo hints for workload names: close ones suggested, junk not. */
static void test_suggest_nearest(void **state)
{
	static const char *const workloads[] = {
	    "seqread", "seqwrite",   "randread",  "randwrite",
	    "randrw",  "smallfiles", "crashdump", "mmapdirty",
	};
	const size_t nr = sizeof(workloads) / sizeof(workloads[0]);

	(void)state;
	assert_string_equal(suggest_nearest("randrad", workloads, nr),
			    "randread");
	assert_string_equal(suggest_nearest("seqwrit", workloads, nr),
			    "seqwrite");
	assert_string_equal(suggest_nearest("smallfile", workloads, nr),
			    "smallfiles");
	assert_string_equal(suggest_nearest("crashdmup", workloads, nr),
			    "crashdump");
	assert_string_equal(suggest_nearest("randread", workloads, nr),
			    "randread");
	/* a prefix is a strong hint */
	assert_string_equal(suggest_nearest("randr", workloads, nr),
			    "randread");
	assert_null(suggest_nearest("xyz", workloads, nr));
	assert_null(suggest_nearest("completely-different", workloads, nr));
	assert_null(suggest_nearest("", workloads, nr));
	assert_null(suggest_nearest("randread", workloads, 0));
}

/* Short words get one edit at most: a report format that does not exist
 * is not taken for one that does. */
static void test_suggest_short(void **state)
{
	static const char *const formats[] = {"text", "json", "csv", "md",
					      "html"};
	const size_t nr = sizeof(formats) / sizeof(formats[0]);

	(void)state;
	assert_null(suggest_nearest("pdf", formats, nr));
	assert_null(suggest_nearest("xls", formats, nr));
	assert_string_equal(suggest_nearest("cvs", formats, nr), "csv");
	assert_string_equal(suggest_nearest("jsno", formats, nr), "json");
	assert_string_equal(suggest_nearest("htm", formats, nr), "html");
}

/* Run the strbuf and suggestion tests; cmocka prints one line per test. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init_release),
	    cmocka_unit_test(test_add),
	    cmocka_unit_test(test_addf_growth),
	    cmocka_unit_test(test_detach),
	    cmocka_unit_test(test_trim),
	    cmocka_unit_test(test_read_file),
	    cmocka_unit_test(test_err_set),
	    cmocka_unit_test(test_edit_distance),
	    cmocka_unit_test(test_suggest_nearest),
	    cmocka_unit_test(test_suggest_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
