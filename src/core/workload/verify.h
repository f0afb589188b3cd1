/*
 * Data verification (--verify=crc32c): every block a workload writes
 * carries a header saying what it is (file, offset, the run's seed, a
 * write sequence number) and a crc32c over the rest of the block, so a
 * read can tell a block that is the last one written there from a lost,
 * stale, misplaced or corrupted one.
 *
 * Block layout, little-endian:
 *   0 magic "IOV1"   4 crc32c of bytes 8..len   8 file_id   16 offset
 *   24 seed   32 seq   40 len   44 zero   48.. payload
 * The payload is a pure function of the header fields (a splitmix64
 * stream), so a mismatch can be located to its first wrong byte.
 *
 * The latest-write rule: a block may be written many times (random
 * offsets, a sequential writer wrapping around). A struct verify_job
 * keeps, per block of its region, the sequence number of the last write
 * submitted there, and the read-back expects exactly that one. Two I/Os
 * in flight on the same block would leave either on disk (or a torn
 * mix), so verify_pick() never issues an I/O to a block that already has
 * one in flight: it moves to the next free block instead.
 */
#ifndef IOTRIAL_VERIFY_H
#define IOTRIAL_VERIFY_H

#include <stdint.h>
#include "../engine/engine.h"
#include "../result/result.h"
#include "../../util/strbuf.h"

#define VERIFY_HDR_BYTES 48u
/* Per-block tracking costs 4 bytes a block; more blocks are refused. */
#define VERIFY_MAX_BLOCKS (1ull << 28)

/*
 * --verify's rules for a workload: it must write (writes), and a block
 * (bs bytes) must hold the header. 0, or -EINVAL with err set.
 */
int verify_validate(const char *workload, int writes, uint64_t bs,
		    struct strbuf *err);
/*
 * A job's region of nr_blocks blocks can be tracked, and holds more
 * blocks than it has I/Os in flight (see verify_pick()). 0, or -EINVAL
 * with err set.
 */
int verify_region_check(uint64_t nr_blocks, unsigned iodepth,
			struct strbuf *err);

/* Write the block of len bytes (>= VERIFY_HDR_BYTES) h describes. */
void verify_fill(void *buf, uint32_t len, const struct run_verify_hdr *h);

/* What a read found in place of a block. */
struct verify_found {
	struct run_verify_hdr hdr; /* decoded even when wrong */
	int magic_ok;
	int crc_ok;
};

/*
 * Check the block of len bytes in buf against want: 1 when it is exactly
 * the block verify_fill(want) wrote (magic, crc, every field), else 0.
 * found (may be NULL) receives what was there.
 */
int verify_check(const void *buf, uint32_t len,
		 const struct run_verify_hdr *want, struct verify_found *found);

/* The offset in buf of the first byte that differs from the block
 * verify_fill(want) writes; len if none does. */
uint32_t verify_first_diff(const void *buf, uint32_t len,
			   const struct run_verify_hdr *want);

/* Per job (one file or device region): what was written where. */
struct verify_job {
	uint32_t *seq;	/* per block: last write's seq (0: none)
			   | VERIFY_INFLIGHT while an I/O is out */
	uint32_t *prev; /* per request (buf_idx): seq[] before
			   verify_pick(), for verify_unpick() */
	uint64_t nr_blocks;
	uint64_t base_bytes; /* region start in the file */
	uint32_t bs;	     /* block size */
	uint64_t file_id, seed;
	uint32_t next_seq; /* the last sequence number given out */
	uint64_t blocks;   /* checked */
	uint64_t mismatches;
	uint64_t cpu_ns;	 /* fill, crc and check time */
	uint64_t readback_ns;	 /* the read-back pass, wall clock */
	struct run_verify first; /* the first mismatch (have_first) */
};

void verify_job_init(struct verify_job *v, uint64_t file_id, uint64_t seed,
		     uint64_t base_bytes, uint64_t region_bytes, uint32_t bs,
		     unsigned nr_reqs);
/* Free contents; NULL is fine. */
void verify_job_release(struct verify_job *v);

/*
 * Before req is submitted (its offset and direction chosen): move it to
 * the next block with no I/O in flight (the region must have more blocks
 * than requests), mark that block busy, and for a write fill req->buf
 * with the block under a new sequence number, which becomes the one the
 * block must hold.
 */
void verify_pick(struct verify_job *v, struct io_req *req);
/* req was picked but not submitted: forget the pick. */
void verify_unpick(struct verify_job *v, const struct io_req *req);
/* req completed (ok: it moved all its bytes): the block is free again;
 * a read of a block written in this run is checked. */
void verify_complete(struct verify_job *v, const struct io_req *req, int ok,
		     const char *path);

/*
 * The read-back pass over fd (open with the workload's direct/buffered
 * mode): fsync, drop the region from the page cache, read every block
 * written in this run and check it. A test hook runs in between (see
 * iotrial(1), IOTRIAL_TEST_VERIFY_HOOK). 0, or -errno with err set when
 * the file cannot be flushed or read; mismatches are tallied, not errors.
 */
int verify_readback(struct verify_job *v, int fd, const char *path,
		    struct strbuf *err);

/*
 * Whole files (smallfiles): a file of size bytes (>= VERIFY_HDR_BYTES) is
 * cut into blocks of VERIFY_FILE_BLOCK_BYTES from offset 0; the last
 * block takes the rest, and a rest shorter than the header joins the
 * block before it. A struct verify_job for files has no region
 * (verify_job_init() with region_bytes 0): its caller knows each file's
 * latest write.
 */
#define VERIFY_FILE_BLOCK_BYTES 4096u
uint64_t verify_file_blocks(uint64_t size_bytes);
/* The length of block k of the file. */
uint32_t verify_file_block_len(uint64_t size_bytes, uint64_t k);
/* How many blocks from block k fit in cap bytes (at least one, which
 * cap must hold); *bytes gets their length. */
uint64_t verify_file_span(uint64_t size_bytes, uint64_t k, size_t cap,
			  size_t *bytes);
/* Fill buf with n blocks of the file from block k, each block's header
 * h with its own offset. */
void verify_file_fill(struct verify_job *v, void *buf, uint64_t size_bytes,
		      uint64_t k, uint64_t n, const struct run_verify_hdr *h);
/* Check n blocks of the file from block k in buf against h (offsets
 * set per block); path names the file; in_read: a workload read. */
void verify_file_check(struct verify_job *v, const void *buf,
		       uint64_t size_bytes, uint64_t k, uint64_t n,
		       const struct run_verify_hdr *h, const char *path,
		       int in_read);
/* Run the test hook on path (see verify_readback()); 0 or -errno. */
int verify_test_hook(const struct verify_job *v, const char *path,
		     struct strbuf *err);

/* Add v's tallies to *out (made on first use): its first mismatch
 * becomes out's if out has none yet. */
void verify_merge(const struct verify_job *v, struct run_verify **out);

#endif
