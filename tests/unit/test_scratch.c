/*
 * Scratch targets: a bad "SIZE[:FS]" spec is refused before anything is
 * made; recovery (scratch_undo) removes only the exact paths that
 * scratch_open() makes and refuses every other shape without touching
 * it; and, as root, a real scratch:64M is opened on a loop device and
 * released without leaving a loop device, a mount or a file behind.
 * Everything happens in a private directory under /tmp (TMPDIR and
 * IOTRIAL_STATE_DIR point into it).
 */
#include <errno.h>
#include <fcntl.h>
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
#include <sys/wait.h>
#include <cmocka.h>
#include "core/targets/scratch.h"
#include "core/targets/target.h"
#include "util/strbuf.h"

/* The private directory of the running test; TMPDIR is base/tmp and
 * IOTRIAL_STATE_DIR base/state. */
static char base[64];
/* realpath of base/tmp: the prefix of every path scratch_open makes. */
static char tmp[PATH_MAX];

static int setup(void **state)
{
	char p[128];

	(void)state;
	snprintf(base, sizeof(base), "/tmp/iotrial-test-scratch.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	snprintf(p, sizeof(p), "%s/state", base);
	setenv("IOTRIAL_STATE_DIR", p, 1);
	snprintf(p, sizeof(p), "%s/tmp", base);
	if (mkdir(p, 0700) < 0 || !realpath(p, tmp))
		return -1;
	setenv("TMPDIR", p, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) ? -1 : 0;
}

/* The number of entries in dir besides "." and "..", -1 if unreadable. */
static int entries(const char *dir)
{
	char cmd[PATH_MAX + 32];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

/* Does path exist (no link followed)? */
static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* Does /proc/self/mountinfo mention text? */
static int mounted_under(const char *text)
{
	struct strbuf mi = STRBUF_INIT;
	int found;

	assert_int_equal(strbuf_read_file(&mi, "/proc/self/mountinfo", 0), 0);
	found = strstr(mi.buf, text) != NULL;
	strbuf_release(&mi);
	return found;
}

/* Nothing of a scratch target left in TMPDIR, in the mounts, or in the
 * state directory's journal. */
static void assert_nothing_left(void)
{
	char journal[128];

	snprintf(journal, sizeof(journal), "%s/state/journal", base);
	assert_int_equal(entries(tmp), 0);
	assert_false(mounted_under(tmp));
	assert_false(exists(journal));
}

/*
 * scratch_open(spec) on a zeroed target as a user other than root; the
 * result and message go to *ret and msg. As root, a child process does
 * it under uid 65534 and reports back through a pipe.
 */
static void open_as_user(const char *spec, int *ret, struct strbuf *msg)
{
	struct strbuf err = STRBUF_INIT;
	struct target t = {0};
	int fds[2], status;
	char buf[512];
	ssize_t n;
	pid_t pid;

	strbuf_reset(msg);
	if (geteuid()) {
		*ret = scratch_open(&t, spec, NULL, msg);
		assert_null(t.scratch);
		return;
	}
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fds[0]);
		if (seteuid(65534) < 0)
			_exit(1);
		*ret = scratch_open(&t, spec, NULL, &err);
		if (write(fds[1], ret, sizeof(*ret)) != sizeof(*ret) ||
		    write(fds[1], err.buf, err.len) != (ssize_t)err.len)
			_exit(1);
		_exit(t.scratch != NULL);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], ret, sizeof(*ret)), sizeof(*ret));
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		strbuf_add(msg, buf, (size_t)n);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	strbuf_release(&err);
}

/* Bad specs: -EINVAL with a message saying what is wrong, and nothing
 * made (they are refused before the root check and the journal). */
