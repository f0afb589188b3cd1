/*
 * Data verification: headers, payloads, checks, the per-block record of
 * the latest write, and the read-back pass. See verify.h for the layout
 * and the latest-write rule.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "verify.h"
#include "../../util/clock.h"
#include "../../util/crc32c.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define VERIFY_MAGIC	   0x31564f49u /* "IOV1" in little-endian bytes */
#define VERIFY_INFLIGHT	   0x80000000u /* seq[] flag: an I/O is out */
#define VERIFY_CHUNK_BYTES (1u << 20)  /* read-back reads up to this */

extern char **environ;

static void put32(unsigned char *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, 8);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* The splitmix64 start of the payload of the block h describes. */
static uint64_t payload_state(const struct run_verify_hdr *h)
{
	return h->seed ^ (h->file_id * 0x9e3779b97f4a7c15ull) ^
	       (h->offset_bytes * 0xbf58476d1ce4e5b9ull) ^
	       (h->seq * 0x94d049bb133111ebull);
}

static uint64_t splitmix_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The header of h (crc left zero) into its first VERIFY_HDR_BYTES. */
static void header_put(unsigned char *p, uint32_t len,
		       const struct run_verify_hdr *h)
{
	put32(p, VERIFY_MAGIC);
	put32(p + 4, 0);
	put64(p + 8, h->file_id);
	put64(p + 16, h->offset_bytes);
	put64(p + 24, h->seed);
	put64(p + 32, h->seq);
	put32(p + 40, len);
	put32(p + 44, 0);
}

/* The payload of h into p[VERIFY_HDR_BYTES, len). */
static void payload_put(unsigned char *p, uint32_t len,
			const struct run_verify_hdr *h)
{
	uint64_t x = payload_state(h);
	uint32_t i;

	for (i = VERIFY_HDR_BYTES; i + 8 <= len; i += 8)
		put64(p + i, splitmix_next(&x));
	if (i < len) {
		unsigned char tail[8];

		put64(tail, splitmix_next(&x));
		memcpy(p + i, tail, len - i);
	}
}

void verify_fill(void *buf, uint32_t len, const struct run_verify_hdr *h)
{
	unsigned char *p = buf;

	header_put(p, len, h);
	payload_put(p, len, h);
	put32(p + 4, crc32c(0, p + 8, len - 8));
}

int verify_check(const void *buf, uint32_t len,
		 const struct run_verify_hdr *want, struct verify_found *found)
{
	const unsigned char *p = buf;
	struct verify_found f;

	f.magic_ok = get32(p) == VERIFY_MAGIC && get32(p + 40) == len;
	f.crc_ok = get32(p + 4) == crc32c(0, p + 8, len - 8);
	f.hdr.file_id = get64(p + 8);
	f.hdr.offset_bytes = get64(p + 16);
	f.hdr.seed = get64(p + 24);
	f.hdr.seq = get64(p + 32);
	if (found)
		*found = f;
	return f.magic_ok && f.crc_ok && f.hdr.file_id == want->file_id &&
	       f.hdr.offset_bytes == want->offset_bytes &&
	       f.hdr.seed == want->seed && f.hdr.seq == want->seq;
}

uint32_t verify_first_diff(const void *buf, uint32_t len,
			   const struct run_verify_hdr *want)
{
	unsigned char *good = xmalloc(len);
	const unsigned char *p = buf;
	uint32_t i;

	verify_fill(good, len, want);
	for (i = 0; i < len && p[i] == good[i]; i++)
		;
	free(good);
	return i;
}

int verify_validate(const char *workload, int writes, uint64_t bs,
		    struct strbuf *err)
{
	if (!writes)
		return err_set(err, -EINVAL,
			       "'verify' checks written data; '%s' only "
			       "reads",
			       workload);
	if (bs < VERIFY_HDR_BYTES)
		return err_set(err, -EINVAL,
			       "bs %llu is smaller than the %u-byte header "
			       "'verify' puts in every block; use --bs=%u or "
			       "more",
			       (unsigned long long)bs, VERIFY_HDR_BYTES,
			       VERIFY_HDR_BYTES);
	return 0;
}

