/*
 * Tests for util/atfile: a file replaced under a root (directories made,
 * the old file kept as a backup with exactly its bytes and mode), a root
 * that does not exist, a link planted in the tree (refused, nothing
 * written through it), a FIFO (refused at once, read or written),
 * reading back.
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
#include "util/atfile.h"
#include "util/banned.h"

static char dir[] = "/tmp/test_atfile.XXXXXX";

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

static void test_replace_and_backup(void **state)
{
	struct strbuf err = STRBUF_INIT, bak = STRBUF_INIT, in = STRBUF_INIT;
	struct strbuf path = STRBUF_INIT;
	struct stat st;

	(void)state;
	assert_int_equal(atfile_replace(dir, "etc/sysctl.d/60-x.conf",
					"a = 1\n", 6, 0644, &bak, &err),
			 0);
	assert_int_equal(bak.len, 0);
	assert_true(atfile_exists(dir, "etc/sysctl.d/60-x.conf"));
	assert_int_equal(
	    atfile_read(dir, "etc/sysctl.d/60-x.conf", &in, 100, &err), 0);
	assert_string_equal(in.buf, "a = 1\n");
	strbuf_addf(&path, "%s/etc/sysctl.d/60-x.conf", dir);
	assert_int_equal(chmod(path.buf, 0600), 0);
	assert_int_equal(atfile_replace(dir, "etc/sysctl.d/60-x.conf",
					"a = 2\n", 6, 0644, &bak, &err),
			 0);
	assert_non_null(strstr(bak.buf, "/etc/sysctl.d/60-x.conf.iotrial-"));
	assert_non_null(strstr(bak.buf, ".bak"));
	strbuf_reset(&in);
	assert_int_equal(strbuf_read_file(&in, bak.buf, 100) < 0, 0);
	assert_string_equal(in.buf, "a = 1\n");
	assert_int_equal(stat(path.buf, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600); /* the mode is kept */
	strbuf_release(&err);
	strbuf_release(&bak);
	strbuf_release(&in);
	strbuf_release(&path);
}

static void test_refusals(void **state)
{
	struct strbuf err = STRBUF_INIT, bak = STRBUF_INIT, p = STRBUF_INIT;
	struct strbuf in = STRBUF_INIT;

	(void)state;
	assert_int_equal(atfile_replace("/nonexistent-root-dir", "etc/x", "1",
					1, 0644, &bak, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "does not exist"));
	/* a link where a directory should be is not followed */
	strbuf_addf(&p, "%s/link", dir);
	assert_int_equal(symlink("/tmp", p.buf), 0);
	strbuf_reset(&err);
	assert_true(atfile_replace(dir, "link/iotrial-should-not-exist", "1", 1,
				   0644, &bak, &err) < 0);
	assert_non_null(strstr(err.buf, "not a directory (or a link)"));
	assert_int_equal(access("/tmp/iotrial-should-not-exist", F_OK), -1);
	assert_int_equal(
	    atfile_replace(dir, "../escape", "1", 1, 0644, &bak, &err),
	    -EINVAL);
	assert_int_equal(atfile_read(dir, "no/such", &in, 10, &err), -ENOENT);
	/* a FIFO is refused at once, read or replaced, and left alone */
	strbuf_setf(&p, "%s/fifo", dir);
	assert_int_equal(mkfifo(p.buf, 0644), 0);
	assert_int_equal(atfile_read(dir, "fifo", &in, 10, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "a FIFO, not a regular file"));
	assert_int_equal(atfile_replace(dir, "fifo", "1", 1, 0644, &bak, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "is a FIFO, not a regular file; left "
					"alone"));
	strbuf_release(&err);
	strbuf_release(&bak);
	strbuf_release(&p);
	strbuf_release(&in);
}

/* Make dir/rel: a directory when it ends in '/', else a file. */
static void make_at(const char *rel)
{
	char p[256];
	size_t n;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	n = strlen(p);
	if (p[n - 1] == '/') {
		p[n - 1] = '\0';
		assert_int_equal(mkdir(p, 0700), 0);
		return;
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
}

static int exists_at(const char *rel)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	return lstat(p, &st) == 0;
}

/* atfile_empty_dir keeps what keep() names: here "keep*" entries. */
static int keep_named(const char *name, const struct stat *st, void *arg)
{
	(void)st;
	(*(int *)arg)++;
	return !strncmp(name, "keep", 4);
}

/*
 * A tree is removed whole, through no link (what a link points to
 * stays); a missing name is -ENOENT; emptying keeps what keep() keeps,
 * and the emptied directory itself stays.
 */
static void test_remove_tree(void **state)
{
	char p[256];
	int fd, efd, seen = 0;

	(void)state;
	make_at("outside/");
	make_at("outside/precious");
	make_at("t/");
	make_at("t/a/");
	make_at("t/a/b/");
	make_at("t/a/b/f");
	make_at("t/g");
	snprintf(p, sizeof(p), "%s/t/a/link", dir);
	assert_int_equal(symlink("../../outside", p), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(atfile_remove_tree(fd, "t"), 0);
	assert_false(exists_at("t"));
	assert_true(exists_at("outside/precious"));
	assert_int_equal(atfile_remove_tree(fd, "t"), -ENOENT);
	/* a plain file is just unlinked */
	make_at("plain");
	assert_int_equal(atfile_remove_tree(fd, "plain"), 0);
	assert_false(exists_at("plain"));

	make_at("e/");
	make_at("e/keep-me");
	make_at("e/sub/");
	make_at("e/sub/keep-not-here");
	make_at("e/gone");
	snprintf(p, sizeof(p), "%s/e", dir);
	efd = open(p, O_RDONLY | O_DIRECTORY);
	assert_true(efd >= 0);
	assert_int_equal(atfile_empty_dir(efd, keep_named, &seen), 0);
	close(efd);
	assert_int_equal(seen, 3); /* asked about the top level only */
	assert_true(exists_at("e/keep-me"));
	assert_false(exists_at("e/sub"));
	assert_false(exists_at("e/gone"));
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_replace_and_backup),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_remove_tree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
