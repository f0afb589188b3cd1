/*
 * Tests for util/doclog: each document a new file of mode 0600 with
 * exactly its bytes, numbered per process; a name already taken (a
 * file, or a link planted there) skipped and left as it was, nothing
 * written through the link; the ".old" mark; a directory that is not
 * there said in err.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/doclog.h"
#include "util/banned.h"

static char dir[] = "/tmp/test_doclog.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* The file at path, read into sb. */
static void read_back(const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	assert_true(strbuf_read_file(sb, path, 1 << 16) >= 0);
}

/* The number in a name "DIR/PID-N.json" (N). */
static unsigned long seq_of(const char *name)
{
	const char *dash = strrchr(name, '-');

	assert_non_null(dash);
	return strtoul(dash + 1, NULL, 10);
}

static void test_new_files(void **state)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT,
		      first = STRBUF_INIT, in = STRBUF_INIT;
	struct strbuf prefix = STRBUF_INIT;
	struct stat st;

	(void)state;
	strbuf_addf(&prefix, "%s/%ld-", dir, (long)getpid());
	assert_int_equal(doclog_write(dir, "{\"a\": 1}\n", 9, 0, &name, &err),
			 0);
	assert_int_equal(strncmp(name.buf, prefix.buf, prefix.len), 0);
	assert_non_null(strstr(name.buf, ".json"));
	assert_null(strstr(name.buf, ".old"));
	assert_int_equal(lstat(name.buf, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	read_back(name.buf, &in);
	assert_string_equal(in.buf, "{\"a\": 1}\n");
	strbuf_addstr(&first, name.buf);

	/* the next one is another file; the first stays */
	assert_int_equal(doclog_write(dir, "[]\n", 3, DOCLOG_OLD, &name, &err),
			 0);
	assert_string_not_equal(name.buf, first.buf);
	assert_int_equal(seq_of(name.buf), seq_of(first.buf) + 1);
	assert_non_null(strstr(name.buf, ".old.json"));
	read_back(name.buf, &in);
	assert_string_equal(in.buf, "[]\n");
	read_back(first.buf, &in);
	assert_string_equal(in.buf, "{\"a\": 1}\n");
	strbuf_release(&err);
	strbuf_release(&name);
	strbuf_release(&first);
	strbuf_release(&in);
	strbuf_release(&prefix);
}

static void test_taken_names(void **state)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT, in = STRBUF_INIT;
	struct strbuf link1 = STRBUF_INIT, file2 = STRBUF_INIT,
		      target = STRBUF_INIT;
	unsigned long n;
	struct stat st;

	(void)state;
	/* where the next two names are: a link to a file that is not
	 * there, and a file of someone else's */
	assert_int_equal(doclog_write(dir, "x\n", 2, 0, &name, &err), 0);
	n = seq_of(name.buf);
	strbuf_addf(&target, "%s/target", dir);
	strbuf_addf(&link1, "%s/%ld-%lu.json", dir, (long)getpid(), n + 1);
	strbuf_addf(&file2, "%s/%ld-%lu.json", dir, (long)getpid(), n + 2);
	assert_int_equal(symlink(target.buf, link1.buf), 0);
	{
		FILE *f = fopen(file2.buf, "w");

		assert_non_null(f);
		fputs("theirs\n", f);
		fclose(f);
	}
	assert_int_equal(doclog_write(dir, "y\n", 2, 0, &name, &err), 0);
	assert_int_equal(seq_of(name.buf), n + 3);
	read_back(name.buf, &in);
	assert_string_equal(in.buf, "y\n");
	/* nothing went through the link, nor over the file */
	assert_int_equal(lstat(target.buf, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(lstat(link1.buf, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	read_back(file2.buf, &in);
	assert_string_equal(in.buf, "theirs\n");
	strbuf_release(&err);
	strbuf_release(&name);
	strbuf_release(&in);
	strbuf_release(&link1);
	strbuf_release(&file2);
	strbuf_release(&target);
}

static void test_no_dir(void **state)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT, path = STRBUF_INIT;

	(void)state;
	strbuf_addf(&path, "%s/missing", dir);
	assert_int_equal(doclog_write(path.buf, "x\n", 2, 0, &name, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "missing"));
	assert_int_equal(name.len, 0);
	/* a file is no directory */
	strbuf_reset(&path);
	strbuf_reset(&err);
	assert_int_equal(doclog_write(dir, "x\n", 2, 0, &name, &err), 0);
	strbuf_addstr(&path, name.buf);
	assert_int_equal(doclog_write(path.buf, "x\n", 2, 0, NULL, &err),
			 -ENOTDIR);
	strbuf_release(&err);
	strbuf_release(&name);
	strbuf_release(&path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_new_files),
	    cmocka_unit_test(test_taken_names),
	    cmocka_unit_test(test_no_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
