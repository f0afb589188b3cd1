/*
 * Tests for core/trace: the format round trip (what the writer writes
 * the reader reads back, field by field), the reader's refusals of
 * malformed and hostile input, the summary's counts, and the tracker
 * turning raw system calls of this very process into events with the
 * offsets a descriptor's position implies.
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
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/trace/capture-int.h"
#include "core/trace/trace.h"
#include "core/trace/trace_summary.h"
#include "core/trace/track.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A temporary file name of our own (removed by the caller). */
static void tmp_path(char *buf, size_t n)
{
	snprintf(buf, n, "%s/iotrial-trace-test.%d.%u",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(),
		 (unsigned)rand());
}

/* The bytes of the file at path. */
static void slurp(const char *path, struct strbuf *sb)
{
	assert_int_equal(strbuf_read_file(sb, path, 0), 0);
}

/* A small trace: two files, three events. */
static void sample(struct trace *t)
{
	struct trace_file f = {.kind = TFK_REG,
			       .existed = 1,
			       .dev = 2049,
			       .ino = 77,
			       .size_bytes = 8192,
			       .path = "/data/a"};
	struct trace_event e = {0};

	memset(t, 0, sizeof(*t));
	trace_add_meta(t, "layer", "file");
	trace_add_file(t, &f);
	f.existed = 0;
	f.size_bytes = 0;
	f.path = "/data/b";
	trace_add_file(t, &f);
	e.ts_ns = 1000;
	e.dur_ns = 50;
	e.tid = 42;
	e.op = TOP_OPEN;
	e.file = 1;
	e.fd = 3;
	e.ret = 3;
	e.arg = O_RDONLY;
	ALLOC_GROW(t->events, 3, t->alloc_events);
	t->events[0] = e;
	e.ts_ns = 2000;
	e.op = TOP_READ;
	e.offset = 4096;
	e.size = 4096;
	e.ret = 4096;
	t->events[1] = e;
	e.ts_ns = 1500000000ull;
	e.op = TOP_RENAME;
	e.file2 = 2;
	e.fd = -1;
	e.ret = -ENOENT;
	t->events[2] = e;
	t->nr_events = 3;
	t->end.lost = 5;
	t->end.duration_ns = 2000000000ull;
}

static void test_round_trip(void **state)
{
	struct trace t, r = {0};
	struct strbuf err = STRBUF_INIT;
	char path[256];
	size_t i;

	(void)state;
	sample(&t);
	tmp_path(path, sizeof(path));
	assert_int_equal(trace_write_file(&t, path, 0, &err), 0);
	/* an existing file is refused unless replace */
	assert_int_equal(trace_write_file(&t, path, 0, &err), -EEXIST);
	assert_int_equal(trace_read_file(path, &r, &err), 0);
	assert_true(r.complete);
	assert_int_equal(r.nr_files, 2);
	assert_string_equal(r.files[1].path, "/data/b");
	assert_int_equal(r.files[0].size_bytes, 8192);
	assert_int_equal(r.files[0].existed, 1);
	assert_int_equal(r.files[1].existed, 0);
	assert_int_equal(r.nr_events, 3);
	for (i = 0; i < 3; i++)
		assert_memory_equal(&r.events[i], &t.events[i],
				    sizeof(r.events[i]));
	assert_int_equal(r.end.lost, 5);
	assert_int_equal(r.end.nr_events, 3);
	assert_string_equal(trace_meta_get(&r, "layer"), "file");
	unlink(path);
	trace_release(&t);
	trace_release(&r);
	strbuf_release(&err);
}

/* Read buf[0..len) as a trace: the return code, err checked non-empty
 * on failure. */
static int read_bytes(const char *buf, size_t len)
{
	struct strbuf err = STRBUF_INIT;
	struct trace t = {0};
	char *copy = xmalloc(len ? len : 1);
	int r;

	memcpy(copy, buf, len);
	r = trace_read_mem(copy, len, &t, &err);
	if (r)
		assert_true(err.len > 0);
	trace_release(&t);
	strbuf_release(&err);
	free(copy);
	return r;
}

/* The idx-th event of the first EVENTS record of the trace bytes in sb
 * (the sample's: files first, then one block of events). */
