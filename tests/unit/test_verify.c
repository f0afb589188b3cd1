/*
 * Tests for workload/verify: a block encodes and checks back; a changed
 * byte anywhere (payload, header, crc) fails the check and is located;
 * a stale block (an older write) fails on its sequence number with a
 * good crc; the per-block record keeps the latest write, never issues
 * two I/Os to one block, and forgets an unsubmitted pick; the read-back
 * pass over a real file finds exactly the block a test damaged.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/workload/verify.h"
#include "util/crc32c.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const struct run_verify_hdr H = {3, 8192, 12345, 7};

static void test_fill_check(void **state)
{
	static const uint32_t lens[] = {VERIFY_HDR_BYTES, 49, 512, 4096, 4099};
	struct verify_found f;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		unsigned char *b = xmalloc(lens[i]);

		verify_fill(b, lens[i], &H);
		assert_memory_equal(b, "IOV1", 4);
		assert_true(verify_check(b, lens[i], &H, &f));
		assert_true(f.magic_ok && f.crc_ok);
		assert_int_equal(f.hdr.file_id, 3);
		assert_int_equal(f.hdr.offset_bytes, 8192);
		assert_int_equal(f.hdr.seed, 12345);
		assert_int_equal(f.hdr.seq, 7);
		assert_int_equal(verify_first_diff(b, lens[i], &H), lens[i]);
		free(b);
	}
}

/* Flip each byte in turn: every one is caught and located. */
static void test_every_byte_counts(void **state)
{
	unsigned char b[512];
	struct verify_found f;
	uint32_t i;

	(void)state;
	verify_fill(b, sizeof(b), &H);
	for (i = 0; i < sizeof(b); i++) {
		b[i] ^= 0x10;
		assert_false(verify_check(b, sizeof(b), &H, &f));
		assert_int_equal(verify_first_diff(b, sizeof(b), &H), i);
		if (i >= VERIFY_HDR_BYTES)
			assert_true(f.magic_ok && !f.crc_ok);
		b[i] ^= 0x10;
	}
	/* a changed offset field reads back as that offset */
	b[16] ^= 1;
	assert_false(verify_check(b, sizeof(b), &H, &f));
	assert_int_equal(f.hdr.offset_bytes, 8193);
	assert_false(f.crc_ok);
}

/* An older write of the same block: intact, but not the latest. */
static void test_stale(void **state)
{
	struct run_verify_hdr old = H, other = H;
	unsigned char b[4096];
	struct verify_found f;

	(void)state;
	old.seq = 6;
	verify_fill(b, sizeof(b), &old);
	assert_false(verify_check(b, sizeof(b), &H, &f));
	assert_true(f.magic_ok && f.crc_ok);
	assert_int_equal(f.hdr.seq, 6);
	/* the crc field differs first, before the seq */
	assert_int_equal(verify_first_diff(b, sizeof(b), &H), 4);
	other.seed = 1; /* another run's block */
	verify_fill(b, sizeof(b), &other);
	assert_false(verify_check(b, sizeof(b), &H, NULL));
	memset(b, 0, sizeof(b)); /* never written */
	assert_false(verify_check(b, sizeof(b), &H, &f));
	assert_false(f.magic_ok);
}

static void test_rules(void **state)
{
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(verify_validate("seqwrite", 1, 47, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "48-byte header"));
	strbuf_reset(&err);
	assert_int_equal(verify_validate("seqwrite", 1, 48, &err), 0);
	assert_int_equal(verify_validate("seqread", 0, 4096, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "'seqread' only reads"));
	strbuf_reset(&err);
	assert_int_equal(verify_region_check(4, 4, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "iodepth 4"));
	assert_int_equal(verify_region_check(5, 4, &err), 0);
	assert_int_equal(verify_region_check(VERIFY_MAX_BLOCKS + 1, 1, &err),
			 -EINVAL);
	strbuf_release(&err);
}