int verify_region_check(uint64_t nr_blocks, unsigned iodepth,
			struct strbuf *err)
{
	if (nr_blocks > VERIFY_MAX_BLOCKS)
		return err_set(err, -EINVAL,
			       "'verify' tracks every block of a job's "
			       "region and %llu blocks are too many (at most "
			       "%llu); lower --size or raise --bs",
			       (unsigned long long)nr_blocks,
			       (unsigned long long)VERIFY_MAX_BLOCKS);
	if (nr_blocks <= iodepth)
		return err_set(err, -EINVAL,
			       "'verify' needs more blocks per job (%llu) "
			       "than I/Os in flight (iodepth %u), so that no "
			       "two I/Os in flight touch one block; raise "
			       "--size or lower --iodepth",
			       (unsigned long long)nr_blocks, iodepth);
	return 0;
}

void verify_job_init(struct verify_job *v, uint64_t file_id, uint64_t seed,
		     uint64_t base_bytes, uint64_t region_bytes, uint32_t bs,
		     unsigned nr_reqs)
{
	memset(v, 0, sizeof(*v));
	v->file_id = file_id;
	v->seed = seed;
	v->base_bytes = base_bytes;
	v->bs = bs;
	v->nr_blocks = region_bytes / bs;
	v->seq = xcalloc(v->nr_blocks ? v->nr_blocks : 1, sizeof(*v->seq));
	v->prev = xcalloc(nr_reqs ? nr_reqs : 1, sizeof(*v->prev));
}

void verify_job_release(struct verify_job *v)
{
	if (!v)
		return;
	free(v->seq);
	free(v->prev);
	free(v->first.file);
	memset(v, 0, sizeof(*v));
}

static uint64_t block_of(const struct verify_job *v, uint64_t offset_bytes)
{
	return (offset_bytes - v->base_bytes) / v->bs;
}

void verify_pick(struct verify_job *v, struct io_req *req)
{
	uint64_t b = block_of(v, req->offset_bytes);
	uint64_t t0 = clock_now_ns();

	/* a block with an I/O out: the next free one (one always is) */
	while (v->seq[b] & VERIFY_INFLIGHT)
		b = b + 1 == v->nr_blocks ? 0 : b + 1;
	req->offset_bytes = v->base_bytes + b * v->bs;
	v->prev[req->buf_idx] = v->seq[b];
	v->seq[b] |= VERIFY_INFLIGHT;
	if (req->dir == IO_WRITE) {
		struct run_verify_hdr h = {v->file_id, req->offset_bytes,
					   v->seed, 0};

		/* 2^31 writes per job before the flag bit: never wraps in
		 * practice, and a wrap would show as a mismatch, not pass */
		v->next_seq = (v->next_seq + 1) & ~VERIFY_INFLIGHT;
		h.seq = v->next_seq;
		verify_fill(req->buf, req->len_bytes, &h);
		v->seq[b] = v->next_seq | VERIFY_INFLIGHT;
	}
	v->cpu_ns += clock_now_ns() - t0;
}

void verify_unpick(struct verify_job *v, const struct io_req *req)
{
	v->seq[block_of(v, req->offset_bytes)] = v->prev[req->buf_idx];
}

/* Check one block at file offset offset_bytes; tally and keep the first
 * mismatch. */
static void check_one(struct verify_job *v, const void *buf, uint32_t len,
		      const struct run_verify_hdr *h, const char *path,
		      int in_read)
{
	struct run_verify_hdr want = *h;
	struct verify_found f;
	struct run_verify *m = &v->first;
	uint64_t offset_bytes = h->offset_bytes;
	uint32_t at;

	v->blocks++;
	if (verify_check(buf, len, &want, &f))
		return;
	if (v->mismatches++)
		return;
	at = verify_first_diff(buf, len, &want);
	m->have_first = 1;
	m->file = xstrdup(path);
	m->offset_bytes = offset_bytes;
	m->bad_byte = at < len ? offset_bytes + at : UINT64_MAX;
	m->magic_ok = f.magic_ok;
	m->crc_ok = f.crc_ok;
	m->in_read = in_read;
	m->want = want;
	m->found = f.hdr;
}

