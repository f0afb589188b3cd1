/*
 * Tests for the uring tracker (core/trace/track_uring): submissions and
 * completions of io_uring requests become one event each, at the
 * completion, with the file the descriptor names, the offset (the
 * file's position for an offset of -1), the size (what moved for a
 * vectored request), the ring, the depth at the submission and the
 * flags (registered file, SQPOLL, not completed); a registered file is
 * named by the identity the completion read; what cannot be named is
 * counted, not written; io_uring_setup calls are counted.
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
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/trace/trace.h"
#include "core/trace/track.h"
#include "core/trace/track_uring.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define RING 0xffff888001000000ull /* a struct io_ring_ctx's address */

/* A temporary file name of our own (removed by the caller). */
static void tmp_path(char *buf, size_t n, const char *what)
{
	snprintf(buf, n, "%s/iotrial-uring-test.%d.%s",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(),
		 what);
}

/* A system call of this process that returned ret at time ts. */
static struct iot_call call(long nr, uint64_t a0, uint64_t a1, uint64_t a2,
			    int64_t ret, uint64_t ts)
{
	struct iot_call c = {0};

	c.kind = IOT_REC_CALL;
	c.nr = (uint32_t)nr;
	c.tgid = c.tid = (uint32_t)getpid();
	c.enter_ns = ts;
	c.exit_ns = ts + 10;
	c.args[0] = a0;
	c.args[1] = a1;
	c.args[2] = a2;
	c.ret = ret;
	return c;
}

/* A submission of request req at ts: opcode on fd, pos, len. */
static struct iot_uring sub(uint64_t req, uint8_t opcode, int32_t fd,
			    uint64_t pos, uint32_t len, uint64_t ts)
{
	struct iot_uring u = {0};

	u.kind = IOT_REC_URING;
	u.which = IOT_URING_SUBMIT;
	u.tgid = u.tid = (uint32_t)getpid();
	u.ts_ns = ts;
	u.ctx = RING;
	u.req = req;
	u.opcode = opcode;
	u.fd = fd;
	u.pos = pos;
	u.len = len;
	return u;
}

/* The completion of req at ts with res; the file it was on (kernel
 * device numbering) and where its offset ended. */
static struct iot_uring done(uint64_t req, int32_t res, uint64_t ts,
			     uint64_t kdev, uint64_t ino, uint64_t pos)
{
	struct iot_uring u = {0};

	u.kind = IOT_REC_URING;
	u.which = IOT_URING_COMPLETE;
	u.tgid = u.tid = (uint32_t)getpid();
	u.ts_ns = ts;
	u.ctx = RING;
	u.req = req;
	u.res = res;
	u.dev = kdev;
	u.ino = ino;
	u.pos = pos;
	return u;
}