static void test_spec_errors(void **state)
{
	static const struct {
		const char *spec, *msg;
	} bad[] = {
	    {"lots", "bad scratch size in 'scratch:lots'"},
	    {"", "bad scratch size in 'scratch:'"},
	    {":ext4", "bad scratch size in 'scratch::ext4'"},
	    {"1G:btrfs", "unknown file system 'btrfs' in 'scratch:1G:btrfs'; "
			 "give ext4 or xfs, or nothing for a raw loop device"},
	    {"1G:ext4:x", "unknown file system 'ext4:x'"},
	    {"1000", "scratch size '1000' is not a multiple of 4 KiB"},
	    {"1M:ext4", "scratch size '1M' is too small for ext4; give at "
			"least 16 MiB"},
	    {"200M:xfs", "is too small for xfs; give at least 300 MiB"},
	    {"512K", "scratch size '512K' is too small; give at least 1 MiB"},
	};
	struct strbuf err = STRBUF_INIT;
	struct target t;
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&t, 0, sizeof(t));
		strbuf_reset(&err);
		ret = scratch_open(&t, bad[i].spec, NULL, &err);
		if (ret != -EINVAL && ret != -ERANGE)
			fail_msg("'%s': %d (%s)", bad[i].spec, ret, err.buf);
		if (!strstr(err.buf, bad[i].msg))
			fail_msg("'%s': '%s'", bad[i].spec, err.buf);
		assert_null(t.scratch);
		assert_null(scratch_device(&t));
		assert_null(scratch_session(&t));
	}
	assert_nothing_left();
	strbuf_release(&err);
}

/* Good specs get past parsing: only the root check refuses them. */
static void test_needs_root(void **state)
{
	static const struct {
		const char *spec, *msg;
	} good[] = {
	    {"64M", "a scratch target needs root (it attaches a loop device)"},
	    {"1M", "(it attaches a loop device)"},
	    {"1G:", "(it attaches a loop device)"},
	    {"16M:ext4", "(it attaches a loop device and mounts it)"},
	    {"300M:xfs", "(it attaches a loop device and mounts it)"},
	};
	struct strbuf msg = STRBUF_INIT;
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		open_as_user(good[i].spec, &ret, &msg);
		if (ret != -EACCES || !strstr(msg.buf, good[i].msg))
			fail_msg("'%s': %d (%s)", good[i].spec, ret, msg.buf);
	}
	assert_nothing_left();
	strbuf_release(&msg);
}

/* What a NULL or never-opened target says. */
static void test_no_scratch(void **state)
{
	struct target t = {0};

	(void)state;
	assert_null(scratch_device(NULL));
	assert_null(scratch_session(NULL));
	assert_null(scratch_device(&t));
	assert_null(scratch_session(&t));
	scratch_release(NULL);
	scratch_release(&t);
}

