/*
 * The block layer of a capture (core/trace/blk.c): rwbs strings, the
 * tracepoints' format files of two kernels' layouts, and the pairing of
 * insert, issue and complete into requests with their queue depth, read
 * back from a trace file.
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
#include "core/trace/blk.h"
#include "core/trace/blkparse.h"
#include "core/trace/trace.h"
#include "core/trace/trace_summary.h"
#include "util/strbuf.h"
#include "util/banned.h"

static void test_rwbs(void **state)
{
	static const struct {
		const char *rwbs;
		unsigned op, flags;
	} rows[] = {
	    {"W", TOP_BLK_WRITE, 0},
	    {"WS", TOP_BLK_WRITE, TEV_SYNC},
	    {"FWS", TOP_BLK_WRITE, TEV_PREFLUSH | TEV_SYNC},
	    {"WFS", TOP_BLK_WRITE, TEV_FUA | TEV_SYNC},
	    {"FWFSM", TOP_BLK_WRITE,
	     TEV_PREFLUSH | TEV_FUA | TEV_SYNC | TEV_META},
	    {"R", TOP_BLK_READ, 0},
	    {"RA", TOP_BLK_READ, TEV_RAHEAD},
	    {"D", TOP_BLK_DISCARD, 0},
	    {"DE", TOP_BLK_DISCARD, 0},
	    {"F", TOP_BLK_FLUSH, 0},
	    {"FF", TOP_BLK_FLUSH, 0},
	    {"FN", TOP_BLK_FLUSH, 0},
	};
	unsigned op, flags;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(blk_parse_rwbs(rows[i].rwbs, &op, &flags), 0);
		assert_int_equal(op, rows[i].op);
		assert_int_equal(flags, rows[i].flags);
	}
	assert_int_equal(blk_parse_rwbs("N", &op, &flags), -EINVAL);
	assert_int_equal(op, TOP_NONE);
	assert_int_equal(blk_parse_rwbs("", &op, &flags), -EINVAL);
	assert_int_equal(blk_parse_rwbs("X", &op, &flags), -EINVAL);
}

static void test_format(void **state)
{
	/* 6.x: ioprio, rwbs[10] */
	static const char new_issue[] =
	    "name: block_rq_issue\nID: 1\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\t"
	    "signed:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	    "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	    "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\t"
	    "signed:0;\n"
	    "\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n"
	    "\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\t"
	    "signed:0;\n"
	    "\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
	    "\tfield:char comm[16];\toffset:44;\tsize:16;\tsigned:0;\n"
	    "\tfield:__data_loc char[] cmd;\toffset:60;\tsize:4;\t"
	    "signed:0;\n\nprint fmt: \"%d,%d %s\"\n";
	/* 5.x: no ioprio, rwbs[8], complete has error */
	static const char old_complete[] =
	    "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	    "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	    "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\t"
	    "signed:0;\n"
	    "\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
	    "\tfield:char rwbs[8];\toffset:32;\tsize:8;\tsigned:0;\n"
	    "\tfield:__data_loc char[] cmd;\toffset:40;\tsize:4;\t"
	    "signed:0;\n";
	uint32_t off[IOT_BF__NR];

	(void)state;
	assert_int_equal(blk_parse_format(new_issue, off), 0);
	assert_int_equal(off[IOT_BF_DEV], 8);
	assert_int_equal(off[IOT_BF_SECTOR], 16);
	assert_int_equal(off[IOT_BF_NR_SECTOR], 24);
	assert_int_equal(off[IOT_BF_BYTES], 28);
	assert_int_equal(off[IOT_BF_ERROR], 0);
	assert_int_equal(off[IOT_BF_RWBS], 34);
	assert_int_equal(off[IOT_BF_RWBS_SIZE], 10);
	assert_int_equal(blk_parse_format(old_complete, off), 0);
	assert_int_equal(off[IOT_BF_ERROR], 28);
	assert_int_equal(off[IOT_BF_BYTES], 0);
	assert_int_equal(off[IOT_BF_RWBS], 32);
	assert_int_equal(off[IOT_BF_RWBS_SIZE], 8);
	/* no rwbs: not a layout the program can read */
	assert_int_equal(blk_parse_format("\tfield:dev_t dev;\toffset:8;\t"
					  "size:4;\n",
					  off),
			 -ENOTSUP);
	/* a sector of the wrong size is not taken */
	assert_int_equal(
	    blk_parse_format("\tfield:dev_t dev;\toffset:8;\tsize:4;\n"
			     "\tfield:sector_t sector;\toffset:16;\tsize:4;\n"
			     "\tfield:char rwbs[8];\toffset:32;\tsize:8;\n",
			     off),
	    -ENOTSUP);
}

/* A ring buffer record. */
static struct iot_blk rec(unsigned which, uint64_t ts, uint64_t sector,
			  uint32_t nr_sector, const char *rwbs)
{
	struct iot_blk b;

	memset(&b, 0, sizeof(b));
	b.kind = IOT_REC_BLK;
	b.which = which;
	b.ts_ns = ts;
	b.sector = sector;
	b.nr_sector = nr_sector;
	b.bytes = nr_sector * 512;
	snprintf(b.rwbs, sizeof(b.rwbs), "%s", rwbs);
	return b;
}

