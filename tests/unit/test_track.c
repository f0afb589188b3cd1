/*
 * Tests for the system-call tracker (core/trace/track): a name opened
 * relative to a descriptor the trace left out (a directory of /proc) is
 * left out too, whatever the descriptor's number names by the time the
 * tracker reads the call; so are the calls on a descriptor whose open
 * came without its name; fchdir to a directory the tracker knows makes
 * that directory the base of relative names.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/trace/trace.h"
#include "core/trace/track.h"
#include "util/strbuf.h"
#include "util/banned.h"

/* A temporary name of our own (removed by the caller). */
static void tmp_path(char *buf, size_t n, const char *what)
{
	snprintf(buf, n, "%s/iotrial-track-test.%d.%s",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(),
		 what);
}

/* openat(dirfd, ..., flags) of this process that returned ret at ts. */
static struct iot_call openat_call(int64_t dirfd, uint32_t flags, int64_t ret,
				   uint64_t ts)
{
	struct iot_call c = {0};

	c.kind = IOT_REC_CALL;
	c.nr = SYS_openat;
	c.tgid = c.tid = (uint32_t)getpid();
	c.enter_ns = ts;
	c.exit_ns = ts + 10;
	c.args[0] = (uint64_t)dirfd;
	c.args[2] = flags;
	c.ret = ret;
	return c;
}

/* A call nr(a0) of this process that returned ret at ts. */
static struct iot_call fd_call(long nr, uint64_t a0, int64_t ret, uint64_t ts)
{
	struct iot_call c = {0};

	c.kind = IOT_REC_CALL;
	c.nr = (uint32_t)nr;
	c.tgid = c.tid = (uint32_t)getpid();
	c.enter_ns = ts;
	c.exit_ns = ts + 10;
	c.args[0] = a0;
	c.ret = ret;
	return c;
}

/* A tracker writing the trace at path. */
static void track_start(const char *path, struct trace_writer *w,
			struct tracker *tk)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(trace_writer_open(w, path, 0, &err), 0);
	tracker_init(tk, w, 0);
	strbuf_release(&err);
}

/* End what track_start() began and read the trace back into t. */
static void track_finish(const char *path, struct trace_writer *w,
			 struct tracker *tk, struct trace *t)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(trace_writer_finish(w, &(struct trace_end){0}, &err),
			 0);
	trace_writer_release(w);
	tracker_release(tk);
	assert_int_equal(trace_read_file(path, t, &err), 0);
	strbuf_release(&err);
}

/*
 * The capture's race: /proc opened (left out) at a number that, by the
 * time the tracker reads "44/stat" opened under it, this process has
 * given to a directory of a file system. The name must not be taken
 * to lie in that directory.
 */
static void test_under_left_out(void **state)
{
	struct trace_writer w;
	struct tracker tk;
	struct strbuf err = STRBUF_INIT;
	struct trace t = {0};
	struct iot_call c;
	char path[256], dir[256], name[300];
	int dfd;
	size_t i;

	(void)state;
	tmp_path(path, sizeof(path), "trace");
	tmp_path(dir, sizeof(dir), "dir");
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(name, sizeof(name), "%s/44", dir);
	assert_int_equal(mkdir(name, 0700), 0);
	snprintf(name, sizeof(name), "%s/44/stat", dir);
	close(open(name, O_CREAT | O_WRONLY, 0600));
	/* the number the recorded program had /proc at names dir now */
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	track_start(path, &w, &tk);
	c = openat_call(AT_FDCWD, O_RDONLY | O_DIRECTORY, dfd, 100);
	assert_int_equal(tracker_call(&tk, &c, "/proc", "", &err), 0);
	c = openat_call(dfd, O_RDONLY, 99, 200);
	assert_int_equal(tracker_call(&tk, &c, "44/stat", "", &err), 0);
	c = fd_call(SYS_read, 99, 160, 300);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	track_finish(path, &w, &tk, &t);
	for (i = 0; i < t.nr_files; i++)
		assert_null(strstr(t.files[i].path, "/44/stat"));
	assert_int_equal(t.nr_events, 0);
	trace_release(&t);
	close(dfd);
	unlink(name);
	snprintf(name, sizeof(name), "%s/44", dir);
	rmdir(name);
	rmdir(dir);
	unlink(path);
	strbuf_release(&err);
}

/* An open whose name the capture could not read: its descriptor's
 * calls are left out, not given to the file /proc names later. */
static void test_unnamed_open(void **state)
{
	struct trace_writer w;
	struct tracker tk;
	struct strbuf err = STRBUF_INIT;
	struct trace t = {0};
	struct iot_call c;
	char path[256], data[256];
	int fd;

	(void)state;
	tmp_path(path, sizeof(path), "trace");
	tmp_path(data, sizeof(data), "later");
	/* the number, by the time the tracker reads the read, names this */
	fd = open(data, O_CREAT | O_RDWR, 0600);
	assert_true(fd >= 0);
	track_start(path, &w, &tk);
	c = openat_call(AT_FDCWD, O_RDONLY, fd, 100);
	assert_int_equal(tracker_call(&tk, &c, "", "", &err), 0);
	c = fd_call(SYS_read, (uint64_t)fd, 37, 200);
	c.args[2] = 8191;
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	track_finish(path, &w, &tk, &t);
	assert_int_equal(t.nr_events, 0);
	trace_release(&t);
	close(fd);
	unlink(data);
	unlink(path);
	strbuf_release(&err);
}

/* fchdir to a directory the tracker has a name for: relative names
 * resolve there, not where /proc/self/cwd points when it reads them. */
static void test_fchdir(void **state)
{
	struct trace_writer w;
	struct tracker tk;
	struct strbuf err = STRBUF_INIT;
	struct trace t = {0};
	struct iot_call c;
	char path[256], dir[256], name[300];
	size_t i;
	int found = 0;

	(void)state;
	tmp_path(path, sizeof(path), "trace");
	tmp_path(dir, sizeof(dir), "cwd");
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(name, sizeof(name), "%s/f", dir);
	close(open(name, O_CREAT | O_WRONLY, 0600));
	track_start(path, &w, &tk);
	c = openat_call(AT_FDCWD, O_RDONLY | O_DIRECTORY, 40, 100);
	assert_int_equal(tracker_call(&tk, &c, dir, "", &err), 0);
	c = fd_call(SYS_fchdir, 40, 0, 200);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = openat_call(AT_FDCWD, O_RDONLY, 41, 300);
	assert_int_equal(tracker_call(&tk, &c, "f", "", &err), 0);
	track_finish(path, &w, &tk, &t);
	for (i = 0; i < t.nr_files; i++)
		found |= !strcmp(t.files[i].path, name);
	assert_true(found);
	trace_release(&t);
	unlink(name);
	rmdir(dir);
	unlink(path);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_under_left_out),
	    cmocka_unit_test(test_unnamed_open),
	    cmocka_unit_test(test_fchdir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