/* A request on buffer idx at offset off in direction dir. */
static void req_at(struct io_req *r, void *buf, uint16_t idx, uint64_t off,
		   int dir)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->buf_idx = idx;
	r->offset_bytes = off;
	r->len_bytes = 512;
	r->dir = (uint8_t)dir;
	r->result = 512;
}

/* The disk, in memory: what a completed write leaves. */
static unsigned char disk[4 * 512];

static void complete(struct verify_job *v, struct io_req *r)
{
	if (r->dir == IO_WRITE)
		memcpy(disk + r->offset_bytes, r->buf, 512);
	else
		memcpy(r->buf, disk + r->offset_bytes, 512);
	verify_complete(v, r, 1, "mem");
}

static void test_latest_write(void **state)
{
	static unsigned char b0[512], b1[512];
	struct verify_job v;
	struct io_req r0, r1;

	(void)state;
	memset(disk, 0, sizeof(disk));
	verify_job_init(&v, 0, 99, 0, sizeof(disk), 512, 2);
	/* block 1 written twice: the second write is the one expected */
	req_at(&r0, b0, 0, 512, IO_WRITE);
	verify_pick(&v, &r0);
	complete(&v, &r0);
	req_at(&r0, b0, 0, 512, IO_WRITE);
	verify_pick(&v, &r0);
	assert_int_equal(r0.offset_bytes, 512);
	/* in flight there: a second I/O goes to the next block */
	req_at(&r1, b1, 1, 512, IO_WRITE);
	verify_pick(&v, &r1);
	assert_int_equal(r1.offset_bytes, 1024);
	complete(&v, &r0);
	/* r1 was not submitted after all: block 2 stays unwritten */
	verify_unpick(&v, &r1);
	/* a read of block 1 checks the second write: fine */
	req_at(&r1, b1, 1, 512, IO_READ);
	verify_pick(&v, &r1);
	complete(&v, &r1);
	assert_int_equal(v.blocks, 1);
	assert_int_equal(v.mismatches, 0);
	/* a read of a block never written in this run is not checked */
	req_at(&r1, b1, 1, 1024, IO_READ);
	verify_pick(&v, &r1);
	complete(&v, &r1);
	assert_int_equal(v.blocks, 1);
	/* the first write's block put back (a lost write): caught */
	memcpy(b0, disk + 512, 512);
	{
		struct run_verify_hdr h = {0, 512, 99, 1};

		verify_fill(disk + 512, 512, &h);
	}
	req_at(&r1, b1, 1, 512, IO_READ);
	verify_pick(&v, &r1);
	complete(&v, &r1);
	assert_int_equal(v.mismatches, 1);
	assert_true(v.first.have_first && v.first.in_read);
	assert_int_equal(v.first.want.seq, 2);
	assert_int_equal(v.first.found.seq, 1);
	assert_true(v.first.crc_ok);
	verify_job_release(&v);
}