static void test_requests(void **state)
{
	struct trace_writer w;
	struct tracker tk;
	struct uring_tracker ut;
	struct strbuf err = STRBUF_INIT;
	struct trace t = {0};
	struct iot_call c;
	struct iot_uring u;
	struct stat st;
	char path[256], data[256];
	uint64_t kdev;
	const struct trace_event *e;
	int fd;

	(void)state;
	tmp_path(path, sizeof(path), "trace");
	tmp_path(data, sizeof(data), "data");
	fd = open(data, O_CREAT | O_TRUNC | O_RDWR, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	kdev = ((uint64_t)major(st.st_dev) << 20) | minor(st.st_dev);
	assert_int_equal(trace_writer_open(&w, path, 0, &err), 0);
	tracker_init(&tk, &w, 0);
	uring_tracker_init(&ut, &tk);
	c = call(SYS_openat, (uint64_t)AT_FDCWD, 0, O_RDWR, 7, 100);
	assert_int_equal(tracker_call(&tk, &c, data, "", &err), 0);
	c = call(SYS_io_uring_setup, 8, 0, 0, 8, 150);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	assert_int_equal(tk.rings, 1);
	u = (struct iot_uring){.kind = IOT_REC_URING,
			       .which = IOT_URING_CREATE,
			       .tgid = (uint32_t)getpid(),
			       .tid = 4242,
			       .ts_ns = 160,
			       .ctx = RING};
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	/* a read and a write in flight together; the write ends first */
	u = sub(0x100, UOP_READ, 7, 0, 4096, 200);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	u = sub(0x200, UOP_WRITE, 7, 8192, 4096, 210);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	u = done(0x200, 4096, 250, kdev, st.st_ino, 12288);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	u = done(0x100, 4096, 300, kdev, st.st_ino, 4096);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	/* a writev at the file's position (-1): it ended at 24 KiB */
	u = sub(0x300, UOP_WRITEV, 7, UINT64_MAX, 2, 400);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	u = done(0x300, 8192, 450, kdev, st.st_ino, 24576);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	/* a read of registered file 0 by the ring's kernel thread: named
	 * by the identity its completion read */
	u = sub(0x400, UOP_READ_FIXED, 0, 4096, 4096, 500);
	u.flags = UR_REQ_FIXED_FILE;
	u.sq_thread = 1;
	u.tid = 9999;
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	u = done(0x400, 4096, 550, kdev, st.st_ino, 8192);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	/* a descriptor nobody knows, a file nobody has: counted only */
	u = sub(0x500, UOP_READ, 999, 0, 4096, 600);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	u = done(0x500, 4096, 650, 0, 0, 0);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	/* an operation not recorded: nothing */
	u = sub(0x600, 0 /* nop */, -1, 0, 0, 700);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	/* an fdatasync never completed, and a completion of a request
	 * submitted before the trace */
	u = sub(0x700, UOP_FSYNC, 7, 0, 0, 800);
	u.sync_flags = UR_FSYNC_DATASYNC;
	u.sync_len = 65536;
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	u = done(0x800, 4096, 850, kdev, st.st_ino, 0);
	assert_int_equal(uring_tracker_event(&ut, &u, &err), 0);
	assert_int_equal(uring_tracker_finish(&ut, 2, "nop 2", &err), 0);
	assert_int_equal(ut.written, 5);
	assert_int_equal(ut.unattributed, 1);
	assert_int_equal(ut.undone, 1);
	assert_int_equal(ut.nr_numbered, 1);
	assert_int_equal(trace_writer_finish(&w, &(struct trace_end){0}, &err),
			 0);
	trace_writer_release(&w);
	assert_int_equal(trace_read_file(path, &t, &err), 0);
	assert_int_equal(t.version_minor, 3);
	assert_int_equal(t.nr_events, 6); /* the open, five requests */
	e = &t.events[1];		  /* the write, at its completion */
	assert_int_equal(e->op, TOP_URING_WRITE);
	assert_int_equal(e->file, 1);
	assert_int_equal(e->fd, 7);
	assert_int_equal(e->offset, 8192);
	assert_int_equal(e->size, 4096);
	assert_int_equal(e->ret, 4096);
	assert_int_equal(e->ts_ns, 210);
	assert_int_equal(e->dur_ns, 40);
	assert_int_equal(e->file2, 1); /* the ring */
	assert_int_equal(e->arg, 2);   /* in flight with the read */
	assert_true(e->flags & TEV_POSITIONAL);
	e = &t.events[2];
	assert_int_equal(e->op, TOP_URING_READ);
	assert_int_equal(e->arg, 1);
	assert_int_equal(e->dur_ns, 100);
	e = &t.events[3];
	assert_int_equal(e->op, TOP_URING_WRITE);
	assert_int_equal(e->offset, 16384);
	assert_int_equal(e->size, 8192);
	assert_true(e->flags & TEV_VEC);
	assert_false(e->flags & TEV_POSITIONAL);
	e = &t.events[4];
	assert_int_equal(e->op, TOP_URING_READ);
	assert_int_equal(e->file, 1);
	assert_int_equal(e->fd, 0);
	assert_int_equal(e->tid, 4242); /* the ring's maker */
	assert_true(e->flags & TEV_FIXED);
	assert_true(e->flags & TEV_SQPOLL);
	e = &t.events[5];
	assert_int_equal(e->op, TOP_URING_FDATASYNC);
	assert_int_equal(e->size, 65536);
	assert_true(e->flags & TEV_UNDONE);
	assert_string_equal(trace_meta_get(&t, "uring.unattributed"), "1");
	assert_string_equal(trace_meta_get(&t, "uring.other"), "2");
	assert_string_equal(trace_meta_get(&t, "uring.other_ops"), "nop 2");
	uring_tracker_release(&ut);
	tracker_release(&tk);
	trace_release(&t);
	close(fd);
	unlink(data);
	unlink(path);
	strbuf_release(&err);
}

/* The opcodes recorded, and what they are written as. */
static void test_ops(void **state)
{
	uint8_t ops[256];
	unsigned i, n = 0;

	(void)state;
	uring_ops_table(ops);
	for (i = 0; i < 256; i++)
		n += ops[i];
	assert_int_equal(n, 9);
	assert_int_equal(uring_op_of(UOP_READV_FIXED, 0), TOP_URING_READ);
	assert_int_equal(uring_op_of(UOP_WRITE_FIXED, 0), TOP_URING_WRITE);
	assert_int_equal(uring_op_of(UOP_FSYNC, 0), TOP_URING_FSYNC);
	assert_int_equal(uring_op_of(UOP_FSYNC, UR_FSYNC_DATASYNC),
			 TOP_URING_FDATASYNC);
	assert_int_equal(uring_op_of(8 /* sync_file_range */, 0), TOP_NONE);
	assert_int_equal(trace_op_base(TOP_URING_FDATASYNC), TOP_FDATASYNC);
	assert_int_equal(trace_op_base(TOP_WRITE), TOP_WRITE);
	assert_int_equal(trace_op_minor(TOP_URING_READ), 3);
	/* 26 and 27 are the same minor's sync and syncfs */
	assert_true(trace_op_known(TOP_SYNC));
	assert_true(trace_op_known(TOP_SYNCFS));
	assert_true(trace_op_known(TOP_URING_READ));
	assert_false(trace_op_known(TOP__NR));
	assert_string_equal(trace_op_name(26), "sync");
	assert_int_equal(trace_op_minor(TOP_SYNCFS), 3);
	assert_int_equal(trace_op_find("uring_fdatasync"), TOP_URING_FDATASYNC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_requests),
	    cmocka_unit_test(test_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