static void check_block(struct verify_job *v, const void *buf,
			uint64_t offset_bytes, uint32_t seq, const char *path,
			int in_read)
{
	struct run_verify_hdr want = {v->file_id, offset_bytes, v->seed, seq};

	check_one(v, buf, v->bs, &want, path, in_read);
}

void verify_complete(struct verify_job *v, const struct io_req *req, int ok,
		     const char *path)
{
	uint32_t *s = &v->seq[block_of(v, req->offset_bytes)];
	uint64_t t0;

	*s &= ~VERIFY_INFLIGHT;
	if (req->dir != IO_READ || !ok || !*s)
		return;
	t0 = clock_now_ns();
	check_block(v, req->buf, req->offset_bytes, *s, path, 1);
	v->cpu_ns += clock_now_ns() - t0;
}

/*
 * The test hook: IOTRIAL_TEST_VERIFY_HOOK, a shell command run between
 * the flush and the read-back of each file with IOTRIAL_VERIFY_FILE and
 * IOTRIAL_VERIFY_FILE_ID set, so a test can damage a block on the disk
 * and see the read-back report it. 0 when unset or it exits 0.
 */
int verify_test_hook(const struct verify_job *v, const char *path,
		     struct strbuf *err)
{
	const char *cmd = getenv("IOTRIAL_TEST_VERIFY_HOOK");
	struct strbuf file = STRBUF_INIT, id = STRBUF_INIT;
	char *argv[] = {"sh", "-c", NULL, NULL};
	size_t n = 0, i;
	char **envp;
	int status = 0, ret = 0;
	pid_t pid;

	if (!cmd || !*cmd)
		return 0;
	while (environ[n])
		n++;
	envp = xcalloc(n + 3, sizeof(*envp));
	for (i = 0; i < n; i++)
		envp[i] = environ[i];
	strbuf_addf(&file, "IOTRIAL_VERIFY_FILE=%s", path);
	strbuf_addf(&id, "IOTRIAL_VERIFY_FILE_ID=%llu",
		    (unsigned long long)v->file_id);
	envp[n] = file.buf;
	envp[n + 1] = id.buf;
	argv[2] = (char *)cmd;
	pid = fork();
	if (pid == 0) {
		execve("/bin/sh", argv, envp);
		_exit(127);
	}
	if (pid < 0)
		ret =
		    err_set(err, -errno, "cannot run the verify test hook: %s",
			    strerror(errno));
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status)))
		ret = err_set(err, -EIO,
			      "the verify test hook "
			      "'IOTRIAL_TEST_VERIFY_HOOK' failed (wait status "
			      "%d)",
			      status);
	free(envp);
	strbuf_release(&file);
	strbuf_release(&id);
	return ret;
}

