/*
 * Tests for util/outfile: a new file is made; an existing one is
 * refused, or replaced whole (a new inode, its mode kept) or in place;
 * a symbolic link, a FIFO (without waiting for a reader), a character
 * device and a directory are refused with their kind named and left as
 * they were; outfile_check() says the same and makes nothing.
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
#include "util/outfile.h"
#include "util/banned.h"

static char dir[] = "/tmp/test_outfile.XXXXXX";

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

/* dir/name into p. */
static const char *at(struct strbuf *p, const char *name)
{
	strbuf_setf(p, "%s/%s", dir, name);
	return p->buf;
}

/* The text of the file at path ("" when absent). */
static void slurp(const char *path, struct strbuf *out)
{
	strbuf_reset(out);
	if (strbuf_read_file(out, path, 1 << 20) < 0)
		strbuf_reset(out);
}

/* The entries of dir, counted (a temporary left behind shows). */
static int entries(void)
{
	struct strbuf cmd = STRBUF_INIT;
	FILE *f;
	int n = -1;

	strbuf_addf(&cmd, "ls -A '%s' | wc -l", dir);
	f = popen(cmd.buf, "r");
	if (f && fscanf(f, "%d", &n) != 1)
		n = -1;
	if (f)
		pclose(f);
	strbuf_release(&cmd);
	return n;
}

static void test_new_and_existing(void **state)
{
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT, in = STRBUF_INIT;
	struct stat a, b;
	int n0 = entries();

	(void)state;
	assert_int_equal(outfile_check(at(&p, "new"), 0, &err), 0);
	assert_int_equal(entries(), n0); /* checking made nothing */
	assert_int_equal(outfile_write(p.buf, "one\n", 4, 0, &err), 0);
	slurp(p.buf, &in);
	assert_string_equal(in.buf, "one\n");
	assert_int_equal(outfile_check(p.buf, 0, &err), -EEXIST);
	assert_non_null(strstr(err.buf, "exists; give another file, or "
					"--force to replace it"));
	assert_int_equal(outfile_write(p.buf, "two\n", 4, 0, &err), -EEXIST);
	slurp(p.buf, &in);
	assert_string_equal(in.buf, "one\n");

	/* replaced whole: a new inode, the old mode */
	assert_int_equal(chmod(p.buf, 0600), 0);
	assert_int_equal(stat(p.buf, &a), 0);
	assert_int_equal(outfile_check(p.buf, OUTFILE_REPLACE, &err), 0);
	assert_int_equal(
	    outfile_write(p.buf, "three\n", 6, OUTFILE_REPLACE, &err), 0);
	assert_int_equal(stat(p.buf, &b), 0);
	assert_int_not_equal(a.st_ino, b.st_ino);
	assert_int_equal(b.st_mode & 07777, 0600);
	slurp(p.buf, &in);
	assert_string_equal(in.buf, "three\n");
	assert_int_equal(entries(), n0 + 1); /* no temporary left */

	/* in place: the same inode, truncated first */
	assert_int_equal(outfile_write(p.buf, "4\n", 2,
				       OUTFILE_REPLACE | OUTFILE_IN_PLACE,
				       &err),
			 0);
	assert_int_equal(stat(p.buf, &a), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	slurp(p.buf, &in);
	assert_string_equal(in.buf, "4\n");
	assert_int_equal(outfile_write(p.buf, "5\n", 2, OUTFILE_IN_PLACE, &err),
			 -EEXIST);
	unlink(p.buf);
	strbuf_release(&p);
	strbuf_release(&err);
	strbuf_release(&in);
}

/* Every refusal of what is not a regular file, with or without REPLACE,
 * with its words; what is there stays. */
static void refused(const char *path, int code, const char *words)
{
	static const unsigned fl[] = {0, OUTFILE_REPLACE,
				      OUTFILE_REPLACE | OUTFILE_IN_PLACE};
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int n0 = entries();

	for (i = 0; i < sizeof(fl) / sizeof(*fl); i++) {
		strbuf_reset(&err);
		assert_int_equal(outfile_check(path, fl[i], &err), code);
		assert_non_null(strstr(err.buf, words));
		strbuf_reset(&err);
		assert_int_equal(outfile_write(path, "x\n", 2, fl[i], &err),
				 code);
		assert_non_null(strstr(err.buf, words));
		assert_int_equal(entries(), n0);
	}
	strbuf_release(&err);
}

static void test_not_regular(void **state)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT, in = STRBUF_INIT;
	struct stat st;

	(void)state;
	/* a link, to a file or to nothing: neither followed nor replaced */
	at(&v, "victim");
	assert_int_equal(outfile_write(v.buf, "keep\n", 5, 0, NULL), 0);
	assert_int_equal(symlink(v.buf, at(&p, "link")), 0);
	refused(p.buf, -ELOOP, "a symbolic link, which iotrial neither");
	assert_int_equal(lstat(p.buf, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	slurp(v.buf, &in);
	assert_string_equal(in.buf, "keep\n");
	assert_int_equal(symlink("nowhere", at(&p, "dangling")), 0);
	refused(p.buf, -ELOOP, "a symbolic link");
	assert_int_equal(access(at(&v, "nowhere"), F_OK), -1);

	/* a FIFO: refused at once, no reader waited for */
	assert_int_equal(mkfifo(at(&p, "fifo"), 0644), 0);
	refused(p.buf, -EINVAL, "a FIFO, not a regular file");

	/* a device and a directory */
	refused("/dev/null", -EINVAL, "a character device, not a regular");
	refused(dir, -EINVAL, "a directory, not a regular file");
	strbuf_setf(&p, "%s/", dir);
	refused(p.buf, -EINVAL, "a directory");
	refused("", -EINVAL, "an empty file name");
	strbuf_release(&p);
	strbuf_release(&v);
	strbuf_release(&in);
}

static void test_missing_dir(void **state)
{
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	at(&p, "no/such/file");
	assert_int_equal(outfile_check(p.buf, 0, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "cannot write '"));
	assert_int_equal(outfile_write(p.buf, "x", 1, 0, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "No such file or directory"));
	strbuf_release(&p);
	strbuf_release(&err);
}

/* A stream: the open, writes, a release without commit keeps a file
 * written in place and removes a temporary. */
static void test_stream(void **state)
{
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT, in = STRBUF_INIT;
	struct outfile o;
	int n0 = entries();

	(void)state;
	assert_int_equal(outfile_open(&o, at(&p, "s"), 0, &err), 0);
	assert_int_equal(write(o.fd, "ab", 2), 2);
	outfile_release(&o);
	assert_int_equal(entries(), n0); /* the temporary went */
	assert_int_equal(outfile_open(&o, p.buf, OUTFILE_IN_PLACE, &err), 0);
	assert_int_equal(write(o.fd, "ab", 2), 2);
	outfile_release(&o);
	slurp(p.buf, &in);
	assert_string_equal(in.buf, "ab"); /* readable as it was written */
	outfile_release(&o);		   /* twice is fine */
	outfile_release(NULL);
	unlink(p.buf);
	strbuf_release(&p);
	strbuf_release(&err);
	strbuf_release(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_new_and_existing),
	    cmocka_unit_test(test_not_regular),
	    cmocka_unit_test(test_missing_dir),
	    cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
