/*
 * Directory targets: the work directory is private, held open, and work
 * files are reached only through it; no name or link leads out of it,
 * and releasing the target removes only that directory.
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
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "core/targets/target.h"
#include "core/workload/layout.h"

/* A private temp directory per test, and a state dir inside it. */
static char base[64];

static int setup(void **state)
{
	char state_path[128];

	(void)state;
	snprintf(base, sizeof(base), "/tmp/iotrial-test-target.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	snprintf(state_path, sizeof(state_path), "%s/state", base);
	mkdir(state_path, 0700);
	setenv("IOTRIAL_STATE_DIR", state_path, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) ? -1 : 0;
}

/* The number of entries in dir besides "." and ".." (and "state"). */
static int entries(const char *dir)
{
	char cmd[256];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -vx state | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void test_names(void **state)
{
	(void)state;
	assert_true(target_work_name_ok("job0.prealloc"));
	assert_true(target_work_name_ok("job12.data"));
	assert_true(target_work_name_ok("a-b_c"));
	assert_false(target_work_name_ok(""));
	assert_false(target_work_name_ok("."));
	assert_false(target_work_name_ok(".."));
	assert_false(target_work_name_ok(".hidden"));
	assert_false(target_work_name_ok("../victim"));
	assert_false(target_work_name_ok("a/b"));
	assert_false(target_work_name_ok("a b"));
}

static void test_workdir(void **state)
{
	struct target t;
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	char outside[128], link[256];
	int fd;

	(void)state;
	assert_int_equal(target_open(&t, base, 0, NULL, &err), 0);
	assert_non_null(t.workdir);
	assert_int_equal(strncmp(t.work_name, "iotrial.", 8), 0);
	assert_int_equal(strlen(t.work_name), 14);
	assert_int_equal(lstat(t.workdir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 077, 0);
	assert_int_equal(st.st_ino, t.work_ino);

	/* names that leave the directory are refused */
	assert_int_equal(target_open_file(&t, "../x", O_RDONLY, 0), -EINVAL);
	assert_int_equal(target_unlink_file(&t, ".."), -EINVAL);

	/* a link inside is never followed, and is replaced by a new file */
	snprintf(outside, sizeof(outside), "%s/outside", base);
	fd = open(outside, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	snprintf(link, sizeof(link), "%s/job0.prealloc", t.workdir);
	assert_int_equal(symlink(outside, link), 0);
	assert_int_equal(target_open_file(&t, "job0.prealloc", O_RDONLY, 0),
			 -ELOOP);
	assert_int_equal(layout_preallocate(&t, "job0.prealloc", 8192, &err),
			 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 8192);
	assert_int_equal(stat(outside, &st), 0);
	assert_int_equal(st.st_size, 4);
	assert_int_equal(layout_write(&t, "job1.data", 1 << 20, 1, &err), 0);
	assert_true(layout_reusable(&t, "job1.data", 1 << 20));
	assert_false(layout_reusable(&t, "job1.data", 2 << 20));

	/* release removes the work directory and nothing else */
	target_release(&t);
	assert_int_equal(entries(base), 1);
	assert_int_equal(stat(outside, &st), 0);
	strbuf_release(&err);
}

/* The directory was moved away and a link put in its place: release
 * empties ours through the descriptor and leaves the link alone. */
static void test_moved_away(void **state)
{
	struct target t;
	struct strbuf err = STRBUF_INIT;
	char moved[128], victim[128], keep[192], path[256];
	struct stat st;
	int fd;

	(void)state;
	snprintf(victim, sizeof(victim), "%s/victim", base);
	snprintf(moved, sizeof(moved), "%s/moved", base);
	snprintf(keep, sizeof(keep), "%s/job0.prealloc", victim);
	assert_int_equal(mkdir(victim, 0755), 0);
	fd = open(keep, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(target_open(&t, base, 0, NULL, &err), 0);
	assert_int_equal(layout_preallocate(&t, "job0.prealloc", 4096, &err),
			 0);
	assert_int_equal(rename(t.workdir, moved), 0);
	assert_int_equal(symlink(victim, t.workdir), 0);
	snprintf(path, sizeof(path), "%s", t.workdir);
	/* files keep going to our directory */
	assert_int_equal(layout_preallocate(&t, "job1.prealloc", 4096, &err),
			 0);
	snprintf(keep, sizeof(keep), "%s/job1.prealloc", moved);
	assert_int_equal(stat(keep, &st), 0);
	target_release(&t);
	snprintf(keep, sizeof(keep), "%s/job0.prealloc", victim);
	assert_int_equal(stat(keep, &st), 0);
	assert_int_equal(entries(victim), 1);
	assert_int_equal(entries(moved), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test_setup_teardown(test_workdir, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_moved_away, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