static unsigned char *event_at(struct strbuf *sb, size_t idx)
{
	size_t at = 16;

	for (;;) {
		const unsigned char *p = (const unsigned char *)sb->buf + at;
		uint32_t type = p[0] | p[1] << 8,
			 len = p[4] | p[5] << 8 | (uint32_t)p[6] << 16;

		assert_true(at + 8 <= sb->len);
		if (type == TRACE_REC_EVENTS)
			return (unsigned char *)sb->buf + at + 8 +
			       idx * TRACE_EVENT_BYTES;
		at += 8 + len;
	}
}

static void test_refusals(void **state)
{
	struct trace t, r;
	struct strbuf err = STRBUF_INIT, file = STRBUF_INIT;
	char path[256];
	unsigned char *ev;
	size_t at;

	(void)state;
	sample(&t);
	tmp_path(path, sizeof(path));
	assert_int_equal(trace_write_file(&t, path, 0, &err), 0);
	slurp(path, &file);
	assert_int_equal(read_bytes(file.buf, file.len), 0);
	/* not a trace; empty; another major version */
	assert_int_equal(read_bytes("IOTRACE", 7), -EINVAL);
	assert_int_equal(read_bytes("", 0), -EINVAL);
	file.buf[8] = 2;
	assert_int_equal(read_bytes(file.buf, file.len), -ENOTSUP);
	file.buf[8] = 1;
	/* a trace cut anywhere past its header (a recorder killed, a full
	 * disk) reads to its last whole record, incomplete */
	for (at = 16; at < file.len; at++) {
		memset(&r, 0, sizeof(r));
		assert_int_equal(trace_read_mem(file.buf, at, &r, &err), 0);
		assert_false(r.complete);
		assert_true(r.nr_events <= 3);
		trace_release(&r);
	}
	/* a record longer than the limit is refused, not taken as cut */
	ev = event_at(&file, 0);
	ev[-1] = 0x7f;
	assert_int_equal(read_bytes(file.buf, file.len), -EINVAL);
	slurp(path, &file);
	/* an event naming a file that is not listed: the reader refuses
	 * it, and the writer does not write it */
	event_at(&file, 1)[24] = 9;
	assert_int_equal(read_bytes(file.buf, file.len), -EINVAL);
	t.events[1].file = 9;
	assert_int_equal(trace_write_file(&t, path, 1, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "names file 9"));
	/* an unknown operation */
	t.events[1].file = 1;
	slurp(path, &file); /* the write failed: the old file is whole */
	assert_int_equal(read_bytes(file.buf, file.len), 0);
	event_at(&file, 1)[20] = TOP__NR;
	assert_int_equal(read_bytes(file.buf, file.len), -EINVAL);
	t.events[1].op = TOP__NR;
	assert_int_equal(trace_write_file(&t, path, 1, &err), -EINVAL);
	/* fadvise: each of Linux's six advice values reads, another is
	 * neither written nor read; nor does it in a trace that says 1.1 */
	t.events[1].op = TOP_FADVISE;
	for (at = 0; at < 6; at++) {
		t.events[1].arg = (uint32_t)at;
		assert_int_equal(trace_write_file(&t, path, 1, &err), 0);
		slurp(path, &file);
		assert_int_equal(read_bytes(file.buf, file.len), 0);
	}
	event_at(&file, 1)[56] = 6;
	assert_int_equal(read_bytes(file.buf, file.len), -EINVAL);
	t.events[1].arg = 6;
	assert_int_equal(trace_write_file(&t, path, 1, &err), -EINVAL);
	t.events[1].arg = POSIX_FADV_WILLNEED;
	assert_int_equal(trace_write_file(&t, path, 1, &err), 0);
	slurp(path, &file);
	file.buf[10] = 1;
	assert_int_equal(read_bytes(file.buf, file.len), -EINVAL);
	file.buf[10] = 2;
	assert_int_equal(read_bytes(file.buf, file.len), 0);
	/* an io_uring request reads in a 1.3 trace, with its ring in
	 * file2 (not a file), not in a 1.2 one */
	t.events[1].op = TOP_URING_WRITE;
	t.events[1].file2 = 5;
	assert_int_equal(trace_write_file(&t, path, 1, &err), 0);
	slurp(path, &file);
	assert_int_equal(read_bytes(file.buf, file.len), 0);
	file.buf[10] = 2;
	assert_int_equal(read_bytes(file.buf, file.len), -EINVAL);
	t.events[1].op = TOP_READ; /* file2 is a file again */
	assert_int_equal(trace_write_file(&t, path, 1, &err), -EINVAL);
	t.events[1].file2 = 0;
	/* so do sync (26) and syncfs (27), the same format's: written and
	 * read back in a 1.3 trace, not read in a 1.2 one */
	for (at = TOP_SYNC; at <= TOP_SYNCFS; at++) {
		t.events[1].op = (uint16_t)at;
		assert_int_equal(trace_write_file(&t, path, 1, &err), 0);
		slurp(path, &file);
		memset(&r, 0, sizeof(r));
		assert_int_equal(trace_read_mem(file.buf, file.len, &r, &err),
				 0);
		assert_int_equal(r.events[1].op, at);
		assert_string_equal(trace_op_name(r.events[1].op),
				    at == TOP_SYNC ? "sync" : "syncfs");
		trace_release(&r);
		file.buf[10] = 2;
		assert_int_equal(read_bytes(file.buf, file.len), -EINVAL);
	}
	t.events[1].op = TOP_READ;
	/* what else the reader refuses the writer does not write: a file
	 * out of order, an empty path, an empty meta key */
	t.files[1].id = 3;
	assert_int_equal(trace_write_file(&t, path, 1, &err), -EINVAL);
	t.files[1].id = 2;
	free(t.files[1].path);
	t.files[1].path = xstrdup("");
	assert_int_equal(trace_write_file(&t, path, 1, &err), -EINVAL);
	free(t.files[1].path);
	t.files[1].path = xstrdup("/data/b");
	free(t.meta[0].key);
	t.meta[0].key = xstrdup("");
	assert_int_equal(trace_write_file(&t, path, 1, &err), -EINVAL);
	unlink(path);
	trace_release(&t);
	strbuf_release(&err);
	strbuf_release(&file);
}