static void test_pairing(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct trace_writer w = {.fd = -1};
	struct trace_end end = {0};
	struct blk_tracker b;
	struct trace t = {0};
	struct trace_summary s;
	char path[256];
	struct iot_blk r[] = {
	    rec(IOT_BLK_INSERT, 1100, 8, 8, "W"),
	    rec(IOT_BLK_ISSUE, 1500, 8, 8, "W"),     /* depth 1 */
	    rec(IOT_BLK_ISSUE, 1600, 64, 16, "FWS"), /* depth 2 */
	    rec(IOT_BLK_ISSUE, 1700, 0, 0, "FF"),    /* depth 3 */
	    rec(IOT_BLK_COMPLETE, 2000, 64, 16, "FWS"),
	    rec(IOT_BLK_COMPLETE, 2100, ~0ull, 0, "FF"),
	    rec(IOT_BLK_COMPLETE, 2150, 64, 0, "FWS"), /* the flush's end */
	    rec(IOT_BLK_COMPLETE, 2200, 8, 8, "W"),
	    rec(IOT_BLK_COMPLETE, 2300, 99, 8, "R"), /* issued before */
	    rec(IOT_BLK_ISSUE, 2400, 128, 8, "R"),   /* never completes */
	};
	size_t i;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/iotrial-blk-test.%d", (int)getpid());
	assert_int_equal(trace_writer_open(&w, path, 1, &err), 0);
	blk_tracker_init(&b, &w, 1000);
	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		assert_int_equal(blk_tracker_event(&b, &r[i], &err), 0);
	assert_int_equal(blk_tracker_finish(&b, &err), 0);
	assert_int_equal(b.unpaired, 1);
	assert_int_equal(b.nr_events, 4);
	assert_int_equal(trace_writer_finish(&w, &end, &err), 0);
	trace_writer_release(&w);
	blk_tracker_release(&b);
	assert_int_equal(trace_read_file(path, &t, &err), 0);
	assert_int_equal(t.nr_events, 4);
	/* in the order they completed */
	assert_int_equal(t.events[0].op, TOP_BLK_WRITE);
	assert_int_equal(t.events[0].offset, 64 * 512);
	assert_int_equal(t.events[0].size, 8192);
	assert_int_equal(t.events[0].flags, TEV_PREFLUSH | TEV_SYNC);
	assert_int_equal(t.events[0].arg, 2);
	assert_int_equal(t.events[0].ts_ns, 600);
	assert_int_equal(t.events[0].dur_ns, 400);
	assert_int_equal(t.events[1].op, TOP_BLK_FLUSH);
	assert_int_equal(t.events[1].arg, 3);
	assert_int_equal(t.events[2].op, TOP_BLK_WRITE);
	assert_int_equal(t.events[2].offset, 4096);
	assert_int_equal(t.events[2].arg, 1);
	assert_int_equal(t.events[2].file2, 400); /* insert to issue */
	assert_int_equal(t.events[2].dur_ns, 700);
	assert_int_equal(t.events[3].op, TOP_BLK_READ);
	assert_int_equal(t.events[3].flags, TEV_UNDONE);
	trace_summarize(&t, &s);
	assert_int_equal(s.blk_depth_max, 3);
	assert_int_equal(s.blk_flush_writes, 1);
	assert_int_equal(s.bytes_written, 8192 + 4096);
	assert_int_equal(s.bytes_read, 0); /* the undone read moved none */
	trace_summary_release(&s);
	trace_release(&t);
	unlink(path);
	strbuf_release(&err);
}

/* A trace is written at the current minor, and one that says it is 1.0
 * cannot hold block requests. */
static void test_minor(void **state)
{
	struct strbuf err = STRBUF_INIT, data = STRBUF_INIT;
	struct trace t = {0}, r = {0};
	struct trace_event e = {.op = TOP_BLK_WRITE, .size = 4096, .fd = -1};
	char path[256];

	(void)state;
	snprintf(path, sizeof(path), "/tmp/iotrial-blk-minor.%d",
		 (int)getpid());
	t.events = &e;
	t.nr_events = 1;
	assert_int_equal(trace_write_file(&t, path, 1, &err), 0);
	t.events = NULL;
	t.nr_events = 0;
	assert_int_equal(strbuf_read_file(&data, path, 0), 0);
	assert_int_equal(trace_read_mem(data.buf, data.len, &r, &err), 0);
	assert_int_equal(r.version_minor, TRACE_VERSION_MINOR);
	trace_release(&r);
	memset(&r, 0, sizeof(r));
	data.buf[10] = 0; /* minor 0 */
	assert_int_equal(trace_read_mem(data.buf, data.len, &r, &err), -EINVAL);
	trace_release(&r);
	unlink(path);
	strbuf_release(&data);
	strbuf_release(&err);
}