/* Make path as a directory (d) or a regular file (f). */
static void make(const char *path, char kind)
{
	int fd;

	if (kind == 'd') {
		assert_int_equal(mkdir(path, 0700), 0);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
}

/* scratch_undo(what, a, b) must be ret with why containing msg. */
static void undo_is(const char *what, const char *a, const char *b, int ret,
		    const char *msg)
{
	struct strbuf why = STRBUF_INIT;
	int got = scratch_undo(what, a, b, &why);

	if (got != ret || !strstr(why.buf, msg))
		fail_msg("%s '%s' '%s': %d (%s), wanted %d (%s)", what, a, b,
			 got, why.buf, ret, msg);
	strbuf_release(&why);
}

/*
 * Journal records naming what scratch_open() does not make are -EPERM
 * and touch nothing, even where what they name exists and is ours.
 */
static void test_undo_refused(void **state)
{
	static const struct {
		const char *what, *a, *b, *msg;
	} refused[] = {
	    /* not plain absolute paths */
	    {"dir", "iotrial-scratch.1-abcdef", "", "plain absolute"},
	    {"dir", "@/iotrial-scratch.1-abcdef/", "", "plain absolute"},
	    {"dir", "@//iotrial-scratch.1-abcdef", "", "plain absolute"},
	    {"dir", "@/x/../iotrial-scratch.1-abcdef", "", "plain absolute"},
	    {"dir", "@/./iotrial-scratch.1-abcdef", "", "plain absolute"},
	    {"file", "@/iotrial-scratch.1-abcdef/../victim", "",
	     "plain absolute"},
	    /* names iotrial does not give a scratch directory */
	    {"dir", "@/victim", "", "not a path iotrial makes"},
	    {"dir", "/", "", "plain absolute"},
	    {"dir", "@/iotrial-scratch.1-ABCDEF", "", "not a path"},
	    {"dir", "@/iotrial-scratch.1-abcdeg", "", "not a path"},
	    {"dir", "@/iotrial-scratch.1-abcde", "", "not a path"},
	    {"dir", "@/iotrial-scratch.1-abcdef0", "", "not a path"},
	    {"dir", "@/iotrial-scratch.-abcdef", "", "not a path"},
	    {"dir", "@/iotrial-scratch.x-abcdef", "", "not a path"},
	    {"dir", "@/iotrial-scratch.12345678901-abcdef", "", "not a path"},
	    {"dir", "@/iotrial-scratch.1abcdef", "", "not a path"},
	    {"dir", "@/iotrial.1-abcdef", "", "not a path"},
	    {"dir", "@/iotrial-scratch.1-abcdef/victim", "", "not a path"},
	    {"dir", "@/iotrial-scratch.1-abcdef/mnt/victim", "", "not a path"},
	    {"dir", "@/disk.img", "", "not a path"},
	    {"file", "@/victim/disk.img", "", "not a path"},
	    /* the right place, the wrong kind of record */
	    {"dir", "@/iotrial-scratch.1-abcdef/disk.img", "",
	     "not a scratch directory"},
	    {"file", "@/iotrial-scratch.1-abcdef", "", "not a scratch image"},
	    {"file", "@/iotrial-scratch.1-abcdef/mnt", "",
	     "not a scratch image"},
	    /* loop devices: the node, and what it must be backed by */
	    {"loop", "/dev/sda", "@/iotrial-scratch.1-abcdef/disk.img",
	     "not a loop device node"},
	    {"loop", "/dev/loop", "@/iotrial-scratch.1-abcdef/disk.img",
	     "not a loop device node"},
	    {"loop", "/dev/loop1x", "@/iotrial-scratch.1-abcdef/disk.img",
	     "not a loop device node"},
	    {"loop", "/dev/loop-control", "@/iotrial-scratch.1-abcdef/disk.img",
	     "not a loop device node"},
	    {"loop", "/dev/loop1234567890",
	     "@/iotrial-scratch.1-abcdef/disk.img", "not a loop device node"},
	    {"loop", "/dev/../dev/loop1", "@/iotrial-scratch.1-abcdef/disk.img",
	     "not a loop device node"},
	    {"loop", "/dev/loop1", "@/victim", "not a path iotrial makes"},
	    {"loop", "/dev/loop1", "@/iotrial-scratch.1-abcdef",
	     "backing file is not a scratch image"},
	    {"loop", "/dev/loop1", "@/iotrial-scratch.1-abcdef/mnt",
	     "backing file is not a scratch image"},
	    /* mounts: the mount point, and the device mounted there */
	    {"mount", "@/victim", "/dev/loop1", "not a path iotrial makes"},
	    {"mount", "@/iotrial-scratch.1-abcdef", "/dev/loop1",
	     "not a scratch mount point"},
	    {"mount", "@/iotrial-scratch.1-abcdef/disk.img", "/dev/loop1",
	     "not a scratch mount point"},
	    {"mount", "@/iotrial-scratch.1-abcdef/mnt", "/dev/vda",
	     "'/dev/vda' is not a loop device node"},
	    {"mount", "@/iotrial-scratch.1-abcdef/mnt", "@/victim",
	     "is not a loop device node"},
	    /* a work directory is not scratch's: its own kind checks it */
	    {"work", "@/iotrial-scratch.1-abcdef", "",
	     "not a part of a scratch target"},
	};
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, p = STRBUF_INIT;
	size_t i;

	(void)state;
	/* everything a refused record could name exists and is ours */
	strbuf_addf(&p, "%s/victim", tmp);
	make(p.buf, 'd');
	strbuf_setf(&p, "%s/victim/disk.img", tmp);
	make(p.buf, 'f');
	strbuf_setf(&p, "%s/disk.img", tmp);
	make(p.buf, 'f');
	strbuf_setf(&p, "%s/iotrial-scratch.1-abcdef", tmp);
	make(p.buf, 'd');
	strbuf_setf(&p, "%s/iotrial-scratch.1-abcdef/victim", tmp);
	make(p.buf, 'f');
	strbuf_setf(&p, "%s/iotrial-scratch.1-abcdef/disk.img", tmp);
	make(p.buf, 'd'); /* the wrong kind: refused as a "file" */
	strbuf_setf(&p, "%s/iotrial-scratch.1-abcdef/mnt", tmp);
	make(p.buf, 'f'); /* the wrong kind: refused as a "dir" */

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		/* "@" stands for TMPDIR */
		strbuf_reset(&a);
		strbuf_reset(&b);
		if (refused[i].a[0] == '@')
			strbuf_addf(&a, "%s%s", tmp, refused[i].a + 1);
		else
			strbuf_addstr(&a, refused[i].a);
		if (refused[i].b[0] == '@')
			strbuf_addf(&b, "%s%s", tmp, refused[i].b + 1);
		else
			strbuf_addstr(&b, refused[i].b);
		undo_is(refused[i].what, a.buf, b.buf, -EPERM, refused[i].msg);
	}
	/* the right shape, but the wrong kind of file there */
	strbuf_setf(&a, "%s/iotrial-scratch.1-abcdef/disk.img", tmp);
	undo_is("file", a.buf, "", -EPERM, "it is not a regular file");
	strbuf_setf(&a, "%s/iotrial-scratch.1-abcdef/mnt", tmp);
	undo_is("dir", a.buf, "", -EPERM, "it is not a directory");

	/* nothing was touched */
	assert_int_equal(entries(tmp), 3);
	strbuf_setf(&p, "%s/victim", tmp);
	assert_int_equal(entries(p.buf), 1);
	strbuf_setf(&p, "%s/iotrial-scratch.1-abcdef", tmp);
	assert_int_equal(entries(p.buf), 3);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&p);
}