static void test_summary(void **state)
{
	struct trace t;
	struct trace_summary s;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	sample(&t);
	trace_summarize(&t, &s);
	assert_int_equal(s.ops[TOP_OPEN], 1);
	assert_int_equal(s.ops[TOP_READ], 1);
	assert_int_equal(s.errors[TOP_RENAME], 1);
	assert_int_equal(s.bytes_read, 4096);
	assert_int_equal(s.read_sizes[12], 1);
	assert_int_equal(trace_summary_name_ops(&s), 2);
	assert_int_equal(s.nr_secs, 3);
	assert_int_equal(s.sec_ops[0], 2);
	assert_int_equal(s.sec_ops[1], 1);
	assert_int_equal(s.nr_threads, 1);
	assert_int_equal(s.files_existed, 1);
	assert_int_equal(s.files_created, 1);
	trace_stats_text(&t, &s, &out);
	assert_non_null(strstr(out.buf, "lost: 5 calls"));
	assert_non_null(strstr(out.buf, "name operations: 2 of 3"));
	trace_summary_release(&s);
	trace_release(&t);
	strbuf_release(&out);
}

/* A raw call of this process: nr, args, ret. */
static struct iot_call call(long nr, uint64_t a0, uint64_t a1, uint64_t a2,
			    uint64_t a3, int64_t ret)
{
	struct iot_call c = {0};
	static uint64_t now = 1000;

	c.kind = IOT_REC_CALL;
	c.nr = (uint32_t)nr;
	c.tgid = c.tid = (uint32_t)getpid();
	c.enter_ns = now;
	c.exit_ns = now + 10;
	now += 100;
	c.args[0] = a0;
	c.args[1] = a1;
	c.args[2] = a2;
	c.args[3] = a3;
	c.ret = ret;
	return c;
}

