/*
 * made: the one check, before recovery removes anything as root, that
 * a journaled path names something iotrial made. Names: the prefix and
 * the shape of what follows it, each way they can be wrong. Paths: a
 * directory of the right name is accepted; gone is -ESTALE; a link in
 * its place or on the way, a regular file, a relative or unplain path
 * and (as root) another owner are refused with -EPERM, and nothing is
 * followed. Everything happens in a private directory under /tmp.
 */
#include <errno.h>
#include <limits.h>
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
#include "core/targets/made.h"
#include "util/strbuf.h"

/* realpath of the test's private directory. */
static char base[PATH_MAX];

static int setup(void **state)
{
	char t[] = "/tmp/iotrial-test-made.XXXXXX";

	(void)state;
	if (!mkdtemp(t) || !realpath(t, base))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) ? -1 : 0;
}

/* Each kind's prefix with each kind of tail, right and wrong. */
static void test_names(void **state)
{
	(void)state;
	assert_true(made_name_ok(&made_work_dir, "iotrial.aZ09bc"));
	assert_true(made_name_ok(&made_work_dir, "iotrial.ABCDEF"));
	assert_false(made_name_ok(&made_work_dir, "iotrial.aZ09b"));
	assert_false(made_name_ok(&made_work_dir, "iotrial.aZ09bcd"));
	assert_false(made_name_ok(&made_work_dir, "iotrial.aZ-9bc"));
	assert_false(made_name_ok(&made_work_dir, "iotrial.aZ.9bc"));
	assert_false(made_name_ok(&made_work_dir, "iotrial.aZ09b/"));
	assert_false(made_name_ok(&made_work_dir, "Iotrial.aZ09bc"));
	assert_false(made_name_ok(&made_work_dir, "xiotrial.aZ09b"));
	assert_false(made_name_ok(&made_work_dir, "iotrial."));
	assert_false(made_name_ok(&made_work_dir, ""));

	assert_true(
	    made_name_ok(&made_scratch_dir, "iotrial-scratch.1-abcdef"));
	assert_true(made_name_ok(&made_scratch_dir,
				 "iotrial-scratch.4294967295-012345"));
	assert_false(made_name_ok(&made_scratch_dir,
				  "iotrial-scratch.42949672950-012345"));
	assert_false(
	    made_name_ok(&made_scratch_dir, "iotrial-scratch.-abcdef"));
	assert_false(
	    made_name_ok(&made_scratch_dir, "iotrial-scratch.1abcdef"));
	assert_false(
	    made_name_ok(&made_scratch_dir, "iotrial-scratch.1-ABCDEF"));
	assert_false(
	    made_name_ok(&made_scratch_dir, "iotrial-scratch.1-abcdeg"));
	assert_false(
	    made_name_ok(&made_scratch_dir, "iotrial-scratch.1-abcde"));
	assert_false(
	    made_name_ok(&made_scratch_dir, "iotrial-scratch.1-abcdef0"));
	assert_false(made_name_ok(&made_scratch_dir, "iotrial-cg.1-abcdef"));

	assert_true(made_name_ok(&made_cgroup, "iotrial-cg.77-00beef"));
	assert_false(made_name_ok(&made_cgroup, "iotrial-cg.77-00beef "));
	assert_false(made_name_ok(&made_cgroup, "iotrial-scratch.77-00beef"));
	assert_false(made_name_ok(&made_cgroup, "iotrial.aZ09bc"));
	/* a work directory's tail is never a scratch or cgroup name */
	assert_false(made_name_ok(&made_work_dir, "iotrial-cg.77-00beef"));
}