/* A symbolic link on the way to a scratch path, or in its place, is
 * -EPERM: recovery never removes what a link leads to. */
static void test_undo_links(void **state)
{
	struct strbuf a = STRBUF_INIT, p = STRBUF_INIT;

	(void)state;
	strbuf_addf(&p, "%s/real", tmp);
	make(p.buf, 'd');
	strbuf_setf(&p, "%s/real/iotrial-scratch.1-abcdef", tmp);
	make(p.buf, 'd');
	strbuf_setf(&p, "%s/real/iotrial-scratch.1-abcdef/disk.img", tmp);
	make(p.buf, 'f');
	strbuf_setf(&p, "%s/real/iotrial-scratch.1-abcdef/mnt", tmp);
	make(p.buf, 'd');
	strbuf_setf(&p, "%s/link", tmp);
	assert_int_equal(symlink("real", p.buf), 0);

	/* through a linked parent */
	strbuf_setf(&a, "%s/link/iotrial-scratch.1-abcdef", tmp);
	undo_is("dir", a.buf, "", -EPERM, "symbolic link");
	strbuf_setf(&a, "%s/link/iotrial-scratch.1-abcdef/disk.img", tmp);
	undo_is("file", a.buf, "", -EPERM, "symbolic link");
	strbuf_setf(&a, "%s/link/iotrial-scratch.1-abcdef/mnt", tmp);
	undo_is("dir", a.buf, "", -EPERM, "symbolic link");
	undo_is("mount", a.buf, "/dev/loop1", -EPERM, "symbolic link");

	/* a scratch directory, an image or a mount point that is a link */
	strbuf_setf(&p, "%s/iotrial-scratch.2-abcdef", tmp);
	assert_int_equal(symlink("real/iotrial-scratch.1-abcdef", p.buf), 0);
	undo_is("dir", p.buf, "", -EPERM, "not a directory");
	strbuf_setf(&a, "%s/iotrial-scratch.2-abcdef/disk.img", tmp);
	undo_is("file", a.buf, "", -EPERM, "symbolic link");
	strbuf_setf(&p, "%s/iotrial-scratch.3-abcdef", tmp);
	make(p.buf, 'd');
	strbuf_setf(&p, "%s/iotrial-scratch.3-abcdef/disk.img", tmp);
	assert_int_equal(
	    symlink("../real/iotrial-scratch.1-abcdef/disk.img", p.buf), 0);
	undo_is("file", p.buf, "", -EPERM, "not a regular file");
	strbuf_setf(&p, "%s/iotrial-scratch.3-abcdef/mnt", tmp);
	assert_int_equal(symlink("../real/iotrial-scratch.1-abcdef/mnt", p.buf),
			 0);
	undo_is("dir", p.buf, "", -EPERM, "not a directory");

	/* what the links lead to is all there */
	strbuf_setf(&p, "%s/real/iotrial-scratch.1-abcdef", tmp);
	assert_int_equal(entries(p.buf), 2);
	strbuf_setf(&p, "%s/iotrial-scratch.3-abcdef", tmp);
	assert_int_equal(entries(p.buf), 2);
	strbuf_release(&a);
	strbuf_release(&p);
}