static void test_tracker(void **state)
{
	struct trace_writer w;
	struct tracker tk;
	struct strbuf err = STRBUF_INIT;
	struct trace t = {0};
	struct iot_call c;
	char path[256], data[256], cwd[1024];
	const char *slash;
	int fd;

	(void)state;
	tmp_path(path, sizeof(path));
	tmp_path(data, sizeof(data));
	fd = open(data, O_CREAT | O_EXCL | O_RDWR, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0123456789", 10), 10);
	assert_int_equal(trace_writer_open(&w, path, 0, &err), 0);
	tracker_init(&tk, &w, 0);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	tracker_set_cwd(&tk, (uint32_t)getpid(), cwd);
	/* the file opened as the program did, by a relative-to-/ path */
	slash = data + 1;
	c = call(SYS_chdir, (uint64_t)(uintptr_t) "/", 0, 0, 0, 0);
	assert_int_equal(tracker_call(&tk, &c, "/", NULL, &err), 0);
	c = call(SYS_openat, (uint64_t)AT_FDCWD, 0, O_RDWR, 0, 7);
	assert_int_equal(tracker_call(&tk, &c, slash, "", &err), 0);
	c = call(SYS_read, 7, 0, 4, 0, 4);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_read, 7, 0, 4, 0, 4);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_lseek, 7, 1, SEEK_SET, 0, 1);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_write, 7, 0, 3, 0, 3);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_pread64, 7, 0, 2, 8, 2);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	/* a descriptor the tracker never saw opened and that /proc does
	 * not know: dropped, counted */
	c = call(SYS_read, 999, 0, 4, 0, 4);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	/* page cache advice; one Linux does not know is dropped */
	c = call(SYS_fadvise64, 7, 100, 200, POSIX_FADV_DONTNEED, 0);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_fadvise64, 7, 0, 0, 9, -EINVAL);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_readahead, 7, 4096, 8192, 0, 0);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_close, 7, 0, 0, 0, 0);
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	assert_int_equal(tk.dropped, 2);
	assert_int_equal(trace_writer_finish(&w, &(struct trace_end){0}, &err),
			 0);
	trace_writer_release(&w);
	assert_int_equal(trace_read_file(path, &t, &err), 0);
	assert_int_equal(t.nr_events, 9);
	assert_int_equal(t.nr_files, 1);
	assert_string_equal(t.files[0].path, data);
	assert_int_equal(t.files[0].existed, 1);
	assert_int_equal(t.files[0].size_bytes, 10);
	assert_int_equal(t.events[0].op, TOP_OPEN);
	assert_int_equal(t.events[1].offset, 0);
	assert_int_equal(t.events[2].offset, 4);
	assert_int_equal(t.events[3].op, TOP_LSEEK);
	assert_int_equal(t.events[4].op, TOP_WRITE);
	assert_int_equal(t.events[4].offset, 1);
	assert_int_equal(t.events[5].offset, 8);
	assert_true(t.events[5].flags & TEV_POSITIONAL);
	assert_int_equal(t.events[6].op, TOP_FADVISE);
	assert_int_equal(t.events[6].fd, 7);
	assert_int_equal(t.events[6].file, 1);
	assert_int_equal(t.events[6].offset, 100);
	assert_int_equal(t.events[6].size, 200);
	assert_int_equal(t.events[6].arg, POSIX_FADV_DONTNEED);
	assert_int_equal(t.events[7].op, TOP_READAHEAD);
	assert_int_equal(t.events[7].offset, 4096);
	assert_int_equal(t.events[7].size, 8192);
	assert_int_equal(t.events[8].op, TOP_CLOSE);
	tracker_release(&tk);
	trace_release(&t);
	close(fd);
	unlink(data);
	unlink(path);
	strbuf_release(&err);
}

/* A close that reaches the tracker after another thread's open of its
 * number (the kernel frees the number before the close returns) is
 * charged to the struct file it closed, and the open's file keeps the
 * number. */