/* made_dir_open(path) returns ret, and a refusal's why holds want. */
static void open_is(const char *path, const struct made_name *m, int ret,
		    const char *want)
{
	struct strbuf why = STRBUF_INIT;
	struct made_dir d;
	int r = made_dir_open(&d, path, m, "it", &why);

	if (r != ret || (want && !strstr(why.buf, want)))
		fail_msg("'%s': %d '%s', want %d '%s'", path, r, why.buf, ret,
			 want ? want : "");
	if (!r) {
		assert_true(d.fd >= 0 && d.parent_fd >= 0);
		assert_true(S_ISDIR(d.st.st_mode));
		assert_string_equal(d.name, strrchr(path, '/') + 1);
	} else {
		assert_int_equal(d.fd, -1);
		assert_int_equal(d.parent_fd, -1);
	}
	made_dir_close(&d);
	strbuf_release(&why);
}

/* Accepted, gone, and each way a path is refused. */
static void test_open(void **state)
{
	struct strbuf p = STRBUF_INIT, q = STRBUF_INIT;

	(void)state;
	strbuf_addf(&p, "%s/real", base);
	assert_int_equal(mkdir(p.buf, 0700), 0);
	strbuf_addstr(&p, "/iotrial.abc123");
	assert_int_equal(mkdir(p.buf, 0700), 0);
	open_is(p.buf, &made_work_dir, 0, NULL);
	/* the right directory under another kind's name shape */
	open_is(p.buf, &made_cgroup, -EPERM, "not a path iotrial makes");

	/* gone */
	strbuf_setf(&q, "%s/real/iotrial.zzz999", base);
	open_is(q.buf, &made_work_dir, -ESTALE, "already gone");
	strbuf_setf(&q, "%s/nothere/iotrial.zzz999", base);
	open_is(q.buf, &made_work_dir, -ESTALE, "already gone");

	/* a link on the way */
	strbuf_setf(&q, "%s/link", base);
	assert_int_equal(symlink("real", q.buf), 0);
	strbuf_addstr(&q, "/iotrial.abc123");
	open_is(q.buf, &made_work_dir, -EPERM, "on the way");

	/* a link in its place, to a directory of ours */
	strbuf_setf(&q, "%s/iotrial.lnk123", base);
	assert_int_equal(symlink("real/iotrial.abc123", q.buf), 0);
	open_is(q.buf, &made_work_dir, -EPERM, "symbolic link");

	/* a regular file of the right name */
	strbuf_setf(&q, "%s/iotrial-cg.1-abcdef", base);
	fclose(fopen(q.buf, "w"));
	open_is(q.buf, &made_cgroup, -EPERM, "not a directory");

	/* not plain, not absolute */
	strbuf_setf(&q, "%s/real/../real/iotrial.abc123", base);
	open_is(q.buf, &made_work_dir, -EPERM, "not a path iotrial makes");
	strbuf_setf(&q, "%s//real/iotrial.abc123", base);
	open_is(q.buf, &made_work_dir, -EPERM, "not a path iotrial makes");
	strbuf_setf(&q, "%s/real/iotrial.abc123/", base);
	open_is(q.buf, &made_work_dir, -EPERM, "not a path iotrial makes");
	open_is("real/iotrial.abc123", &made_work_dir, -EPERM,
		"not a path iotrial makes");

	/* what the links led to is untouched, and still accepted */
	open_is(p.buf, &made_work_dir, 0, NULL);
	strbuf_release(&p);
	strbuf_release(&q);
}

/* As root: a directory of the right name owned by someone else. */
static void test_owner(void **state)
{
	struct strbuf p = STRBUF_INIT;

	(void)state;
	if (geteuid() != 0)
		skip();
	strbuf_addf(&p, "%s/iotrial-scratch.12-abcdef", base);
	assert_int_equal(mkdir(p.buf, 0700), 0);
	open_is(p.buf, &made_scratch_dir, 0, NULL);
	assert_int_equal(chown(p.buf, 65534, 65534), 0);
	open_is(p.buf, &made_scratch_dir, -EPERM, "belongs to uid 65534");
	strbuf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test_setup_teardown(test_open, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_owner, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