/* One blk_io_trace record at p (48 bytes, then pdu bytes of zeros), in
 * little- or big-endian order; returns its length. */
static size_t bt_rec(unsigned char *p, int big, uint64_t ns, uint64_t sector,
		     uint32_t bytes, uint32_t action, uint32_t dev,
		     uint16_t error, uint16_t pdu)
{
	const struct {
		unsigned off, n;
		uint64_t v;
	} f[] = {
	    {0, 4, 0x65617407}, {4, 4, 1},	 {8, 8, ns},   {16, 8, sector},
	    {24, 4, bytes},	{28, 4, action}, {32, 4, 42},  {36, 4, dev},
	    {40, 4, 0},		{44, 2, error},	 {46, 2, pdu},
	};
	size_t i;
	unsigned k;

	memset(p, 0, 48 + pdu);
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		for (k = 0; k < f[i].n; k++)
			p[f[i].off + (big ? f[i].n - 1 - k : k)] =
			    (unsigned char)(f[i].v >> (8 * k));
	return 48 + pdu;
}

#define ACT(ta, tc) ((uint32_t)(ta) | ((uint32_t)(tc) << 16))

static void test_blkparse(void **state)
{
	static unsigned char buf[4096];
	uint32_t dev = 7u << 20 | 3, other = 8u << 20;
	struct strbuf err = STRBUF_INIT;
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct trace t = {0};
		uint64_t others;
		size_t n = 0;

		/* queue (skipped), insert, issue, complete of a sync write
		 * with FUA; a read with a cgroup payload; a flush; another
		 * device's issue */
		n += bt_rec(buf + n, big, 100, 8, 4096, ACT(1, 2 | 8), dev, 0,
			    0);
		n += bt_rec(buf + n, big, 150, 8, 4096, ACT(12, 2 | 8), dev, 0,
			    0);
		n += bt_rec(buf + n, big, 200, 8, 4096, ACT(7, 2 | 8 | 0x8000),
			    dev, 0, 0);
		n += bt_rec(buf + n, big, 300, 64, 8192, ACT(7 | 256, 1), dev,
			    0, 8);
		n += bt_rec(buf + n, big, 350, 0, 0, ACT(7, 4), dev, 0, 0);
		n += bt_rec(buf + n, big, 360, 5, 512, ACT(7, 1), other, 0, 0);
		n += bt_rec(buf + n, big, 400, 8, 4096, ACT(8, 2 | 8 | 0x8000),
			    dev, 0, 0);
		n += bt_rec(buf + n, big, 500, 64, 8192, ACT(8, 1), dev, 5, 0);
		n += bt_rec(buf + n, big, 600, 0, 0, ACT(8, 4), dev, 0, 0);
		assert_true(blkparse_detect(buf, n));
		assert_int_equal(blkparse_import(buf, n, &t, &others, &err), 0);
		assert_int_equal(others, 1);
		assert_int_equal(t.nr_events, 3);
		assert_int_equal(t.events[0].op, TOP_BLK_WRITE);
		assert_int_equal(t.events[0].flags, TEV_FUA | TEV_SYNC);
		assert_int_equal(t.events[0].offset, 4096);
		assert_int_equal(t.events[0].ts_ns, 200);
		assert_int_equal(t.events[0].dur_ns, 200);
		assert_int_equal(t.events[0].file2, 50);
		assert_int_equal(t.events[1].op, TOP_BLK_READ);
		assert_int_equal(t.events[1].size, 8192);
		assert_int_equal(t.events[1].ret, -5);
		assert_int_equal(t.events[1].arg, 2);
		assert_int_equal(t.events[2].op, TOP_BLK_FLUSH);
		assert_int_equal(t.events[2].arg, 3);
		assert_string_equal(trace_meta_get(&t, "block.dev"), "7:3");
		assert_string_equal(trace_meta_get(&t, "layer"), "block");
		trace_release(&t);
		/* a record cut short, a payload past the end, a bad magic */
		memset(&t, 0, sizeof(t));
		assert_int_equal(blkparse_import(buf, n - 1, &t, &others, &err),
				 -EINVAL);
		trace_release(&t);
		memset(&t, 0, sizeof(t));
		bt_rec(buf, big, 1, 1, 1, ACT(7, 1), dev, 0, 4000);
		assert_int_equal(blkparse_import(buf, 48, &t, &others, &err),
				 -EINVAL);
		trace_release(&t);
		memset(&t, 0, sizeof(t));
		bt_rec(buf, big, 1, 1, 1, ACT(7, 1), dev, 0, 0);
		buf[big ? 3 : 0] = 6; /* version 6 */
		assert_int_equal(blkparse_import(buf, 48, &t, &others, &err),
				 -EINVAL);
		trace_release(&t);
	}
	assert_false(blkparse_detect("IOTRACE\n", 8));
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rwbs),     cmocka_unit_test(test_format),
	    cmocka_unit_test(test_pairing),  cmocka_unit_test(test_minor),
	    cmocka_unit_test(test_blkparse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