/*
 * The shapes scratch_open() makes are removed (0), and a second time
 * they are already gone (-ESTALE); a loop device or mount that is not
 * (any more) ours is -ESTALE and left alone. As root, a scratch
 * directory owned by someone else is refused.
 */
static void test_undo_accepted(void **state)
{
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT;

	(void)state;
	strbuf_addf(&dir, "%s/iotrial-scratch.%ld-0a9f3c", tmp, (long)getpid());
	make(dir.buf, 'd');
	strbuf_setf(&p, "%s/disk.img", dir.buf);
	make(p.buf, 'f');
	undo_is("file", p.buf, "", 0, "");
	assert_false(exists(p.buf));
	undo_is("file", p.buf, "", -ESTALE, "it is already gone");

	/* nothing backs a loop device with our image: not ours now */
	undo_is("loop", "/dev/loop999999999", p.buf, -ESTALE,
		"it is not attached");
	strbuf_setf(&p, "%s/mnt", dir.buf);
	undo_is("mount", p.buf, "/dev/loop1", -ESTALE,
		"nothing is mounted there");
	make(p.buf, 'd');
	undo_is("mount", p.buf, "/dev/loop1", -ESTALE,
		"nothing is mounted there");
	undo_is("dir", p.buf, "", 0, "");
	assert_false(exists(p.buf));
	undo_is("dir", p.buf, "", -ESTALE, "it is already gone");

	if (!geteuid()) {
		assert_int_equal(chown(dir.buf, 65534, 65534), 0);
		undo_is("dir", dir.buf, "", -EPERM, "belongs to uid 65534");
		make(p.buf, 'd');
		undo_is("dir", p.buf, "", -EPERM,
			"its scratch directory belongs to uid 65534");
		assert_true(exists(p.buf));
		assert_int_equal(rmdir(p.buf), 0);
		assert_int_equal(chown(dir.buf, 0, 0), 0);
	}
	undo_is("dir", dir.buf, "", 0, "");
	assert_false(exists(dir.buf));
	undo_is("dir", dir.buf, "", -ESTALE, "it is already gone");
	strbuf_setf(&p, "%s/disk.img", dir.buf);
	undo_is("file", p.buf, "", -ESTALE, "it is already gone");
	assert_int_equal(entries(tmp), 0);
	strbuf_release(&dir);
	strbuf_release(&p);
}