static void test_close_overtaken(void **state)
{
	struct trace_writer w;
	struct tracker tk;
	struct strbuf err = STRBUF_INIT;
	struct trace t = {0};
	struct iot_call c;
	char path[256], a[256], b[256];
	int fa, fb;

	(void)state;
	tmp_path(path, sizeof(path));
	tmp_path(a, sizeof(a));
	tmp_path(b, sizeof(b));
	fa = open(a, O_CREAT | O_EXCL | O_RDWR, 0600);
	fb = open(b, O_CREAT | O_EXCL | O_RDWR, 0600);
	assert_true(fa >= 0 && fb >= 0);
	assert_int_equal(trace_writer_open(&w, path, 0, &err), 0);
	tracker_init(&tk, &w, 0);
	c = call(SYS_openat, (uint64_t)AT_FDCWD, 0, O_RDONLY, 0, 8);
	c.file = 0x1000;
	assert_int_equal(tracker_call(&tk, &c, a, "", &err), 0);
	/* thread 2 opens b as 8 while thread 1's close of a (8) runs */
	c = call(SYS_openat, (uint64_t)AT_FDCWD, 0, O_RDONLY, 0, 8);
	c.tid += 1;
	c.file = 0x2000;
	assert_int_equal(tracker_call(&tk, &c, b, "", &err), 0);
	assert_int_equal(tk.overtaken, 1);
	c = call(SYS_close, 8, 0, 0, 0, 0);
	c.file = 0x1000;
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_read, 8, 0, 4, 0, 0);
	c.tid += 1;
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	c = call(SYS_close, 8, 0, 0, 0, 0);
	c.tid += 1;
	c.file = 0x2000;
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	/* a close of a number nothing holds any more: dropped */
	c = call(SYS_close, 8, 0, 0, 0, -EBADF);
	c.file = 0;
	assert_int_equal(tracker_call(&tk, &c, NULL, NULL, &err), 0);
	assert_int_equal(trace_writer_finish(&w, &(struct trace_end){0}, &err),
			 0);
	trace_writer_release(&w);
	assert_int_equal(trace_read_file(path, &t, &err), 0);
	assert_int_equal(t.nr_events, 5);
	assert_int_equal(t.events[2].op, TOP_CLOSE);
	assert_int_equal(t.events[2].file, 1); /* a, not b */
	assert_int_equal(t.events[3].op, TOP_READ);
	assert_int_equal(t.events[3].file, 2);
	assert_int_equal(t.events[4].op, TOP_CLOSE);
	assert_int_equal(t.events[4].file, 2);
	tracker_release(&tk);
	trace_release(&t);
	close(fa);
	close(fb);
	unlink(a);
	unlink(b);
	unlink(path);
	strbuf_release(&err);
}