/* The read-back pass over a file: clean, then one byte changed. */
static void test_readback(void **state)
{
	char path[] = "/tmp/iotrial-test-verify.XXXXXX";
	unsigned char *buf = xalloc_aligned(4096, 4096);
	struct strbuf err = STRBUF_INIT;
	struct run_verify *sum = NULL;
	struct verify_job v;
	struct io_req r;
	unsigned char x;
	int fd = mkstemp(path);
	unsigned i;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	verify_job_init(&v, 1, 5, 0, 64 * 4096, 4096, 1);
	/* blocks 0..9 and 20..29 (block 5 twice), the rest unwritten */
	for (i = 0; i < 21; i++) {
		uint64_t b = i < 10 ? i : i == 20 ? 5 : i + 10;

		memset(&r, 0, sizeof(r));
		r.buf = buf;
		r.offset_bytes = b * 4096;
		r.len_bytes = 4096;
		r.dir = IO_WRITE;
		verify_pick(&v, &r);
		assert_int_equal(pwrite(fd, buf, 4096, (off_t)r.offset_bytes),
				 4096);
		r.result = 4096;
		verify_complete(&v, &r, 1, path);
	}
	assert_int_equal(verify_readback(&v, fd, path, &err), 0);
	assert_int_equal(v.blocks, 20);
	assert_int_equal(v.mismatches, 0);
	assert_true(pread(fd, &x, 1, 22 * 4096 + 100) == 1);
	x ^= 0xff;
	assert_true(pwrite(fd, &x, 1, 22 * 4096 + 100) == 1);
	assert_int_equal(verify_readback(&v, fd, path, &err), 0);
	assert_int_equal(v.blocks, 40);
	assert_int_equal(v.mismatches, 1);
	verify_merge(&v, &sum);
	assert_int_equal(sum->mismatches, 1);
	assert_int_equal(sum->offset_bytes, 22 * 4096);
	assert_int_equal(sum->bad_byte, 22 * 4096 + 100);
	assert_false(sum->crc_ok);
	assert_false(sum->in_read);
	assert_string_equal(sum->file, path);
	strbuf_reset(&err);
	run_verify_describe(sum, &err);
	assert_non_null(strstr(err.buf, "block at offset 90112"));
	assert_non_null(strstr(err.buf, "first bad byte at offset 90212"));
	assert_non_null(strstr(err.buf, "crc32c failed"));
	free(sum->file);
	free(sum);
	verify_job_release(&v);
	close(fd);
	free(buf);
	strbuf_release(&err);
}

/* A file's blocks: 4k each, the last takes the rest, a rest shorter than
 * the header joins the block before; spans stop at the buffer. */
static void test_file_blocks(void **state)
{
	static unsigned char buf[3 * 4096 + 47];
	struct run_verify_hdr h = {9, 0, 1, 2};
	struct verify_job v;
	size_t bytes;

	(void)state;
	assert_int_equal(verify_file_blocks(48), 1);
	assert_int_equal(verify_file_block_len(48, 0), 48);
	assert_int_equal(verify_file_blocks(4096), 1);
	assert_int_equal(verify_file_blocks(4096 + 47), 1);
	assert_int_equal(verify_file_block_len(4096 + 47, 0), 4096 + 47);
	assert_int_equal(verify_file_blocks(4096 + 48), 2);
	assert_int_equal(verify_file_block_len(4096 + 48, 1), 48);
	assert_int_equal(verify_file_span(3 * 4096 + 47, 0, 8192, &bytes), 2);
	assert_int_equal(bytes, 8192);
	assert_int_equal(verify_file_span(3 * 4096 + 47, 2, 100, &bytes), 1);
	assert_int_equal(bytes, 4096 + 47);
	verify_job_init(&v, 0, 1, 0, 0, VERIFY_FILE_BLOCK_BYTES, 1);
	verify_file_fill(&v, buf, sizeof(buf), 0, 3, &h);
	verify_file_check(&v, buf, sizeof(buf), 0, 3, &h, "f", 1);
	assert_int_equal(v.blocks, 3);
	assert_int_equal(v.mismatches, 0);
	buf[2 * 4096 + 4096 + 10] ^= 1; /* in the tail of the last block */
	verify_file_check(&v, buf, sizeof(buf), 0, 3, &h, "f", 1);
	assert_int_equal(v.mismatches, 1);
	assert_int_equal(v.first.offset_bytes, 8192);
	assert_int_equal(v.first.bad_byte, 3 * 4096 + 10);
	verify_job_release(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fill_check),
	    cmocka_unit_test(test_every_byte_counts),
	    cmocka_unit_test(test_stale),
	    cmocka_unit_test(test_rules),
	    cmocka_unit_test(test_latest_write),
	    cmocka_unit_test(test_readback),
	    cmocka_unit_test(test_file_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