/* Read n blocks from block b into buf, whole; 0 or -errno. */
static int read_blocks(const struct verify_job *v, int fd, void *buf,
		       uint64_t b, uint64_t n)
{
	size_t want = (size_t)(n * v->bs), done = 0;
	off_t off = (off_t)(v->base_bytes + b * v->bs);

	while (done < want) {
		ssize_t got = pread(fd, (char *)buf + done, want - done,
				    off + (off_t)done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			return -ENODATA;
		done += (size_t)got;
	}
	return 0;
}

int verify_readback(struct verify_job *v, int fd, const char *path,
		    struct strbuf *err)
{
	uint64_t t0 = clock_now_ns(), per = VERIFY_CHUNK_BYTES / v->bs, b = 0;
	void *buf;
	int ret = 0;

	if (!per)
		per = 1;
	if (fsync(fd) < 0)
		return err_set(err, -errno,
			       "cannot flush '%s' before verifying it: %s",
			       path, strerror(errno));
	ret = verify_test_hook(v, path, err);
	if (ret)
		return ret;
	/* what the hook wrote, and then nothing cached: read the disk */
	if (fsync(fd) < 0)
		return err_set(err, -errno, "cannot flush '%s': %s", path,
			       strerror(errno));
	posix_fadvise(fd, (off_t)v->base_bytes, (off_t)(v->nr_blocks * v->bs),
		      POSIX_FADV_DONTNEED);
	buf = xalloc_aligned(4096, (size_t)(per * v->bs));
	while (b < v->nr_blocks) {
		uint64_t n = 0, i, c0;

		if (!v->seq[b]) {
			b++;
			continue;
		}
		/* a run of written blocks, up to a chunk */
		while (n < per && b + n < v->nr_blocks && v->seq[b + n])
			n++;
		ret = read_blocks(v, fd, buf, b, n);
		if (ret) {
			ret = err_set(
			    err, ret,
			    "cannot read back '%s' at offset %llu "
			    "to verify it: %s",
			    path,
			    (unsigned long long)(v->base_bytes + b * v->bs),
			    ret == -ENODATA ? "the file is shorter"
					    : strerror(-ret));
			break;
		}
		c0 = clock_now_ns();
		for (i = 0; i < n; i++)
			check_block(v, (char *)buf + i * v->bs,
				    v->base_bytes + (b + i) * v->bs,
				    v->seq[b + i], path, 0);
		v->cpu_ns += clock_now_ns() - c0;
		b += n;
	}
	free(buf);
	v->readback_ns += clock_now_ns() - t0;
	return ret;
}

uint64_t verify_file_blocks(uint64_t size_bytes)
{
	uint64_t n = size_bytes / VERIFY_FILE_BLOCK_BYTES;

	if (!n || size_bytes % VERIFY_FILE_BLOCK_BYTES >= VERIFY_HDR_BYTES)
		n++;
	return n;
}

uint32_t verify_file_block_len(uint64_t size_bytes, uint64_t k)
{
	if (k + 1 < verify_file_blocks(size_bytes))
		return VERIFY_FILE_BLOCK_BYTES;
	return (uint32_t)(size_bytes - k * VERIFY_FILE_BLOCK_BYTES);
}

uint64_t verify_file_span(uint64_t size_bytes, uint64_t k, size_t cap,
			  size_t *bytes)
{
	uint64_t nb = verify_file_blocks(size_bytes), n = 0;
	size_t sum = 0;

	while (k + n < nb) {
		uint32_t len = verify_file_block_len(size_bytes, k + n);

		if (n && sum + len > cap)
			break;
		sum += len;
		n++;
	}
	*bytes = sum;
	return n;
}

void verify_file_fill(struct verify_job *v, void *buf, uint64_t size_bytes,
		      uint64_t k, uint64_t n, const struct run_verify_hdr *h)
{
	struct run_verify_hdr b = *h;
	uint64_t t0 = clock_now_ns(), i;
	char *p = buf;

	for (i = k; i < k + n; i++) {
		uint32_t len = verify_file_block_len(size_bytes, i);

		b.offset_bytes = i * VERIFY_FILE_BLOCK_BYTES;
		verify_fill(p, len, &b);
		p += len;
	}
	v->cpu_ns += clock_now_ns() - t0;
}

void verify_file_check(struct verify_job *v, const void *buf,
		       uint64_t size_bytes, uint64_t k, uint64_t n,
		       const struct run_verify_hdr *h, const char *path,
		       int in_read)
{
	struct run_verify_hdr b = *h;
	uint64_t t0 = clock_now_ns(), i;
	const char *p = buf;

	for (i = k; i < k + n; i++) {
		uint32_t len = verify_file_block_len(size_bytes, i);

		b.offset_bytes = i * VERIFY_FILE_BLOCK_BYTES;
		check_one(v, p, len, &b, path, in_read);
		p += len;
	}
	v->cpu_ns += clock_now_ns() - t0;
}

void verify_merge(const struct verify_job *v, struct run_verify **out)
{
	struct run_verify *r = *out;

	if (!r) {
		r = *out = xcalloc(1, sizeof(*r));
		r->method = "crc32c";
		r->bad_byte = UINT64_MAX;
	}
	r->blocks += v->blocks;
	r->mismatches += v->mismatches;
	r->cpu_s += (double)v->cpu_ns / 1e9;
	r->readback_s += (double)v->readback_ns / 1e9;
	if (!r->have_first && v->first.have_first) {
		struct run_verify sum = *r;

		*r = v->first;
		r->file = xstrdup(v->first.file);
		r->method = sum.method;
		r->blocks = sum.blocks;
		r->mismatches = sum.mismatches;
		r->cpu_s = sum.cpu_s;
		r->readback_s = sum.readback_s;
	}
}