/* The per-syscall tracepoints' layouts capture_tp.c accepts. */
static void test_syscall_formats(void **state)
{
	static const char head[] =
	    "name: sys_enter_read\nID: 842\nformat:\n"
	    "\tfield:unsigned short "
	    "common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:unsigned char "
	    "common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\t"
	    "signed:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n";
	struct strbuf t = STRBUF_INIT;

	(void)state;
	strbuf_setf(&t, "%s%s", head,
		    "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
		    "\tfield:char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
		    "\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n\n"
		    "print fmt: \"fd: 0x%08lx\", ((unsigned long)(REC->fd))\n");
	assert_int_equal(tp_syscall_nargs(t.buf, 0), 3);
	assert_int_equal(tp_syscall_nargs(t.buf, 1), -ENOTSUP);
	strbuf_setf(&t, "%s%s", head,
		    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n");
	assert_int_equal(tp_syscall_nargs(t.buf, 1), 0);
	strbuf_setf(&t, "%s", head); /* sync(): no arguments */
	assert_int_equal(tp_syscall_nargs(t.buf, 0), 0);
	/* an argument of 4 bytes, a gap: not the declared layout */
	strbuf_setf(&t, "%s%s", head,
		    "\tfield:int fd;\toffset:16;\tsize:4;\tsigned:0;\n");
	assert_int_equal(tp_syscall_nargs(t.buf, 0), -ENOTSUP);
	strbuf_setf(&t, "%s%s", head,
		    "\tfield:int fd;\toffset:24;\tsize:8;\tsigned:0;\n");
	assert_int_equal(tp_syscall_nargs(t.buf, 0), -ENOTSUP);
	/* the number elsewhere, or none */
	strbuf_setf(
	    &t, "%s",
	    "\tfield:long __syscall_nr;\toffset:8;\tsize:8;\tsigned:1;\n"
	    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n");
	assert_int_equal(tp_syscall_nargs(t.buf, 1), -ENOTSUP);
	assert_int_equal(tp_syscall_nargs("", 0), -ENOTSUP);
	assert_int_equal(tp_syscall_nargs("\tfield:", 0), -ENOTSUP);
	strbuf_release(&t);
}

/* Where the io_uring tracepoints keep the fields the capture reads,
 * from their format text; a field missing or of another size: not. */
static void test_uring_formats(void **state)
{
	static const char head[] =
	    "\tfield:unsigned short "
	    "common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:void * ctx;\toffset:8;\tsize:8;\tsigned:0;\n"
	    "\tfield:void * req;\toffset:16;\tsize:8;\tsigned:0;\n";
	struct strbuf t = STRBUF_INIT;
	uint32_t off[IOT_UF__NR], uoff[IOT_UO__NR];

	(void)state;
	strbuf_setf(
	    &t, "%s%s", head,
	    "\tfield:u8 opcode;\toffset:32;\tsize:1;\tsigned:0;\n"
	    "\tfield:unsigned long long flags;\toffset:40;\tsize:8;\t"
	    "signed:0;\n"
	    "\tfield:bool sq_thread;\toffset:48;\tsize:1;\tsigned:0;\n");
	assert_int_equal(tp_uring_format(t.buf, IOT_URING_SUBMIT, off), 0);
	assert_int_equal(off[IOT_UF_CTX], 8);
	assert_int_equal(off[IOT_UF_REQ], 16);
	assert_int_equal(off[IOT_UF_OPCODE], 32);
	assert_int_equal(off[IOT_UF_FLAGS], 40);
	assert_int_equal(off[IOT_UF_FLAGS_SIZE], 8);
	assert_int_equal(off[IOT_UF_SQ_THREAD], 48);
	/* flags of 4 bytes (before 6.0) read as such */
	strbuf_setf(
	    &t, "%s%s", head,
	    "\tfield:u8 opcode;\toffset:24;\tsize:1;\tsigned:0;\n"
	    "\tfield:u32 flags;\toffset:28;\tsize:4;\tsigned:0;\n"
	    "\tfield:bool sq_thread;\toffset:32;\tsize:1;\tsigned:0;\n");
	assert_int_equal(tp_uring_format(t.buf, IOT_URING_SUBMIT, off), 0);
	assert_int_equal(off[IOT_UF_FLAGS_SIZE], 4);
	/* no sq_thread; an opcode of 4 bytes */
	strbuf_setf(&t, "%s%s", head,
		    "\tfield:u8 opcode;\toffset:24;\tsize:1;\tsigned:0;\n"
		    "\tfield:u32 flags;\toffset:28;\tsize:4;\tsigned:0;\n");
	assert_int_equal(tp_uring_format(t.buf, IOT_URING_SUBMIT, off),
			 -ENOTSUP);
	strbuf_setf(
	    &t, "%s%s", head,
	    "\tfield:int opcode;\toffset:24;\tsize:4;\tsigned:0;\n"
	    "\tfield:u32 flags;\toffset:28;\tsize:4;\tsigned:0;\n"
	    "\tfield:bool sq_thread;\toffset:32;\tsize:1;\tsigned:0;\n");
	assert_int_equal(tp_uring_format(t.buf, IOT_URING_SUBMIT, off),
			 -ENOTSUP);
	strbuf_setf(
	    &t, "%s%s", head,
	    "\tfield:int res;\toffset:32;\tsize:4;\tsigned:1;\n"
	    "\tfield:unsigned cflags;\toffset:36;\tsize:4;\tsigned:0;\n");
	assert_int_equal(tp_uring_format(t.buf, IOT_URING_COMPLETE, off), 0);
	assert_int_equal(off[IOT_UF_RES], 32);
	assert_int_equal(off[IOT_UF_CFLAGS], 36);
	assert_int_equal(tp_uring_format("", IOT_URING_COMPLETE, off),
			 -ENOTSUP);
	/* the request's fields, where the kernel has its BTF */
	if (!access("/sys/kernel/btf/vmlinux", R_OK)) {
		assert_int_equal(tp_uring_offsets(uoff), 0);
		assert_true(uoff[IOT_UO_POS] > 0);
		assert_true(uoff[IOT_UO_F_INODE] > 0); /* file: 0, the first */
	}
	strbuf_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_summary),
	    cmocka_unit_test(test_tracker),
	    cmocka_unit_test(test_close_overtaken),
	    cmocka_unit_test(test_syscall_formats),
	    cmocka_unit_test(test_uring_formats),
	};

	srand((unsigned)getpid());
	return cmocka_run_group_tests(tests, NULL, NULL);
}