/* What sysfs says loop device dev ("/dev/loopN") is backed by, into out;
 * empty when it is not attached. */
static void backing_file(const char *dev, struct strbuf *out)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_reset(out);
	strbuf_addf(&p, "/sys/block/%s/loop/backing_file", dev + 5);
	if (strbuf_read_file(out, p.buf, 0))
		strbuf_reset(out);
	strbuf_trim(out);
	strbuf_release(&p);
}

/*
 * As root: scratch:64M is a raw loop device on TMPDIR/iotrial-scratch.
 * PID-XXXXXX/disk.img, journaled while open; releasing it leaves no loop
 * device, mount, file or journal. A stop request during set-up tears
 * down what was made.
 */
static void test_open_release(void **state)
{
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	struct target t = {0};
	volatile int stop = 1;
	char journal[128], *dev;
	const char *p;
	struct stat st;
	int i;

	(void)state;
	if (geteuid())
		skip();
	snprintf(journal, sizeof(journal), "%s/state/journal", base);

	t.spec = strdup("scratch:64M");
	assert_int_equal(scratch_open(&t, "64M", NULL, &err), 0);
	assert_string_equal(err.buf, "");
	assert_int_equal(t.kind, TARGET_BLOCKDEV);
	assert_non_null(t.scratch);
	assert_non_null(scratch_session(&t));
	dev = strdup(scratch_device(&t));
	assert_string_equal(t.path, dev);
	assert_int_equal(strncmp(dev, "/dev/loop", 9), 0);
	for (p = dev + 9; *p; p++)
		assert_true(*p >= '0' && *p <= '9');
	assert_int_equal(stat(dev, &st), 0);
	assert_true(S_ISBLK(st.st_mode));
	assert_int_equal(t.dev, st.st_rdev);
	assert_int_equal(t.capacity_bytes, 64 << 20);
	assert_true(t.logical_block_bytes >= 512);

	/* backed by TMPDIR/iotrial-scratch.PID-XXXXXX/disk.img */
	assert_int_equal(entries(tmp), 1);
	strbuf_addf(&want, "%s/iotrial-scratch.%ld-", tmp, (long)getpid());
	backing_file(dev, &got);
	assert_int_equal(strncmp(got.buf, want.buf, want.len), 0);
	assert_int_equal(got.len, want.len + 6 + strlen("/disk.img"));
	assert_string_equal(got.buf + want.len + 6, "/disk.img");
	assert_int_equal(stat(got.buf, &st), 0);
	assert_int_equal(st.st_size, 64 << 20);
	assert_true(exists(journal));
	assert_false(mounted_under(tmp));

	target_release(&t);
	assert_null(t.scratch);
	/* detaching is deferred while someone (udev probing the new device)
	 * still has it open: allow that a few seconds to finish */
	for (i = 0; i < 100; i++) {
		backing_file(dev, &got);
		if (!got.len || strncmp(got.buf, want.buf, want.len))
			break;
		usleep(50000);
	}
	if (got.len && !strncmp(got.buf, want.buf, want.len))
		fail_msg("'%s' still backed by '%s'", dev, got.buf);
	assert_nothing_left();

	/* stopped during set-up: -EINTR, and nothing is left */
	memset(&t, 0, sizeof(t));
	strbuf_reset(&err);
	assert_int_equal(scratch_open(&t, "64M", &stop, &err), -EINTR);
	assert_non_null(
	    strstr(err.buf, "interrupted while setting up 'scratch:64M'"));
	assert_null(t.scratch);
	assert_nothing_left();

	free(dev);
	strbuf_release(&err);
	strbuf_release(&want);
	strbuf_release(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_spec_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_needs_root, setup, teardown),
	    cmocka_unit_test(test_no_scratch),
	    cmocka_unit_test_setup_teardown(test_undo_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_undo_links, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_undo_accepted, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_open_release, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
